"""Stills in the review room: a broadcast picture uploaded, marked, judged, decided.

A still is kept as its bytes (0600, named by their SHA-256, in `data_dir/stills`) and a row of
`stills`. Judging it is `varroom still`'s, on the marks the page sends, under its incident's
profile (the room's default before it has one); saving the marks makes (or updates) its
incident in the queue, the situation the marks give, so that the facts, the picture and the
decision log of the room work on it as on any other.
Each save is a new `still_marks` row stamped with the facts version it set, and a decision on
the incident names in `still_decisions` the marks in force at the version it was made at.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import sqlalchemy as sa
from PIL import Image, UnidentifiedImageError
from sqlalchemy.exc import IntegrityError

from varroom.model import measures
from varroom.output_file import temporary_path
from varroom.profiles import Profile
from varroom.profiles.judging import judge_still_marks
from varroom.serve import db
from varroom.serve.config import PRIVATE_DIR
from varroom.serve.errors import ApiError, unjudgeable_as_422
from varroom.serve.schemas import DecisionIn
from varroom.serve.service.audits import save_upload
from varroom.serve.service.decisions import DecisionLog
from varroom.serve.service.display import names_of, safe_name, summary
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.queue import Queue
from varroom.serve.service.review import check_version, stale
from varroom.serve.service.room import Room
from varroom.serve.service.store import LogWriter, Store, now
from varroom.serve.service.suggestions import Suggestions
from varroom.still import pitch_model as pm
from varroom.still.judge import StillVerdict
from varroom.still.marks import marks_from_dict

MEDIA_TYPES = {"image/png": ("PNG", ".png"), "image/jpeg": ("JPEG", ".jpg")}
# A broadcast frame is 1920 x 1080 or 3840 x 2160: far larger is a decompression bomb.
MAX_SIDE_PX = 8192
MAX_PIXELS = 40_000_000
_OPENCV_MISSING = (
    "OpenCV is not installed on the server (pip install 'varroom[still]'): "
    "no landmarks or players suggested; mark them by hand"
)


@dataclass(frozen=True, slots=True)
class StillRow:
    id: int
    media_type: str
    width: int
    height: int
    sha256: str
    source_name: str | None
    situation_id: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class Stills:
    store: Store
    folder: Path
    queue: Queue
    log: DecisionLog
    profiles: RoomProfiles
    suggestions: Suggestions

    @classmethod
    def of(cls, room: Room) -> Stills:
        """The stills service on the room's database, its files in `data_dir/stills`."""
        return cls(
            room.store,
            room.data_dir / "stills",
            room.queue,
            room.log,
            room.profiles,
            room.suggestions,
        )

    # -- the picture ------------------------------------------------------------------------

    def add(self, body: bytes, media_type: str, filename: str | None) -> dict[str, Any]:
        """Keep an uploaded PNG or JPEG: 201's answer, its id and size."""
        if media_type not in MEDIA_TYPES:
            raise ApiError(415, "send the still as image/png or image/jpeg")
        width, height = _checked_image(body, media_type)
        digest = hashlib.sha256(body).hexdigest()
        self._keep(body, digest, media_type)
        row = {
            "created_at": now(),
            "source_name": safe_name(filename),
            "media_type": media_type,
            "width": width,
            "height": height,
            "sha256": digest,
        }
        with self.store.write_lock, self.store.engine.begin() as conn:
            still_id = conn.execute(
                sa.insert(db.stills).values(**row).returning(db.stills.c.id)
            ).scalar_one()
        return self.detail(still_id)

    def _keep(self, body: bytes, digest: str, media_type: str) -> None:
        self.folder.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        target = self.folder / (digest + MEDIA_TYPES[media_type][1])
        if target.exists():  # the same picture again: its bytes are kept once
            return
        partial = temporary_path(target)
        try:
            save_upload(io.BytesIO(body), partial)  # created 0600, never over a file
            os.replace(partial, target)
        finally:
            with suppress(FileNotFoundError):
                partial.unlink()

    def row(self, still_id: int, conn: sa.Connection | None = None) -> StillRow:
        """The still's row (read on `conn` when given), or a 404."""
        query = sa.select(db.stills).where(db.stills.c.id == still_id)
        if conn is None:
            with self.store.engine.connect() as own:
                found = own.execute(query).first()
        else:
            found = conn.execute(query).first()
        if found is None:
            raise ApiError(404, f"no still {still_id}")
        return StillRow(**found._mapping)

    def image(self, still_id: int) -> tuple[Path, str]:
        """The still's file and its media type."""
        row = self.row(still_id)
        return self.folder / (row.sha256 + MEDIA_TYPES[row.media_type][1]), row.media_type

    def rgb(self, still_id: int) -> npt.NDArray[np.uint8]:
        path, _ = self.image(still_id)
        with Image.open(path) as picture:
            return np.asarray(picture.convert("RGB"), dtype=np.uint8)

    # -- marks, verdict, picture -------------------------------------------------------------

    def profile(self, still: StillRow) -> Profile:
        """What the still is judged under: its incident's profile, or the room's default
        before it has an incident."""
        if still.situation_id is None:
            return self.profiles.default
        with self.store.engine.connect() as conn:
            name = self.store.situation_row(conn, still.situation_id).profile
        return self.profiles.of_incident(name)

    def judge(self, still_id: int, marks: Any) -> tuple[StillVerdict, Profile]:
        """The verdict the marks give on this still, and the profile it was judged under; a
        fault is a 422 with its JSON path."""
        row = self.row(still_id)
        profile = self.profile(row)
        return judged(marks, (row.width, row.height), f"still {still_id}", profile), profile

    def picture(self, still_id: int, marks: Any) -> bytes:
        """The still with the true offside line drawn (`varroom still --image`), as a PNG."""
        # Imported here: matplotlib is loaded only when a picture is asked for.
        from varroom.pictures.still import DPI, draw_still

        result, _ = self.judge(still_id, marks)
        figure = draw_still(result, self.rgb(still_id))
        out = io.BytesIO()
        figure.savefig(out, format="png", dpi=DPI, facecolor=figure.get_facecolor())
        return out.getvalue()

    def suggest(self, still_id: int, towards: float) -> dict[str, Any] | None:
        """OpenCV's suggested landmarks and players, or why there are none; None while they
        are being computed (once per still and direction, `service.suggestions`)."""
        try:
            from varroom.still.suggest import suggest_landmarks, suggest_players
        except ImportError:
            return {"available": False, "reason": _OPENCV_MISSING, "landmarks": [], "players": []}
        still = self.row(still_id)
        key = f"{still.sha256}.{'plus' if towards > 0 else 'minus'}-x"
        return self.suggestions.get(
            key, lambda: self._suggested(still_id, towards, suggest_landmarks, suggest_players)
        )

    def _suggested(
        self,
        still_id: int,
        towards: float,
        suggest_landmarks: Callable[..., Any],
        suggest_players: Callable[..., Any],
    ) -> dict[str, Any]:
        image = self.rgb(still_id)
        found = suggest_landmarks(image, towards)
        players = [[round(u, 1), round(v, 1)] for u, v in suggest_players(image)]
        return {
            "available": True,
            "reason": None
            if found is not None
            else "too few pitch lines found to fit the pitch: mark the landmarks by hand",
            # Pitch points as `pitch_points` names them (the arc's meeting point is irrational).
            "landmarks": []
            if found is None
            else [{**lm, "pitch": [round(v, 4) for v in lm["pitch"]]} for lm in found.to_json()],
            "line_error_px": None if found is None else round(found.line_error_px, 2),
            "players": players,
        }

    # -- the incident -------------------------------------------------------------------------

    def save(self, still_id: int, marks: Any, expected: int | None) -> dict[str, Any]:
        """Judge the marks and keep them with the still's incident (made at the first save):
        the still's detail as saved.

        Marks replace the situation, so they are taken only over the state the reviewer saw:
        without `expected` (If-Match), only as the still's first marks; with it (the
        incident's facts version as loaded), only while the facts are at that version. Any
        other save, that of a reviewer who saved second included, is a 409 with the version
        to load. Saving sets the situation the marks give, so the facts set on the old one
        start again.
        """
        still = self.row(still_id)
        # The incident's profile, or the default it is queued under: the same for both below.
        profile = self.profile(still)
        result = judged(marks, (still.width, still.height), f"still {still_id}", profile)
        if still.situation_id is None and expected not in (None, 0):
            raise ApiError(409, "this still has no incident yet", "header:If-Match")
        name = still.source_name or f"still {still_id}"
        queued = self.queue.judged(result.situation_json, name, profile, origin="still")
        try:
            with self.store.logged() as log:
                self._save(log, still, marks, expected, queued)
                detail = self._detail(log.conn, self.row(still_id, log.conn))
        except IntegrityError:
            # Two saves of one version past every guard (uq_still_marks_version): the second
            # is stale. Not reached while writers hold the log in turn.
            claimed = self.row(still_id).situation_id
            if claimed is None:
                raise
            with self.store.engine.connect() as conn:
                current = self.store.situation_row(conn, claimed)
            raise stale(current, "another reviewer saved these marks at the same moment") from None
        if still.situation_id is None:
            self.queue.joined()
        return detail

    def _save(
        self,
        log: LogWriter,
        still: StillRow,
        marks: Any,
        expected: int | None,
        queued: dict[str, Any],
    ) -> None:
        """Keep the marks in the log's transaction, the still and its incident held."""
        conn, st = log.conn, db.stills
        situation_id = conn.execute(
            sa.select(st.c.situation_id).where(st.c.id == still.id).with_for_update()
        ).scalar_one()
        if situation_id is None:  # the first save: the still claims the incident it makes
            new_id = self.queue.insert(log, queued)
            conn.execute(sa.update(st).where(st.c.id == still.id).values(situation_id=new_id))
            self._add_marks(log, still.id, 0, marks)
            return
        row = self.store.situation_row(conn, situation_id, lock=True)
        if still.situation_id is None:
            raise stale(row, "another reviewer saved this still's first marks: look at them")
        if expected is None:
            raise stale(
                row,
                "this still's marks were saved already: send its ETag as If-Match, so that "
                "these marks replace those the reviewer saw",
            )
        check_version(row, expected)
        log.check_situation(row)
        version = row.facts_version + 1
        # What the marks make of the situation, as the first save queued it.
        keys = ["situation_json", "facts_json", "engine_verdict_json", "verdict_json"]
        keys += ["summary_json", "status"]
        updated = conn.execute(
            sa.update(db.situations)
            # Only over the version read (and held): never two saves under one version.
            .where(db.situations.c.id == row.id, db.situations.c.facts_version == expected)
            .values(
                **{key: queued[key] for key in keys},
                facts_version=version,
                updated_at=now(),
            )
        )
        if updated.rowcount != 1:
            check_version(self.store.situation_row(conn, row.id), expected)
        log.record_situation(row.id)
        self._add_marks(log, still.id, version, marks)

    @staticmethod
    def _add_marks(log: LogWriter, still_id: int, version: int, marks: Any) -> None:
        log.append(
            "still_marks",
            {
                "still_id": still_id,
                "created_at": now(),
                "facts_version": version,
                "marks_json": json.dumps(marks, ensure_ascii=False),
            },
        )

    def detail(self, still_id: int) -> dict[str, Any]:
        """The still, its incident, and the marks in force at its facts version (None before
        the first save)."""
        with self.store.engine.connect() as conn:
            return self._detail(conn, self.row(still_id, conn))

    def _detail(self, conn: sa.Connection, still: StillRow) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": still.id,
            "source_name": still.source_name,
            "created_at": still.created_at,
            "media_type": still.media_type,
            "width": still.width,
            "height": still.height,
            "situation_id": still.situation_id,
            "facts_version": None,
            "marks_id": None,
            "marks": None,
            "verdict": None,
        }
        if still.situation_id is None:
            return out
        m = db.still_marks
        situation = self.store.situation_row(conn, still.situation_id)
        # The marks of the version read, not of a save committed since: what the ETag names.
        latest = conn.execute(
            sa.select(m.c.id, m.c.marks_json)
            .where(m.c.still_id == still.id, m.c.facts_version <= situation.facts_version)
            .order_by(m.c.facts_version.desc())
            .limit(1)
        ).first()
        out["facts_version"] = situation.facts_version
        out["verdict"] = json.loads(situation.verdict_json)
        if latest is not None:
            out["marks_id"] = latest.id
            out["marks"] = json.loads(latest.marks_json)
        return out

    def decide(
        self, still_id: int, entry: DecisionIn, expected: int | None
    ) -> tuple[dict[str, Any], bool]:
        """Append a decision on the still's incident, recording the marks it was judged on."""
        still = self.row(still_id)
        if still.situation_id is None:
            raise ApiError(409, "save the marks first: this still has no incident yet")
        if expected is None:
            raise ApiError(
                422,
                "send If-Match (the still's ETag): a decision names the marks it was judged on",
                "header:If-Match",
            )
        m, sd = db.still_marks, db.still_decisions

        def link(log: LogWriter, decision_id: int) -> None:
            # The marks in force at the version the decision was made at (checked by the log).
            marks_id = log.conn.execute(
                sa.select(m.c.id)
                .where(m.c.still_id == still_id, m.c.facts_version <= expected)
                .order_by(m.c.facts_version.desc())
                .limit(1)
            ).scalar_one()
            log.append("still_decisions", {"decision_id": decision_id, "marks_id": marks_id})

        decision, created = self.log.add(still.situation_id, entry, expected, then=link)
        with self.store.engine.connect() as conn:
            # A retry (same client_ref) answers the marks its entry recorded, whatever
            # If-Match it brings now.
            marks = conn.execute(
                sa.select(m.c.id, m.c.marks_json)
                .join(sd, sd.c.marks_id == m.c.id)
                .where(sd.c.decision_id == decision["id"])
            ).first()
        if marks is None:
            raise ApiError(
                409,
                f"decision {decision['id']} (client_ref {entry.client_ref!r}) was made on the "
                "incident's page, not on this still's marks",
                "$.client_ref",
            )
        return {**decision, "marks_id": marks.id, "marks": json.loads(marks.marks_json)}, created

    def decisions(self, still_id: int) -> list[dict[str, Any]]:
        """The decisions on the still's incident, oldest first, each with its marks: those it
        recorded (`marks_recorded`), or for one made on the room's main page (which knows
        nothing of marks) the marks saved last before it."""
        still = self.row(still_id)
        if still.situation_id is None:
            return []
        entries = self.log.entries(still.situation_id)
        sd, m = db.still_decisions, db.still_marks
        with self.store.engine.connect() as conn:
            saved = conn.execute(
                sa.select(m.c.id, m.c.created_at, m.c.marks_json)
                .where(m.c.still_id == still_id)
                .order_by(m.c.facts_version)
            ).all()
            links = dict(
                conn.execute(
                    sa.select(sd.c.decision_id, sd.c.marks_id).where(
                        sd.c.marks_id.in_([r.id for r in saved])
                    )
                ).all()
            )
        by_id = {r.id: r for r in saved}
        out = []
        for entry in entries:
            marks_id = links.get(entry["id"])
            if marks_id is None:
                before = [r.id for r in saved if r.created_at <= entry["created_at"]]
                marks_id = before[-1] if before else None
            out.append(
                {
                    **entry,
                    "marks_id": marks_id,
                    "marks_recorded": entry["id"] in links,
                    "marks": None if marks_id is None else json.loads(by_id[marks_id].marks_json),
                }
            )
        return out


def judged(marks: Any, size: tuple[int, int], source: str, profile: Profile) -> StillVerdict:
    """The marks read and judged under `profile`, as `varroom still` judges them; their faults
    as 422s with the JSON path of the mark to correct."""
    with unjudgeable_as_422("these marks could not be judged", source):
        verdict = judge_still_marks(marks_from_dict(marks, size, source), profile)
    return verdict


def verdict_out(result: StillVerdict, profile: Profile) -> dict[str, Any]:
    """What `varroom still --json` prints, with each mark's point on the pitch and a summary."""
    verdict = {**result.to_dict(), "profile": profile.stamp()}
    return {
        **verdict,
        "summary": summary(verdict, names_of(result.situation_json)),
        "points_m": {key: [round(x, 3), round(y, 3)] for key, (x, y) in result.points_m.items()},
        "margin_se_m": None if result.margin_se_m is None else round(result.margin_se_m, 4),
    }


def _checked_image(body: bytes, media_type: str) -> tuple[int, int]:
    """The still's (width, height), read from its header, after checking it decodes."""
    kind = MEDIA_TYPES[media_type][0]
    try:
        with Image.open(io.BytesIO(body), formats=[kind]) as picture:
            width, height = picture.size
            if max(width, height) > MAX_SIDE_PX or width * height > MAX_PIXELS:
                raise ApiError(
                    422,
                    f"a {width}x{height} picture: at most {MAX_SIDE_PX} pixels a side and "
                    f"{MAX_PIXELS // 1_000_000} million in all",
                    "$",
                )
            picture.load()
    except ApiError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise ApiError(422, f"not a {kind} picture that can be read", "$") from None
    if width < 16 or height < 16:
        raise ApiError(422, f"a {width}x{height} picture is too small to mark", "$")
    return width, height


# The landmarks a reviewer can click, named as the attackers see them, facing the goal.
_NAMES = {
    (pm.HALF_L, measures.PENALTY_AREA_HALF_WIDTH_M): "penalty area meets the goal line",
    (pm.PENALTY_AREA_X, measures.PENALTY_AREA_HALF_WIDTH_M): "penalty area, front corner",
    (pm.HALF_L, measures.GOAL_AREA_HALF_WIDTH_M): "goal area meets the goal line",
    (pm.GOAL_AREA_X, measures.GOAL_AREA_HALF_WIDTH_M): "goal area, front corner",
    (pm.SPOT_X, 0.0): "penalty mark",
    (pm.PENALTY_AREA_X, pm.ARC_DY): "penalty arc meets the penalty area",
    (pm.HALF_L, measures.GOAL_HALF_WIDTH_M): "goalpost, foot",
    (0.0, pm.HALF_W): "halfway line meets the touchline",
    (pm.HALF_L, measures.GOAL_HALF_WIDTH_M, measures.GOAL_HEIGHT_M): "goalpost, top",
}


def pitch_points(towards: float) -> list[dict[str, Any]]:
    """Every landmark of the pitch model, named, in the half attacked towards `towards`."""
    out = []
    for point in (*pm.GROUND_LANDMARKS, *pm.RAISED_LANDMARKS):
        y = point[1]
        name = _NAMES[(point[0], abs(y), *point[2:])]
        if y != 0.0:
            name += ", left" if y > 0 else ", right"
        pitch = [round(towards * point[0] + 0.0, 4), round(y, 4), *point[2:]]
        out.append({"name": name, "pitch": pitch})
    return out
