"""Pictures of a decision (docs/pictures.md): the top-down picture (`decision`), the stadium
screen, the clip, the interactive 3D scene and the broadcast-perspective picture. They all read
one `story.Story` of what to draw, the one palette (`style`) and the text styles (`typeset`).

Every writer checks its path first, draws, writes to a hidden temporary file beside the target
and renames it over the target (`varroom.output_file`): a failure leaves no partial file and is
a `PictureError` (a `VarroomError`, exit 1) with a one-line message.

Names load lazily, so that `from varroom.pictures import write_scene` does not import
matplotlib (the scene needs none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from varroom.lazy_names import lazy_names
from varroom.output_file import OutputError

if TYPE_CHECKING:
    from varroom.pictures.broadcast import draw_broadcast, write_broadcast
    from varroom.pictures.clip import ClipFrame, clip_frames, write_clip
    from varroom.pictures.decision import draw_decision, write_decision
    from varroom.pictures.scene import scene_data, write_scene
    from varroom.pictures.screen import draw_screen, write_screen

# A picture (screen, clip, scene, broadcast) could not be made or written (exit 1): the error of
# every file varroom writes whole or not at all.
PictureError = OutputError

_WHERE = {
    "draw_decision": "varroom.pictures.decision",
    "write_decision": "varroom.pictures.decision",
    "ClipFrame": "varroom.pictures.clip",
    "clip_frames": "varroom.pictures.clip",
    "write_clip": "varroom.pictures.clip",
    "scene_data": "varroom.pictures.scene",
    "write_scene": "varroom.pictures.scene",
    "draw_screen": "varroom.pictures.screen",
    "write_screen": "varroom.pictures.screen",
    "draw_broadcast": "varroom.pictures.broadcast",
    "write_broadcast": "varroom.pictures.broadcast",
}

__all__ = [
    "ClipFrame",
    "PictureError",
    "clip_frames",
    "draw_broadcast",
    "draw_decision",
    "draw_screen",
    "scene_data",
    "write_broadcast",
    "write_clip",
    "write_decision",
    "write_scene",
    "write_screen",
]
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
