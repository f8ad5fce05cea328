"""The decision log: append-only; a correction is a new entry that names the one it corrects.

A decision sent twice with the same (reviewer, client_ref) is recorded once: the database's
unique index refuses the second, and the first is answered again. A client_ref sent again
with another decision, duration, correction, note or facts is a 409 naming the field: the
new decision would otherwise be dropped without a word.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from varroom.law.penalty import Decision
from varroom.model.ball_line import BallLineDecision
from varroom.serve import db
from varroom.serve.errors import ApiError
from varroom.serve.schemas import DecisionIn
from varroom.serve.service.review import Review, check_version, normalised_facts
from varroom.serve.service.store import LogWriter, Store, now

OUTCOME_OF_STATUS = {"offence": "offside", "no_offence": "no_offence"}


class DecisionLog:
    def __init__(self, store: Store, review: Review) -> None:
        self.store = store
        self.review = review

    def add(
        self,
        situation_id: int,
        entry: DecisionIn,
        expected: int | None = None,
        then: Callable[[LogWriter, int], None] | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """Append a decision; (the entry, True) or, for a client_ref seen before, (it, False).

        With `expected`, a 409 unless the incident's facts are still at that version, so the
        entry records the facts and verdict the reviewer saw. `then(log, id)` adds what goes
        with the entry to the log, in its transaction (a still decision's marks).
        """
        if entry.client_ref is not None:  # a retry: answered before any check of the facts
            existing = self._by_client_ref(entry.reviewer, entry.client_ref)
            if existing is not None:
                return self._same_entry(existing, situation_id, entry), False
        try:
            with self.store.logged() as log:
                row = self.store.situation_row(log.conn, situation_id)
                check_version(row, expected)
                log.check_situation(row)
                values = self._values(log.conn, row, situation_id, entry)
                values["conflicts_with"] = _conflicts(
                    standing(log.conn, [situation_id]), entry, values["outcome"]
                )
                new_id = log.append("decisions", values)
                if then is not None:
                    then(log, new_id)
        except IntegrityError:
            # This client_ref was recorded just now by another request: answer with it.
            existing = None
            if entry.client_ref is not None:
                existing = self._by_client_ref(entry.reviewer, entry.client_ref)
            if existing is None:
                raise
            return self._same_entry(existing, situation_id, entry), False
        return entry_out({"id": new_id, **values}, title=row.title), True

    def _values(
        self, conn: sa.Connection, row: Any, situation_id: int, entry: DecisionIn
    ) -> dict[str, Any]:
        """The log entry's columns: the facts the reviewer decided on and the verdict they
        give. Facts sent with a decision are judged for this entry only: the incident's own
        facts change for everyone only through POST .../facts."""
        if entry.facts is not None:
            data = json.loads(row.situation_json)
            verdict, facts, _, _ = self.review.judge_facts(row, data, entry.facts, "$.facts")
        else:
            verdict, facts = json.loads(row.verdict_json), json.loads(row.facts_json)
        if entry.corrects is not None:
            corrected = conn.execute(
                sa.select(db.decisions.c.situation_id).where(db.decisions.c.id == entry.corrects)
            ).first()
            if corrected is None or corrected.situation_id != situation_id:
                raise ApiError(
                    422,
                    f"no decision {entry.corrects} on situation {situation_id} to correct",
                    "$.corrects",
                )
        return {
            "situation_id": situation_id,
            "created_at": now(),
            "reviewer": entry.reviewer,
            "decision": entry.decision,
            "outcome": _outcome(entry, verdict),
            "engine_status": verdict["status"],
            "engine_offender": verdict.get("offender"),
            "margin_m": verdict.get("margin_m"),
            "duration_s": round(entry.duration_s, 3),
            "facts_json": json.dumps(facts),
            "verdict_json": json.dumps(verdict, ensure_ascii=False),
            "corrects": entry.corrects,
            "client_ref": entry.client_ref,
            "note": entry.note,
        }

    def _by_client_ref(self, reviewer: str, client_ref: str) -> Any:
        d = db.decisions
        with self.store.engine.connect() as conn:
            return conn.execute(
                sa.select(d, db.situations.c.title, db.situations.c.situation_json)
                .join(db.situations, db.situations.c.id == d.c.situation_id)
                .where(d.c.reviewer == reviewer, d.c.client_ref == client_ref)
            ).first()

    @staticmethod
    def _same_entry(row: Any, situation_id: int, entry: DecisionIn) -> dict[str, Any]:
        """The entry recorded under the client_ref, if `entry` is the same decision sent
        again; a 409 naming what differs if it is another."""
        already = f"client_ref {row.client_ref!r} of {row.reviewer!r} is already decision {row.id}"
        if row.situation_id != situation_id:
            raise ApiError(409, f"{already} on situation {row.situation_id}", "$.client_ref")
        sent = {
            "decision": entry.decision,
            "duration_s": round(entry.duration_s, 3),
            "corrects": entry.corrects,
            "note": entry.note,
        }
        differs = [field for field, value in sent.items() if row._mapping[field] != value]
        # Facts left out are those set at the time: only facts sent can differ from the entry's.
        if entry.facts is not None:
            facts = normalised_facts(json.loads(row.situation_json), entry.facts, "$.facts")
            differs += ["facts"] if facts != json.loads(row.facts_json) else []
        if differs:
            raise ApiError(
                409,
                f"{already}, with another {differs[0]}: a new decision needs a new client_ref",
                f"$.{differs[0]}",
                {"decision_id": row.id},
            )
        return entry_out(row._mapping, title=row.title)

    def entries(
        self, situation_id: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The log, oldest first: all of it, one situation's, or the newest `limit`."""
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
                d.c.verdict_json,
                d.c.corrects,
                d.c.client_ref,
                d.c.note,
                d.c.conflicts_with,
                s.c.title,
            )
            .join(s, s.c.id == d.c.situation_id)
            .order_by(d.c.id)
        )
        if situation_id is not None:
            query = query.where(d.c.situation_id == situation_id)
        if limit is not None:
            query = query.order_by(None).order_by(d.c.id.desc()).limit(limit)
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        if limit is not None:
            rows = rows[::-1]
        return [entry_out(r._mapping, title=r.title) for r in rows]


def _standing_query() -> sa.Select[Any]:
    d = db.decisions
    newest = (
        sa.select(sa.func.max(d.c.id).label("id"))
        .where(d.c.situation_id.in_(sa.bindparam("situation_ids", expanding=True)))
        .group_by(d.c.situation_id, d.c.reviewer)
        .subquery()
    )
    corrector = d.alias("corrector")
    return (
        sa.select(d.c.situation_id, d.c.id, d.c.reviewer, d.c.outcome)
        .join(newest, newest.c.id == d.c.id)
        .where(~sa.exists().where(corrector.c.corrects == d.c.id))
    )


# Built once: it runs at every decision, and building it costs more than running it.
_STANDING = _standing_query()


def standing(conn: sa.Connection, situation_ids: list[int]) -> list[Any]:
    """The decisions that stand on the situations: each reviewer's newest, unless a later
    entry corrects it (a correction takes the corrected one's place). In SQL, over the
    indexes: an incident may carry thousands of entries."""
    return list(conn.execute(_STANDING, {"situation_ids": situation_ids}))


def conflicted(conn: sa.Connection, situation_ids: list[int]) -> set[int]:
    """Those of the situations whose standing decisions disagree: a conflict to resolve."""
    outcomes: dict[int, set[str]] = {}
    for e in standing(conn, situation_ids):
        outcomes.setdefault(e.situation_id, set()).add(e.outcome)
    return {sid for sid, found in outcomes.items() if len(found) > 1}


def _conflicts(stands: list[Any], entry: DecisionIn, outcome: str) -> str | None:
    """The ids (JSON) of other reviewers' standing decisions that the new one contradicts:
    two reviewers disagree until one of them decides again or corrects the other."""
    against = [
        e.id
        for e in stands
        if e.reviewer != entry.reviewer and e.id != entry.corrects and e.outcome != outcome
    ]
    return json.dumps(against) if against else None


# The overturning decisions each kind of incident takes (a confirm takes the verdict's call):
# a penalty kick's and a ball line's are their engine's decisions.
OVERTURNS = {
    "situation": ("offside", "no_offence"),
    "penalty_kick": tuple(d.value for d in Decision),
    "ball_line": tuple(d.value for d in BallLineDecision),
}


def _outcome(entry: DecisionIn, verdict: Mapping[str, Any]) -> str:
    """What the decision says happened: a confirm takes the verdict's call."""
    kind = str(verdict.get("kind"))
    kind = kind if kind in OVERTURNS else "situation"
    if entry.decision != "confirm":
        if entry.decision not in OVERTURNS[kind]:
            raise ApiError(
                422,
                f"a {kind.replace('_', ' ')} is decided by confirm or one of "
                + ", ".join(OVERTURNS[kind]),
                "$.decision",
            )
        return entry.decision
    if kind != "situation":
        return str(verdict["decision"])
    if verdict["status"] not in OUTCOME_OF_STATUS:
        raise ApiError(
            422,
            "the engine could not decide: nothing to confirm; choose offside or no_offence",
            "$.decision",
        )
    return OUTCOME_OF_STATUS[verdict["status"]]


def entry_out(row: Mapping[Any, Any], title: str | None = None) -> dict[str, Any]:
    """A log entry as the API answers it."""
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
        # The profile the verdict it rests on was judged under; none for one before profiles.
        "profile": json.loads(row["verdict_json"]).get("profile"),
        "corrects": row["corrects"],
        "client_ref": row["client_ref"],
        "note": row["note"],
        "conflicts_with": json.loads(row["conflicts_with"] or "[]"),
    }
