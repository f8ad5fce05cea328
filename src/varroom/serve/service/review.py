"""Facts a reviewer sets: checked against the situation, judged again at once, stored."""

from __future__ import annotations

import json
import time
from typing import Any

import sqlalchemy as sa

from varroom.serve import db
from varroom.serve.errors import ApiError
from varroom.serve.facts import Facts, FactsError, apply_facts, describe_changes, normalise
from varroom.serve.service.display import names_of, summary
from varroom.serve.service.judging import call_of, judge_dict
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.store import LogWriter, Store, now


class Review:
    def __init__(self, store: Store, profiles: RoomProfiles) -> None:
        self.store = store
        self.profiles = profiles

    def set_facts(
        self, situation_id: int, facts: Facts, expected: int | None = None
    ) -> dict[str, Any]:
        """Store the facts and judge again: the new verdict, the one before, the engine's own,
        what the facts change and how long judging took. With `expected`, a 409 unless the
        facts are still at that version; without, the facts go over those there are then
        (writers one after another, each under a version of its own)."""
        start = time.perf_counter()
        with self.store.logged() as log:
            conn = log.conn
            row = self.store.situation_row(conn, situation_id, lock=True)
            check_version(row, expected)
            data = json.loads(row.situation_json)
            previous = json.loads(row.verdict_json)
            verdict, normalised, judge_s = self.store_facts(log, row, data, facts, "$")
            version = conn.execute(
                sa.select(db.situations.c.facts_version).where(db.situations.c.id == situation_id)
            ).scalar_one()
        names = names_of(data)
        engine_verdict = json.loads(row.engine_verdict_json)
        return {
            "id": situation_id,
            "facts": normalised,
            "facts_version": version,
            "changes": describe_changes(data, normalised, names),
            "verdict": verdict,
            "summary": summary(verdict, names),
            "previous_verdict": previous,
            "previous_summary": summary(previous, names),
            "engine_verdict": engine_verdict,
            "engine_summary": summary(engine_verdict, names),
            "verdict_changed": call_of(previous) != call_of(verdict),
            "timing_ms": {
                "judge": round(judge_s * 1000, 3),
                "total": round((time.perf_counter() - start) * 1000, 3),
            },
        }

    def judge_facts(
        self, row: Any, data: dict[str, Any], facts: Facts, where: str
    ) -> tuple[dict[str, Any], dict[str, Any], bool, float]:
        """The verdict on the situation with `facts`, under the incident's profile: (verdict,
        the facts normalised, whether they differ from the incident's, judge seconds). Nothing
        is stored."""
        normalised = normalised_facts(data, facts, where)
        start = time.perf_counter()
        if normalised == json.loads(row.facts_json):
            return json.loads(row.verdict_json), normalised, False, time.perf_counter() - start
        verdict, _ = judge_dict(
            apply_facts(data, normalised),
            row.source_name or f"situation {row.id}",
            self.profiles.of_incident(row.profile),
        )
        return verdict, normalised, True, time.perf_counter() - start

    def store_facts(
        self, log: LogWriter, row: Any, data: dict[str, Any], facts: Facts, where: str
    ) -> tuple[dict[str, Any], dict[str, Any], float]:
        """Judge the situation with `facts` and store them as the incident's, recorded in its
        facts history; (verdict, facts, judge seconds). Over the version read, in the
        caller's transaction."""
        verdict, normalised, changed, judge_s = self.judge_facts(row, data, facts, where)
        if not changed:
            return verdict, normalised, judge_s
        conn = log.conn
        log.check_situation(row)  # what the change replaces is the state the log last saw
        # Only over the version read: on PostgreSQL another writer may have come in between.
        updated = conn.execute(
            sa.update(db.situations)
            .where(db.situations.c.id == row.id, db.situations.c.facts_version == row.facts_version)
            .values(
                facts_json=json.dumps(normalised),
                facts_version=row.facts_version + 1,
                verdict_json=json.dumps(verdict, ensure_ascii=False),
                summary_json=json.dumps(summary(verdict, names_of(data)), ensure_ascii=False),
                status=verdict["status"],
                updated_at=now(),
            )
        )
        if updated.rowcount != 1:
            check_version(self.store.situation_row(conn, row.id), row.facts_version)
        log.record_situation(row.id)
        return verdict, normalised, judge_s


def normalised_facts(data: dict[str, Any], facts: Facts, where: str) -> dict[str, Any]:
    """The facts as the situation stores them, or a 422 with the JSON path of a fault."""
    try:
        return normalise(data, facts, where)
    except FactsError as error:
        raise ApiError(422, error.problem, error.where) from None


def check_version(row: Any, expected: int | None) -> None:
    """A 409 with the facts now, when they are no longer at the version the client saw."""
    if expected is None or row.facts_version == expected:
        return
    raise stale(
        row,
        f"the facts changed since this incident was loaded (version {expected}, now "
        f"{row.facts_version}): look at them again",
    )


def stale(row: Any, problem: str) -> ApiError:
    """The 409 of a write made over a state the client did not see: where (If-Match), and
    the facts and version to load again."""
    return ApiError(
        409,
        problem,
        "header:If-Match",
        {"facts": json.loads(row.facts_json), "facts_version": row.facts_version},
    )
