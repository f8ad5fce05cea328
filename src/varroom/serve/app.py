"""The review room as an ASGI application: `create_app`.

The database is migrated first; then the guard (middleware), the error handlers, one router
per resource and the static files are put together around the room's services.
"""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from varroom.profiles import Profile, ifab
from varroom.serve import db
from varroom.serve.audit import AuditRunner, default_audit_runner
from varroom.serve.chain import key_path, load_key
from varroom.serve.config import (
    DEFAULT_DATA_DIR,
    LOOPBACK_NAMES,
    MAX_AUDIT_BYTES,
    MAX_INFLATED_BYTES,
    MAX_SITUATION_BYTES,
    PRIVATE_DIR,
    READ_TIMEOUT_S,
    VERIFY_EVERY_S,
    Limits,
)
from varroom.serve.errors import install_handlers
from varroom.serve.middleware import Guard
from varroom.serve.routers import ROUTERS, stills
from varroom.serve.routers.health import version
from varroom.serve.routers.page import STATIC
from varroom.serve.schemas import ERROR_SCHEMA
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.room import Room
from varroom.serve.service.store import RoomLog
from varroom.serve.verify import keyed_log_exists


def create_app(
    db_url: str | None = None,
    token: str | None = None,
    data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
    *,
    audit_runner: AuditRunner | None = None,
    max_situation_bytes: int = MAX_SITUATION_BYTES,
    max_audit_bytes: int = MAX_AUDIT_BYTES,
    max_inflated_bytes: int = MAX_INFLATED_BYTES,
    allowed_hosts: tuple[str, ...] | None = None,
    prewarm_render: bool = False,
    read_timeout_s: float = READ_TIMEOUT_S,
    profile: Profile | None = None,
    log_key: str | os.PathLike[str] | None = None,
    checkpoints: str | os.PathLike[str] | None = None,
    verify_every_s: float = VERIFY_EVERY_S,
) -> FastAPI:
    """The review room as an ASGI application.

    `db_url` defaults to SQLite in `data_dir` (`sqlite:///<data_dir>/varroom.db`); the schema
    is migrated to the newest revision before this returns. With a `token`, every /api call
    needs `Authorization: Bearer <token>`; without one, only loopback host names are served
    (`allowed_hosts` overrides that list). An audit's compressed files may inflate to
    `max_inflated_bytes` in all (413 beyond). A request body that stalls for `read_timeout_s`
    is answered 408 and dropped. Incidents are judged under `profile` (`ifab` unless given)
    unless their upload names another (`varroom.serve.service.profiles`).

    The log is chained under the key in `log_key` (else $VARROOM_LOG_KEY_FILE, else
    `data_dir/keys/log.key`, made at the first start), with checkpoints written to
    `checkpoints` (else `data_dir/checkpoints`); it is checked whole at start and every
    `verify_every_s` seconds.
    """
    data = Path(data_dir)
    data.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)  # a folder made here: 0700
    ignore = data / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# varroom serve's data: not for version control\n*\n")
    url = db_url or db.default_url(data)
    engine, revision = db.open_database(url, upgrade=False)
    key_file = key_path(data, None if log_key is None else Path(log_key))
    # A key is made only for a log not yet written under one: one made for a keyed log
    # would find every row changed.
    key = load_key(key_file, create=not keyed_log_exists(engine, revision))
    with db.usable(url):
        revision = db.migrate(engine, key)
    log = RoomLog(engine, key, data / "checkpoints" if checkpoints is None else Path(checkpoints))
    limits = Limits(
        situation_bytes=max_situation_bytes,
        audit_bytes=max_audit_bytes,
        inflated_bytes=max_inflated_bytes,
        read_timeout_s=read_timeout_s,
    )
    profiles = RoomProfiles(ifab() if profile is None else profile)
    # The room's own audits find their incidents as its default profile applies the Laws.
    runner = audit_runner or functools.partial(default_audit_runner, profile=profiles.default)
    room = Room.open(engine, data, runner, limits, profiles, log, verify_every_s)
    if allowed_hosts is None and not token:
        allowed_hosts = LOOPBACK_NAMES
    if prewarm_render:
        room.pictures.renderer.prewarm()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        room.close()

    app = FastAPI(
        title="varroom review room",
        version=version(),
        description="Review the engine's offside verdicts, set the facts tracking cannot see, "
        "and keep the decision log (IFAB Law 11).",
        docs_url=None,  # Swagger UI comes from a CDN: the review room serves nothing remote
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.room = room
    app.state.schema_revision = revision
    app.state.database = url.split(":", 1)[0]
    app.add_middleware(Guard, token=token or None, allowed_hosts=allowed_hosts, limits=limits)
    install_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(stills.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    schema = app.openapi()
    schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    if token:
        schema["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        schema["security"] = [{"bearer": []}]
    return app
