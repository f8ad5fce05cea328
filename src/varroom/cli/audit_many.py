"""`varroom audit-many MANIFEST --out DIR`: every match of a manifest, on a local process pool
or a Dask cluster, the results in DIR/incidents.parquet and DIR/matches.parquet."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from varroom.cli.options import FILE, FOLDER, path_option, profile_option, quiet_option
from varroom.cli.progress import progress_bar
from varroom.engine.explain import counted
from varroom.errors import VarroomError
from varroom.profiles import Profile


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.2f} matches/s")


@click.command("audit-many")
@click.argument("manifest", type=FILE)
@path_option(
    "--out",
    FOLDER,
    "The results: incidents.parquet, matches.parquet and their parts.",
    required=True,
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    help="Local worker processes.  [default: the number of cores]",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="A running Dask scheduler (tcp://host:port) to run the matches on instead.",
)
@path_option(
    "--scheduler-file",
    FILE,
    "Or the file a Dask scheduler writes its address to (dask scheduler "
    "--scheduler-file FILE), waited for while the scheduler starts.",
)
@click.option("--force", is_flag=True, help="Audit again the matches already done.")
@profile_option
@quiet_option
def audit_many(
    manifest: Path,
    out: Path,
    workers: int | None,
    scheduler: str | None,
    scheduler_file: Path | None,
    force: bool,
    profile: Profile,
    quiet: bool,
) -> None:
    """Audit every match of MANIFEST (a CSV: match_id, provider, competition, season, referee,
    profile, and the files by kloppy's names), each under its row's profile or --profile. A
    match that fails is recorded with its error; the exit status is 0 unless every match
    failed (1) or the manifest is bad (2)."""
    try:
        from varroom.season.manifest import read_manifest
        from varroom.season.runner import run_season, scheduler_address
        from varroom.season.work import MatchState, Outcome
    except ImportError as error:
        raise VarroomError(
            f"varroom audit-many needs the season extra: pip install 'varroom[season]' ({error})"
        ) from None
    if scheduler is not None and scheduler_file is not None:
        raise click.UsageError("give --scheduler or --scheduler-file, not both")
    entries = read_manifest(manifest, profile)
    if scheduler_file is not None:
        scheduler = scheduler_address(scheduler_file)
    progress = progress_bar(
        quiet,
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]} failed"),
        _Rate(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with progress:
        task = progress.add_task("matches", total=len(entries), failed=0)

        def started(todo: int, skipped: int) -> None:
            progress.update(task, total=todo, description=f"matches ({skipped} done before)")

        def report(outcome: Outcome) -> None:
            failed = progress.tasks[0].fields["failed"] + (outcome.state is not MatchState.OK)
            progress.update(task, advance=1, failed=failed)

        summary = run_season(
            entries,
            out,
            workers=workers,
            scheduler=scheduler,
            force=force,
            report=report,
            started=started,
        )
    for match_id, message in summary.errors:
        click.echo(f"varroom: match {match_id} failed: {message}", err=True)
    click.echo(
        f"{counted(summary.total, 'match', 'matches')}: {summary.ok} audited, "
        f"{summary.skipped} already done, "
        f"{summary.failed} failed; results in {out / 'incidents.parquet'} and "
        f"{out / 'matches.parquet'}"
    )
    if summary.all_failed:
        sys.exit(1)
