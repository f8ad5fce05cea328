"""The review room's services put together: what `create_app` keeps in `app.state.room`."""

from __future__ import annotations

import logging
import threading
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
from varroom.serve.service.store import RoomLog, Store
from varroom.serve.service.suggestions import Suggestions

_log = logging.getLogger("varroom.serve")


class LogWatch:
    """The whole log checked again every `every_s` seconds, in a thread of its own."""

    def __init__(self, log: RoomLog, every_s: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(log, every_s), name="varroom-log-watch", daemon=True
        )
        self._thread.start()

    def _run(self, log: RoomLog, every_s: float) -> None:
        while not self._stop.wait(every_s):
            try:
                log.verify()
            except Exception:  # the database away for a moment: the next round tries again
                _log.exception("checking the log failed")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def remove_partial_files(folder: Path) -> None:
    """Remove the files a server stopped mid-write left in `folder`: those under the names
    `varroom.output_file.temporary_path` gives, before they were renamed into place."""
    for partial in folder.glob(".*.part.*"):
        partial.unlink(missing_ok=True)


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
    watch: LogWatch
    suggestions: Suggestions

    @classmethod
    def open(
        cls,
        engine: Engine,
        data_dir: Path,
        audit_runner: AuditRunner,
        limits: Limits,
        profiles: RoomProfiles,
        log: RoomLog,
        verify_every_s: float,
    ) -> Room:
        """The services on one database, judging under `profiles`; pictures in
        `data_dir/images`, uploads in `uploads`. Audits that were under way when the server
        last stopped are marked failed, and what it was writing then is removed. The log is checked whole now and every
        `verify_every_s` seconds."""
        log.verify()
        for folder in ("stills", "images"):
            remove_partial_files(data_dir / folder)
        store = Store(engine, log)
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
            watch=LogWatch(log, verify_every_s),
            suggestions=Suggestions(data_dir / "stills"),
        )

    def close(self) -> None:
        """Finish the audit under way and the log's check, and release connections (the room
        can start again)."""
        self.audits.close()
        self.watch.stop()
        self.suggestions.close()
        self.store.engine.dispose()
