"""Match audits: the uploaded files are kept under a generated name, audited one at a time
in a background thread, and every incident found joins the queue through its usual checks."""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from threading import Lock
from typing import IO, Any

import sqlalchemy as sa

from varroom.errors import DataError, VarroomError
from varroom.serve import db
from varroom.serve.audit import AuditRunner, incident_dict
from varroom.serve.config import PRIVATE_DIR, PRIVATE_FILE
from varroom.serve.errors import ApiError
from varroom.serve.service.display import safe_name
from varroom.serve.service.queue import Queue
from varroom.serve.service.store import Store, now

log = logging.getLogger("varroom.serve")

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


def stored_name(index: int, filename: str | None) -> str:
    """The name an upload is kept under: generated, with the client's known suffixes only,
    so the client's file name is never a path."""
    suffixes = [s.lower() for s in Path(safe_name(filename) or "").suffixes[-2:]]
    return f"{index}" + "".join(s for s in suffixes if s in UPLOAD_SUFFIXES)


def save_upload(source: IO[bytes], path: Path) -> int:
    """Copy an upload to a new file (never over one); its size in bytes."""
    source.seek(0)
    with open(path, "xb", opener=lambda name, flags: os.open(name, flags, PRIVATE_FILE)) as out:
        shutil.copyfileobj(source, out, 1024 * 1024)
        return out.tell()


def inflated_bytes(path: Path, already: int, limit: int, where: str) -> int:
    """What a compressed upload inflates to (0 for one that is not compressed), counted a
    piece at a time: a 413 once the audit's compressed files pass `limit` with the `already`
    inflated, a 422 if it does not inflate."""
    from varroom.match.files import inflated_size, is_compressed  # when an audit comes in

    if not is_compressed(path):
        return 0
    try:
        size = inflated_size(path, limit - already)
    except DataError as error:
        raise ApiError(422, error.problem, where) from None
    if size is None:
        raise ApiError(
            413, f"the audit's compressed files inflate past the limit of {limit} bytes", where
        )
    return size


class Audits:
    def __init__(self, store: Store, folder: Path, runner: AuditRunner, queue: Queue) -> None:
        self.store = store
        self.folder = folder
        self.runner = runner
        self.queue = queue
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = Lock()
        folder.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        self._fail_interrupted()
        # The uploads of audits the server was receiving or running when it stopped (kill -9
        # leaves them): the room's data is one server's, so none is under way now.
        for leftover in folder.iterdir():
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)

    def new_folder(self) -> tuple[str, Path]:
        """A new audit's id and the folder its uploads go to."""
        audit_id = uuid.uuid4().hex
        folder = self.folder / audit_id
        folder.mkdir(mode=PRIVATE_DIR, parents=True)
        return audit_id, folder

    def start(self, audit_id: str, provider: str, files: list[dict[str, Any]]) -> dict[str, Any]:
        """Record the audit as queued and run it in the background; its state now."""
        stamp = now()
        with self.store.write_lock, self.store.engine.begin() as conn:
            conn.execute(
                sa.insert(db.audits).values(
                    id=audit_id,
                    created_at=stamp,
                    updated_at=stamp,
                    provider=provider,
                    state="queued",
                    progress=0.0,
                    incidents_added=0,
                    incidents_rejected=0,
                    incidents_known=0,
                    error=None,
                    files_json=json.dumps(files, ensure_ascii=False),
                )
            )
        self._submit(self._run, audit_id)
        return self.state(audit_id)

    def state(self, audit_id: str) -> dict[str, Any]:
        """An audit's state (queued, running, done, failed), progress, incidents added."""
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(db.audits).where(db.audits.c.id == audit_id)).first()
        if row is None:
            raise ApiError(404, f"no audit {audit_id}")
        return {
            "id": row.id,
            "provider": row.provider,
            "state": row.state,
            "progress": row.progress,
            "incidents_added": row.incidents_added,
            "incidents_rejected": row.incidents_rejected,
            "incidents_known": row.incidents_known,
            "error": row.error,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
            "files": [
                {k: f[k] for k in ("role", "name", "bytes")} for f in json.loads(row.files_json)
            ],
        }

    def close(self) -> None:
        """Finish the audit under way (the queued ones are dropped); the room can start again."""
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _submit(self, fn: Callable[..., None], *args: Any) -> None:
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="varroom-audit"
                )
            self._executor.submit(fn, *args)

    def _set(self, audit_id: str, **values: Any) -> None:
        with self.store.write_lock, self.store.engine.begin() as conn:
            conn.execute(
                sa.update(db.audits)
                .where(db.audits.c.id == audit_id)
                .values(updated_at=now(), **values)
            )

    def _files(self, audit_id: str) -> tuple[dict[str, list[Path]], dict[str, str]]:
        """The stored files by role, and each one's path as the client named the file."""
        with self.store.engine.connect() as conn:
            files_json = conn.execute(
                sa.select(db.audits.c.files_json).where(db.audits.c.id == audit_id)
            ).scalar_one()
        by_role: dict[str, list[Path]] = {}
        shown: dict[str, str] = {}
        for f in json.loads(files_json):
            path = self.folder / audit_id / f["stored"]
            by_role.setdefault(f["role"], []).append(path)
            for spelled in (path.resolve(), path):  # a loader may name it either way
                shown[str(spelled)] = f["name"] or f["stored"]
        return by_role, shown

    def _run(self, audit_id: str) -> None:
        shown: dict[str, str] = {}
        try:
            provider = self.state(audit_id)["provider"]
            by_role, shown = self._files(audit_id)
            self._set(audit_id, state="running")
            added, rejected, first_problem = self._queue_incidents(
                audit_id, self.runner(provider, by_role, self._progress(audit_id))
            )
            self._set(
                audit_id,
                state="done",
                progress=1.0,
                error=None if first_problem is None else f"rejected an incident: {first_problem}",
            )
        except VarroomError as error:
            # The message names the stored file: say the client's name for it, and nothing
            # of where the server keeps its data.
            message = str(error)
            for path, name in shown.items():
                message = message.replace(path, name)
            for folder in (self.folder.resolve(), self.folder):
                message = message.replace(str(folder), "…")
            self._set(audit_id, state="failed", error=message)
        except Exception:
            log.exception("audit %s failed", audit_id)
            self._set(
                audit_id,
                state="failed",
                error=f"the audit failed unexpectedly: the server's log has it as audit {audit_id}",
            )
        finally:
            shutil.rmtree(self.folder / audit_id, ignore_errors=True)

    def _progress(self, audit_id: str) -> Callable[[float], None]:
        """A progress callback that writes at most every 1 % or half second."""
        last = [0.0, time.monotonic()]

        def progress(fraction: float) -> None:
            fraction = min(max(float(fraction), 0.0), 1.0)
            if fraction - last[0] >= 0.01 or time.monotonic() - last[1] > 0.5:
                last[:] = [fraction, time.monotonic()]
                self._set(audit_id, progress=fraction)

        return progress

    def _queue_incidents(self, audit_id: str, incidents: Any) -> tuple[int, int, str | None]:
        """Queue each incident not queued before; (added, rejected, the first rejection's
        reason). Those queued before (the same match, kind and moment) are counted as known."""
        added = rejected = known = 0
        first_problem = None
        for item in incidents:
            try:
                if self.queue.add_audited(incident_dict(item), audit_id):
                    added += 1
                else:
                    known += 1
            except ApiError as problem:
                rejected += 1
                first_problem = first_problem or f"{problem.where or '$'}: {problem.error}"
            except TypeError as problem:
                rejected += 1
                first_problem = first_problem or str(problem)
            self._set(
                audit_id, incidents_added=added, incidents_rejected=rejected, incidents_known=known
            )
        return added, rejected, first_problem

    def _fail_interrupted(self) -> None:
        with self.store.write_lock, self.store.engine.begin() as conn:
            conn.execute(
                sa.update(db.audits)
                .where(db.audits.c.state.in_(["queued", "running"]))
                .values(
                    state="failed", error="the server stopped during the audit", updated_at=now()
                )
            )
