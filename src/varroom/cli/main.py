"""The `varroom` command line."""

from __future__ import annotations

import atexit
import gc
import os
import warnings
from importlib import import_module
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from varroom.cli import collector
from varroom.cli.options import FOLDER, profile_option, token_option
from varroom.errors import FormatWarning, OptionError, VarroomError

if TYPE_CHECKING:
    from varroom.profiles import Profile

# Commands imported only when run: `check` must not pay for the audit's imports (kloppy, rich's
# progress bars), nor `audit` for the review room's, nor `varroom --help` for any of them.
# Each command's name -> (module, the click command's name in it, the command's one line of help
# as `get_short_help_str` gives it untruncated: what --help lists; a test holds it to the
# command's own).
_LAZY_COMMANDS = {
    "check": (
        "varroom.cli.check",
        "check",
        "Judge one FILE: a situation under Law 11, a penalty kick under Law 14, or a ball line "
        "under Laws 9 and 10 (told apart by its `kind`, docs/formats/), as a competition's "
        "profile applies them.",
    ),
    "audit": (
        "varroom.cli.audit",
        "audit",
        "Audit a match's offside decisions: PROVIDER is kloppy's name (statsbomb, sportec, ...), "
        "the files are kloppy's arguments (--event-data, --lineup-data, --raw-data, ...).",
    ),
    "examples": (
        "varroom.cli.examples",
        "examples",
        "The example situations and the match sample shipped with varroom.",
    ),
    "synthetic": (
        "varroom.cli.synthetic",
        "synthetic",
        "Write seeded synthetic matches with planted offside situations (and, if asked, penalty "
        "kicks and balls over the line) as Tracab files (meta.xml, tracking.dat), each with its "
        "officials' calls and planted offside truth, and OUT/manifest.csv for "
        "`varroom audit-many`.",
    ),
    "audit-many": (
        "varroom.cli.audit_many",
        "audit_many",
        "Audit every match of MANIFEST (a CSV: match_id, provider, competition, season, referee, "
        "profile, and the files by kloppy's names), each under its row's profile or --profile.",
    ),
    "season": (
        "varroom.cli.season",
        "season",
        "Write the consistency report of RESULTS (an `audit-many --out` folder): per "
        "competition, team and referee, calls agreed, by the engine only, by the officials only, "
        "the margins, the tight calls and what each policy would have decided.",
    ),
    "still": (
        "varroom.cli.still",
        "still",
        "Judge the moment a broadcast still IMAGE shows, from the marks on it (docs/still.md).",
    ),
    "replay": (
        "varroom.cli.replay",
        "replay",
        "Stream a recorded match as the live frame stream (docs/formats/frames.md): SOURCE is a "
        "provider with its files (--raw-data, --meta-data, ...) or a frame stream file.",
    ),
    "live": (
        "varroom.cli.live",
        "live",
        "Follow a live frame stream (docs/formats/frames.md) and alert on every offside offence "
        "the moment it is decidable, and on every penalty kick and ball over a line, as the "
        "competition's profile applies the Laws.",
    ),
    "schema": (
        "varroom.cli.schema",
        "schema",
        "Print the JSON Schema (draft 2020-12) of KIND: situation, penalty_kick, ball_line, "
        "still_marks (as the files name their kind), frames (one line of a frame stream), alert "
        "(one line of `varroom live --json`), profile (a competition profile, TOML) or verdict "
        "(what `varroom check --json` prints).",
    ),
    "profiles": (
        "varroom.cli.profiles",
        "profiles",
        "The competition profiles: how a competition applies the Laws (docs/formats/profile.md).",
    ),
}


class _UserError(click.ClickException):
    """A VarroomError on its way out: one line on stderr, the error's own exit code."""

    def __init__(self, error: VarroomError) -> None:
        super().__init__(str(error))
        # click declares exit_code on the class, and exits with the instance's.
        setattr(self, "exit_code", error.exit_code)  # noqa: B010

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"varroom: {self.message}", err=True, file=file)


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _LAZY_COMMANDS:
            module, name, _ = _LAZY_COMMANDS[cmd_name]
            with collector.paused():
                command: click.Command = getattr(import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click lists a group's commands from what `get_command` gives: here, for a lazy command,
        # a stand-in with its line of help from the table (click shortens it to the terminal's
        # width as it would the command's own), so that --help imports no command.
        lazy = {
            name: click.Command(name, help=line) for name, (_, _, line) in _LAZY_COMMANDS.items()
        }
        click.Group(commands={**self.commands, **lazy}).format_commands(ctx, formatter)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VarroomError as error:
            raise _UserError(error) from None


@click.group(cls=_Group)
@click.version_option(package_name="varroom")
def cli() -> None:
    """varroom: an open semi-automated video assistant referee (offside, penalty kicks, the ball
    over the line)."""
    # A default a file should have stated is said in one line, every time, and the run goes on.
    warnings.simplefilter("always", FormatWarning)
    warnings.showwarning = _one_line


_SHOW_WARNING = warnings.showwarning


def _one_line(message: Warning | str, category: type[Warning], *rest: Any, **kw: Any) -> None:
    if issubclass(category, FormatWarning):
        click.echo(f"varroom: warning: {message}", err=True)
    else:
        _SHOW_WARNING(message, category, *rest, **kw)


_db_option = click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="SQLAlchemy database URL.  [default: sqlite:///<data-dir>/varroom.db]",
)
_data_dir_option = click.option(
    "--data-dir",
    type=FOLDER,
    default=Path("varroom-data"),
    show_default=True,
    help="Folder for the database, pictures and uploads.",
)


_log_key_option = click.option(
    "--log-key",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="VARROOM_LOG_KEY_FILE",
    help="File of the log's key (made at the first serve). Keep it outside the database, "
    "ideally outside the data folder.  [default: <data-dir>/keys/log.key]",
)
_checkpoints_option = click.option(
    "--checkpoints",
    type=FOLDER,
    help="Folder of the log's signed checkpoints (another machine's mount, say).  "
    "[default: <data-dir>/checkpoints]",
)


@cli.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but loopback needs a token.",
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@_db_option
@token_option("--token", "Every /api call must bring it (Authorization: Bearer).")
@_data_dir_option
@profile_option
@_log_key_option
@_checkpoints_option
@click.option(
    "--verify-every",
    type=click.FloatRange(min=0.01),
    default=10.0,
    show_default=True,
    metavar="MINUTES",
    help="Check the whole log this often (and at start).",
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    token: str | None,
    data_dir: Path,
    profile: Profile,
    log_key: Path | None,
    checkpoints: Path | None,
    verify_every: float,
) -> None:
    """The review room: a web page to check verdicts, set facts and record decisions.

    Incidents are judged under the profile (an upload may name another the room knows)."""
    try:
        from varroom.serve.server import run_server
    except ImportError as error:
        raise VarroomError(
            f"varroom serve needs the serve extra: pip install 'varroom[serve]' ({error})"
        ) from None
    run_server(
        host,
        port,
        db_url,
        token,
        data_dir=data_dir,
        profile=profile,
        log_key=log_key,
        checkpoints=checkpoints,
        verify_every_s=verify_every * 60,
    )


@cli.command("verify-log")
@_db_option
@_data_dir_option
@_log_key_option
@_checkpoints_option
@click.option(
    "--acknowledge",
    is_flag=True,
    help="Record in the log that the problems it shows now were seen: the room takes "
    "decisions again.",
)
@click.option("--by", metavar="NAME", help="Who acknowledges (with --acknowledge).")
def verify_log(
    db_url: str | None,
    data_dir: Path,
    log_key: Path | None,
    checkpoints: Path | None,
    acknowledge: bool,
    by: str | None,
) -> None:
    """Check the review room's log against its keyed hash chains and checkpoints (exit 3 if
    it was changed, naming each table and row)."""
    try:
        from varroom.serve.verify import acknowledge_log, verify_log
    except ImportError as error:
        raise VarroomError(
            f"varroom verify-log needs the serve extra: pip install 'varroom[serve]' ({error})"
        ) from None
    where = {"log_key": log_key, "checkpoints": checkpoints}
    if acknowledge:
        if not by:
            raise OptionError("--by", "", "say who acknowledges the broken log")
        click.echo(acknowledge_log(by, db_url, data_dir, **where))
    else:
        click.echo(verify_log(db_url, data_dir, **where))


def main() -> None:
    """The `varroom` console script: the command line, in a process of its own that ends with
    it (tests run `cli` in theirs, so what is process-wide is set here)."""
    # varroom's arrays are small: OpenBLAS's threads, started when numpy loads, would only spin
    # (on a busy two-core machine, ~30 ms of `check --image`). A user's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # At exit Python collects every object still alive, matplotlib's hundreds of thousands among
    # them (~50 ms after `check --image`), to free memory the operating system takes back
    # anyway: frozen objects are left out of that pass.
    atexit.register(gc.freeze)
    cli()
