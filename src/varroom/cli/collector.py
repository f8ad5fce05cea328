"""The garbage collector's passes, paused while a command makes objects that live as long as
its process: a command's imports (numpy, matplotlib: hundreds of thousands of objects), and the
picture `check` draws. The passes over them would find next to no garbage, at a cost of tens of
milliseconds in a command that takes half a second."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No collection inside; the collector as it was after (a caller's own pause stays)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
