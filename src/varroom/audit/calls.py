"""The officials' offside calls, as the event data records them."""

from __future__ import annotations

from varroom.audit.model import OfficialCall
from varroom.match.tracking import EventKind, MatchTracking


def official_calls(match: MatchTracking) -> tuple[OfficialCall, ...]:
    """Every offside call of the match's events, with the player penalised: an offside
    event names him; a pass whose outcome is offside names him as its receiver."""
    return tuple(
        OfficialCall(
            period=event.period,
            t_s=event.t_s,
            team=event.team,
            player=event.player if event.kind is EventKind.OFFSIDE else event.receiver,
            raw_type=event.raw_type,
            event_index=index,
        )
        for index, event in enumerate(match.events)
        if event.offside_call
    )
