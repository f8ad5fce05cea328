"""Pictures of a decision: drawn on demand with the facts set now, then kept on disk.

The renderer (`varroom.pictures.decision.write_decision`, matplotlib) is imported on first use, or ahead of
it in a thread when the server starts, so that serving the queue never waits on matplotlib; a
penalty kick's and a ball line's writers (their kinds', `varroom.kinds`) when one is first drawn.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from varroom.kinds import SITUATION
from varroom.serve.config import PRIVATE_DIR
from varroom.serve.errors import ApiError
from varroom.serve.facts import apply_facts
from varroom.serve.service.judging import read_dict
from varroom.serve.service.profiles import RoomProfiles
from varroom.serve.service.store import Store

log = logging.getLogger("varroom.serve")

Render = Callable[..., None]


class Renderer:
    """`varroom.pictures.decision.write_decision`, imported once on first use; None when it will not import."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded = False
        self._render: Render | None = None

    def get(self) -> Render | None:
        with self._lock:
            if not self._loaded:
                try:
                    from varroom.pictures.decision import write_decision

                    self._render = write_decision
                except Exception:
                    log.warning("no pictures: varroom.pictures does not import", exc_info=True)
                self._loaded = True
            return self._render

    def prewarm(self) -> None:
        """Import the renderer in a background thread now, not on the first picture."""
        threading.Thread(target=self.get, name="varroom-render-import", daemon=True).start()


class Pictures:
    def __init__(
        self, store: Store, folder: Path, renderer: Renderer, profiles: RoomProfiles
    ) -> None:
        self.store = store
        self.folder = folder
        self.renderer = renderer
        self.profiles = profiles
        self._lock = threading.Lock()  # one drawing at a time: matplotlib is not thread-safe
        folder.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)

    def image(self, situation_id: int) -> Path:
        """The PNG of the situation with its facts now, judged under its profile; drawn once
        per set of facts."""
        render = self.renderer.get()
        if render is None:
            raise ApiError(404, "no picture: the renderer (varroom.pictures) is not available")
        with self.store.engine.connect() as conn:
            row = self.store.situation_row(conn, situation_id)
        profile = self.profiles.of_incident(row.profile)
        # A profile file may be edited under its name: its hash is part of what is drawn.
        key = hashlib.sha256(f"{row.facts_json}{profile.sha256}".encode()).hexdigest()[:16]
        path = self.folder / f"{int(row.id)}-{key}.png"
        if path.is_file():
            return path
        data = apply_facts(json.loads(row.situation_json), json.loads(row.facts_json))
        with self._lock:
            if path.is_file():
                return path
            source = row.source_name or "situation"
            try:
                kind, case = read_dict(data, source, profile)
                # A situation's writer is the renderer's, imported ahead when the server starts.
                write = render if kind is SITUATION else kind.picture_writer("image")
                write(case, kind.judged(case, profile), path)
            except Exception:
                log.exception("cannot draw situation %s", situation_id)
                raise ApiError(
                    422,
                    "the picture cannot be drawn for this situation: the server's log has why",
                ) from None
        return path
