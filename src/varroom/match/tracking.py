"""A whole match as columns: where everybody and the ball were, frame by frame, and the events.

Conventions, whatever the provider:

- Metres, origin at the centre spot, x along the length of the pitch, y across it with y
  growing to the left of a team attacking +x (the usual mathematical orientation).
  Positions are never clipped to the pitch: a player behind a goal line keeps his
  |x| > length / 2.
- `t_s` is seconds since the start of the frame's period (`period`), as the providers and
  kloppy count it; it restarts at 0 in every period.
- NaN marks an unseen player or ball, never 0. The ball's height is NaN where the provider
  gives none; StatsBomb freeze frames put the ball on the ground (0) at the event location,
  as kloppy does.
- Player positions are float32: a resolution under 10 micrometres on a pitch, and half the
  memory of float64 (broadcast tracking gives every anonymous track its own column).

Event data with freeze frames (StatsBomb 360) has one frame per freeze frame, and carries
what StatsBomb says beyond the positions (`statsbomb_facts`); event data without them has no
frames but the events; tracking data has no events unless loaded with an event file.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from varroom.match.direction import Team, TeamAttack
from varroom.match.statsbomb_facts import StatsBombFacts
from varroom.model.situation import Pitch


class Provider(Enum):
    """Data providers, by the name of kloppy's module that reads them."""

    DATAFACTORY = "datafactory"
    HAWKEYE = "hawkeye"
    IMPECT = "impect"
    METRICA = "metrica"
    OPTA = "opta"
    PFF = "pff"
    SECONDSPECTRUM = "secondspectrum"
    SIGNALITY = "signality"
    SKILLCORNER = "skillcorner"
    SPORTEC = "sportec"
    STATSBOMB = "statsbomb"
    STATSPERFORM = "statsperform"
    TRACAB = "tracab"
    WYSCOUT = "wyscout"
    SYNTHETIC = "synthetic"  # varroom's own generated matches (varroom.synthetic.match)


class PitchSource(Enum):
    """Where the pitch dimensions come from."""

    METADATA = "metadata"  # the provider's files give the measured pitch
    # The format scales every pitch to fixed units (StatsBomb's 120 x 80, Opta's 100 x 100);
    # kloppy maps them onto a nominal 105 x 68 m pitch, so distances are approximate.
    NOMINAL = "nominal"


class EventKind(Enum):
    """What an event is; a restart is named as the restart (a corner pass is CORNER_KICK)."""

    PASS = "pass"
    SHOT = "shot"
    CARRY = "carry"
    TAKE_ON = "take_on"
    RECEIPT = "receipt"
    CLEARANCE = "clearance"
    INTERCEPTION = "interception"
    BLOCK = "block"
    DUEL = "duel"
    SAVE = "save"
    GOALKEEPER = "goalkeeper"  # a goalkeeper action other than a save: claim, punch, pick-up
    RECOVERY = "recovery"
    MISCONTROL = "miscontrol"
    PRESSURE = "pressure"
    FOUL = "foul"
    CARD = "card"
    OFFSIDE = "offside"
    BALL_OUT = "ball_out"
    THROW_IN = "throw_in"
    CORNER_KICK = "corner_kick"
    GOAL_KICK = "goal_kick"
    FREE_KICK = "free_kick"
    KICK_OFF = "kick_off"
    PENALTY_KICK = "penalty_kick"
    SUBSTITUTION = "substitution"
    FORMATION_CHANGE = "formation_change"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class MatchEvent:
    t_s: float
    period: int
    team: str | None
    player: str | None
    kind: EventKind
    # The referee stopped play for offside here: an offside event (its `player` is the
    # offender), or a pass whose outcome is offside (usually its `receiver` is).
    offside_call: bool
    raw_type: str  # the provider's own name for the event type
    receiver: str | None = None
    # Index of the frame holding this event's own freeze frame; None without one.
    frame: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class MatchTracking:
    """A match as columns over T frames and P players (see the module's conventions)."""

    provider: Provider
    pitch: Pitch
    pitch_source: PitchSource
    teams: tuple[Team, Team]  # home, away
    attack: tuple[TeamAttack, ...]
    frame_rate_hz: float | None  # None for freeze frames, which come at event moments
    t_s: np.ndarray  # (T,) float64
    period: np.ndarray  # (T,) int8
    ball_m: np.ndarray  # (T, 3) float64
    players_m: np.ndarray  # (T, P, 2) float32
    player_ids: np.ndarray  # (P,) str
    player_names: tuple[str | None, ...]
    player_numbers: tuple[int | None, ...]
    player_short_names: tuple[str | None, ...]  # as the data gives them (a lineup's last name)
    player_teams: np.ndarray  # (P,) str, team ids
    goalkeeper: np.ndarray  # (P,) bool
    events: tuple[MatchEvent, ...] = ()
    # The passes' ends and the camera's views, which judging freeze frames needs and the
    # positions do not say: read with a StatsBomb match (load_match), None for the others.
    statsbomb_facts: StatsBombFacts | None = None

    def __post_init__(self) -> None:
        n_frames, n_players = len(self.t_s), len(self.player_ids)
        expected = {
            "t_s": (self.t_s, (n_frames,)),
            "period": (self.period, (n_frames,)),
            "ball_m": (self.ball_m, (n_frames, 3)),
            "players_m": (self.players_m, (n_frames, n_players, 2)),
            "player_teams": (self.player_teams, (n_players,)),
            "goalkeeper": (self.goalkeeper, (n_players,)),
        }
        for name, (array, shape) in expected.items():
            if array.shape != shape:
                raise ValueError(f"{name} has shape {array.shape}, expected {shape}")
        listed = (self.player_names, self.player_numbers, self.player_short_names)
        if any(len(column) != n_players for column in listed):
            raise ValueError(
                "player_names, player_numbers and player_short_names need one entry per player"
            )
        # Frozen means frozen: the arrays are shared, never copied, so nobody may write them.
        for array, _ in expected.values():
            array.flags.writeable = False
        self.player_ids.flags.writeable = False

    def __repr__(self) -> str:
        return (
            f"<MatchTracking {self.provider.value}: {self.teams[0].name} v {self.teams[1].name},"
            f" {len(self.t_s)} frames, {len(self.player_ids)} players, {len(self.events)} events>"
        )

    def attack_of(self, team: str, period: int) -> TeamAttack:
        """The direction `team` attacks in `period`; KeyError when nothing tells."""
        for attack in self.attack:
            if attack.team == team and attack.period == period:
                return attack
        raise KeyError(f"no attacking direction for team {team!r} in period {period}")
