"""Options more than one command takes, written once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from varroom.errors import InputError, OptionError

if TYPE_CHECKING:
    from varroom.profiles import Profile

Command = TypeVar("Command", bound=Callable[..., None])

# The paths commands take, as `Path`s: a file (to read or write) or a folder.
FILE = click.Path(dir_okay=False, path_type=Path)
FOLDER = click.Path(file_okay=False, path_type=Path)


def profile_option(command: Command) -> Command:
    """`--profile`: the competition profile judged under, passed on as `profile` (a `Profile`,
    resolved before anything is read: a bad one is refused first)."""

    def resolved(context: click.Context, parameter: click.Parameter, value: str) -> object:
        return profile_named("--profile", value)

    return click.option(
        "--profile",
        "profile",
        default="ifab",
        show_default=True,
        metavar="NAME|FILE",
        callback=resolved,
        help="The competition profile to judge under: a built-in one (`varroom profiles list`) "
        "or a profile file (docs/formats/profile.md).",
    )(command)


def profile_named(flag: str, value: str) -> Profile:
    """The profile an option names; one it cannot find is a fault of the option, one that is
    wrong inside a fault of its file (naming the key)."""
    from varroom.profiles import load_profile

    try:
        return load_profile(value)
    except InputError as error:
        if error.where:
            raise
        raise OptionError(flag, value, error.problem) from None


def policy_option(command: Command) -> Command:
    """`--policy`: a policy for tight calls instead of the profile's own, passed on as
    `policy_text` (None: the profile's; `profiles.judging.with_policy`)."""
    return click.option(
        "--policy",
        "policy_text",
        default=None,
        help="How tight calls are settled, instead of the profile's own: ifab, tolerance:5cm, "
        "daylight or confidence:0.95.",
    )(command)


def json_option(help_text: str) -> Callable[[Command], Command]:
    """`--json`, passed on as `as_json`."""
    return click.option("--json", "as_json", is_flag=True, help=help_text)


quiet_option = click.option("--quiet", is_flag=True, help="No progress bar.")


def path_option(
    flag: str, kind: click.Path, help_text: str, *, dest: str | None = None, required: bool = False
) -> Callable[[Command], Command]:
    """An option naming a file or a folder (`FILE`, `FOLDER`), passed on as a `Path`."""
    names = (flag,) if dest is None else (flag, dest)
    return click.option(*names, type=kind, required=required, help=help_text)


def output_option(
    flag: str,
    suffixes: tuple[str, ...],
    help_text: str,
    *,
    dest: str | None = None,
    required: bool = False,
) -> Callable[[Command], Command]:
    """An option naming a file to write: a name whose suffix it cannot be written as is
    refused before anything is read or judged (exit 2, one line naming the option), never
    written in another format than its name says."""

    def checked(
        context: click.Context, parameter: click.Parameter, value: Path | None
    ) -> Path | None:
        if value is not None and value.suffix.lower() not in suffixes:
            given = f"not {value.suffix}" if value.suffix else "not a name without one"
            raise OptionError(flag, value, f"written as {' or '.join(suffixes)}, {given}")
        return value

    names = (flag,) if dest is None else (flag, dest)
    return click.option(*names, type=FILE, required=required, callback=checked, help=help_text)


def token_option(flag: str, help_text: str) -> Callable[[Command], Command]:
    """The review room's token: `flag`, or VARROOM_TOKEN. Given on the command line it shows in
    the process list to every user of the machine, so that is warned of."""

    def warn_if_seen(
        context: click.Context, parameter: click.Parameter, token: str | None
    ) -> str | None:
        if token and context.get_parameter_source(str(parameter.name)) is (
            click.core.ParameterSource.COMMANDLINE
        ):
            click.echo(
                f"varroom: warning: {flag} shows in the process list to every user of this "
                "machine; set VARROOM_TOKEN instead",
                err=True,
            )
        return token

    return click.option(
        flag,
        envvar="VARROOM_TOKEN",
        metavar="TOKEN",
        callback=warn_if_seen,
        help=f"{help_text} Also VARROOM_TOKEN.",
    )
