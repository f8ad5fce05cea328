"""`varroom synthetic OUT --matches N`: a season of synthetic matches as Tracab files."""

from __future__ import annotations

from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from varroom.cli.options import FOLDER
from varroom.cli.progress import progress_bar


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
@click.option("--quiet", is_flag=True, help="No progress bar.")
def synthetic(out: Path, matches: int, minutes: float, seed: int, quiet: bool) -> None:
    """Write seeded synthetic matches with planted offside situations as Tracab files
    (meta.xml, tracking.dat), each with its officials' calls and planted truth, and
    OUT/manifest.csv for `varroom audit-many`."""
    from varroom.synthetic.provider_files import synthetic_season

    with progress_bar(
        quiet,
        TextColumn("writing matches"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    ) as progress:
        task = progress.add_task("", total=matches)
        manifest = synthetic_season(
            out, matches, minutes, seed, progress=lambda: progress.advance(task)
        )
    click.echo(f"{matches} matches of {minutes:g} minutes; manifest: {manifest}")
