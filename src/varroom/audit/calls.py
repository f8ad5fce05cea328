"""The officials' offside calls, as the event data records them."""

from __future__ import annotations

from collections.abc import Sequence

from varroom.audit.model import Audit, Incident, OfficialCall, match_calls
from varroom.match.tracking import EventKind, MatchTracking
from varroom.profiles import Profile


def audit_with_calls(
    match: MatchTracking,
    incidents: Sequence[Incident],
    undecidable: Sequence[Incident],
    phases_judged: int,
    notes: tuple[str, ...],
    profile: Profile,
) -> Audit:
    """The engine's findings in a match beside the officials' calls, paired by time."""
    calls = official_calls(match)
    home, away = match.teams
    contradicted = {
        c: why for c, call in enumerate(calls) if (why := inconsistent_call(match, call))
    }
    return Audit(
        match=f"{home.name} v {away.name}",
        incidents=tuple(incidents),
        official_calls=calls,
        undecidable=tuple(undecidable),
        agreement=match_calls(incidents, calls, inconsistent=contradicted),
        phases_judged=phases_judged,
        notes=notes,
        profile=profile,
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


_EXEMPT_RESTARTS = {
    EventKind.CORNER_KICK: "corner kick",
    EventKind.THROW_IN: "throw-in",
    EventKind.GOAL_KICK: "goal kick",
}


def _receipt(raw_type: str) -> bool:
    """StatsBomb's record of the pass's own receipt ('Ball Receipt*'), not a further play."""
    return raw_type.lower().startswith("ball receipt")


def inconsistent_call(match: MatchTracking, call: OfficialCall) -> str:
    """Why the data contradicts itself about a call ('' when it does not): an offside
    recorded on a goal kick, throw-in or corner kick itself, which Law 11.3 rules out."""
    if call.event_index is None:
        return ""
    event = match.events[call.event_index]
    restart = _EXEMPT_RESTARTS.get(event.kind)
    if restart is None:
        return ""
    later = [
        e
        for e in match.events[call.event_index + 1 :]
        if e.period == event.period and e.t_s > event.t_s and not _receipt(e.raw_type)
    ]
    after = (
        f"; after the receipt, the next event it records is a {later[0].raw_type.lower()} "
        f"{later[0].t_s - event.t_s:.0f} s later"
        if later
        else ""
    )
    return (
        f"The data records the offside on the {restart} itself ({event.raw_type}, outcome "
        f"offside), but no offside offence is possible directly from a {restart} (Law 11.3)"
        f"{after}. The flag may concern a later touch the data does not record: the record "
        "cannot be right as it stands, so the call is neither agreed nor disagreed with."
    )
