"""Each incident an audit finds as the file `varroom check` reads, so that anyone can judge it
again: an offside phase as a situation (format 1.1), a penalty kick and a ball line in their own
formats, each exactly as the audit judged it, with the audit's own verdict in `meta.audit`.
`varroom audit --situations DIR` writes them; the review room queues them."""

from __future__ import annotations

from typing import Any

from varroom.audit.ball_lines import BallLineIncident
from varroom.audit.model import Incident, clock
from varroom.audit.penalties import PenaltyIncident
from varroom.profiles import Profile

AnyIncident = Incident | PenaltyIncident | BallLineIncident


def incident_file(item: AnyIncident, profile: Profile, match: str | None = None) -> dict[str, Any]:
    """The file of one incident, with the audit's verdict in `meta.audit` (and the profile it
    was judged under: `varroom check --profile` on the file gives that verdict), its clock in
    `meta.minute` and the match (when given) in `meta.match`."""
    data = item.case_file()
    data["meta"]["audit"] = item.to_dict() | {"profile": profile.stamp()}
    if match:
        data["meta"].setdefault("match", match)
    data["meta"].setdefault("minute", clock(item.period, item.t_s))
    return data


def incident_file_name(item: AnyIncident) -> str:
    """'1H-22-04.312-e1234.json' (an offside phase: the clock at the play, and its event),
    '1H-38-10.040-penalty.json', '2H-03-55.880-goal-line.json': the same match and moment always
    give the same name, so that writing again replaces rather than adds."""
    minutes, seconds = divmod(item.t_s, 60)
    return f"{item.period}H-{int(minutes):02d}-{seconds:06.3f}{item.file_tag}.json"
