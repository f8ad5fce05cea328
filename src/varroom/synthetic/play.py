"""Background play of a synthetic period: spells of possession, passes, and the restarts
between them.

A period is first planned coarsely as spells: a team keeps the ball for 12 to 30 s while the
centre of play moves up to 25 m towards the goal it attacks, then loses it to an
interception, kicks it out over a touchline, shoots wide or is stopped by a foul; the
planted incidents take fixed slots between them. The spells set the centre of play and possession
that drive the motion model; then, on that motion, every spell is played touch by touch:
the holder dribbles for 0.6 to 2.2 s and passes (11 to 18 m/s, a long ball sometimes in
the air) to a team-mate 8 to 35 m away who is onside by `ONSIDE_BUFFER_M`, preferring
team-mates further forward. Background play never commits an offside offence: every
receiver is checked again on the final positions (`varroom.synthetic.match`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from varroom.match.tracking import EventKind
from varroom.synthetic.motion import Anchor, Role
from varroom.synthetic.script import OnsideCheck, Point, Script, Stage

SPELL_S = (12.0, 30.0)  # long enough for a dead ball, its restart and the ball's flight
HOLD_S = (0.6, 2.2)
PASS_MPS = (11.0, 18.0)
PASS_RANGE_M = (8.0, 35.0)
# A pass is only started if it arrives before the spell ends, however long and slow.
LONGEST_FLIGHT_S = PASS_RANGE_M[1] / PASS_MPS[0]
LONG_PASS_M = 25.0
LOFT_M = (2.0, 6.0)
LOFTED_SHARE = 0.3
ONSIDE_BUFFER_M = 3.0
FORWARD_PREFERENCE_M = 15.0  # a team-mate this much further forward is e times likelier
HIDE_S = 3.0  # a dead ball out of sight while it is fetched
STILL_S = 2.0  # then lying at the restart's spot
DEAD_S = HIDE_S + STILL_S
KICK_OFF_S = 2.0  # the ball lies on the centre spot this long from the period's start
SHOOTING_U_M = 15.0  # a spell ending in a shot needs the ball this far into the other half
SHOT_MPS, OUT_MPS = 20.0, 12.0
WIDE_OF_GOAL_M = (6.0, 10.0)  # where a shot wide crosses the goal line, from its centre


class Ending(Enum):
    INTERCEPTION = "interception"
    OUT_TOUCHLINE = "out_touchline"
    SHOT_WIDE = "shot_wide"
    STOPPAGE = "stoppage"  # a foul, the end of a period, or the stoppage before a planted incident


_ENDING_SHARE = {
    Ending.INTERCEPTION: 0.7,
    Ending.OUT_TOUCHLINE: 0.15,
    Ending.SHOT_WIDE: 0.1,
    Ending.STOPPAGE: 0.05,
}


@dataclass(frozen=True, slots=True)
class Spell:
    team: int
    start_s: float
    end_s: float
    ending: Ending
    centre_m: Point  # where the centre of play is at the spell's end


@dataclass(frozen=True, slots=True)
class Holding:
    """A player has the ball from `t_s`."""

    player: int
    t_s: float


@dataclass(frozen=True, slots=True)
class Restart:
    """A dead ball from `dead_s`, restarted by `team` at `spot_m`."""

    kind: EventKind
    team: int
    dead_s: float
    spot_m: Point
    taker: int | None = None  # None: the team's nearest outfield player
    stands_m: Point | None = None  # None: just behind the ball


def background_spells(
    start_s: float,
    end_s: float,
    team: int,
    centre_m: Point,
    signs: tuple[float, float],
    rng: np.random.Generator,
) -> list[Spell]:
    """Spells filling [start_s, end_s), the first by `team`; the last ends in a stoppage."""
    spells: list[Spell] = []
    t = start_s
    while end_s - t >= SPELL_S[0]:
        length = float(rng.uniform(*SPELL_S))
        last = end_s - (t + length) < SPELL_S[0]
        stop = end_s if last else t + length
        ending = Ending.STOPPAGE if last else _ending(rng)
        u = float(np.clip(signs[team] * centre_m[0] + rng.uniform(-5.0, 25.0), -30.0, 35.0))
        centre_m = (signs[team] * u, float(rng.uniform(-20.0, 20.0)))
        spells.append(Spell(team, t, stop, ending, centre_m))
        t, team = stop, 1 - team
    return spells


def _ending(rng: np.random.Generator) -> Ending:
    endings = list(_ENDING_SHARE)
    return endings[rng.choice(len(endings), p=list(_ENDING_SHARE.values()))]


def kick_off(team: int, stage: Stage) -> Restart:
    taker = stage.columns(team, Role.FORWARD)[0]
    return Restart(EventKind.KICK_OFF, team, -DEAD_S + KICK_OFF_S, (0.0, 0.0), taker)


def play_spell(
    script: Script, spell: Spell, entry: Holding | Restart, rng: np.random.Generator
) -> Holding | Restart:
    """Play one background spell from how it starts; returns how the next one starts."""
    holding = entry if isinstance(entry, Holding) else take_restart(script, entry, rng)
    holder, since = holding.player, holding.t_s
    t = since
    while True:
        t_pass = t + float(rng.uniform(*HOLD_S))
        if t_pass > spell.end_s - 1.0 - LONGEST_FLIGHT_S:
            break
        ball = _at_feet(script, holder, t_pass)
        receiver = choose_receiver(script.stage, spell.team, holder, t_pass, ball, rng)
        if receiver is None:
            t = t_pass  # nobody free: he keeps it a little longer
            continue
        script.hold(holder, since, t_pass)
        script.play(t_pass, holder, script.free_point(t_pass, holder), EventKind.PASS)
        script.checks.append(OnsideCheck(t_pass, receiver, ball[0]))
        since = t = _pass(script, t_pass, ball, receiver, rng)
        holder = receiver
    return _end_spell(script, spell, holder, since, rng)


def _at_feet(script: Script, player: int, t_s: float) -> Point:
    x, y = script.free_point(t_s, player)
    dx, dy = script.stage.offset(player)
    return (x + dx, y + dy)


def _pass(
    script: Script,
    t_s: float,
    ball_m: Point,
    receiver: int,
    rng: np.random.Generator,
    event: EventKind | None = None,
) -> float:
    target = script.stage.at(t_s)[receiver]
    long_ball = np.hypot(target[0] - ball_m[0], target[1] - ball_m[1]) > LONG_PASS_M
    loft = float(rng.uniform(*LOFT_M)) if long_ball and rng.random() < LOFTED_SHARE else 0.0
    t_recv, _ = script.pass_to(
        t_s, ball_m, receiver, None, float(rng.uniform(*PASS_MPS)), loft, event
    )
    return t_recv


def choose_receiver(
    stage: Stage,
    team: int,
    passer: int,
    t_s: float,
    ball_m: Point,
    rng: np.random.Generator,
    reach_m: tuple[float, float] = PASS_RANGE_M,
) -> int | None:
    """A team-mate in range and clearly onside, further forward likelier; None if nobody."""
    positions = stage.at(t_s)
    margins = stage.margins(positions, team, ball_m[0])
    candidates = [
        player
        for player in stage.columns(team, Role.DEFENDER, Role.MIDFIELDER, Role.FORWARD)
        if player != passer
        and reach_m[0] <= np.hypot(*(positions[player] - ball_m)) <= reach_m[1]
        and margins[player] <= -ONSIDE_BUFFER_M
    ]
    if not candidates:
        return None
    forward = np.array([stage.u(team, positions[p][0] - ball_m[0]) for p in candidates])
    weights = np.exp((forward - forward.max()) / FORWARD_PREFERENCE_M)
    return candidates[rng.choice(len(candidates), p=weights / weights.sum())]


def take_restart(script: Script, restart: Restart, rng: np.random.Generator) -> Holding:
    """The dead ball is fetched, placed and played to a team-mate."""
    stage = script.stage
    seen_s = restart.dead_s + HIDE_S
    t_s = seen_s + STILL_S
    if restart.dead_s >= 0:
        script.hide(restart.dead_s, seen_s)
    script.lie(max(seen_s, 0.0), t_s, restart.spot_m)
    taker = restart.taker if restart.taker is not None else _nearest(stage, restart, t_s)
    dx, dy = stage.offset(taker)
    stands = restart.stands_m or (restart.spot_m[0] - dx, restart.spot_m[1] - dy)
    # He walks to the ball while it is fetched.
    script.anchors.append(Anchor(taker, max(seen_s, 0.0), stands))
    ball = script.play(t_s, taker, stands, restart.kind, ball_m=restart.spot_m)
    reach = (20.0, 50.0) if restart.kind is EventKind.GOAL_KICK else (5.0, 30.0)
    receiver = choose_receiver(stage, restart.team, taker, t_s, ball, rng, reach)
    if receiver is None:
        receiver = _deepest_team_mate(stage, restart.team, taker, t_s)
    script.checks.append(OnsideCheck(t_s, receiver, ball[0]))
    return Holding(receiver, _pass(script, t_s, ball, receiver, rng))


def _nearest(stage: Stage, restart: Restart, t_s: float) -> int:
    roles = (
        (Role.GOALKEEPER,)
        if restart.kind is EventKind.GOAL_KICK
        else (Role.DEFENDER, Role.MIDFIELDER, Role.FORWARD)
    )
    players = stage.columns(restart.team, *roles)
    positions = stage.at(t_s)[players]
    return players[int(np.argmin(np.hypot(*(positions - restart.spot_m).T)))]


def _deepest_team_mate(stage: Stage, team: int, taker: int, t_s: float) -> int:
    """The team-mate furthest back: behind the ball, so onside whatever happens."""
    players = [p for p in stage.columns(team, Role.DEFENDER, Role.MIDFIELDER) if p != taker]
    depth = [stage.u(team, stage.at(t_s)[p][0]) for p in players]
    return players[int(np.argmin(depth))]


def _end_spell(
    script: Script, spell: Spell, holder: int, since: float, rng: np.random.Generator
) -> Holding | Restart:
    stage = script.stage
    other = 1 - spell.team
    t_s = max(since + 0.5, spell.end_s - 1.0)
    ball = _at_feet(script, holder, t_s)
    if spell.ending is Ending.STOPPAGE:
        script.hold(holder, since, spell.end_s)
        return Restart(EventKind.FREE_KICK, other, spell.end_s, free_kick_spot(stage, ball))
    script.hold(holder, since, t_s)
    interceptor = _interceptor(stage, other, t_s, ball)
    if spell.ending is Ending.INTERCEPTION and interceptor is not None:
        script.play(t_s, holder, script.free_point(t_s, holder), EventKind.PASS)
        return Holding(
            interceptor, _pass(script, t_s, ball, interceptor, rng, EventKind.INTERCEPTION)
        )
    shot = spell.ending is Ending.SHOT_WIDE and stage.u(spell.team, ball[0]) >= SHOOTING_U_M
    restart = _shot_wide(stage, spell.team, rng) if shot else _out(stage, spell.team, ball, rng)
    target, speed, event, restart_kind, spot, stands = restart
    script.play(t_s, holder, script.free_point(t_s, holder), event)
    out_s = t_s + float(np.hypot(target[0] - ball[0], target[1] - ball[1])) / speed
    script.fly(t_s, out_s, ball, target)
    return Restart(restart_kind, other, out_s, spot, stands_m=stands)


_Out = tuple[Point, float, EventKind, EventKind, Point, Point | None]


def _shot_wide(stage: Stage, team: int, rng: np.random.Generator) -> _Out:
    """A shot past a post and over the goal line; a goal kick follows."""
    side, sign = float(rng.choice([-1.0, 1.0])), stage.signs[team]
    half_length = stage.pitch.half_length_m
    target = (sign * (half_length + 2.0), side * float(rng.uniform(*WIDE_OF_GOAL_M)))
    spot = (sign * (half_length - 4.5), side * float(rng.uniform(0.0, 4.0)))
    return target, SHOT_MPS, EventKind.SHOT, EventKind.GOAL_KICK, spot, None


def _out(stage: Stage, team: int, ball_m: Point, rng: np.random.Generator) -> _Out:
    """A pass over the nearer touchline; the thrower stands behind the line."""
    side = float(np.sign(ball_m[1]) or 1.0)
    half_length, half_width = stage.pitch.half_length_m, stage.pitch.half_width_m
    target = (
        ball_m[0] + stage.signs[team] * float(rng.uniform(0.0, 10.0)),
        side * (half_width + 2.5),
    )
    x_spot = float(np.clip(target[0], -half_length + 3.0, half_length - 3.0))
    spot, stands = (x_spot, side * (half_width + 0.3)), (x_spot, side * (half_width + 0.8))
    return target, OUT_MPS, EventKind.PASS, EventKind.THROW_IN, spot, stands


def _interceptor(stage: Stage, team: int, t_s: float, ball_m: Point) -> int | None:
    """The opponent, 8 to 30 m away, nearest the ball."""
    players = stage.columns(team, Role.DEFENDER, Role.MIDFIELDER, Role.FORWARD)
    distance = np.hypot(*(stage.at(t_s)[players] - ball_m).T)
    in_range = (distance >= PASS_RANGE_M[0]) & (distance <= 30.0)
    if not in_range.any():
        return None
    return players[int(np.argmin(np.where(in_range, distance, np.inf)))]


def free_kick_spot(stage: Stage, ball_m: Point) -> Point:
    """A free kick's spot: where the foul was, a little inside the lines."""
    return (
        float(np.clip(ball_m[0], -stage.pitch.half_length_m + 2, stage.pitch.half_length_m - 2)),
        float(np.clip(ball_m[1], -stage.pitch.half_width_m + 2, stage.pitch.half_width_m - 2)),
    )
