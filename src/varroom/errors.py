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


class DataError(InputError):
    """A match data file (or the set of them) that cannot be loaded: names the file."""

    def __init__(self, path: str | Path | None, message: str, field: str = "") -> None:
        # Only an unknown provider has no file to blame; the message then says what was given.
        self.path = None if path is None else Path(path)
        self.field = field
        super().__init__("match data" if path is None else path, field, message)
