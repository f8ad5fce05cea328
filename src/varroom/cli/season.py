"""`varroom season DIR --html REPORT.html`: the consistency report of an audit-many run."""

from __future__ import annotations

from pathlib import Path

import click

from varroom.cli.options import FOLDER, output_option
from varroom.errors import VarroomError
from varroom.output_file import HTML_SUFFIXES, check_target


@click.command("season")
@click.argument("results", type=FOLDER)
@output_option(
    "--html", HTML_SUFFIXES, "The report to write: one self-contained HTML file.", required=True
)
def season(results: Path, html: Path) -> None:
    """Write the consistency report of RESULTS (an `audit-many --out` folder): per
    competition, team and referee, calls agreed, by the engine only, by the officials only,
    the margins, the tight calls and what each policy would have decided."""
    target = check_target(html, "season report", HTML_SUFFIXES)
    try:
        from varroom.season.report import write_report
    except ImportError as error:
        raise VarroomError(
            f"varroom season needs the season extra: pip install 'varroom[season]' ({error})"
        ) from None
    write_report(results, target)
    click.echo(f"report: {target}")
