"""Each incident an audit finds as the file `varroom check` reads, so that anyone can judge it
again: an offside phase as a situation (format 1.1), a penalty kick and a ball line in their own
formats, each exactly as the audit judged it, with the audit's own verdict in `meta.audit`.
`varroom audit --situations DIR` writes them; the review room queues them."""

from __future__ import annotations

from typing import Any

from varroom.audit.ball_lines import BallLineIncident
from varroom.audit.model import Incident, clock, incident_dict
from varroom.audit.penalties import PenaltyIncident
from varroom.formats.ball_line_json import ball_line_to_dict
from varroom.formats.penalty_json import penalty_kick_to_dict
from varroom.formats.situation_json import situation_to_dict

AnyIncident = Incident | PenaltyIncident | BallLineIncident


def case_file(item: AnyIncident) -> dict[str, Any]:
    """The incident's case alone, in its own format: what `varroom check` judges (and what
    `varroom live --room` posts)."""
    if isinstance(item, Incident):
        return situation_to_dict(item.situation)
    if isinstance(item, PenaltyIncident):
        return penalty_kick_to_dict(item.kick)
    if isinstance(item, BallLineIncident):
        return ball_line_to_dict(item.case)
    raise TypeError(
        f"an incident must be a situation, a penalty kick or a ball line, got {type(item).__name__}"
    )


def incident_file(item: AnyIncident, match: str | None = None) -> dict[str, Any]:
    """The file of one incident, with the audit's verdict in `meta.audit`, its clock in
    `meta.minute` and the match (when given) in `meta.match`."""
    data = case_file(item)
    data["meta"]["audit"] = incident_dict(item) if isinstance(item, Incident) else item.to_dict()
    if match:
        data["meta"].setdefault("match", match)
    data["meta"].setdefault("minute", clock(item.period, item.t_s))
    return data


def incident_file_name(item: AnyIncident) -> str:
    """'1H-22-04.312-e1234.json' (an offside phase: the clock at the play, and its event),
    '1H-38-10.040-penalty.json', '2H-03-55.880-goal-line.json': the same match and moment always
    give the same name, so that writing again replaces rather than adds."""
    minutes, seconds = divmod(item.t_s, 60)
    if isinstance(item, Incident):
        what = "" if item.event_index is None else f"-e{item.event_index}"
    elif isinstance(item, PenaltyIncident):
        what = "-penalty"
    else:
        what = "-" + item.what.value.replace("_", "-")
    return f"{item.period}H-{int(minutes):02d}-{seconds:06.3f}{what}.json"
