"""The commands' progress bars, on stderr."""

from __future__ import annotations

from rich.console import Console
from rich.progress import Progress, ProgressColumn


def progress_bar(quiet: bool, *columns: str | ProgressColumn) -> Progress:
    """A progress bar on stderr that leaves nothing behind: none with --quiet, nor where
    stderr is no terminal (a log, a pipe) to redraw it in place."""
    console = Console(stderr=True)
    return Progress(
        *columns, console=console, transient=True, disable=quiet or not console.is_terminal
    )
