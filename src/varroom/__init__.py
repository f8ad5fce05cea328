"""varroom: Law 11 (offside) and Law 14 (penalty kicks) from tracking data, with the margin,
a reason and a picture."""

from varroom.engine.judge import judge
from varroom.engine.penalty import judge_penalty
from varroom.engine.penalty_verdict import PenaltyVerdict
from varroom.engine.verdict import Status, Verdict
from varroom.errors import InputError, VarroomError
from varroom.formats.penalty_json import load, load_penalty_kick, parse_penalty_kick
from varroom.formats.situation_json import load_situation, parse_situation
from varroom.model.penalty import PenaltyKick, PenaltySettings
from varroom.model.settings import LawSettings
from varroom.model.situation import Situation

__all__ = [
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
    "judge_penalty",
    "load",
    "load_penalty_kick",
    "load_situation",
    "parse_penalty_kick",
    "parse_situation",
]
