"""The review room's services put together: what `create_app` keeps in `app.state.room`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import Engine

from varroom.serve.audit import AuditRunner
from varroom.serve.config import Limits
from varroom.serve.service.audits import Audits
from varroom.serve.service.decisions import DecisionLog
from varroom.serve.service.images import Pictures, Renderer
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.queue import Queue
from varroom.serve.service.review import Review
from varroom.serve.service.store import Store


@dataclass(frozen=True, slots=True)
class Room:
    data_dir: Path
    limits: Limits
    profiles: RoomProfiles
    store: Store
    queue: Queue
    review: Review
    log: DecisionLog
    pictures: Pictures
    audits: Audits

    @classmethod
    def open(
        cls,
        engine: Engine,
        data_dir: Path,
        audit_runner: AuditRunner,
        limits: Limits,
        profiles: RoomProfiles,
    ) -> Room:
        """The services on one database, judging under `profiles`; pictures in
        `data_dir/images`, uploads in `uploads`. Audits that were under way when the server
        last stopped are marked failed."""
        store = Store(engine)
        queue = Queue(store, profiles)
        review = Review(store, profiles)
        return cls(
            data_dir=data_dir,
            limits=limits,
            profiles=profiles,
            store=store,
            queue=queue,
            review=review,
            log=DecisionLog(store, review),
            pictures=Pictures(store, data_dir / "images", Renderer(), profiles),
            audits=Audits(store, data_dir / "uploads", audit_runner, queue),
        )

    def close(self) -> None:
        """Finish the audit under way and release connections (the room can start again)."""
        self.audits.close()
        self.store.engine.dispose()
