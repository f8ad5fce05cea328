"""The kinds of decision varroom makes, one registration each: what reads its file, what
judges it, what prints and draws its verdict, what a reviewer may set of it in the review room,
and which command reads it. `formats.load`, the commands, the review room and the docs read
this table; adding a kind is one registration here plus its modules (docs/layout.md).

A registration names its parts as `module:name`, imported on first use: this module imports
nothing of varroom, so the reader (the load step) may look a kind up without running the
engine or the pictures, and `varroom check FILE --json` never imports matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from importlib import import_module
from typing import Any, Protocol


class JudgedVerdict(Protocol):
    """What every kind's verdict gives: the call the queue, the log and the headline read, and
    the JSON object `varroom check --json` prints."""

    @property
    def status(self) -> Enum: ...

    def to_dict(self) -> dict[str, Any]: ...


@cache
def resolve(name: str) -> Any:
    """The object a registration names as `module:attribute`."""
    module, attribute = name.split(":")
    return getattr(import_module(module), attribute)


@dataclass(frozen=True, slots=True)
class DecisionKind:
    name: str  # the file's `kind`
    read_by: str  # the command that reads its files
    signature_key: str  # a key only this kind's files have: a file without `kind` is told by it
    judge: str  # (case, profile) -> JudgedVerdict
    printer: str  # (case, verdict) -> None: the verdict for a person at a terminal
    headline: str  # (verdict) -> str: the call as its title says it ("OFFSIDE")
    # The reader of its files, (data, source, noise) -> case, where `varroom check` reads them.
    reader: str | None = None
    # `varroom check`'s picture options -> writers (case, verdict, path).
    pictures: Mapping[str, str] = field(default_factory=dict)
    # The facts a reviewer sets in the review room (`serve.facts.RoomFacts`).
    room_facts: str | None = None

    def read(self, data: Any, source: str, noise: Any) -> Any:
        assert self.reader is not None, f"{self.name} is not read by `varroom check`"
        return resolve(self.reader)(data, source, noise)

    def judged(self, case: Any, profile: Any) -> JudgedVerdict:
        verdict: JudgedVerdict = resolve(self.judge)(case, profile)
        return verdict

    def print(self, case: Any, verdict: JudgedVerdict) -> None:
        resolve(self.printer)(case, verdict)

    def headline_of(self, verdict: JudgedVerdict) -> str:
        words: str = resolve(self.headline)(verdict)
        return words

    def picture_writer(self, option: str) -> Callable[[Any, Any, Any], None]:
        writer: Callable[[Any, Any, Any], None] = resolve(self.pictures[option])
        return writer


_SITUATION_PICTURES = {
    "image": "varroom.pictures.decision:write_decision",
    "screen": "varroom.pictures.screen:write_screen",
    "clip": "varroom.pictures.clip:write_clip",
    "scene": "varroom.pictures.scene:write_scene",
    "broadcast": "varroom.pictures.broadcast:write_camera_view",
}

SITUATION = DecisionKind(
    name="situation",
    read_by="varroom check FILE",
    signature_key="touches",
    reader="varroom.formats.situation_json:situation_from_dict",
    judge="varroom.profiles.judging:judge_situation",
    printer="varroom.cli.terminal:print_verdict",
    headline="varroom.cli.terminal:headline",
    pictures=_SITUATION_PICTURES,
    room_facts="varroom.serve.facts:SITUATION_FACTS",
)
PENALTY_KICK = DecisionKind(
    name="penalty_kick",
    read_by="varroom check FILE",
    signature_key="kick",
    reader="varroom.formats.penalty_json:penalty_kick_from_dict",
    judge="varroom.profiles.judging:judge_penalty_kick",
    printer="varroom.cli.penalty:print_penalty",
    headline="varroom.cli.penalty:headline",
    pictures={
        "image": "varroom.pictures.penalty:write_penalty_png",
        "screen": "varroom.pictures.penalty:write_penalty_screen",
    },
    room_facts="varroom.serve.facts:PENALTY_FACTS",
)
BALL_LINE = DecisionKind(
    name="ball_line",
    read_by="varroom check FILE",
    signature_key="ball_track",
    reader="varroom.formats.ball_line_json:ball_line_from_dict",
    judge="varroom.profiles.judging:judge_ball_line_case",
    printer="varroom.cli.ball_line:print_ball_line_verdict",
    headline="varroom.cli.ball_line:headline",
    pictures={
        "image": "varroom.pictures.ball_line:write_ball_line_view",
        "screen": "varroom.pictures.ball_line:write_ball_line_screen",
    },
    room_facts="varroom.serve.facts:NO_FACTS",
)
# A still is judged from its marks and the picture's size (`varroom still`), not by `check`.
STILL_MARKS = DecisionKind(
    name="still_marks",
    read_by="varroom still IMAGE --marks FILE",
    signature_key="landmarks",
    judge="varroom.profiles.judging:judge_still_marks",
    printer="varroom.cli.still:print_still",
    headline="varroom.cli.still:headline",
)

KINDS: dict[str, DecisionKind] = {
    kind.name: kind for kind in (SITUATION, PENALTY_KICK, BALL_LINE, STILL_MARKS)
}
CHECKED = {name: kind for name, kind in KINDS.items() if kind.reader is not None}
"""The kinds `varroom check` reads and judges."""
