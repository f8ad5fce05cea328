"""The review room's work, apart from HTTP: the queue, facts, decisions, pictures, audits.

Every situation goes through `situation_from_dict`, the reader `varroom check` uses, so a
fault is an `InputError` with the JSON path, and the API answers 422 with it. Every failure
the caller can act on is an `ApiError` carrying its HTTP status.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import re
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from varroom.engine.judge import judge
from varroom.errors import InputError, VarroomError
from varroom.formats.situation_json import situation_from_dict
from varroom.serve import db
from varroom.serve.audit import AuditRunner, incident_dict
from varroom.serve.facts import (
    Facts,
    FactsError,
    apply_facts,
    describe_changes,
    normalise,
    original_facts,
    play_kind,
)

log = logging.getLogger("varroom.serve")

CALLS = {"offence": "OFFSIDE", "no_offence": "NO OFFENCE", "undecidable": "UNDECIDABLE"}
OUTCOME_OF_STATUS = {"offence": "offside", "no_offence": "no_offence"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Printable text with at least one visible character: what a name in the log may be.
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"


class ApiError(Exception):
    """An answer other than success: HTTP status, a sentence, and where in the input."""

    def __init__(self, status: int, error: str, where: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.where = where

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error}
        if self.where is not None:
            body["where"] = self.where
        return body


class DecisionIn(BaseModel):
    """One entry of the decision log, as the page sends it."""

    model_config = ConfigDict(extra="forbid")
    reviewer: str = Field(min_length=1, max_length=80, pattern=NAME_PATTERN)
    decision: Literal["confirm", "offside", "no_offence"] = Field(
        description="confirm the engine's verdict (with the facts set), or overturn to "
        "offside / no offence"
    )
    duration_s: float = Field(
        ge=0, le=86_400, allow_inf_nan=False, description="the check clock, in seconds"
    )
    facts: Facts | None = Field(
        default=None, description="the facts the decision rests on (default: those set now)"
    )
    client_ref: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        pattern=NAME_PATTERN,
        description="the reviewer's own reference: sent twice, it is recorded once",
    )
    corrects: int | None = Field(
        default=None, ge=1, le=2**62, description="id of the decision this entry corrects"
    )
    note: str | None = Field(default=None, max_length=2000)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clean(text: str, limit: int) -> str:
    return _CONTROL.sub(" ", text).strip()[:limit]


def names_of(situation: Mapping[str, Any]) -> dict[str, str]:
    out = {}
    for player in situation["players"]:
        name = player.get("name")
        number = player.get("number")
        out[player["id"]] = name or (f"number {number}" if number is not None else player["id"])
    return out


def centimetres(margin_m: float | None) -> str:
    """A margin as the review room shows it: centimetres under a metre, else metres."""
    if margin_m is None:
        return ""
    cm = round(margin_m * 100, 1)
    sign = "+" if cm > 0 else ("\u2212" if cm < 0 else "\u00b1")
    if abs(cm) >= 100:
        return f"{sign}{abs(margin_m):.2f} m"
    text = f"{abs(cm):.0f}" if cm == int(cm) else f"{abs(cm):.1f}"
    return f"{sign}{text} cm"


def summary(verdict: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """What the queue and the log show of a verdict."""
    status = verdict["status"]
    player = verdict.get("offender") or verdict.get("nearest_attacker")
    margin = verdict.get("margin_m")
    label = CALLS[status]
    if player is not None and margin is not None:
        label += f" \u00b7 {names.get(player, player)} {centimetres(margin)}"
    return {
        "status": status,
        "call": CALLS[status],
        "offender": verdict.get("offender"),
        "player": player,
        "player_name": names.get(player, player) if player else None,
        "margin_m": margin,
        "margin_text": centimetres(margin),
        "label": label,
    }


def title_of(situation: Mapping[str, Any], source_name: str | None) -> str:
    meta = situation.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    for key in ("title", "match"):
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            minute = meta.get("minute")
            if key == "match" and isinstance(minute, str | int) and str(minute).strip():
                minute = str(minute).strip()
                mark = "'" if re.fullmatch(r"\d+(\+\d+)?", minute) else ""
                return clean(f"{value} \u00b7 {minute}{mark}", 300)
            return clean(value, 300)
    if source_name:
        return source_name
    description = meta.get("description")
    if isinstance(description, str) and description.strip():
        return clean(description, 120)
    return "Situation"


def safe_name(filename: str | None) -> str | None:
    """A file name for display only: never a path, never used to open anything."""
    if not filename:
        return None
    name = re.split(r"[\\/]", filename)[-1]
    name = clean(name, 200)
    return name or None


def judge_dict(data: Any, source: str) -> tuple[dict[str, Any], float]:
    """Check and judge situation data as `varroom check` does: (verdict dict, seconds)."""
    start = time.perf_counter()
    try:
        situation = situation_from_dict(data, source)
    except InputError as error:
        raise ApiError(422, error.problem, error.where or "$") from None
    try:
        verdict = judge(situation).to_dict()
    except VarroomError as error:
        raise ApiError(422, str(error), "$") from None
    except Exception as error:  # the engine must not take the server down with it
        log.exception("the engine failed on %s", source)
        raise ApiError(422, f"the engine could not judge this situation ({error})", "$") from None
    return verdict, time.perf_counter() - start


MAX_SITUATION_BYTES = 2 * 1024 * 1024
MAX_AUDIT_BYTES = 1024 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    situation_bytes: int = MAX_SITUATION_BYTES
    audit_bytes: int = MAX_AUDIT_BYTES
    audit_files: int = 20


class Room:
    def __init__(
        self,
        engine: Engine,
        data_dir: Path,
        audit_runner: AuditRunner,
        limits: Limits = Limits(),
    ) -> None:
        self.engine = engine
        self.data_dir = data_dir
        self.images = data_dir / "images"
        self.uploads = data_dir / "uploads"
        self.images.mkdir(parents=True, exist_ok=True)
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.audit_runner = audit_runner
        self.limits = limits
        self.write_lock = db.write_lock(engine)
        self.render_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()
        self._fail_interrupted_audits()

    def _submit(self, fn: Callable[..., None], *args: Any) -> None:
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="varroom-audit"
                )
            self._executor.submit(fn, *args)

    def close(self) -> None:
        """Finish the audit under way and release connections (the room can start again)."""
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        self.engine.dispose()

    # -- the queue --------------------------------------------------------------------------

    def add_situation(
        self,
        data: Any,
        source_name: str | None,
        origin: str = "upload",
        audit_id: str | None = None,
    ) -> dict[str, Any]:
        source_name = safe_name(source_name)
        verdict, _ = judge_dict(data, source_name or "situation")
        names = names_of(data)
        stamp = now()
        row = {
            "created_at": stamp,
            "updated_at": stamp,
            "title": title_of(data, source_name),
            "source_name": source_name,
            "origin": origin,
            "audit_id": audit_id,
            "situation_json": json.dumps(data, ensure_ascii=False),
            "facts_json": json.dumps(original_facts(data)),
            "facts_version": 0,
            "engine_verdict_json": json.dumps(verdict, ensure_ascii=False),
            "verdict_json": json.dumps(verdict, ensure_ascii=False),
            "summary_json": json.dumps(summary(verdict, names), ensure_ascii=False),
            "status": verdict["status"],
        }
        with self.write_lock, self.engine.begin() as conn:
            new_id = conn.execute(sa.insert(db.situations).values(**row)).inserted_primary_key[0]
        return self.situation(new_id)

    def list_situations(self, limit: int = 500) -> list[dict[str, Any]]:
        s, d = db.situations, db.decisions
        last = (
            sa.select(
                d.c.situation_id, sa.func.max(d.c.id).label("last_id"), sa.func.count().label("n")
            )
            .group_by(d.c.situation_id)
            .subquery()
        )
        query = (
            sa.select(
                s.c.id,
                s.c.title,
                s.c.source_name,
                s.c.origin,
                s.c.created_at,
                s.c.status,
                s.c.summary_json,
                s.c.facts_version,
                last.c.n,
                d.c.outcome,
                d.c.reviewer,
            )
            .outerjoin(last, last.c.situation_id == s.c.id)
            .outerjoin(d, d.c.id == last.c.last_id)
            .order_by(s.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "id": r.id,
                "title": r.title,
                "source_name": r.source_name,
                "origin": r.origin,
                "created_at": r.created_at,
                "status": r.status,
                "verdict": json.loads(r.summary_json),
                "facts_version": r.facts_version,
                "decided": bool(r.n),
                "decisions": r.n or 0,
                "last_decision": None
                if not r.n
                else {"outcome": r.outcome, "reviewer": r.reviewer},
            }
            for r in rows
        ]

    def _row(self, conn: sa.Connection, situation_id: int) -> Any:
        row = conn.execute(
            sa.select(db.situations).where(db.situations.c.id == situation_id)
        ).first()
        if row is None:
            raise ApiError(404, f"no situation {situation_id}")
        return row

    def situation(self, situation_id: int) -> dict[str, Any]:
        with self.engine.connect() as conn:
            row = self._row(conn, situation_id)
            decided = conn.execute(
                sa.select(sa.func.count()).where(db.decisions.c.situation_id == situation_id)
            ).scalar_one()
        data = json.loads(row.situation_json)
        facts = json.loads(row.facts_json)
        names = names_of(data)
        verdict = json.loads(row.verdict_json)
        engine_verdict = json.loads(row.engine_verdict_json)
        attacking = _attacking_team(data)
        return {
            "id": row.id,
            "title": row.title,
            "source_name": row.source_name,
            "origin": row.origin,
            "audit_id": row.audit_id,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
            "status": row.status,
            "decided": bool(decided),
            "decisions": decided,
            "facts_version": row.facts_version,
            "facts": facts,
            "changes": describe_changes(data, facts, names),
            "verdict": verdict,
            "summary": json.loads(row.summary_json),
            "engine_verdict": engine_verdict,
            "engine_summary": summary(engine_verdict, names),
            "players": [
                {
                    "id": p["id"],
                    "name": names[p["id"]],
                    "number": p.get("number"),
                    "team": p["team"],
                    "goalkeeper": bool(p.get("goalkeeper", False)),
                    "attacking": p["team"] == attacking,
                }
                for p in data["players"]
            ],
            "touches": [
                {
                    "index": i,
                    "t": t["t"],
                    "player": t.get("player"),
                    "action": t["action"],
                    "kind": play_kind(t["action"]),
                    "settable": t.get("player") is not None and play_kind(t["action"]) is not None,
                    "on_pitch": sorted(t["positions"]),
                }
                for i, t in enumerate(data["touches"])
            ],
            "on_field": data.get("on_field"),
            "meta": data.get("meta") if isinstance(data.get("meta"), dict) else {},
            "situation": data,
        }

    # -- facts ------------------------------------------------------------------------------

    def set_facts(self, situation_id: int, facts: Facts) -> dict[str, Any]:
        start = time.perf_counter()
        with self.write_lock, self.engine.begin() as conn:
            row = self._row(conn, situation_id)
            data = json.loads(row.situation_json)
            previous = json.loads(row.verdict_json)
            updated = self._apply(conn, row, data, facts, "$")
        verdict, normalised, judge_s = updated
        names = names_of(data)
        return {
            "id": situation_id,
            "facts": normalised,
            "changes": describe_changes(data, normalised, names),
            "verdict": verdict,
            "summary": summary(verdict, names),
            "previous_verdict": previous,
            "previous_summary": summary(previous, names),
            "engine_verdict": json.loads(row.engine_verdict_json),
            "engine_summary": summary(json.loads(row.engine_verdict_json), names),
            "verdict_changed": _call(previous) != _call(verdict),
            "timing_ms": {
                "judge": round(judge_s * 1000, 3),
                "total": round((time.perf_counter() - start) * 1000, 3),
            },
        }

    def _apply(
        self, conn: sa.Connection, row: Any, data: dict[str, Any], facts: Facts, where: str
    ) -> tuple[dict[str, Any], dict[str, Any], float]:
        """Judge the situation with `facts` and store them; (verdict, facts, judge seconds)."""
        try:
            normalised = normalise(data, facts, where)
        except FactsError as error:
            raise ApiError(422, error.problem, error.where) from None
        start = time.perf_counter()
        if normalised == json.loads(row.facts_json):
            return json.loads(row.verdict_json), normalised, time.perf_counter() - start
        modified = apply_facts(data, normalised)
        verdict, _ = judge_dict(modified, row.source_name or f"situation {row.id}")
        judge_s = time.perf_counter() - start
        conn.execute(
            sa.update(db.situations)
            .where(db.situations.c.id == row.id)
            .values(
                facts_json=json.dumps(normalised),
                facts_version=row.facts_version + 1,
                verdict_json=json.dumps(verdict, ensure_ascii=False),
                summary_json=json.dumps(summary(verdict, names_of(data)), ensure_ascii=False),
                status=verdict["status"],
                updated_at=now(),
            )
        )
        return verdict, normalised, judge_s

    # -- decisions --------------------------------------------------------------------------

    def add_decision(self, situation_id: int, entry: DecisionIn) -> tuple[dict[str, Any], bool]:
        """Append a decision; (the entry, True) or, for a client_ref seen before, (it, False)."""
        with self.write_lock:
            try:
                with self.engine.begin() as conn:
                    row = self._row(conn, situation_id)
                    data = json.loads(row.situation_json)
                    if entry.facts is not None:
                        verdict, facts, _ = self._apply(conn, row, data, entry.facts, "$.facts")
                    else:
                        verdict, facts = json.loads(row.verdict_json), json.loads(row.facts_json)
                    if entry.corrects is not None:
                        corrected = conn.execute(
                            sa.select(db.decisions.c.situation_id).where(
                                db.decisions.c.id == entry.corrects
                            )
                        ).first()
                        if corrected is None or corrected.situation_id != situation_id:
                            raise ApiError(
                                422,
                                f"no decision {entry.corrects} on situation {situation_id} to correct",
                                "$.corrects",
                            )
                    if entry.decision == "confirm":
                        if verdict["status"] not in OUTCOME_OF_STATUS:
                            raise ApiError(
                                422,
                                "the engine could not decide: nothing to confirm; "
                                "choose offside or no_offence",
                                "$.decision",
                            )
                        outcome = OUTCOME_OF_STATUS[verdict["status"]]
                    else:
                        outcome = entry.decision
                    values = {
                        "situation_id": situation_id,
                        "created_at": now(),
                        "reviewer": entry.reviewer.strip(),
                        "decision": entry.decision,
                        "outcome": outcome,
                        "engine_status": verdict["status"],
                        "engine_offender": verdict.get("offender"),
                        "margin_m": verdict.get("margin_m"),
                        "duration_s": round(entry.duration_s, 3),
                        "facts_json": json.dumps(facts),
                        "verdict_json": json.dumps(verdict, ensure_ascii=False),
                        "corrects": entry.corrects,
                        "client_ref": entry.client_ref,
                        "note": None if entry.note is None else entry.note.replace("\x00", ""),
                    }
                    new_id = conn.execute(db.decisions.insert(), values).inserted_primary_key[0]
            except IntegrityError:
                # This client_ref was recorded before (a retry): answer with that entry.
                existing = None
                if entry.client_ref is not None:
                    existing = self._by_client_ref(entry.reviewer, entry.client_ref)
                if existing is None:
                    raise
                return self._same_entry(existing, situation_id), False
        return self._decision_out({"id": new_id, **values}, title=row.title), True

    def _by_client_ref(self, reviewer: str, client_ref: str) -> Any:
        d = db.decisions
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(d, db.situations.c.title)
                .join(db.situations, db.situations.c.id == d.c.situation_id)
                .where(d.c.reviewer == reviewer.strip(), d.c.client_ref == client_ref)
            ).first()

    def _same_entry(self, row: Any, situation_id: int) -> dict[str, Any]:
        if row.situation_id != situation_id:
            raise ApiError(
                409,
                f"client_ref {row.client_ref!r} of {row.reviewer!r} is already decision "
                f"{row.id} on situation {row.situation_id}",
                "$.client_ref",
            )
        return self._decision_out(row._mapping, title=row.title)

    def decisions(
        self, situation_id: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        d, s = db.decisions, db.situations
        query = (
            sa.select(
                d.c.id,
                d.c.situation_id,
                d.c.created_at,
                d.c.reviewer,
                d.c.decision,
                d.c.outcome,
                d.c.engine_status,
                d.c.engine_offender,
                d.c.margin_m,
                d.c.duration_s,
                d.c.facts_json,
                d.c.corrects,
                d.c.client_ref,
                d.c.note,
                s.c.title,
            )
            .join(s, s.c.id == d.c.situation_id)
            .order_by(d.c.id)
        )
        if situation_id is not None:
            query = query.where(d.c.situation_id == situation_id)
        if limit is not None:
            query = query.order_by(None).order_by(d.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        if limit is not None:
            rows = rows[::-1]
        return [self._decision_out(r._mapping, title=r.title) for r in rows]

    @staticmethod
    def _decision_out(row: Mapping[str, Any], title: str | None = None) -> dict[str, Any]:
        return {
            "id": row["id"],
            "situation_id": row["situation_id"],
            "situation_title": title,
            "created_at": row["created_at"],
            "reviewer": row["reviewer"],
            "decision": row["decision"],
            "outcome": row["outcome"],
            "engine_status": row["engine_status"],
            "engine_offender": row["engine_offender"],
            "margin_m": row["margin_m"],
            "duration_s": row["duration_s"],
            "facts": json.loads(row["facts_json"]),
            "corrects": row["corrects"],
            "client_ref": row["client_ref"],
            "note": row["note"],
        }

    def decisions_csv(self, situation_id: int | None = None) -> str:
        columns = [
            "id",
            "created_at",
            "situation_id",
            "situation_title",
            "reviewer",
            "decision",
            "outcome",
            "engine_status",
            "engine_offender",
            "margin_m",
            "duration_s",
            "corrects",
            "client_ref",
            "note",
            "facts",
        ]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(columns)
        for entry in self.decisions(situation_id):
            entry = {**entry, "facts": json.dumps(entry["facts"], separators=(",", ":"))}
            writer.writerow([_csv_cell(entry[c]) for c in columns])
        return out.getvalue()

    # -- pictures ---------------------------------------------------------------------------

    def image(self, situation_id: int, renderer: Callable[..., None]) -> Path:
        with self.engine.connect() as conn:
            row = self._row(conn, situation_id)
        key = hashlib.sha256(row.facts_json.encode()).hexdigest()[:16]
        path = self.images / f"{int(row.id)}-{key}.png"
        if path.is_file():
            return path
        data = apply_facts(json.loads(row.situation_json), json.loads(row.facts_json))
        with self.render_lock:
            if path.is_file():
                return path
            situation = situation_from_dict(data, row.source_name or "situation")
            verdict = judge(situation)
            try:
                renderer(situation, verdict, path)
            except Exception as error:
                log.exception("cannot draw situation %s", situation_id)
                raise ApiError(
                    422, f"the picture cannot be drawn for this situation ({error})"
                ) from None
        return path

    # -- match audits -----------------------------------------------------------------------

    def new_audit_dir(self) -> tuple[str, Path]:
        audit_id = uuid.uuid4().hex
        folder = self.uploads / audit_id
        folder.mkdir(parents=True)
        return audit_id, folder

    def queue_audit(
        self, audit_id: str, provider: str, files: list[dict[str, Any]]
    ) -> dict[str, Any]:
        stamp = now()
        with self.write_lock, self.engine.begin() as conn:
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
                    error=None,
                    files_json=json.dumps(files, ensure_ascii=False),
                )
            )
        self._submit(self._run_audit, audit_id)
        return self.audit(audit_id)

    def audit(self, audit_id: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
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
            "error": row.error,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
            "files": [
                {k: f[k] for k in ("role", "name", "bytes")} for f in json.loads(row.files_json)
            ],
        }

    def _set_audit(self, audit_id: str, **values: Any) -> None:
        with self.write_lock, self.engine.begin() as conn:
            conn.execute(
                sa.update(db.audits)
                .where(db.audits.c.id == audit_id)
                .values(updated_at=now(), **values)
            )

    def _run_audit(self, audit_id: str) -> None:
        folder = self.uploads / audit_id
        try:
            info = self.audit(audit_id)
            with self.engine.connect() as conn:
                files_json = conn.execute(
                    sa.select(db.audits.c.files_json).where(db.audits.c.id == audit_id)
                ).scalar_one()
            by_role: dict[str, list[Path]] = {}
            for f in json.loads(files_json):
                by_role.setdefault(f["role"], []).append(folder / f["stored"])
            self._set_audit(audit_id, state="running")
            last = [0.0, time.monotonic()]

            def progress(fraction: float) -> None:
                fraction = min(max(float(fraction), 0.0), 1.0)
                if fraction - last[0] >= 0.01 or time.monotonic() - last[1] > 0.5:
                    last[:] = [fraction, time.monotonic()]
                    self._set_audit(audit_id, progress=fraction)

            added = rejected = 0
            first_problem = None
            for item in self.audit_runner(info["provider"], by_role, progress):
                try:
                    data = incident_dict(item)
                    self.add_situation(data, None, origin="audit", audit_id=audit_id)
                    added += 1
                except ApiError as problem:
                    rejected += 1
                    first_problem = first_problem or f"{problem.where or '$'}: {problem.error}"
                except TypeError as problem:
                    rejected += 1
                    first_problem = first_problem or str(problem)
                self._set_audit(audit_id, incidents_added=added, incidents_rejected=rejected)
            self._set_audit(
                audit_id,
                state="done",
                progress=1.0,
                error=None if first_problem is None else f"rejected an incident: {first_problem}",
            )
        except VarroomError as error:
            self._set_audit(audit_id, state="failed", error=str(error))
        except Exception as error:
            log.exception("audit %s failed", audit_id)
            self._set_audit(audit_id, state="failed", error=f"{type(error).__name__}: {error}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _fail_interrupted_audits(self) -> None:
        with self.write_lock, self.engine.begin() as conn:
            conn.execute(
                sa.update(db.audits)
                .where(db.audits.c.state.in_(["queued", "running"]))
                .values(
                    state="failed", error="the server stopped during the audit", updated_at=now()
                )
            )


def _attacking_team(data: Mapping[str, Any]) -> str:
    attack = data.get("attack")
    if isinstance(attack, dict) and isinstance(attack.get("team"), str):
        return attack["team"]
    return data["players"][0]["team"]


def _call(verdict: Mapping[str, Any]) -> tuple[Any, ...]:
    return (verdict["status"], verdict.get("offender"), verdict.get("involved_at"))


def _csv_cell(value: Any) -> Any:
    """Spreadsheets run cells that start with = + - @: quote text ones (numbers stay numbers)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value
