"""Penalty kicks found in a whole match, each built into a `PenaltyKick` at the kick and
judged under Law 14 (`judge_penalty`).

A kick is a moment of play (`varroom.audit.moments`: the instant between two frames where the
ball's fitted paths before and after meet) that is either

- named by a penalty-kick event, or
- found from tracking alone: a restart (the ball dead for `DEAD_S` or more before it) taken
  with the ball within `MARK_REACH_M` of a penalty mark, towards the goal the kicker's team
  attacks, the defending goalkeeper within `KEEPER_LINE_M` of that goal line between the
  posts, and nobody but the kicker within `CLEAR_M` of the ball.

At the kick every player seen is where the moment interpolates him, with his velocity (the
timing error of the noise model); the ball is the moment's. What follows says the result:
a goal-line moment judged a goal within `RESULT_S` (goal), the ball wholly over that goal line
elsewhere (missed), the next touch the defending goalkeeper's (saved), else in play. The
ball `AFTER_S` after the kick is where it went (a backward kick). A penalty-kick event with no
such moment in the tracking is noted, not judged: there is nothing to measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from varroom.audit.ball_out import BallOutScan
from varroom.audit.model import IncidentKind, clock
from varroom.audit.moments import ActionSource, Moments
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.engine.penalty import judge_penalty
from varroom.engine.penalty_verdict import PenaltyVerdict
from varroom.match.tracking import EventKind, MatchTracking
from varroom.model.ball_line import BallLineDecision, Goal
from varroom.model.measures import BALL_RADIUS_M, PENALTY_MARK_M
from varroom.model.noise import Tracking
from varroom.model.penalty import KickResult, PenaltyKick
from varroom.model.situation import Direction, Player, Position
from varroom.profiles import Profile

MARK_REACH_M = 0.5
KEEPER_LINE_M = 1.5
CLEAR_M = 4.0
RESULT_S = 3.0
AFTER_S = 0.2


@dataclass(frozen=True, slots=True)
class PenaltyIncident:
    """A penalty kick the audit found and judged."""

    period: int
    t_s: float  # the kick, between two frames
    team: str  # the kicker's
    kick: PenaltyKick
    verdict: PenaltyVerdict
    found_by: str  # "event" or "tracking"
    event_index: int | None = None

    @property
    def kind(self) -> IncidentKind:
        return IncidentKind.PENALTY

    file_tag = "-penalty"  # what its file's name says of it besides the clock
    alert_decision = "penalty"  # its `decision` in a live alert (docs/formats/frames.md)

    def case_file(self) -> dict[str, Any]:
        """The kick in the penalty-kick format, as `varroom check` judges it."""
        from varroom.formats.penalty_json import penalty_kick_to_dict

        return penalty_kick_to_dict(self.kick)

    def alert_fields(self, case: dict[str, Any]) -> dict[str, Any]:
        """What a live alert says of the kick besides when (docs/formats/frames.md)."""
        return {
            "kicker": self.kick.kicker,
            "found_by": self.found_by,
            "verdict": self.verdict.to_dict(),
            "penalty_kick": case,
        }

    def said(self) -> str:
        """The call in a line, as `varroom live` prints it."""
        verdict = self.verdict
        return (
            f"penalty kick by {self.kick.kicker}: {verdict.decision.value}, {verdict.result.value}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "period": self.period,
            "t_s": round(self.t_s, 3),
            "clock": clock(self.period, self.t_s),
            "team": self.team,
            "kicker": self.kick.kicker,
            "found_by": self.found_by,
            "event_index": self.event_index,
            "verdict": self.verdict.to_dict(),
        }


def match_players(match: MatchTracking) -> list[Player]:
    """Every player of a match as the engine names him."""
    return [
        Player(
            id=str(pid),
            team=str(match.player_teams[c]),
            goalkeeper=bool(match.goalkeeper[c]),
            name=match.player_names[c],
            number=match.player_numbers[c],
            short_name=match.player_short_names[c],
        )
        for c, pid in enumerate(match.player_ids)
    ]


def find_penalties(
    match: MatchTracking, moments: Moments, tracking: Tracking, scan: BallOutScan, profile: Profile
) -> tuple[tuple[PenaltyIncident, ...], tuple[str, ...]]:
    """Every penalty kick of a match, judged, and a note per penalty event not found."""
    events = match.events
    named = {
        int(m)
        for m in np.flatnonzero(moments.event_index >= 0)
        if events[moments.event_index[m]].kind is EventKind.PENALTY_KICK
    }
    found = sorted(named | set(kicks_from_tracking(match, moments)))
    players = {p.id: p for p in match_players(match)}
    goals = [
        (g.period, g.verdict) for g in scan.goal_line if g.verdict.decision is BallLineDecision.GOAL
    ]
    incidents = tuple(
        penalty_incident(match, moments, m, m in named, players, tracking, goals, profile)
        for m in found
    )
    judged_events = {int(moments.event_index[m]) for m in named}
    notes = tuple(
        f"Penalty kick event at {clock(e.period, e.t_s)}: no kick found in the tracking, "
        "not judged."
        for k, e in enumerate(events)
        if e.kind is EventKind.PENALTY_KICK and k not in judged_events
    )
    return incidents, notes


def kicks_from_tracking(match: MatchTracking, moments: Moments) -> list[int]:
    """Moments that are penalty kicks by the ball, the mark and the players (module docstring)."""
    restart = np.array([s is ActionSource.RESTART for s in moments.sources], dtype=bool)
    half = match.pitch.half_length_m
    mark_x = np.sign(moments.ball_m[:, 0]) * (half - PENALTY_MARK_M)
    on_mark = np.hypot(moments.ball_m[:, 0] - mark_x, moments.ball_m[:, 1]) <= MARK_REACH_M
    found = []
    for m in np.flatnonzero(restart & on_mark):
        sign = float(np.sign(mark_x[m]))
        kicker = int(moments.player[m])
        team = str(match.player_teams[kicker])
        period = int(moments.period[m])
        try:
            if match.attack_of(team, period).direction.sign != sign:
                continue
        except KeyError:
            continue
        where = moments.players_m[m]
        distance = np.hypot(*(where - moments.ball_m[m, :2]).T)
        others = np.ones(len(where), dtype=bool)
        others[kicker] = False
        if np.any(np.nan_to_num(distance, nan=np.inf)[others] < CLEAR_M):
            continue
        keepers = np.flatnonzero(match.goalkeeper & (match.player_teams != team))
        depth = half - sign * where[keepers, 0]
        on_line = (np.abs(depth) <= KEEPER_LINE_M) & (np.abs(where[keepers, 1]) <= Goal().width_m)
        if on_line.any():
            found.append(int(m))
    return found


def penalty_incident(
    match: MatchTracking,
    moments: Moments,
    m: int,
    by_event: bool,
    players: dict[str, Player],
    tracking: Tracking,
    goals: list[tuple[int, BallLineVerdict]],
    profile: Profile,
) -> PenaltyIncident:
    """Moment `m`, a penalty kick, judged: `moments` holds the moments after it up to
    `RESULT_S` at least, `match` its frames up to then, and `goals` the goals scored up to
    then (`BallOutScan.goal_line` judged a goal), as (period, verdict)."""
    period, t_s = int(moments.period[m]), float(moments.t_s[m])
    kicker = str(match.player_ids[moments.player[m]])
    team = players[kicker].team
    direction: Direction = match.attack_of(team, period).direction
    where, velocity = moments.players_m[m], np.nan_to_num(moments.players_v_mps[m])
    positions = {
        str(match.player_ids[c]): Position(
            float(where[c, 0]),
            float(where[c, 1]),
            v_mps=(float(velocity[c, 0]), float(velocity[c, 1])),
        )
        for c in np.flatnonzero(~np.isnan(where[:, 0]))
    }
    ball = moments.ball_m[m]
    event = int(moments.event_index[m])
    kick = PenaltyKick(
        pitch=match.pitch,
        attacking_team=team,
        attack_direction=direction,
        players=players,
        t_s=t_s,
        kicker=kicker,
        identified_kicker=kicker,  # tracking cannot tell who was identified
        ball_m=(float(ball[0]), float(ball[1]), float(np.nan_to_num(ball[2], nan=BALL_RADIUS_M))),
        positions=positions,
        result=_result(match, moments, m, direction, players, goals),
        ball_after_m=_ball_at(match, period, t_s + AFTER_S),
        meta={"source": "tracking", "provider": match.provider.value, "period": period},
        tracking=tracking,
    )
    return PenaltyIncident(
        period,
        t_s,
        team,
        kick,
        judge_penalty(kick, profile.penalty, profile.policy),
        "event" if by_event else "tracking",
        event if event >= 0 else None,
    )


def _ball_at(match: MatchTracking, period: int, t_s: float) -> tuple[float, float] | None:
    """The ball interpolated to an instant of a period; None where it is unseen."""
    frames = np.flatnonzero(match.period == period)
    k = int(np.searchsorted(match.t_s[frames], t_s))
    if k == 0 or k >= len(frames):
        return None
    a, b = frames[k - 1], frames[k]
    w = (t_s - match.t_s[a]) / (match.t_s[b] - match.t_s[a])
    xy = match.ball_m[a, :2] * (1 - w) + match.ball_m[b, :2] * w
    return None if np.isnan(xy).any() else (float(xy[0]), float(xy[1]))


def _result(
    match: MatchTracking,
    moments: Moments,
    m: int,
    direction: Direction,
    players: dict[str, Player],
    goals: list[tuple[int, BallLineVerdict]],
) -> KickResult:
    """What became of the kick, from what follows it (module docstring)."""
    period, t_s = int(moments.period[m]), float(moments.t_s[m])
    if any(
        p == period
        and verdict.crossed_at_t_s is not None
        and 0 < verdict.crossed_at_t_s - t_s <= RESULT_S
        for p, verdict in goals
    ):
        return KickResult.GOAL
    after = (match.period == period) & (match.t_s > t_s) & (match.t_s <= t_s + RESULT_S)
    past = direction.sign * match.ball_m[after, 0] - match.pitch.half_length_m - BALL_RADIUS_M
    if np.any(np.nan_to_num(past, nan=-np.inf) > 0):
        return KickResult.MISSED
    following = np.flatnonzero((moments.period == period) & (moments.t_s > t_s))
    if len(following) and moments.t_s[following[0]] - t_s <= RESULT_S:
        toucher = players[str(match.player_ids[moments.player[following[0]]])]
        if (
            toucher.goalkeeper
            and toucher.team != players[str(match.player_ids[moments.player[m]])].team
        ):
            return KickResult.SAVED
    return KickResult.IN_PLAY
