"""The JSON a client sends, read and checked before anything is stored.

Python's reader accepts what neither the database nor the answers can hold: integers past
its digit limit (a `ValueError`, not a `JSONDecodeError`), `NaN`, `Infinity` and numbers
past a float's range such as `1e999` (not JSON: stored, they would be read back by no other
reader), lone surrogates such as `"\\ud800"` (UTF-8 cannot encode them), NUL characters
(PostgreSQL's text cannot hold them), and nesting deeper than the answer's serializer goes.
Each is a 422 with the JSON path, before the situation is judged or stored.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from varroom.serve.errors import ApiError

# Far deeper than a situation goes ($.touches[0].positions.ID.parts.head[0] is 6), far
# shallower than the serializer's own limit (about 255, where GET would fail for ever).
MAX_DEPTH = 64
MAX_DIGITS = sys.get_int_max_str_digits() or 4300
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class _TooManyDigits:
    """An integer literal too long to read: kept as a mark, found (with its path) by `check`."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _integer(text: str) -> int | _TooManyDigits:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else _TooManyDigits(digits)


def read_json(body: bytes) -> Any:
    """The request body as JSON, or a 422 saying why not (`check` finds what it cannot hold)."""
    try:
        return json.loads(body.decode("utf-8"), parse_int=_integer)
    except UnicodeDecodeError:
        raise ApiError(422, "not JSON (not UTF-8 text)", "$") from None
    except json.JSONDecodeError as error:
        raise ApiError(
            422, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})", "$"
        ) from None
    except RecursionError:
        raise ApiError(422, "not JSON that can be read (nested too deeply)", "$") from None


def check(data: Any) -> None:
    """A 422 at the first place (in document order) that cannot be stored and answered."""
    stack: list[tuple[Any, str, int]] = [(data, "$", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ApiError(422, f"nested deeper than {MAX_DEPTH} levels", where)
        if isinstance(value, str):
            _text(value, where)
        elif isinstance(value, _TooManyDigits):
            raise ApiError(422, f"a number with {value.digits} digits: at most {MAX_DIGITS}", where)
        elif isinstance(value, float) and not math.isfinite(value):
            # In the words of the situation reader's own check, which the CLI prints.
            raise ApiError(422, f"expected a finite number, got {value}", where)
        elif isinstance(value, dict):
            children = []
            for key, item in value.items():
                path = f"{where}.{_key(key)}"
                _text(key, path)
                children.append((item, path, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend(
                (item, f"{where}[{i}]", depth + 1) for i, item in reversed(list(enumerate(value)))
            )


def _text(text: str, where: str) -> None:
    found = _UNSTORABLE.search(text)
    if found is None:
        return
    if found.group() == "\x00":
        raise ApiError(422, "text with a NUL character (U+0000)", where)
    raise ApiError(
        422, f"text with a lone surrogate (U+{ord(found.group()):04X}): not Unicode", where
    )


def _key(key: str) -> str:
    """A key as the path shows it: itself, or JSON-escaped when it holds what cannot be shown."""
    return key if _UNSTORABLE.search(key) is None else json.dumps(key)[1:-1]


class _CheckedRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            data = read_json(await self.body())
            check(data)
            self._json = data
        return self._json


class CheckedJsonRoute(APIRoute):
    """A route whose JSON body FastAPI reads with `read_json` and `check`: a fault is a 422
    with its path, where FastAPI's own reader would answer 400 without one."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            return await handler(_CheckedRequest(request.scope, request.receive))

        return checked
