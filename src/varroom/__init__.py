"""varroom: Law 11 (offside) from tracking data, with the margin, a reason and a picture."""

from varroom.errors import InputError, VarroomError
from varroom.judge import judge
from varroom.settings import LawSettings
from varroom.situation import Situation
from varroom.situation_json import load_situation, parse_situation
from varroom.verdict import Status, Verdict

__all__ = [
    "InputError",
    "LawSettings",
    "Situation",
    "Status",
    "Verdict",
    "VarroomError",
    "judge",
    "load_situation",
    "parse_situation",
]
