"""`varroom still`: a broadcast still and its marks judged, printed, and drawn on request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
import numpy as np
import numpy.typing as npt

from varroom.cli.options import (
    FILE,
    json_option,
    output_option,
    path_option,
    policy_option,
    profile_option,
)
from varroom.errors import InputError
from varroom.output_file import FIGURE_SUFFIXES
from varroom.profiles import Profile
from varroom.profiles.judging import judge_still_marks, with_policy

if TYPE_CHECKING:
    from varroom.still.judge import StillVerdict
    from varroom.still.marks import StillMarks


@click.command()
@click.argument("image", type=FILE)
@path_option(
    "--marks", FILE, "The marks on it: landmarks and players, in pixels (JSON).", required=True
)
@json_option("Print the verdict as one JSON object.")
@output_option(
    "--image",
    FIGURE_SUFFIXES,
    "Write the still with the true offside line drawn on it (.png, .jpg, .svg or .pdf).",
    dest="out",
)
@profile_option
@policy_option
def still(
    image: Path,
    marks: Path,
    as_json: bool,
    out: Path | None,
    profile: Profile,
    policy_text: str | None,
) -> None:
    """Judge the moment a broadcast still IMAGE shows, from the marks on it (docs/still.md)."""
    from varroom.still.marks import load_marks

    profile = with_policy(profile, policy_text)
    pixels = _read_still(image) if out is not None else None
    size = (pixels.shape[1], pixels.shape[0]) if pixels is not None else _still_size(image)
    case = load_marks(marks, size)
    result = judge_still_marks(case, profile)
    if as_json:
        click.echo(json.dumps({**result.to_dict(), "profile": profile.stamp()}, ensure_ascii=False))
    else:
        print_still(case, result)
        click.echo(f"Profile: {profile.label}.")
    if out is not None:
        from varroom.pictures.still import write_still_png

        write_still_png(result, pixels, out)


def headline(result: StillVerdict) -> str:
    """The call as the verdict's title says it."""
    from varroom.cli.terminal import headline as situation_headline

    return situation_headline(result.verdict)


def print_still(marks: StillMarks, result: StillVerdict) -> None:
    """The still's verdict for a person at a terminal, and the camera it rests on."""
    from varroom.cli.terminal import print_verdict
    from varroom.still.calibrate import Method

    print_verdict(result.situation, result.verdict)
    calibration = result.calibration
    fitted = "a full camera" if calibration.method is Method.CAMERA else "the ground's homography"
    click.echo(
        f"Camera: {fitted}, fitted to {len(calibration.residuals_px)} landmarks, "
        f"reprojection {calibration.reprojection_px:.1f} px RMS."
    )


def _still_size(image: Path) -> tuple[int, int]:
    """The still's size from its header only (no decoding: the JSON answer stays fast)."""
    from PIL import Image

    try:
        with Image.open(image) as still:
            return still.size
    except (OSError, ValueError) as exc:
        raise InputError(image, "", f"not a picture that can be read ({exc})") from None


def _read_still(image: Path) -> npt.NDArray[np.uint8]:
    from PIL import Image

    try:
        with Image.open(image) as still:
            return np.asarray(still.convert("RGB"))
    except (OSError, ValueError) as exc:
        raise InputError(image, "", f"not a picture that can be read ({exc})") from None
