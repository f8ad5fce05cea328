"""Deprecated: the 2D top-down picture moved to `varroom.pictures.decision` (one pictures
package). `render_png`, `draw`, `RenderError`, `DPI`, `WIDTH_PX` and `HEIGHT_PX` still resolve
here for one release, with a DeprecationWarning; importing this module imports no matplotlib.
"""

from __future__ import annotations

import warnings
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from varroom.pictures.decision import DPI, HEIGHT_PX, WIDTH_PX
    from varroom.pictures.decision import RenderError as RenderError
    from varroom.pictures.decision import draw_decision as draw
    from varroom.pictures.decision import write_decision as render_png

# The old name -> the new one, in varroom.pictures.decision.
_MOVED = {
    "render_png": "write_decision",
    "draw": "draw_decision",
    "RenderError": "RenderError",
    "DPI": "DPI",
    "WIDTH_PX": "WIDTH_PX",
    "HEIGHT_PX": "HEIGHT_PX",
}

__all__ = ["DPI", "HEIGHT_PX", "WIDTH_PX", "RenderError", "draw", "render_png"]


def __getattr__(name: str) -> Any:
    new = _MOVED.get(name)
    if new is None:
        raise AttributeError(f"module 'varroom.render' has no attribute {name!r}")
    warnings.warn(
        f"varroom.render.{name} is deprecated: use varroom.pictures.decision.{new}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(import_module("varroom.pictures.decision"), new)


def __dir__() -> list[str]:
    return sorted([*globals(), *_MOVED])
