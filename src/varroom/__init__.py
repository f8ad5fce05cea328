"""varroom: the factual decisions of football from tracking data: Law 11 (offside), Law 14
(penalty kicks), Laws 9 and 10 (the ball over the line), each with the margin, its
uncertainty, a reason and a picture.

Names load lazily (PEP 562), so that importing one part of varroom (`varroom check` on a
situation) does not pay for the others (the ball-line and penalty engines): `from varroom
import judge` imports the offside engine only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from varroom.lazy_names import lazy_names

if TYPE_CHECKING:
    from varroom.engine.ball_line import judge_ball_line
    from varroom.engine.ball_line_verdict import BallLineVerdict
    from varroom.engine.judge import judge
    from varroom.engine.penalty import judge_penalty
    from varroom.engine.penalty_verdict import PenaltyVerdict
    from varroom.engine.verdict import Status, Verdict
    from varroom.errors import InputError, VarroomError
    from varroom.formats.ball_line_json import load_ball_line, parse_ball_line
    from varroom.formats.load import load
    from varroom.formats.penalty_json import load_penalty_kick, parse_penalty_kick
    from varroom.formats.situation_json import load_situation, parse_situation
    from varroom.model.penalty import PenaltyKick, PenaltySettings
    from varroom.model.settings import LawSettings
    from varroom.model.situation import Situation

# Each public name -> the module that defines it (what the TYPE_CHECKING imports say).
_WHERE = {
    "BallLineVerdict": "varroom.engine.ball_line_verdict",
    "InputError": "varroom.errors",
    "LawSettings": "varroom.model.settings",
    "PenaltyKick": "varroom.model.penalty",
    "PenaltySettings": "varroom.model.penalty",
    "PenaltyVerdict": "varroom.engine.penalty_verdict",
    "Situation": "varroom.model.situation",
    "Status": "varroom.engine.verdict",
    "Verdict": "varroom.engine.verdict",
    "VarroomError": "varroom.errors",
    "judge": "varroom.engine.judge",
    "judge_ball_line": "varroom.engine.ball_line",
    "judge_penalty": "varroom.engine.penalty",
    "load": "varroom.formats.load",
    "load_ball_line": "varroom.formats.ball_line_json",
    "load_penalty_kick": "varroom.formats.penalty_json",
    "load_situation": "varroom.formats.situation_json",
    "parse_ball_line": "varroom.formats.ball_line_json",
    "parse_penalty_kick": "varroom.formats.penalty_json",
    "parse_situation": "varroom.formats.situation_json",
}

__all__ = [
    "BallLineVerdict",
    "InputError",
    "LawSettings",
    "PenaltyKick",
    "PenaltySettings",
    "PenaltyVerdict",
    "Situation",
    "Status",
    "Verdict",
    "VarroomError",
    "judge",
    "judge_ball_line",
    "judge_penalty",
    "load",
    "load_ball_line",
    "load_penalty_kick",
    "parse_ball_line",
    "load_situation",
    "parse_penalty_kick",
    "parse_situation",
]
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
