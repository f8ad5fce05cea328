"""Match audits: a provider's files in, incidents into the queue in the background."""

from __future__ import annotations

import re
import shutil
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, UploadFile
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from varroom.serve.audit import provider_files
from varroom.serve.dependencies import AuditId, RoomDep
from varroom.serve.errors import ApiError
from varroom.serve.schemas import responses
from varroom.serve.service.audits import inflated_bytes, save_upload, stored_name
from varroom.serve.service.display import safe_name

router = APIRouter(tags=["audit"])

ROLE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def checked_roles(provider: str, files: int, roles: list[str] | None, most: int) -> list[str]:
    """The file roles, one per file (a lone file is `raw_data`), or a 422 naming the fault."""
    known = list(provider_files())
    if known and provider not in known:
        raise ApiError(
            422, f"unknown provider {provider!r}; expected one of {', '.join(known)}", "$.provider"
        )
    if not files:
        raise ApiError(422, "no files", "$.files")
    if files > most:
        raise ApiError(422, f"at most {most} files", "$.files")
    roles = roles or (["raw_data"] if files == 1 else [])
    if len(roles) != files:
        raise ApiError(
            422, "give one role per file (raw_data, meta_data, event_data, ...)", "$.roles"
        )
    takes = provider_files().get(provider)
    for i, role in enumerate(roles):
        if not ROLE.match(role):
            raise ApiError(422, f"not a file role: {role[:40]!r}", f"$.roles[{i}]")
        if takes and role not in takes:
            raise ApiError(422, f"{provider} takes {', '.join(takes)}, not {role}", f"$.roles[{i}]")
    return roles


@router.post("/api/audits", status_code=202, responses=responses(413, 422))
async def start_audit(
    room: RoomDep,
    provider: Annotated[str, Form(min_length=1, max_length=40)],
    files: Annotated[list[UploadFile], File(description="the match's files")],
    roles: Annotated[
        list[str] | None,
        Form(description="kloppy's name for each file, in order (raw_data, meta_data, ...)"),
    ] = None,
) -> JSONResponse:
    """Audit a match from a provider's files in the background: 202 with the audit's id.
    A compressed file (.gz, .bz2, .xz) that does not inflate is 422; past the limit on what
    an audit's compressed files inflate to, 413."""
    roles = checked_roles(provider, len(files), roles, room.limits.audit_files)
    audit_id, folder = room.audits.new_folder()
    stored: list[dict[str, Any]] = []
    inflated = 0
    try:
        for i, (upload, role) in enumerate(zip(files, roles, strict=True)):
            name = stored_name(i, upload.filename)
            size = await run_in_threadpool(save_upload, upload.file, folder / name)
            inflated += await run_in_threadpool(
                inflated_bytes, folder / name, inflated, room.limits.inflated_bytes, f"$.files[{i}]"
            )
            stored.append(
                {"role": role, "stored": name, "name": safe_name(upload.filename), "bytes": size}
            )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    audit = await run_in_threadpool(room.audits.start, audit_id, provider, stored)
    return JSONResponse(audit, status_code=202, headers={"location": f"/api/audits/{audit_id}"})


@router.get("/api/audits/{audit_id}", responses=responses(404, 422))
def get_audit(audit_id: AuditId, room: RoomDep) -> dict[str, Any]:
    """An audit's state (queued, running, done, failed), progress 0 to 1,
    and how many incidents it added to the queue."""
    return room.audits.state(audit_id)
