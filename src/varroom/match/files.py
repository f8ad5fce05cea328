"""Checking match data files before kloppy reads them, and blaming one when it fails.

kloppy's errors do not say which of a loader's files is at fault, so every file is first
checked cheaply (there, not empty, starts and ends like its format, carries the markers of
its provider's format near its start) and, should kloppy still fail, each file is parsed
on its own to find the one that is not well-formed.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import xml.etree.ElementTree as ElementTree
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from varroom.errors import DataError

_HEAD_BYTES = 64 * 1024
_PIECE_BYTES = 1024 * 1024  # inflated at a time, to count a compressed file's size
_TAIL_BYTES = 1024
_BOM = b"\xef\xbb\xbf"

# Compressed files as kloppy opens them, by suffix.
_OPENERS: dict[str, Callable[[Path], io.BufferedIOBase]] = {
    ".gz": gzip.GzipFile,
    ".bz2": bz2.BZ2File,
    ".xz": lzma.LZMAFile,
}


class FileFormat(Enum):
    JSON = "JSON"  # one document, or JSON lines
    XML = "XML"
    TEXT = "text"  # anything: only checked to be there and not empty


_FIRST_LAST: dict[FileFormat, tuple[bytes, bytes]] = {
    FileFormat.JSON: (b"[{", b"]}"),
    FileFormat.XML: (b"<", b">"),
}


@dataclass(frozen=True, slots=True)
class FileSpec:
    """One file argument of a kloppy loader."""

    name: str  # kloppy's argument name: event_data, meta_data, raw_data, ...
    format: FileFormat
    markers: tuple[bytes, ...] = ()  # all found in the first 64 KiB of a file of this kind
    required: bool = True
    many: bool = False  # a list of files (feeds), as some loaders take


def check_file(path: Path, spec: FileSpec, provider: str) -> None:
    """Raise DataError unless `path` can be a `provider` `spec.name` file."""
    if not path.is_file():
        raise DataError(path, f"no such file (given as {provider} {spec.name})")
    if path.stat().st_size == 0:
        raise DataError(path, f"empty file (given as {provider} {spec.name})")
    with _open(path) as stream:
        head = stream.read(_HEAD_BYTES).removeprefix(_BOM).lstrip()
    if not head:
        raise DataError(path, f"nothing but white space (given as {provider} {spec.name})")
    if spec.format in _FIRST_LAST:
        first, last = _FIRST_LAST[spec.format]
        if head[0] not in first:
            raise DataError(path, f"not {spec.format.value} (given as {provider} {spec.name})")
        # A compressed file's end is only known after inflating all of it: kloppy will tell.
        if path.suffix not in _OPENERS and _tail(path)[-1] not in last:
            raise DataError(path, f"truncated: the {spec.format.value} ends before it is closed")
    missing = [marker.decode() for marker in spec.markers if marker not in head]
    if missing:
        raise DataError(
            path,
            f"does not look like {provider} {spec.name}: no {', '.join(missing)} near its start",
        )


@dataclass(frozen=True, slots=True)
class Contents:
    """A file's bytes (inflated, if it is compressed), read once for every reader of it."""

    path: Path  # named in any reader's errors
    data: bytes


def read_contents(path: Path) -> Contents:
    """The file's bytes; DataError naming it when it cannot be read or inflated."""
    try:
        with _open(path) as stream:
            return Contents(path, stream.read())
    except (OSError, EOFError, lzma.LZMAError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise DataError(path, f"cannot read the file: {reason}") from None


def is_compressed(path: Path) -> bool:
    """Whether kloppy inflates the file as it reads it (by its suffix)."""
    return path.suffix in _OPENERS


def inflated_size(path: Path, limit: int) -> int | None:
    """The bytes a compressed file inflates to, inflated a piece at a time and dropped, so
    that a decompression bomb costs no memory; None once past `limit`, without inflating
    further. DataError naming the file when it does not inflate."""
    total = 0
    try:
        with _open(path) as stream:
            while piece := stream.read(_PIECE_BYTES):
                total += len(piece)
                if total > limit:
                    return None
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise DataError(path, f"cannot inflate the file: {reason}") from None
    return total


def find_malformed(files: list[tuple[Path, FileSpec]]) -> DataError | None:
    """The first file that does not parse as its format, as the error to raise."""
    for path, spec in files:
        parse = _PARSERS.get(spec.format)
        if parse is None:
            continue
        try:
            with _open(path) as stream:
                parse(stream.read())
        except (ValueError, ElementTree.ParseError) as error:
            return DataError(path, f"malformed {spec.format.value}: {error}")
    return None


def _parse_json(data: bytes) -> None:
    try:
        json.loads(data)
    except json.JSONDecodeError as error:
        try:  # JSON lines: one document per line
            for line in data.splitlines():
                if line.strip():
                    json.loads(line)
        except json.JSONDecodeError:
            raise error from None


_PARSERS: dict[FileFormat, Callable[[bytes], object]] = {
    FileFormat.JSON: _parse_json,
    FileFormat.XML: ElementTree.fromstring,
}


def _open(path: Path) -> io.BufferedIOBase:
    opener = _OPENERS.get(path.suffix)
    return path.open("rb") if opener is None else opener(path)


def _tail(path: Path) -> bytes:
    with path.open("rb") as stream:
        stream.seek(max(0, path.stat().st_size - _TAIL_BYTES))
        return stream.read().rstrip()
