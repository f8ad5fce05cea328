"""What a match audit finds: incidents, the officials' calls, and where the two agree."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any

from varroom.engine.verdict import Status, Verdict
from varroom.model.situation import Situation
from varroom.profiles import Profile, ifab

if TYPE_CHECKING:
    from varroom.audit.ball_lines import BallLineIncident
    from varroom.audit.penalties import PenaltyIncident

# Called with (done, total, what) as an audit goes; the CLI draws a progress bar from it.
Progress = Callable[[int, int, str], None]


class IncidentKind(Enum):
    """The Law an incident is judged under."""

    OFFSIDE = "offside"  # Law 11: `Incident`
    PENALTY = "penalty"  # Law 14: `varroom.audit.penalties.PenaltyIncident`
    BALL_LINE = "ball_line"  # Laws 9 and 10: `varroom.audit.ball_lines.BallLineIncident`


class IncidentSource(Enum):
    """Where an incident's positions come from."""

    TRACKING = "tracking"  # continuous tracking, at a moment of play found in it
    FREEZE_FRAME = "freeze_frame"  # an event's freeze frame (StatsBomb 360)


@dataclass(frozen=True, slots=True)
class Incident:
    """One attacking phase the engine judged: an offence, or a phase it could not settle."""

    period: int
    t_s: float  # seconds since the period's start, at the judged play
    team: str  # the attacking team
    situation: Situation
    verdict: Verdict
    source: IncidentSource
    # How sure the chain of touches is (who played it, deliberate play or deflection), 0..1:
    # 1 when event data names every touch, less when it was estimated from tracking.
    chain_confidence: float = 1.0
    event_index: int | None = None  # the event it came from, when there is one

    @property
    def kind(self) -> IncidentKind:
        return IncidentKind.OFFSIDE

    @property
    def status(self) -> Status:
        return self.verdict.status

    @property
    def passer(self) -> str | None:
        judged = self.verdict.judged_at
        return None if judged is None else self.situation.touches[judged].player

    @property
    def file_tag(self) -> str:
        """What its file's name says of it besides the clock: the event it came from."""
        return "" if self.event_index is None else f"-e{self.event_index}"

    def case_file(self) -> dict[str, Any]:
        """Its situation in the situation format, as `varroom check` judges it."""
        from varroom.formats.situation_json import situation_to_dict

        return situation_to_dict(self.situation)

    def to_dict(self) -> dict[str, Any]:
        return incident_dict(self)


@dataclass(frozen=True, slots=True)
class OfficialCall:
    """An offside the referee's team called, as the event data records it."""

    period: int
    t_s: float
    team: str | None  # the team penalised (the attacking team)
    player: str | None  # the player penalised, where the data names him
    raw_type: str
    event_index: int | None = None


class Agreeing(StrEnum):
    """How one offside decision scores between the officials and the engine: a row of the
    match audit's table, and of a season's results (the value is what is stored)."""

    AGREED = "agreed"  # an official call and the engine's offence, paired by time
    ENGINE_ONLY = "engine_only"
    OFFICIALS_ONLY = "officials_only"
    # A call the data itself contradicts (an offside recorded on a corner kick): neither
    # agreed nor disagreed with.
    DATA_INCONSISTENT = "data_inconsistent"
    # A phase where an offence was possible but the data cannot settle it (a player or the
    # ball unseen, a chain of touches the tracking leaves open), with no call paired to it.
    UNDECIDABLE = "undecidable"

    @property
    def label(self) -> str:
        """The words a report shows: 'engine only'."""
        return self.value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Agreement:
    """Incidents and calls paired by time: index pairs into `Audit.incidents` / `official_calls`."""

    both: tuple[tuple[int, int], ...]
    engine_only: tuple[int, ...]
    official_only: tuple[int, ...]
    # Calls the data itself contradicts (an offside recorded on a corner kick), with why: they
    # are neither agreed nor disagreed with.
    inconsistent: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Audit:
    match: str
    incidents: tuple[Incident, ...]  # offences found by the engine
    official_calls: tuple[OfficialCall, ...]
    undecidable: tuple[Incident, ...]  # phases where an offence was possible but not settled
    agreement: Agreement
    phases_judged: int = 0  # every phase the engine judged, offence or not
    notes: tuple[str, ...] = field(default=())
    penalties: tuple[PenaltyIncident, ...] = ()  # every penalty kick found, judged
    ball_lines: tuple[BallLineIncident, ...] = ()  # missed ball-outs and goal-line moments
    profile: Profile = field(default_factory=ifab)  # how the Laws were applied

    def to_dict(self) -> dict[str, Any]:
        # Every verdict says what it was judged under, as `varroom check --json` does.
        stamp = {"profile": self.profile.stamp()}
        return {
            "match": self.match,
            "profile": self.profile.stamp(),
            "phases_judged": self.phases_judged,
            "incidents": [incident_dict(i) | stamp for i in self.incidents],
            "official_calls": [
                {
                    "period": c.period,
                    "t_s": round(c.t_s, 3),
                    "clock": clock(c.period, c.t_s),
                    "team": c.team,
                    "player": c.player,
                    "raw_type": c.raw_type,
                }
                for c in self.official_calls
            ],
            "undecidable": [incident_dict(i) | stamp for i in self.undecidable],
            "agreement": {
                "both": [{"incident": i, "official_call": c} for i, c in self.agreement.both],
                "engine_only": list(self.agreement.engine_only),
                "official_only": list(self.agreement.official_only),
                "data_inconsistent": [
                    {"official_call": c, "reason": why} for c, why in self.agreement.inconsistent
                ],
            },
            "penalties": [p.to_dict() | stamp for p in self.penalties],
            "ball_lines": [b.to_dict() | stamp for b in self.ball_lines],
            "notes": list(self.notes),
        }


def clock(period: int, t_s: float) -> str:
    """'1H 22:05' style match clock for people."""
    minutes, seconds = divmod(int(t_s), 60)
    return f"{period}H {minutes:02d}:{seconds:02d}"


def incident_dict(incident: Incident) -> dict[str, Any]:
    verdict = incident.verdict
    return {
        "kind": incident.kind.value,
        "period": incident.period,
        "t_s": round(incident.t_s, 3),
        "clock": clock(incident.period, incident.t_s),
        "team": incident.team,
        "passer": incident.passer,
        "offender": verdict.offender,
        "status": verdict.status.value,
        "margin_m": None if verdict.margin_m is None else round(verdict.margin_m, 3),
        "probability": None if verdict.uncertainty is None else verdict.uncertainty.probability,
        "chain": [
            {"player": s.player, "action": s.action, "effect": s.effect.value, "t_s": s.t_s}
            for s in verdict.chain
        ],
        "chain_confidence": round(incident.chain_confidence, 3),
        "source": incident.source.value,
        "event_index": incident.event_index,
        "reason": verdict.reason,
    }


def match_calls(
    incidents: Sequence[Incident],
    calls: Sequence[OfficialCall],
    window_s: float = 8.0,
    inconsistent: Mapping[int, str] | None = None,
) -> Agreement:
    """Pair each official call with the nearest unpaired incident of the same period and team
    within `window_s` seconds (a flag goes up a few seconds after the pass)."""
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for c_index, call in enumerate(calls):
        candidates = [
            (abs(incident.t_s - call.t_s), i_index)
            for i_index, incident in enumerate(incidents)
            if i_index not in used
            and incident.period == call.period
            and (call.team is None or incident.team == call.team)
            and -1.0 <= call.t_s - incident.t_s <= window_s
        ]
        if candidates:
            _, best = min(candidates)
            used.add(best)
            pairs.append((best, c_index))
    paired_calls = {c for _, c in pairs}
    contradicted = {} if inconsistent is None else dict(inconsistent)
    return Agreement(
        both=tuple(pairs),
        engine_only=tuple(i for i in range(len(incidents)) if i not in used),
        official_only=tuple(
            c for c in range(len(calls)) if c not in paired_calls and c not in contradicted
        ),
        inconsistent=tuple(
            (c, why) for c, why in sorted(contradicted.items()) if c not in paired_calls
        ),
    )
