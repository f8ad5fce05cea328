"""`varroom still`: a broadcast still and its marks judged, printed, and drawn on request."""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np
import numpy.typing as npt

from varroom.cli.options import FILE, json_option, output_option, path_option, policy_option
from varroom.engine.policy import Policy
from varroom.errors import InputError
from varroom.output_file import FIGURE_SUFFIXES


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
@policy_option
def still(image: Path, marks: Path, as_json: bool, out: Path | None, policy_text: str) -> None:
    """Judge the moment a broadcast still IMAGE shows, from the marks on it (docs/still.md)."""
    from varroom.still.judge import judge_still
    from varroom.still.marks import load_marks

    policy = Policy.parse(policy_text)
    pixels = _read_still(image) if out is not None else None
    size = (pixels.shape[1], pixels.shape[0]) if pixels is not None else _still_size(image)
    result = judge_still(load_marks(marks, size), policy)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        from varroom.cli.terminal import print_verdict

        print_verdict(result.situation, result.verdict)
        calibration = result.calibration
        click.echo(
            f"Camera: {calibration.method.value} from {len(calibration.residuals_px)} landmarks, "
            f"reprojection {calibration.reprojection_px:.1f} px RMS."
        )
    if out is not None:
        from varroom.pictures.still import write_still_png

        write_still_png(result, pixels, out)


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
