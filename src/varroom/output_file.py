"""Writing a file completely or not at all: a hidden temporary file beside the target, renamed
over it once it is whole. Every failure is an `OutputError` with a one-line message.

The pictures (`varroom.pictures`) and the audit's report and images
(`varroom.audit.report_html`) are all written this way.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from varroom.errors import VarroomError

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class OutputError(VarroomError):
    """An output file (a picture, a clip, a scene, a report) could not be made or written
    (the CLI prints it as one line, exit 1)."""

    exit_code = 1


def check_target(path: str | os.PathLike[str], what: str, suffixes: tuple[str, ...]) -> Path:
    """The path to write, checked before any drawing: its directory exists, it is not a
    directory, and its suffix is one we can write (any, when `suffixes` is empty)."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{_cannot_write(what, target)}: it is a directory")
    if not target.parent.is_dir():
        raise OutputError(f"{_cannot_write(what, target)}: no directory {target.parent}")
    if suffixes and target.suffix.lower() not in suffixes:
        wanted = " or ".join(suffixes)
        raise OutputError(f"{_cannot_write(what, target)}: the file name must end in {wanted}")
    return target


def temporary_path(target: Path) -> Path:
    """A fresh hidden name beside `target`, keeping its suffix (ffmpeg picks the format by it)."""
    return target.with_name(f".{target.stem}.{secrets.token_hex(6)}.part{target.suffix}")


def write_atomically(
    target: Path,
    what: str,
    write: Callable[[BinaryIO], None] | Callable[[Path], None],
    *,
    by_path: bool = False,
) -> None:
    """Call `write` with an open binary stream (or, with `by_path`, a path to create), then
    rename the result over `target`. No partial file is ever left at `target` or beside it.

    An OSError is an `OutputError` naming the `what` and the target ('cannot write the
    picture x.png: ...'; with no `what`, 'cannot write x.png: ...'); any other error passes
    through, the temporary file removed."""
    temporary: Path | None = None
    try:
        if by_path:
            temporary = temporary_path(target)
            write(temporary)  # type: ignore[arg-type]
        else:
            handle, temporary = _temporary_file(target)
            with os.fdopen(handle, "wb") as stream:
                write(stream)  # type: ignore[arg-type]
        os.replace(temporary, target)
    except OSError as exc:
        raise OutputError(f"{_cannot_write(what, target)}: {exc.strerror or exc}") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)


# What a matplotlib picture can be written as, by the target's suffix.
FIGURE_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg", ".pdf": "pdf"}
FIGURE_SUFFIXES = tuple(FIGURE_FORMATS)
CLIP_SUFFIXES = (".gif", ".mp4")
HTML_SUFFIXES = (".html", ".htm")


def write_figure(target: Path, what: str, figure: Figure, dpi: float) -> None:
    """A matplotlib figure written to `target` in the format its suffix names (PNG, JPEG, SVG
    or PDF; `check_target` with `FIGURE_SUFFIXES` refused any other), on its own background,
    atomically."""
    write_atomically(
        target,
        what,
        lambda stream: figure.savefig(
            stream,
            format=FIGURE_FORMATS[target.suffix.lower()],
            dpi=dpi,
            facecolor=figure.get_facecolor(),
        ),
    )


def _temporary_file(target: Path) -> tuple[int, Path]:
    """A new hidden file beside `target`, created with the permissions the umask gives a new
    file (mkstemp's would be 0600; changing the umask to read it is not thread-safe)."""
    for _ in range(8):
        temporary = temporary_path(target)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def _cannot_write(what: str, target: Path) -> str:
    return f"cannot write the {what} {target}" if what else f"cannot write {target}"
