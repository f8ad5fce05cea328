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
from varroom.errors import FormatWarning, VarroomError

if TYPE_CHECKING:
    from varroom.profiles import Profile

# Commands imported only when run (or listed by --help): `check` must not pay for the audit's
# imports (kloppy, rich's progress bars), nor `audit` for the review room's.
# Each command's name -> (module, the click command's name in it).
_LAZY_COMMANDS = {
    "check": ("varroom.cli.check", "check"),
    "audit": ("varroom.cli.audit", "audit"),
    "examples": ("varroom.cli.examples", "examples"),
    "synthetic": ("varroom.cli.synthetic", "synthetic"),
    "audit-many": ("varroom.cli.audit_many", "audit_many"),
    "season": ("varroom.cli.season", "season"),
    "still": ("varroom.cli.still", "still"),
    "replay": ("varroom.cli.replay", "replay"),
    "live": ("varroom.cli.live", "live"),
    "schema": ("varroom.cli.schema", "schema"),
    "profiles": ("varroom.cli.profiles", "profiles"),
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
            module, name = _LAZY_COMMANDS[cmd_name]
            with collector.paused():
                command: click.Command = getattr(import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)

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
def serve(
    host: str,
    port: int,
    db_url: str | None,
    token: str | None,
    data_dir: Path,
    profile: Profile,
) -> None:
    """The review room: a web page to check verdicts, set facts and record decisions.

    Incidents are judged under the profile (an upload may name another the room knows)."""
    try:
        from varroom.serve.server import run_server
    except ImportError as error:
        raise VarroomError(
            f"varroom serve needs the serve extra: pip install 'varroom[serve]' ({error})"
        ) from None
    run_server(host, port, db_url, token, data_dir=data_dir, profile=profile)


@cli.command("verify-log")
@_db_option
@_data_dir_option
def verify_log(db_url: str | None, data_dir: Path) -> None:
    """Check the review room's decision log against its hash chain (exit 3 if it was changed)."""
    try:
        from varroom.serve.verify import verify_log
    except ImportError as error:
        raise VarroomError(
            f"varroom verify-log needs the serve extra: pip install 'varroom[serve]' ({error})"
        ) from None

    click.echo(verify_log(db_url, data_dir))


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
