"""`varroom synthetic OUT --matches N`: a season of synthetic matches as Tracab files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from varroom.cli.options import FOLDER, quiet_option
from varroom.cli.progress import progress_bar
from varroom.engine.explain import counted
from varroom.errors import InputError

_PENALTY_KINDS = "legal, goalkeeper off his line, encroachment by either side, backward kick"
_BALL_LINE_KINDS = (
    "ball-outs play goes on after, goal-line moments over and short, a curl out and back"
)


def _planted(what: str, kinds: str) -> dict[str, Any]:
    """An option counting scenes planted in every match, of each kind."""
    return {
        "type": click.IntRange(0),
        "default": 0,
        "show_default": True,
        "help": f"{what} planted in every match, of each kind ({kinds}).",
    }


@click.command("synthetic")
@click.argument("out", type=FOLDER)
@click.option("--matches", type=click.IntRange(1), required=True, help="How many matches.")
@click.option(
    "--minutes",
    type=click.FloatRange(10.0),
    default=90.0,
    show_default=True,
    help="Length of each match (two halves).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the season.")
@click.option("--penalties", **_planted("Penalty kicks", _PENALTY_KINDS))
@click.option("--ball-lines", **_planted("Balls over the line", _BALL_LINE_KINDS))
@quiet_option
def synthetic(
    out: Path, matches: int, minutes: float, seed: int, penalties: int, ball_lines: int, quiet: bool
) -> None:
    """Write seeded synthetic matches with planted offside situations (and, if asked, penalty
    kicks and balls over the line) as Tracab files (meta.xml, tracking.dat), each with its
    officials' calls and planted offside truth, and OUT/manifest.csv for `varroom audit-many`."""
    from varroom.synthetic.planting import NoRoomError
    from varroom.synthetic.provider_files import synthetic_season

    with progress_bar(
        quiet,
        TextColumn("writing matches"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    ) as progress:
        task = progress.add_task("", total=matches)
        try:
            manifest = synthetic_season(
                out,
                matches,
                minutes,
                seed,
                progress=lambda: progress.advance(task),
                penalties_per_kind=penalties,
                ball_lines_per_kind=ball_lines,
            )
        except NoRoomError as error:
            # The manifest is written last: without it no match of this run is listed.
            raise InputError(
                "--penalties/--ball-lines",
                "",
                f"{error} of {minutes:g}-minute matches: plant fewer, or longer matches "
                "(--minutes); no manifest written",
            ) from None
    click.echo(
        f"{counted(matches, 'match', 'matches')} of {minutes:g} minutes; manifest: {manifest}"
    )
