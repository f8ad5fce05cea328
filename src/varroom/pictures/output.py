"""Writing a picture file completely or not at all: a hidden temporary file beside the target,
renamed over it once it is whole. Every failure is a `PictureError` with a one-line message."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from varroom.errors import VarroomError


class PictureError(VarroomError):
    """A picture (screen, clip, scene, broadcast) could not be made or written (exit 1)."""

    exit_code = 1


def check_target(path: str | os.PathLike[str], what: str, suffixes: tuple[str, ...]) -> Path:
    """The path to write, checked before any drawing: its directory exists, it is not a
    directory, and its suffix is one we can write."""
    target = Path(path)
    if suffixes and target.suffix.lower() not in suffixes:
        wanted = " or ".join(suffixes)
        raise PictureError(f"cannot write the {what} {target}: the file name must end in {wanted}")
    if not target.parent.is_dir():
        raise PictureError(f"cannot write the {what} {target}: no directory {target.parent}")
    if target.is_dir():
        raise PictureError(f"cannot write the {what} {target}: it is a directory")
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
    rename the result over `target`. No partial file is ever left at `target` or beside it."""
    temporary = temporary_path(target)
    try:
        if by_path:
            write(temporary)  # type: ignore[arg-type]
        else:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            handle = os.open(temporary, flags, 0o666)
            with os.fdopen(handle, "wb") as stream:
                write(stream)  # type: ignore[arg-type]
        os.replace(temporary, target)
    except OSError as exc:
        raise PictureError(f"cannot write the {what} {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
