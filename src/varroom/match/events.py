"""kloppy's events as `MatchEvent`s: their kind, and whether the referee called offside."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from kloppy.domain import (
    Event,
    EventType,
    GoalkeeperActionType,
    GoalkeeperQualifier,
    PassEvent,
    PassResult,
    SetPieceQualifier,
    SetPieceType,
)

from varroom.match.tracking import EventKind, MatchEvent, Provider

_KIND_OF_TYPE: dict[EventType, EventKind] = {
    EventType.PASS: EventKind.PASS,
    EventType.SHOT: EventKind.SHOT,
    EventType.TAKE_ON: EventKind.TAKE_ON,
    EventType.CARRY: EventKind.CARRY,
    EventType.CLEARANCE: EventKind.CLEARANCE,
    EventType.INTERCEPTION: EventKind.INTERCEPTION,
    EventType.DUEL: EventKind.DUEL,
    EventType.SUBSTITUTION: EventKind.SUBSTITUTION,
    EventType.PLAYER_ON: EventKind.SUBSTITUTION,
    EventType.PLAYER_OFF: EventKind.SUBSTITUTION,
    EventType.CARD: EventKind.CARD,
    EventType.RECOVERY: EventKind.RECOVERY,
    EventType.MISCONTROL: EventKind.MISCONTROL,
    EventType.BALL_OUT: EventKind.BALL_OUT,
    EventType.FOUL_COMMITTED: EventKind.FOUL,
    EventType.GOALKEEPER: EventKind.GOALKEEPER,
    EventType.PRESSURE: EventKind.PRESSURE,
    EventType.FORMATION_CHANGE: EventKind.FORMATION_CHANGE,
}

# kloppy keeps the provider's name for the events it has no type for (GenericEvent).
_KIND_OF_GENERIC_NAME: dict[str, EventKind] = {
    "offside": EventKind.OFFSIDE,
    "block": EventKind.BLOCK,
    "ball receipt*": EventKind.RECEIPT,
}

_KIND_OF_SET_PIECE: dict[SetPieceType, EventKind] = {
    SetPieceType.THROW_IN: EventKind.THROW_IN,
    SetPieceType.CORNER_KICK: EventKind.CORNER_KICK,
    SetPieceType.GOAL_KICK: EventKind.GOAL_KICK,
    SetPieceType.FREE_KICK: EventKind.FREE_KICK,
    SetPieceType.KICK_OFF: EventKind.KICK_OFF,
    SetPieceType.PENALTY: EventKind.PENALTY_KICK,
}

_SAVES = frozenset({GoalkeeperActionType.SAVE, GoalkeeperActionType.REFLEX})


@dataclass(frozen=True, slots=True)
class _RawReader:
    """What kloppy leaves in a provider's raw event and varroom needs."""

    raw_type: Callable[[Event], str] = lambda event: event.event_name
    offside: Callable[[Event], bool] = lambda event: False
    receiver: Callable[[Event], str | None] = lambda event: None


def _statsbomb_receiver(event: Event) -> str | None:
    # kloppy names the receiver of completed passes only; an offside pass has one too.
    recipient = event.raw_event.get("pass", {}).get("recipient")
    return None if recipient is None else str(recipient["id"])


def _metrica_subtypes(event: Event) -> list[str]:
    subtypes = event.raw_event.get("subtypes") or []
    return [subtype["name"] for subtype in ([subtypes] if isinstance(subtypes, dict) else subtypes)]


def _metrica_type(event: Event) -> str:
    return "/".join([event.raw_event["type"]["name"], *_metrica_subtypes(event)])


def _metrica_receiver(event: Event) -> str | None:
    receiver = event.raw_event.get("to")
    return None if receiver is None else str(receiver["id"])


_RAW_READERS: dict[Provider, _RawReader] = {
    Provider.STATSBOMB: _RawReader(
        raw_type=lambda event: event.raw_event["type"]["name"], receiver=_statsbomb_receiver
    ),
    # kloppy reads the OFFSIDE subtype of a BALL LOST only, not of a PASS.
    Provider.METRICA: _RawReader(
        raw_type=_metrica_type,
        offside=lambda event: "OFFSIDE" in _metrica_subtypes(event),
        receiver=_metrica_receiver,
    ),
}


def match_events(
    provider: Provider, events: list[Event], frame_of_event: Mapping[str, int]
) -> tuple[MatchEvent, ...]:
    """The events in order; `frame_of_event` maps event ids to their freeze frame's index."""
    raw = _RAW_READERS.get(provider, _RawReader())
    return tuple(_match_event(event, raw, frame_of_event.get(event.event_id)) for event in events)


def _match_event(event: Event, raw: _RawReader, frame: int | None) -> MatchEvent:
    kind = _kind(event)
    return MatchEvent(
        t_s=event.timestamp.total_seconds(),
        period=event.period.id,
        team=None if event.team is None else str(event.team.team_id),
        player=None if event.player is None else str(event.player.player_id),
        kind=kind,
        offside_call=(
            kind is EventKind.OFFSIDE
            or (isinstance(event, PassEvent) and event.result is PassResult.OFFSIDE)
            or raw.offside(event)
        ),
        raw_type=raw.raw_type(event),
        receiver=_receiver(event, raw),
        frame=frame,
    )


def _receiver(event: Event, raw: _RawReader) -> str | None:
    if not isinstance(event, PassEvent):
        return None
    if event.receiver_player is None:
        return raw.receiver(event)
    return str(event.receiver_player.player_id)


def _kind(event: Event) -> EventKind:
    set_piece = event.get_qualifier_value(SetPieceQualifier)
    if set_piece is not None:
        return _KIND_OF_SET_PIECE[set_piece]
    if event.event_type is EventType.GENERIC:
        return _KIND_OF_GENERIC_NAME.get(event.event_name.lower(), EventKind.OTHER)
    if event.get_qualifier_value(GoalkeeperQualifier) in _SAVES:
        return EventKind.SAVE
    return _KIND_OF_TYPE.get(event.event_type, EventKind.OTHER)
