"""`varroom audit PROVIDER --event-data F ...`: every offside decision of a match.

The files are named as kloppy names them (`--event-data` is kloppy's `event_data`), so any
provider `load_match` reads can be audited without a varroom option of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from varroom.audit.ball_lines import BallLineIncident
from varroom.audit.incident_files import AnyIncident, incident_file, incident_file_name
from varroom.audit.model import Agreeing, Audit, Incident, clock
from varroom.audit.penalties import PenaltyIncident
from varroom.audit.report_html import (
    Row,
    html_report,
    png,
    rows,
    summary,
    write_file,
    write_html,
)
from varroom.audit.run import audit_match, call_phases
from varroom.cli.match_files import match_file_options
from varroom.cli.options import (
    FOLDER,
    json_option,
    output_option,
    path_option,
    profile_option,
    quiet_option,
)
from varroom.cli.progress import progress_bar
from varroom.match.load import load_match
from varroom.match.tracking import Provider
from varroom.output_file import HTML_SUFFIXES, OutputError
from varroom.profiles import Profile

_AGREEING_STYLE = {
    Agreeing.AGREED: "green",
    Agreeing.ENGINE_ONLY: "red",
    Agreeing.OFFICIALS_ONLY: "yellow",
    Agreeing.DATA_INCONSISTENT: "magenta",
    Agreeing.UNDECIDABLE: "dim",
}


@click.command("audit")
@click.argument("provider")
@match_file_options
@json_option("Print the audit as one JSON object.")
@output_option(
    "--html",
    HTML_SUFFIXES,
    "Write a self-contained HTML report: a picture and a reason per decision.",
    dest="html_path",
)
@path_option(
    "--images",
    FOLDER,
    "Write one PNG per engine incident and per official call into this directory.",
    dest="images_dir",
)
@path_option(
    "--situations",
    FOLDER,
    "Write every incident, and the engine's view of every official call, as the file "
    "`varroom check` reads (a situation, a penalty kick or a ball line) into this directory: "
    "`varroom check` on one gives the audit's verdict.",
    dest="situations_dir",
)
@profile_option
@quiet_option
def audit(
    provider: str,
    as_json: bool,
    html_path: Path | None,
    images_dir: Path | None,
    situations_dir: Path | None,
    profile: Profile,
    quiet: bool,
    **files: Path | tuple[Path, ...] | None,
) -> None:
    """Audit a match's offside decisions: PROVIDER is kloppy's name (statsbomb, sportec, ...),
    the files are kloppy's arguments (--event-data, --lineup-data, --raw-data, ...)."""
    given = {name: value for name, value in files.items() if value}
    with progress_bar(
        quiet,
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ) as progress:
        loading = progress.add_task("loading the match", total=None)
        match = load_match(provider, fast=True, **given)
        progress.update(loading, total=1, completed=1)
        blind = _no_camera_data(provider, given)
        if blind:
            click.echo(f"varroom audit: warning: {blind}", err=True)
        judging = progress.add_task("judging", total=None)

        def advance(done: int, total: int, what: str) -> None:
            progress.update(judging, completed=done, total=total, description=f"judging {what}")

        result = audit_match(match, advance, profile)
        phases = call_phases(match, result)
        progress.update(judging, description="judged")
        decisions = rows(result, match, phases)
        if situations_dir is not None:
            engine = [row.engine for row in decisions] + list(result.undecidable)
            write_incident_files(
                situations_dir,
                result.match,
                result.profile,
                [*engine, *result.penalties, *result.ball_lines],
            )
        pictures = _Pictures()
        if images_dir is not None:
            _write_images(images_dir, result, decisions, pictures, progress)
        if html_path is not None:
            drawing = progress.add_task("drawing the report", total=None)
            write_html(html_path, html_report(result, match, decisions, pictures))
            progress.update(drawing, total=1, completed=1)
    if as_json:
        scores = [
            {
                "clock": row.clock,
                "team": row.team,
                "player": row.player,
                "officials": "offside" if row.call else None,
                "engine": row.engine_says,
                "score": row.agreeing.label,
                "reason": row.reason,
            }
            for row in decisions
        ]
        click.echo(json.dumps(result.to_dict() | {"scores": scores}, ensure_ascii=False))
    else:
        _print_table(result, decisions)


def _no_camera_data(provider: str, files: dict[str, Any]) -> str:
    """What is missing to judge any call ('' when nothing is): StatsBomb's positions are its
    360 freeze frames; without them no play can be judged."""
    if provider.strip().lower() != Provider.STATSBOMB.value or files.get("three_sixty_data"):
        return ""
    return (
        "no --three-sixty-data (StatsBomb 360 freeze frames): there are no positions, so "
        "every official call is undecidable and the engine can find no offence."
    )


def write_incident_files(
    directory: Path, match: str, profile: Profile, incidents: Sequence[AnyIncident | None]
) -> None:
    """Each incident as the file `varroom check` reads (`audit.incident_files`), judged under
    `profile`, named by its moment: writing the same match again replaces rather than adds."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {directory}: {error.strerror or error}") from None
    for incident in incidents:
        if incident is None:
            continue
        text = (
            json.dumps(incident_file(incident, profile, match), ensure_ascii=False, indent=1) + "\n"
        )
        write_file(directory / incident_file_name(incident), text.encode("utf-8"))


class _Pictures:
    """Each incident drawn once, however many files show it."""

    def __init__(self) -> None:
        self._drawn: dict[int, bytes] = {}

    def __call__(self, incident: Incident) -> bytes:
        key = id(incident.situation)
        if key not in self._drawn:
            self._drawn[key] = png(incident)
        return self._drawn[key]


def _write_images(
    directory: Path,
    result: Audit,
    decisions: Sequence[Row],
    pictures: _Pictures,
    progress: Progress,
) -> None:
    named = [(f"incident-{n:02d}.png", i) for n, i in enumerate(result.incidents, start=1)]
    calls = {row.call: row.engine for row in decisions if row.call is not None}
    for n, call in enumerate(result.official_calls, start=1):
        engine = calls.get(call)
        if engine is not None:
            named.append((f"call-{n:02d}.png", engine))
    task = progress.add_task("drawing pictures", total=len(named))
    try:  # made even when there is nothing to draw: the user asked for the folder
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {directory}: {error.strerror or error}") from None
    for name, incident in named:
        write_file(directory / name, pictures(incident))
        progress.advance(task)


def _print_table(result: Audit, decisions: Sequence[Row]) -> None:
    console = Console()
    table = Table(
        title=f"Offside audit: {result.match}, under the {result.profile.label} profile",
        title_justify="left",
    )
    for column in ("When", "Team", "Player", "Officials", "Engine", "Agreement"):
        table.add_column(column)
    for row in decisions:
        style = _AGREEING_STYLE[row.agreeing]
        table.add_row(
            row.clock,
            row.team,
            row.player or "?",
            "offside" if row.call else "-",
            row.engine_says,
            f"[{style}]{row.agreeing.label}[/]",
        )
    console.print(table)
    others: list[PenaltyIncident | BallLineIncident] = [*result.penalties, *result.ball_lines]
    for found in others:
        console.print(
            f"{found.kind.value} {clock(found.period, found.t_s)}: {found.verdict.reason}"
        )
    console.print("; ".join(summary(result)) + ".")
