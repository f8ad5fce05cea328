"""Reading a JSON file or text: every fault an `InputError` naming the file (exit 2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from varroom.errors import InputError


def read_json(path: str | Path) -> Any:
    """The parsed JSON of a file: unreadable, not UTF-8 or not JSON is an `InputError`."""
    return decode_json(read_text(path, "JSON"), str(path))


def read_text(path: str | Path, what: str) -> str:
    """A text file of a format (`what`: "JSON", "TOML"), whole: unreadable or not UTF-8 is an
    `InputError` naming the file."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, "", f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(path, "$", f"not {what} (not UTF-8 text)") from None


class JsonObject(dict[str, Any]):
    """A JSON object that remembers the keys it had more than once (a player in two places):
    the readers refuse them where a repeated key would silently drop a value."""

    duplicates: tuple[str, ...] = ()


def _object(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject(pairs)
    if len(obj) < len(pairs):
        keys = [key for key, _ in pairs]
        obj.duplicates = tuple(dict.fromkeys(key for key in keys if keys.count(key) > 1))
    return obj


Read = TypeVar("Read", covariant=True)
F = TypeVar("F", bound=Callable[..., Any])


class FileReader(Protocol[Read]):
    def __call__(self, path: str | Path) -> Read: ...


class TextReader(Protocol[Read]):
    def __call__(self, text: str, source: str = ...) -> Read: ...


def file_reader(build: Callable[[Any, str], Read], what: str) -> FileReader[Read]:
    """A format's reader of files, from its reader of parsed JSON (`build(data, source)`): the
    file named as the source of every fault."""

    def load(path: str | Path) -> Read:
        return build(read_json(path), str(path))

    return _named(load, build, "load", what, f"Read and check a {what} file.")


def text_reader(build: Callable[[Any, str], Read], what: str) -> TextReader[Read]:
    """A format's reader of JSON text, from its reader of parsed JSON; faults name `source`,
    `<what>` unless given."""

    def parse(text: str, source: str = f"<{what}>") -> Read:
        return build(decode_json(text, source), source)

    return _named(
        parse, build, "parse", what, f"Check JSON text and build the {what} it describes."
    )


def _named(reader: F, build: Callable[..., Any], verb: str, what: str, doc: str) -> F:
    """`reader` as the public function of `build`'s module it is bound to (`load_ball_line`),
    so that help() and tracebacks name it so."""
    reader.__name__ = reader.__qualname__ = f"{verb}_{what.replace(' ', '_')}"
    reader.__module__ = build.__module__
    reader.__doc__ = doc
    return reader


def decode_json(text: str, source: str) -> Any:
    """Parsed JSON text; text that is not JSON is an `InputError` with the line and column."""
    try:
        return json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, "$", f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
