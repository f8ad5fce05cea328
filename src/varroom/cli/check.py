"""`varroom check`: one situation judged, printed, and drawn on request."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import click

from varroom.engine.judge import judge
from varroom.engine.policy import Policy
from varroom.errors import InputError
from varroom.formats.situation_json import load_situation

# Each picture `check` can write: its help, and where its writer lives, imported only when
# asked for (matplotlib is slow to import). A writer takes (situation, verdict, path).
_PICTURES = {
    "image": (
        "Write a top-down picture of the decision (PNG).",
        "varroom.pictures.decision",
        "write_decision",
    ),
    "screen": (
        "Write the stadium-screen still (PNG, 1920x1080).",
        "varroom.pictures.screen",
        "write_screen",
    ),
    "clip": (
        "Write a clip of the phase, frozen at the moment of play (.gif or .mp4).",
        "varroom.pictures.clip",
        "write_clip",
    ),
    "scene": (
        "Write an interactive 3D scene (one self-contained HTML file).",
        "varroom.pictures.scene",
        "write_scene",
    ),
}


def _picture_options(command: Callable[..., None]) -> Callable[..., None]:
    for name, (help_text, _, _) in reversed(_PICTURES.items()):
        command = click.option(
            f"--{name}", type=click.Path(dir_okay=False, path_type=Path), help=help_text
        )(command)
    return command


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@_picture_options
@click.option(
    "--broadcast",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw the decision in the situation's camera perspective (PNG; needs $.camera).",
)
@click.option(
    "--policy",
    "policy_text",
    default="ifab",
    show_default=True,
    help="How tight calls are settled: ifab, tolerance:5cm, daylight or confidence:0.95.",
)
def check(
    file: Path,
    as_json: bool,
    broadcast: Path | None,
    policy_text: str,
    **pictures: Path | None,
) -> None:
    """Judge one situation FILE under Law 11."""
    policy = Policy.parse(policy_text)
    situation = load_situation(file)
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
            _, module, writer = _PICTURES[name]
            getattr(import_module(module), writer)(situation, verdict, path)
    if broadcast is not None and situation.camera is not None:
        from varroom.pictures.broadcast import write_broadcast

        write_broadcast(situation, verdict, situation.camera, broadcast)
