"""Deprecated: the 2D top-down picture moved to `varroom.pictures.decision` (one pictures
package). `render_png`, `draw`, `RenderError`, `DPI`, `WIDTH_PX` and `HEIGHT_PX` still resolve
here for one release, with a DeprecationWarning; importing this module imports no matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from varroom.lazy_names import lazy_names

if TYPE_CHECKING:
    from varroom.pictures.decision import DPI, HEIGHT_PX, WIDTH_PX
    from varroom.pictures.decision import RenderError as RenderError
    from varroom.pictures.decision import draw_decision as draw
    from varroom.pictures.decision import write_decision as render_png

# The old name -> where it is now.
_MOVED = {
    "render_png": "varroom.pictures.decision:write_decision",
    "draw": "varroom.pictures.decision:draw_decision",
    "RenderError": "varroom.pictures.decision",
    "DPI": "varroom.pictures.decision",
    "WIDTH_PX": "varroom.pictures.decision",
    "HEIGHT_PX": "varroom.pictures.decision",
}

__all__ = ["DPI", "HEIGHT_PX", "WIDTH_PX", "RenderError", "draw", "render_png"]
__getattr__, __dir__ = lazy_names(__name__, _MOVED, moved=True)
