"""User-facing errors: each carries the exit code the command line ends with."""

from __future__ import annotations

from pathlib import Path


class VarroomError(Exception):
    """An error the user can act on; the CLI prints it as one line and exits with `exit_code`."""

    exit_code = 1


class InputError(VarroomError):
    """A file that is not what it should be: names the file and where in it the fault lies."""

    exit_code = 2

    def __init__(self, source: str | Path, where: str, problem: str) -> None:
        self.source = str(source)
        self.where = where
        self.problem = problem
        super().__init__(
            f"{self.source}: {where}: {problem}" if where else f"{self.source}: {problem}"
        )


class OptionError(VarroomError):
    """A command-line option given a value it cannot take (an output file's suffix): names the
    option and the value."""

    exit_code = 2

    def __init__(self, option: str, value: str | Path, problem: str) -> None:
        super().__init__(f"{option} {value}: {problem}")


class DataError(InputError):
    """A match data file (or the set of them) that cannot be loaded: names the file."""

    def __init__(
        self, path: str | Path | None, message: str, field: str = "", *, subject: str = ""
    ) -> None:
        # A fault of no one file (an unknown provider, no data among the files) names what it
        # is about instead: `subject`, else the match data as a whole.
        self.path = None if path is None else Path(path)
        self.field = field
        super().__init__(subject or ("match data" if path is None else path), field, message)


class FormatWarning(UserWarning):
    """A file read by a default it should have stated (a 1.0 file without `attack`): the
    CLI prints it as one line on standard error and goes on."""
