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
from varroom.serve.service.store import Store, now


class Review:
    def __init__(self, store: Store) -> None:
        self.store = store

    def set_facts(self, situation_id: int, facts: Facts) -> dict[str, Any]:
        """Store the facts and judge again: the new verdict, the one before, the engine's own,
        what the facts change and how long judging took."""
        start = time.perf_counter()
        with self.store.write_lock, self.store.engine.begin() as conn:
            row = self.store.situation_row(conn, situation_id)
            data = json.loads(row.situation_json)
            previous = json.loads(row.verdict_json)
            verdict, normalised, judge_s = self.store_facts(conn, row, data, facts, "$")
        names = names_of(data)
        engine_verdict = json.loads(row.engine_verdict_json)
        return {
            "id": situation_id,
            "facts": normalised,
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

    def store_facts(
        self, conn: sa.Connection, row: Any, data: dict[str, Any], facts: Facts, where: str
    ) -> tuple[dict[str, Any], dict[str, Any], float]:
        """Judge the situation with `facts` and store them; (verdict, facts, judge seconds).

        Runs inside the caller's transaction, so a decision and its facts land together.
        """
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
