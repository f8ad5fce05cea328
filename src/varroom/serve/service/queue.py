"""The queue: situations come in (uploaded, or found by an audit), judged; the queue goes out."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from varroom.formats.load import file_kind
from varroom.profiles import Profile
from varroom.serve import db, json_input
from varroom.serve.audit import incident_key
from varroom.serve.facts import describe_changes, original_facts, play_kind
from varroom.serve.service.decisions import conflicted
from varroom.serve.service.display import (
    attacking_team,
    names_of,
    safe_name,
    summary,
    title_of,
)
from varroom.serve.service.judging import judge_dict
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.store import LogBroken, LogWriter, Store, now


class Queue:
    def __init__(self, store: Store, profiles: RoomProfiles) -> None:
        self.store = store
        self.profiles = profiles
        # Counts the situations queued since the room started: the page's event stream
        # (GET /api/events) tells it the moment this moves.
        self.version = 0

    def add(
        self,
        data: Any,
        source_name: str | None,
        origin: str = "upload",
        audit_id: str | None = None,
        key: str | None = None,
        profile: Profile | None = None,
    ) -> dict[str, Any]:
        """Check and judge a situation under `profile` (the room's default unless given),
        then queue it: its detail, as `detail` answers. `key`: an audit incident's natural key
        (`serve.audit.incident_key`), unique."""
        row = self.judged(data, source_name, profile, origin)
        row.update(audit_id=audit_id, incident_key=key)
        try:
            # Queued and recorded in its facts history in one transaction: no moment when the
            # situation is in the room but not in the log.
            with self.store.logged() as log:
                new_id = self.insert(log, row)
        except LogBroken:
            # A broken log takes no rows until it is acknowledged, but an upload is still
            # queued: the room's next check of the log records it.
            with self.store.write_lock, self.store.engine.begin() as conn:
                new_id = conn.execute(_insert(row)).scalar_one()
        self.joined()
        return self.detail(new_id)

    def judged(
        self, data: Any, source_name: str | None, profile: Profile | None, origin: str
    ) -> dict[str, Any]:
        """The situation checked and judged (`add`): its row, to `insert` (no audit's)."""
        json_input.check(data)
        source_name = safe_name(source_name)
        profile = self.profiles.default if profile is None else profile
        verdict, _ = judge_dict(data, source_name or "situation", profile)
        stamp = now()
        return {
            "created_at": stamp,
            "updated_at": stamp,
            "title": title_of(data, source_name),
            "source_name": source_name,
            "origin": origin,
            "audit_id": None,
            "situation_json": json.dumps(data, ensure_ascii=False),
            "facts_json": json.dumps(original_facts(data)),
            "facts_version": 0,
            "engine_verdict_json": json.dumps(verdict, ensure_ascii=False),
            "verdict_json": json.dumps(verdict, ensure_ascii=False),
            "summary_json": json.dumps(summary(verdict, names_of(data)), ensure_ascii=False),
            "status": verdict["status"],
            "incident_key": None,
            "profile": profile.name,
        }

    @staticmethod
    def insert(log: LogWriter, row: dict[str, Any]) -> int:
        """Queue the row `judged` made, recorded in its facts history, in the log's
        transaction (call `joined` once it is committed): its id."""
        new_id: int = log.conn.execute(_insert(row)).scalar_one()
        log.record_situation(new_id)
        return new_id

    def joined(self) -> None:
        """A situation was queued: the page's event stream tells it."""
        self.version += 1

    def add_audited(self, data: Any, audit_id: str) -> bool:
        """Queue an incident an audit found, unless one of the same match, kind and moment is
        queued already (an audit of the same files again): whether it was added."""
        key = incident_key(data) if isinstance(data, dict) else None
        if key is not None and self._known(key):
            return False
        try:
            self.add(data, None, origin="audit", audit_id=audit_id, key=key)
        except IntegrityError:  # the same incident, queued just now by another audit
            if key is None or not self._known(key):
                raise
            return False
        return True

    def _known(self, key: str) -> bool:
        with self.store.engine.connect() as conn:
            found = conn.execute(
                sa.select(db.situations.c.id).where(db.situations.c.incident_key == key)
            ).first()
        return found is not None

    def listing(self, limit: int = 500) -> list[dict[str, Any]]:
        """The queue, newest first, with the last decision on each."""
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
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
            disputed = conflicted(conn, [r.id for r in rows if r.n and r.n > 1])
        listed = []
        for r in rows:
            shown = json.loads(r.summary_json)
            listed.append(
                {
                    "id": r.id,
                    "title": r.title,
                    "source_name": r.source_name,
                    "origin": r.origin,
                    "created_at": r.created_at,
                    "status": r.status,
                    "verdict": shown,
                    "profile": shown.get("profile"),
                    "facts_version": r.facts_version,
                    "decided": bool(r.n),
                    "decisions": r.n or 0,
                    "conflict": r.id in disputed,
                    "last_decision": None
                    if not r.n
                    else {"outcome": r.outcome, "reviewer": r.reviewer},
                }
            )
        return listed

    def require(self, situation_id: int) -> None:
        """A 404 unless the situation is in the queue."""
        with self.store.engine.connect() as conn:
            self.store.situation_row(conn, situation_id)

    def detail(self, situation_id: int) -> dict[str, Any]:
        """One incident: the situation, the facts set, the verdict now and the engine's own."""
        with self.store.engine.connect() as conn:
            row = self.store.situation_row(conn, situation_id)
            decided = conn.execute(
                sa.select(sa.func.count()).where(db.decisions.c.situation_id == situation_id)
            ).scalar_one()
            conflict = bool(decided > 1 and conflicted(conn, [situation_id]))
        data = json.loads(row.situation_json)
        facts = json.loads(row.facts_json)
        names = names_of(data)
        verdict = json.loads(row.verdict_json)
        engine_verdict = json.loads(row.engine_verdict_json)
        attacking = attacking_team(data)
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
            "conflict": conflict,
            "facts_version": row.facts_version,
            "facts": facts,
            "changes": describe_changes(data, facts, names),
            "verdict": verdict,
            "profile": verdict.get("profile"),  # none in a verdict judged before profiles
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
                for p in data.get("players", ())  # a ball line has none
            ],
            "kind": file_kind(data),
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
                for i, t in enumerate(data.get("touches", ()))
            ],
            "on_field": data.get("on_field"),
            "meta": data.get("meta") if isinstance(data.get("meta"), dict) else {},
            "situation": data,
        }


def _insert(row: dict[str, Any]) -> sa.Insert:
    return sa.insert(db.situations).values(**row).returning(db.situations.c.id)
