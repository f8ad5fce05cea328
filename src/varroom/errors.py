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
