"""The review room's HTTP side: FastAPI routes, the guard (token, hosts, sizes), the server.

`create_app` builds the application (running the database migrations first);
`run_server` serves it with uvicorn, on 127.0.0.1 unless given a token.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import re
import shutil
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import exc as sa_exc
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException

from varroom.errors import VarroomError
from varroom.serve import db
from varroom.serve.audit import AuditRunner, default_audit_runner, providers
from varroom.serve.facts import Facts
from varroom.serve.room import (
    MAX_AUDIT_BYTES,
    MAX_SITUATION_BYTES,
    ApiError,
    DecisionIn,
    Limits,
    Room,
    safe_name,
)

log = logging.getLogger("varroom.serve")

STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_DATA_DIR = Path("varroom-data")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
MAX_ID = 2**62
UPLOAD_SUFFIXES = {
    ".json",
    ".jsonl",
    ".xml",
    ".txt",
    ".csv",
    ".dat",
    ".gz",
    ".bz2",
    ".xz",
    ".zip",
    ".parquet",
}
ROLE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
SituationId = Annotated[int, PathParam(ge=1, le=MAX_ID)]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

SITUATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A situation, format version 1 (shared/spec/situation.md).",
    "required": ["players", "touches"],
    "properties": {
        "pitch": {
            "type": "object",
            "properties": {"length": {"type": "number"}, "width": {"type": "number"}},
        },
        "attack": {
            "type": "object",
            "properties": {"team": {"type": "string"}, "towards": {"enum": ["+x", "-x"]}},
        },
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "team"],
                "properties": {
                    "id": {"type": "string"},
                    "team": {"type": "string"},
                    "goalkeeper": {"type": "boolean"},
                    "name": {"type": "string"},
                    "number": {"type": "integer"},
                },
            },
        },
        "touches": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["t", "action", "ball", "positions"],
                "properties": {
                    "t": {"type": "number"},
                    "player": {"type": ["string", "null"]},
                    "action": {"type": "string"},
                    "ball": {"type": "array", "items": {"type": "number"}},
                    "positions": {"type": "object"},
                    "involvement": {"type": "array"},
                },
            },
        },
        "on_field": {"type": "object"},
        "meta": {"type": "object"},
    },
}

ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {
        401: "no token, or the wrong one",
        404: "not found",
        409: "conflicts with the log",
        413: "too large",
        415: "not JSON",
        422: "not valid: `where` is the JSON path of the fault",
    }
    return {code: {"description": words[code], **ERROR} for code in (401, *codes)}


def _safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


def _version() -> str:
    try:
        return importlib_metadata.version("varroom")
    except importlib_metadata.PackageNotFoundError:
        return "0+unknown"


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# -- the guard ------------------------------------------------------------------------------


class Guard:
    """Pure ASGI middleware in front of everything.

    - Host: without a token, only loopback names are served (no DNS rebinding).
    - /api: a bearer token when one is set (401); a cross-site Origin on a write (403);
      bodies over the size limit (413), by Content-Length or by counting as they arrive.
    - Security headers on every response; /api answers are never cached.
    """

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        token: str | None,
        allowed_hosts: tuple[str, ...] | None,
        limits: Limits,
    ) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.allowed_hosts = allowed_hosts
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        api = path == "/api" or path.startswith("/api/")
        headers = Headers(scope=scope)
        state = {"started": False, "done": False}

        async def guarded_send(message: Message) -> None:
            if state["done"]:
                return
            if message["type"] == "http.response.start":
                state["started"] = True
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (
                        b"content-security-policy",
                        b"default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
                        b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                        b"base-uri 'none'; form-action 'none'",
                    ),
                ]
                if api:
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [
                    *[
                        (k, v)
                        for k, v in message.get("headers", [])
                        if not (api and k.lower() == b"cache-control")
                    ],
                    *extra,
                ]
            await send(message)

        async def refuse(status: int, error: str, more: list[tuple[bytes, bytes]] = ()) -> None:  # type: ignore[assignment]
            if state["started"]:
                state["done"] = True
                return
            body = json.dumps({"error": error}).encode()
            await guarded_send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close"),
                        *more,
                    ],
                }
            )
            await guarded_send({"type": "http.response.body", "body": body})
            state["done"] = True

        host = _host_name(headers.get("host", ""))
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            await refuse(400, f"this server answers to {', '.join(self.allowed_hosts)} only")
            return
        if not api:
            await self.app(scope, receive, guarded_send)
            return

        # Without a token the browser's own cookies-free requests are the only credential:
        # refuse writes that another site's page makes (its Origin is not ours, or "null").
        origin = headers.get("origin")
        if (
            self.token is None
            and origin
            and scope["method"] not in ("GET", "HEAD", "OPTIONS")
            and _host_port(origin) != headers.get("host", "").lower()
        ):
            await refuse(403, "cross-site request refused")
            return
        if self.token is not None and not self._authorised(headers.get("authorization", "")):
            await refuse(
                401,
                "this review room needs its token: Authorization: Bearer <token>",
                [(b"www-authenticate", b'Bearer realm="varroom"')],
            )
            return

        limit = (
            self.limits.audit_bytes
            if path.startswith("/api/audits")
            else self.limits.situation_bytes
        )
        length = headers.get("content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await refuse(400, "bad Content-Length")
                return
            if declared > limit:
                await refuse(413, f"request body over the limit of {limit} bytes")
                return
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            if state["done"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    await refuse(413, f"request body over the limit of {limit} bytes")
                    return {"type": "http.disconnect"}
            return message

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not state["done"]:
                raise

    def _authorised(self, header: str) -> bool:
        assert self.token is not None
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.strip().encode(), self.token)


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _host_port(origin: str) -> str:
    origin = origin.strip().lower()
    return origin.split("://", 1)[1] if "://" in origin else origin


# -- the application ------------------------------------------------------------------------


def create_app(
    db_url: str | None = None,
    token: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
    *,
    audit_runner: AuditRunner | None = None,
    max_situation_bytes: int = MAX_SITUATION_BYTES,
    max_audit_bytes: int = MAX_AUDIT_BYTES,
    allowed_hosts: tuple[str, ...] | None = None,
    prewarm_render: bool = False,
) -> FastAPI:
    """The review room as an ASGI application.

    `db_url` defaults to SQLite in `data_dir` (`sqlite:///<data_dir>/varroom.db`); the schema
    is migrated to the newest revision before this returns. With a `token`, every /api call
    needs `Authorization: Bearer <token>`; without one, only loopback host names are served
    (`allowed_hosts` overrides that list).
    """
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    ignore = data / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# varroom serve's data: not for version control\n*\n")
    url = db_url or db.default_url(data)
    try:
        engine = db.make_engine(url)
        revision = db.migrate(engine)
    except (ImportError, sa_exc.ArgumentError, sa_exc.NoSuchModuleError) as error:
        raise VarroomError(f"cannot use the database {_safe_url(url)}: {error}") from None
    except sa_exc.OperationalError as error:
        raise VarroomError(f"cannot open the database {_safe_url(url)}: {error.orig}") from None
    limits = Limits(situation_bytes=max_situation_bytes, audit_bytes=max_audit_bytes)
    room = Room(engine, data, audit_runner or default_audit_runner, limits)
    if allowed_hosts is None and not token:
        allowed_hosts = LOOPBACK_NAMES
    renderer = _Renderer()
    if prewarm_render:
        threading.Thread(target=renderer.get, name="varroom-render-import", daemon=True).start()

    @asynccontextmanager
    async def lifespan(_app: FastAPI):  # type: ignore[no-untyped-def]
        yield
        room.close()

    app = FastAPI(
        title="varroom review room",
        version=_version(),
        description="Review the engine's offside verdicts, set the facts tracking cannot see, "
        "and keep the decision log (IFAB Law 11).",
        docs_url=None,  # Swagger UI comes from a CDN: the review room serves nothing remote
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.room = room
    app.state.renderer = renderer
    app.state.schema_revision = revision
    app.add_middleware(Guard, token=token or None, allowed_hosts=allowed_hosts, limits=limits)

    _handlers(app)
    _routes(app, room, renderer, limits, revision, url)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    schema = app.openapi()
    schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string"}, "where": {"type": "string"}},
    }
    if token:
        schema["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        schema["security"] = [{"bearer": []}]
    return app


class _Renderer:
    """`varroom.render.render_png`, imported once on first use; None when it will not import."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded = False
        self._render: Callable[..., None] | None = None

    def get(self) -> Callable[..., None] | None:
        with self._lock:
            if not self._loaded:
                try:
                    from varroom.render import render_png

                    self._render = render_png
                except Exception:
                    log.warning("no pictures: varroom.render does not import", exc_info=True)
                self._loaded = True
            return self._render


def _where(loc: tuple[Any, ...]) -> str:
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


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        return JSONResponse(
            {"error": first.get("msg", "invalid"), "where": _where(tuple(first.get("loc", ())))},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(error.detail)}, status_code=error.status_code, headers=error.headers
        )


def _routes(
    app: FastAPI, room: Room, renderer: _Renderer, limits: Limits, revision: str, url: str
) -> None:
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    @app.get("/api/health", tags=["room"], responses=_errors())
    async def health() -> dict[str, Any]:
        """Answers 200 while the room is up."""
        return {
            "ok": True,
            "version": _version(),
            "schema": revision,
            "database": url.split(":", 1)[0],
        }

    @app.get("/api/config", tags=["room"], responses=_errors())
    async def config() -> dict[str, Any]:
        """What the page needs to know: limits, providers for an audit, whether there is a picture."""
        return {
            "limits": {
                "situation_bytes": limits.situation_bytes,
                "audit_bytes": limits.audit_bytes,
            },
            "providers": providers(),
            "file_roles": [
                "raw_data",
                "meta_data",
                "event_data",
                "lineup_data",
                "three_sixty_data",
            ],
            "check_clock_s": 30,
        }

    @app.post(
        "/api/situations",
        status_code=201,
        tags=["queue"],
        responses=_errors(413, 415, 422),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": SITUATION_SCHEMA}},
            }
        },
    )
    async def add_situation(
        request: Request,
        filename: Annotated[
            str | None, Query(max_length=300, description="for display only")
        ] = None,
    ) -> JSONResponse:
        """Queue a situation (format version 1) and judge it: 201 with its id and verdict."""
        content_type = request.headers.get("content-type", "application/json").split(";")[0].strip()
        if content_type != "application/json" and not content_type.endswith("+json"):
            raise ApiError(415, "send the situation as application/json")
        body = await request.body()
        try:
            data = json.loads(body.decode("utf-8"))
        except UnicodeDecodeError:
            raise ApiError(422, "not JSON (not UTF-8 text)", "$") from None
        except json.JSONDecodeError as error:
            raise ApiError(
                422, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})", "$"
            ) from None
        except RecursionError:
            raise ApiError(422, "not JSON that can be read (nested too deeply)", "$") from None
        detail = await run_in_threadpool(room.add_situation, data, safe_name(filename))
        return JSONResponse(
            _brief(detail), status_code=201, headers={"location": f"/api/situations/{detail['id']}"}
        )

    @app.get("/api/situations", tags=["queue"], responses=_errors())
    def list_situations() -> list[dict[str, Any]]:
        """The queue, newest first: title, status, verdict summary, decided or not."""
        return room.list_situations()

    @app.get("/api/situations/{situation_id}", tags=["queue"], responses=_errors(404, 422))
    def get_situation(situation_id: SituationId) -> dict[str, Any]:
        """One incident: the situation, the facts set, the verdict now and the engine's own."""
        return room.situation(situation_id)

    @app.get(
        "/api/situations/{situation_id}/image.png",
        tags=["queue"],
        response_class=FileResponse,
        responses={**_errors(404, 422), 200: {"content": {"image/png": {}}, "description": "PNG"}},
    )
    def image(situation_id: SituationId) -> FileResponse:
        """The picture of the decision with the facts set now (drawn on demand, then cached)."""
        render = renderer.get()
        if render is None:
            raise ApiError(404, "no picture: the renderer (varroom.render) is not available")
        path = room.image(situation_id, render)
        return FileResponse(
            path, media_type="image/png", headers={"cache-control": "private, no-cache"}
        )

    @app.post("/api/situations/{situation_id}/facts", tags=["review"], responses=_errors(404, 422))
    def set_facts(situation_id: SituationId, facts: Facts, response: Response) -> dict[str, Any]:
        """Set the facts tracking cannot see; the verdict is judged again at once.

        Answers the new verdict, the one before, the engine's own, what the facts change,
        and how long judging took (`timing_ms`, also in the Server-Timing header).
        """
        result = room.set_facts(situation_id, facts)
        timing = result["timing_ms"]
        response.headers["server-timing"] = (
            f"judge;dur={timing['judge']}, total;dur={timing['total']}"
        )
        return result

    @app.post(
        "/api/situations/{situation_id}/decisions",
        status_code=201,
        tags=["review"],
        responses={
            **_errors(404, 409, 422),
            200: {"description": "already recorded (same client_ref)"},
        },
    )
    def add_decision(
        situation_id: SituationId, entry: DecisionIn, response: Response
    ) -> dict[str, Any]:
        """Append a decision to the log. A correction is a new entry (`corrects`: the old id)."""
        decision, created = room.add_decision(situation_id, entry)
        if not created:
            response.status_code = 200
        return decision

    @app.get(
        "/api/situations/{situation_id}/decisions", tags=["review"], responses=_errors(404, 422)
    )
    def situation_decisions(situation_id: SituationId) -> list[dict[str, Any]]:
        """The decisions on one incident, oldest first."""
        room.situation(situation_id)
        return room.decisions(situation_id)

    @app.get("/api/decisions.json", tags=["log"], responses=_errors(422))
    def decisions_json(
        situation_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
        last: Annotated[
            int | None, Query(ge=1, le=100_000, description="only the newest N")
        ] = None,
    ) -> list[dict[str, Any]]:
        """The decision log, oldest first."""
        return room.decisions(situation_id, limit=last)

    @app.get(
        "/api/decisions.csv",
        tags=["log"],
        response_class=Response,
        responses={**_errors(422), 200: {"content": {"text/csv": {}}, "description": "CSV"}},
    )
    def decisions_csv(
        situation_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    ) -> Response:
        """The decision log as CSV (one row per entry, facts as JSON in the last column)."""
        return Response(
            room.decisions_csv(situation_id),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="varroom-decisions.csv"'},
        )

    @app.post("/api/audits", status_code=202, tags=["audit"], responses=_errors(413, 422))
    async def start_audit(
        provider: Annotated[str, Form(min_length=1, max_length=40)],
        files: Annotated[list[UploadFile], File(description="the match's files")],
        roles: Annotated[
            list[str] | None,
            Form(description="kloppy's name for each file, in order (raw_data, meta_data, ...)"),
        ] = None,
    ) -> JSONResponse:
        """Audit a match from a provider's files in the background: 202 with the audit's id."""
        known = providers()
        if known and provider not in known:
            raise ApiError(
                422,
                f"unknown provider {provider!r}; expected one of {', '.join(known)}",
                "$.provider",
            )
        if not files:
            raise ApiError(422, "no files", "$.files")
        if len(files) > limits.audit_files:
            raise ApiError(422, f"at most {limits.audit_files} files", "$.files")
        roles = roles or (["raw_data"] if len(files) == 1 else [])
        if len(roles) != len(files):
            raise ApiError(
                422, "give one role per file (raw_data, meta_data, event_data, ...)", "$.roles"
            )
        for i, role in enumerate(roles):
            if not ROLE.match(role):
                raise ApiError(422, f"not a file role: {role[:40]!r}", f"$.roles[{i}]")
        audit_id, folder = room.new_audit_dir()
        stored = []
        try:
            for i, (upload, role) in enumerate(zip(files, roles, strict=True)):
                suffix = _suffix(upload.filename)
                name = f"{i}{suffix}"  # generated: the client's file name is never a path
                size = await run_in_threadpool(_save, upload, folder / name)
                stored.append(
                    {
                        "role": role,
                        "stored": name,
                        "name": safe_name(upload.filename),
                        "bytes": size,
                    }
                )
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        audit = await run_in_threadpool(room.queue_audit, audit_id, provider, stored)
        return JSONResponse(audit, status_code=202, headers={"location": f"/api/audits/{audit_id}"})

    @app.get("/api/audits/{audit_id}", tags=["audit"], responses=_errors(404, 422))
    def get_audit(audit_id: Annotated[str, PathParam(pattern=r"^[0-9a-f]{32}$")]) -> dict[str, Any]:
        """An audit's state (queued, running, done, failed), progress 0 to 1,
        and how many incidents it added to the queue."""
        return room.audit(audit_id)


def _brief(detail: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "title", "source_name", "status", "summary", "verdict", "created_at", "decided")
    return {k: detail[k] for k in keys}


def _suffix(filename: str | None) -> str:
    suffixes = [s.lower() for s in Path(safe_name(filename) or "").suffixes[-2:]]
    kept = "".join(s for s in suffixes if s in UPLOAD_SUFFIXES)
    return kept


def _save(upload: UploadFile, path: Path) -> int:
    upload.file.seek(0)
    with open(path, "xb") as out:
        shutil.copyfileobj(upload.file, out, 1024 * 1024)
        return out.tell()


# -- the server -----------------------------------------------------------------------------


def run_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    token: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
) -> None:
    """Serve the review room until interrupted.

    Any host but a loopback one needs a token (`token`, else the VARROOM_TOKEN environment
    variable): without one this raises VarroomError and serves nothing.
    """
    import uvicorn

    token = token or os.environ.get("VARROOM_TOKEN") or None
    if not is_loopback(host) and not token:
        raise VarroomError(
            f"serving on {host} opens the review room to the network: give a token "
            "(--token or VARROOM_TOKEN), or serve on 127.0.0.1"
        )
    if token is not None and len(token) < 16:
        print("varroom: warning: a token under 16 characters is easy to guess", file=sys.stderr)
    app = create_app(db_url, token, data_dir, prewarm_render=True)
    shown = f"[{host}]" if ":" in host else host
    print(
        f"varroom review room: http://{shown}:{port}/"
        + ("  (the page asks for the token)" if token else "")
    )
    uvicorn.run(
        app, host=host, port=port, log_level="warning", server_header=False, proxy_headers=False
    )
