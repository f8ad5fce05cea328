"""`varroom schema KIND`: the JSON Schema of a kind of file, printed (docs/formats/)."""

from __future__ import annotations

import json

import click

from varroom.errors import OptionError
from varroom.formats.json_fields import did_you_mean


@click.command()
@click.argument("kind")
def schema(kind: str) -> None:
    """Print the JSON Schema (draft 2020-12) of KIND: situation, penalty_kick, ball_line,
    still_marks (as the files name their kind), frames (one line of a frame stream), alert (one
    line of `varroom live --json`), profile (a
    competition profile, TOML) or verdict (what `varroom check --json` prints)."""
    from varroom.schemas import SCHEMAS

    if kind not in SCHEMAS:
        raise OptionError(
            "KIND",
            kind,
            f"no such kind{did_you_mean(kind, SCHEMAS)}; the kinds are {', '.join(SCHEMAS)}",
        )
    click.echo(json.dumps(SCHEMAS[kind](), indent=2, ensure_ascii=False))
