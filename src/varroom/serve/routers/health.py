"""Whether the room is up, and what the page needs to know about it."""

from __future__ import annotations

from importlib import metadata as importlib_metadata
from typing import Any

from fastapi import APIRouter, Request

from varroom.serve.audit import provider_files
from varroom.serve.dependencies import RoomDep
from varroom.serve.schemas import responses

router = APIRouter(tags=["room"])


def version() -> str:
    try:
        return importlib_metadata.version("varroom")
    except importlib_metadata.PackageNotFoundError:
        return "0+unknown"


@router.get("/api/health", responses=responses())
def health(request: Request, room: RoomDep) -> dict[str, Any]:
    """Answers 200 while the room is up, with the state of its log: `chain` ok or broken,
    each problem (`table`, `row`, `problem`, `acknowledged`), whether decisions are taken.
    (A plain function: reading the log's state may touch the database.)"""
    return {
        "ok": True,
        "version": version(),
        "schema": request.app.state.schema_revision,
        "database": request.app.state.database,
        **room.store.log.status(),
    }


@router.get("/api/config", responses=responses())
async def config(room: RoomDep) -> dict[str, Any]:
    """What the page needs to know: limits, the providers an audit reads with the files each
    one takes (kloppy's names: raw_data, meta_data, event_data, ...), the room's profile and
    the profiles an upload may name instead."""
    files = provider_files()
    return {
        "limits": {
            "situation_bytes": room.limits.situation_bytes,
            "audit_bytes": room.limits.audit_bytes,
        },
        "providers": list(files),
        "provider_files": files,
        "file_roles": list(dict.fromkeys(role for roles in files.values() for role in roles)),
        "check_clock_s": 30,
        "profile": room.profiles.default.stamp(),
        "profiles": room.profiles.names(),
    }
