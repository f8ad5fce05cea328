"""`varroom check`: one file judged (a situation, a penalty kick or a ball line), printed, and
drawn on request."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import click

from varroom.cli import collector
from varroom.cli.options import FILE, json_option, output_option, policy_option
from varroom.engine.judge import judge
from varroom.engine.policy import Policy
from varroom.errors import InputError
from varroom.formats.load import load
from varroom.model.ball_line import BallLineCase
from varroom.model.penalty import PenaltyKick
from varroom.output_file import CLIP_SUFFIXES, FIGURE_SUFFIXES, HTML_SUFFIXES

# Each picture `check` can write: its help, the suffixes it can be written as, and where its
# writer lives, imported only when asked for (matplotlib is slow to import). A writer takes
# (situation, verdict, path).
_PICTURES = {
    "image": (
        "Write a top-down picture of the decision (.png, .jpg, .svg or .pdf).",
        FIGURE_SUFFIXES,
        "varroom.pictures.decision",
        "write_decision",
    ),
    "screen": (
        "Write the stadium-screen still (1920x1080: .png, .jpg, .svg or .pdf).",
        FIGURE_SUFFIXES,
        "varroom.pictures.screen",
        "write_screen",
    ),
    "clip": (
        "Write a clip of the phase, frozen at the moment of play (.gif or .mp4).",
        CLIP_SUFFIXES,
        "varroom.pictures.clip",
        "write_clip",
    ),
    "scene": (
        "Write an interactive 3D scene (one self-contained HTML file).",
        HTML_SUFFIXES,
        "varroom.pictures.scene",
        "write_scene",
    ),
}


# The pictures drawn for the kinds other than a situation (which has them all).
_DRAWN_FOR: dict[type, tuple[str, ...]] = {
    PenaltyKick: ("image", "screen"),
    BallLineCase: ("image", "screen"),
}


def _picture_options(command: Callable[..., None]) -> Callable[..., None]:
    for name, (help_text, suffixes, _, _) in reversed(_PICTURES.items()):
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
@policy_option
def check(
    file: Path,
    as_json: bool,
    broadcast: Path | None,
    policy_text: str,
    **pictures: Path | None,
) -> None:
    """Judge one FILE: a situation under Law 11, a penalty kick under Law 14, or a ball line
    under Laws 9 and 10 (told apart by its `kind`, docs/formats/)."""
    with collector.paused():  # judged, printed and drawn: it ends right after
        _check(file, as_json, broadcast, Policy.parse(policy_text), pictures)


def _check(
    file: Path,
    as_json: bool,
    broadcast: Path | None,
    policy: Policy,
    pictures: dict[str, Path | None],
) -> None:
    situation = load(file)
    asked = {name: path for name, path in {**pictures, "broadcast": broadcast}.items() if path}
    drawn = _DRAWN_FOR.get(type(situation))
    refused = [name for name in asked if drawn is not None and name not in drawn]
    if drawn is not None and refused:
        raise InputError(
            file,
            "$.kind",
            f"--{refused[0]} is not drawn for this kind (--{', --'.join(drawn)} are)",
        )
    if isinstance(situation, PenaltyKick):
        from varroom.cli.penalty import check_penalty

        check_penalty(situation, policy, as_json, asked)
        return
    if isinstance(situation, BallLineCase):
        from varroom.cli.ball_line import check_ball_line

        check_ball_line(situation, policy, as_json, asked)
        return
    if broadcast is not None and situation.camera is None:
        raise InputError(file, "$.camera", "missing: --broadcast needs a camera (docs/pictures.md)")
    verdict = judge(situation, policy=policy)
    if as_json:
        click.echo(json.dumps(verdict.to_dict(), ensure_ascii=False))
    else:
        from varroom.cli.terminal import print_verdict

        print_verdict(situation, verdict)
    # The verdict comes first: a picture that cannot be written must not hide it.
    for name, path in pictures.items():
        if path is not None:
            _, _, module, writer = _PICTURES[name]
            getattr(import_module(module), writer)(situation, verdict, path)
    if broadcast is not None and situation.camera is not None:
        from varroom.pictures.broadcast import write_broadcast

        write_broadcast(situation, verdict, situation.camera, broadcast)
