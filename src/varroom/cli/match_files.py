"""The options naming a match's files, one per file argument of kloppy's loaders
(`--event-data` for `event_data`): what `varroom audit` and `varroom replay` take, so that any
provider `load_match` reads can be given without an option of varroom's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from varroom.cli.options import FILE
from varroom.match.providers import LOADERS


def _file_arguments() -> dict[str, bool]:
    """Every file argument of any kloppy loader, and whether it takes several files."""
    many: dict[str, bool] = {}
    for loaders in LOADERS.values():
        for loader in loaders:
            for spec in loader.files:
                many[spec.name] = many.get(spec.name, False) or spec.many
    return many


def match_file_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """An option per kloppy file argument: `--event-data` for `event_data`."""
    # Added in reverse so that --help lists them in alphabetical order.
    for name, many in sorted(_file_arguments().items(), reverse=True):
        flag = "--" + name.replace("_", "-")
        command = click.option(
            flag,
            name,
            multiple=many,
            type=FILE,
            help=f"kloppy's {name}" + (" (repeat for each file)" if many else "") + ".",
        )(command)
    return command
