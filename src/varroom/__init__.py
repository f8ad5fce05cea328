"""varroom: the factual decisions of football from tracking data: Law 11 (offside), Law 14
(penalty kicks), Laws 9 and 10 (the ball over the line), each with the margin, its
uncertainty, a reason and a picture."""

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
