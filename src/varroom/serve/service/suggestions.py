"""A still's suggested landmarks and players, computed once (issue 23: 14-23 s of CPU a call,
uncached, and four at once pushed the decisions' p99 past a second).

OpenCV's suggestion runs in one worker thread of the room, one still at a time, so that
however many pages ask, the decisions never wait behind more than it. The first ask starts it
and is answered "computing" (202); the result is kept beside the still, named by the still's
content and the direction of attack, so it is computed once per still, across restarts too.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from varroom.output_file import write_atomically
from varroom.serve.errors import ApiError

Found = dict[str, Any]


class Suggestions:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # Started at the first ask, and again after `close`: a room closed can start again.
        self._worker: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._running: dict[str, Future[Found]] = {}

    def get(self, key: str, compute: Callable[[], Found]) -> Found | None:
        """The suggestions kept under `key`, or None while they are being computed (the
        first ask starts it)."""
        kept = self.folder / f"{key}.suggestions.json"
        if kept.is_file():
            found: Found = json.loads(kept.read_text(encoding="utf-8"))
            return found
        with self._lock:
            running = self._running.get(key)
            if running is None:
                if self._worker is None:
                    self._worker = ThreadPoolExecutor(1, thread_name_prefix="varroom-suggest")
                self._running[key] = self._worker.submit(self._computed, kept, compute)
                return None
            if not running.done():
                return None
            del self._running[key]
        error = running.exception()
        if error is not None:  # asked again, it is tried again
            raise ApiError(422, "the suggestions could not be computed for this still") from error
        return running.result()

    @staticmethod
    def _computed(kept: Path, compute: Callable[[], Found]) -> Found:
        found = compute()
        text = json.dumps(found, allow_nan=False)
        write_atomically(kept, "suggestions", lambda stream: stream.write(text.encode()) and None)
        return found

    def close(self) -> None:
        """Stop: a suggestion under way is left to finish, none queued starts."""
        with self._lock:
            worker, self._worker = self._worker, None
            self._running.clear()
        if worker is not None:
            worker.shutdown(wait=False, cancel_futures=True)
