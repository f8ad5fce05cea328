"""Options more than one command takes, written once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

Command = TypeVar("Command", bound=Callable[..., None])


def policy_option(command: Command) -> Command:
    """`--policy`: how tight calls are settled, passed on as `policy_text` (engine.policy)."""
    return click.option(
        "--policy",
        "policy_text",
        default="ifab",
        show_default=True,
        help="How tight calls are settled: ifab, tolerance:5cm, daylight or confidence:0.95.",
    )(command)
