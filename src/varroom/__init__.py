"""varroom: Law 11 (offside) from tracking data, with the margin, a reason and a picture."""

from varroom.engine.judge import judge
from varroom.engine.verdict import Status, Verdict
from varroom.errors import InputError, VarroomError
from varroom.formats.situation_json import load_situation, parse_situation
from varroom.model.settings import LawSettings
from varroom.model.situation import Situation

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
