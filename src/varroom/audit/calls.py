"""The officials' offside calls, as the event data records them."""

from __future__ import annotations

from collections.abc import Sequence

from varroom.audit.model import Audit, Incident, OfficialCall, match_calls
from varroom.match.tracking import EventKind, MatchTracking


def audit_with_calls(
    match: MatchTracking,
    incidents: Sequence[Incident],
    undecidable: Sequence[Incident],
    phases_judged: int,
    notes: tuple[str, ...],
) -> Audit:
    """The engine's findings in a match beside the officials' calls, paired by time."""
    calls = official_calls(match)
    home, away = match.teams
    return Audit(
        match=f"{home.name} v {away.name}",
        incidents=tuple(incidents),
        official_calls=calls,
        undecidable=tuple(undecidable),
        agreement=match_calls(incidents, calls),
        phases_judged=phases_judged,
        notes=notes,
    )


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
