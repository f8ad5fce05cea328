"""Options more than one command takes, written once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

Command = TypeVar("Command", bound=Callable[..., None])

# The paths commands take, as `Path`s: a file (to read or write) or a folder.
FILE = click.Path(dir_okay=False, path_type=Path)
FOLDER = click.Path(file_okay=False, path_type=Path)


def policy_option(command: Command) -> Command:
    """`--policy`: how tight calls are settled, passed on as `policy_text` (engine.policy)."""
    return click.option(
        "--policy",
        "policy_text",
        default="ifab",
        show_default=True,
        help="How tight calls are settled: ifab, tolerance:5cm, daylight or confidence:0.95.",
    )(command)
