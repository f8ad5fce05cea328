"""varroom: Law 11 (offside) from tracking data, with the margin, a reason and a picture."""

from varroom.engine.ball_line import judge_ball_line
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.engine.judge import judge
from varroom.engine.verdict import Status, Verdict
from varroom.errors import InputError, VarroomError
from varroom.formats.ball_line_json import load_ball_line, parse_ball_line
from varroom.formats.situation_json import load_situation, parse_situation
from varroom.model.settings import LawSettings
from varroom.model.situation import Situation

__all__ = [
    "BallLineVerdict",
    "InputError",
    "LawSettings",
    "Situation",
    "Status",
    "Verdict",
    "VarroomError",
    "judge",
    "judge_ball_line",
    "load_ball_line",
    "parse_ball_line",
    "load_situation",
    "parse_situation",
]
