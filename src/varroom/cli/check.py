"""`varroom check`: one file judged (a situation, a penalty kick or a ball line) under a
competition profile, printed, and drawn on request; `--compare` judges it under several."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from varroom.cli import collector
from varroom.cli.options import (
    FILE,
    json_option,
    output_option,
    policy_option,
    profile_named,
    profile_option,
)
from varroom.errors import InputError, OptionError
from varroom.formats.json_text import read_json
from varroom.formats.load import kind_of_file
from varroom.output_file import CLIP_SUFFIXES, FIGURE_SUFFIXES, HTML_SUFFIXES
from varroom.profiles import Profile
from varroom.profiles.judging import with_policy

# Each picture `check` can write: its help and the suffixes it can be written as. The kind of
# file says which it draws and with what (`varroom.kinds`).
_PICTURES = {
    "image": (
        "Write a top-down picture of the decision (.png, .jpg, .svg or .pdf).",
        FIGURE_SUFFIXES,
    ),
    "screen": (
        "Write the stadium-screen still (1920x1080: .png, .jpg, .svg or .pdf).",
        FIGURE_SUFFIXES,
    ),
    "clip": (
        "Write a clip of the phase, frozen at the moment of play (.gif or .mp4).",
        CLIP_SUFFIXES,
    ),
    "scene": ("Write an interactive 3D scene (one self-contained HTML file).", HTML_SUFFIXES),
}


def _picture_options(command: Callable[..., None]) -> Callable[..., None]:
    for name, (help_text, suffixes) in reversed(_PICTURES.items()):
        command = output_option(f"--{name}", suffixes, help_text)(command)
    return command


@click.command()
@click.argument("file", type=FILE)
@json_option("Print the verdict as one JSON object.")
@_picture_options
@output_option(
    "--broadcast",
    FIGURE_SUFFIXES,
    "Draw the decision in the situation's camera perspective (needs $.camera).",
)
@profile_option
@policy_option
@click.option(
    "--compare",
    "compare_text",
    metavar="NAME|FILE,...",
    help="Judge under each of these profiles, a line each (decision, margin, why they differ); "
    "with --image, one picture of them all.",
)
def check(
    file: Path,
    as_json: bool,
    broadcast: Path | None,
    profile: Profile,
    policy_text: str | None,
    compare_text: str | None,
    **pictures: Path | None,
) -> None:
    """Judge one FILE: a situation under Law 11, a penalty kick under Law 14, or a ball line
    under Laws 9 and 10 (told apart by its `kind`, docs/formats/), as a competition's profile
    applies them."""
    profile = with_policy(profile, policy_text)
    asked = {name: path for name, path in {**pictures, "broadcast": broadcast}.items() if path}
    with collector.paused():  # judged, printed and drawn: it ends right after
        if compare_text is not None:
            from varroom.cli.compare import compare

            names = [name.strip() for name in compare_text.split(",")]
            if len(names) < 2 or not all(names):
                raise OptionError("--compare", compare_text, "name two profiles or more, by commas")
            profiles = [profile_named("--compare", name) for name in names]
            compare(file, profiles, as_json, asked)
        else:
            _check(file, as_json, profile, asked)


def _check(file: Path, as_json: bool, profile: Profile, asked: dict[str, Path]) -> None:
    data = read_json(file)
    kind = kind_of_file(data, str(file))
    drawn = list(kind.pictures)
    refused = [name for name in asked if name not in drawn]
    if refused:
        raise InputError(
            file,
            "$.kind",
            f"--{refused[0]} is not drawn for this kind (--{', --'.join(drawn)} are)",
        )
    case = kind.read(data, str(file), profile.noise)
    # The one picture that needs a part of the file: said before anything is judged.
    if "broadcast" in asked and case.camera is None:
        raise InputError(file, "$.camera", "missing: --broadcast needs a camera (docs/pictures.md)")
    verdict: Any = kind.judged(case, profile)  # the kind's own verdict type
    if as_json:
        click.echo(
            json.dumps({**verdict.to_dict(), "profile": profile.stamp()}, ensure_ascii=False)
        )
    else:
        kind.print(case, verdict)
        click.echo(f"Profile: {profile.label}.")
    # The verdict comes first: a picture that cannot be written must not hide it.
    for name, path in asked.items():
        kind.picture_writer(name)(case, verdict, path)
