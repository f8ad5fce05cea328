"""The review room's error answers: one JSON shape, `{"error": sentence, "where": JSON path}`."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from varroom.errors import InputError, VarroomError

log = logging.getLogger("varroom.serve")


class ApiError(StarletteHTTPException):
    """An answer other than success: HTTP status, a sentence, and where in the input.

    An HTTP exception, so that FastAPI lets it through from reading a body (`json_input`).
    """

    def __init__(
        self,
        status: int,
        error: str,
        where: str | None = None,
        more: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(status, error)
        self.status = status
        self.error = error
        self.where = where
        self.more = more or {}  # what the client needs to act on it (a 409's current facts)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error}
        if self.where is not None:
            body["where"] = self.where
        return {**body, **self.more}


@contextmanager
def unjudgeable_as_422(failed: str, source: str) -> Iterator[None]:
    """Judging that fails answers 422: a fault in the input with its JSON path, the engine's
    own refusal in its words, and anything else as `failed`, logged: the engine must not take
    the server down with it, nor show its insides."""
    try:
        yield
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None
    except VarroomError as error:
        raise ApiError(422, str(error), "$") from None
    except Exception:
        log.exception("%s (%s)", failed, source)
        raise ApiError(422, f"{failed}: the server's log has the details", "$") from None


def where_of(loc: tuple[Any, ...]) -> str:
    """FastAPI's location of a fault as a JSON path: `$.a[0].b` in the body, `query:name`."""
    if not loc:
        return "$"
    where, rest = ("$", loc[1:]) if loc[0] == "body" else (f"{loc[0]}:", loc[1:])
    for part in rest:
        if isinstance(part, int):
            where += f"[{part}]"
        elif where.endswith(":"):
            where += str(part)
        else:
            where += f".{part}"
    return where


def install_handlers(app: FastAPI) -> None:
    """Every error FastAPI and the room raise answers in the one JSON shape."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        return JSONResponse(
            {"error": first.get("msg", "invalid"), "where": where_of(tuple(first.get("loc", ())))},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(error.detail)}, status_code=error.status_code, headers=error.headers
        )
