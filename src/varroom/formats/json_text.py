"""Reading a JSON file or text: every fault an `InputError` naming the file (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from varroom.errors import InputError


def read_json(path: str | Path) -> Any:
    """The parsed JSON of a file: unreadable, not UTF-8 or not JSON is an `InputError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, "", f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(path, "$", "not JSON (not UTF-8 text)") from None
    return decode_json(text, str(path))


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


def decode_json(text: str, source: str) -> Any:
    """Parsed JSON text; text that is not JSON is an `InputError` with the line and column."""
    try:
        return json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, "$", f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
