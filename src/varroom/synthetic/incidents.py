"""The planted situations: short scripted incidents, each with the ruling laws.md gives it.

Every incident fills a slot of `INCIDENT_S`: the ball goes dead, a restart follows, the scripted
play, and the holder keeps the ball until a stoppage. The attacking team is X, the other Y;
depths `u` are along X's attack. At the judged play the incident fixes the offside line: Y's
deepest outfield player (the second-last opponent, the goalkeeper behind him) is anchored
at `line_u_m`, every other Y outfield player a metre or more in front of him, and every X
player but the ones the incident is about a metre and a half onside.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from varroom.match.tracking import EventKind
from varroom.synthetic.motion import Anchor, Role
from varroom.synthetic.play import DEAD_S, HIDE_S, Restart, free_kick_spot
from varroom.synthetic.script import (
    IncidentKind,
    OnsideCheck,
    Pin,
    PlantedIncident,
    Point,
    Script,
)

INCIDENT_S = 20.0
HOLD_S = 1.2  # the passer's touch before the judged play
PASS_MPS = 14.0
CALL_DELAY_S = 1.0  # the flag goes up after the offender touches the ball
_OUTFIELD = (Role.DEFENDER, Role.MIDFIELDER, Role.FORWARD)

# The second-last opponent's depth at the judged play, and where the centre of play sits.
_LINE_U_M: dict[IncidentKind, float] = {
    IncidentKind.INTERFERING: 30.0,
    IncidentKind.LEVEL: 30.0,
    IncidentKind.NOT_INVOLVED: 30.0,
    IncidentKind.DEFLECTION: 32.0,
    IncidentKind.DELIBERATE_PLAY: 30.0,
    IncidentKind.SAVE_REBOUND: 42.0,
    IncidentKind.NEW_PLAY: 30.0,
    IncidentKind.THROW_IN: 30.0,
    IncidentKind.CORNER_KICK: 51.0,
    IncidentKind.GOAL_KICK: 8.0,
    IncidentKind.FREE_KICK: 28.0,
    IncidentKind.OWN_HALF: -3.0,  # Y's defence pushed up into X's half
}


@dataclass(frozen=True, slots=True)
class IncidentSetup:
    kind: IncidentKind
    team: int  # the attacking team, X
    start_s: float  # the ball goes dead
    side: float  # +1 or -1: which side of the pitch the incident is played on

    @property
    def end_s(self) -> float:
        return self.start_s + INCIDENT_S

    @property
    def restart_s(self) -> float:
        return self.start_s + DEAD_S

    @property
    def line_u_m(self) -> float:
        return _LINE_U_M[self.kind]

    def centre_m(self, signs: tuple[float, float]) -> Point:
        """Where the centre of play must be for Y's free shape to hold its line near here."""
        centre_u = float(np.clip(self.line_u_m - 12.0, -30.0, 35.0))
        return (signs[self.team] * centre_u, self.side * 8.0)


class _IncidentWriter:
    """Helpers for writing one incident on a script."""

    def __init__(self, script: Script, setup: IncidentSetup, rng: np.random.Generator) -> None:
        self.script = script
        self.stage = script.stage
        self.setup = setup
        self.rng = rng
        self.x, self.y = setup.team, 1 - setup.team
        self.line = setup.line_u_m
        self.side = setup.side

    def xy(self, u_m: float, y_m: float) -> Point:
        return self.stage.xy(self.x, u_m, y_m)

    def u(self, point: Point | np.ndarray) -> float:
        return self.stage.u(self.x, float(point[0]))

    def anchor(self, player: int, t_s: float, at: Point) -> None:
        self.script.anchors.append(Anchor(player, t_s, at))

    def uniform(self, low: float, high: float) -> float:
        return float(self.rng.uniform(low, high))

    def nearest(
        self,
        t_s: float,
        to: Point,
        *roles: Role,
        team: int | None = None,
        but: tuple[int, ...] = (),
    ) -> int:
        """The player of these roles (of X by default; none of `but`) nearest a point at `t_s`
        in his free motion: the one a script moves least."""
        players = self.stage.columns(self.x if team is None else team, *roles)
        players = [player for player in players if player not in but]
        distance = np.hypot(*(self.stage.at(t_s)[players] - np.array(to)).T)
        return players[int(np.argmin(distance))]

    def restart(self, kind: EventKind, spot: Point, taker: int, stands: Point) -> Point:
        """The dead ball lies at `spot` and `taker` plays it at the incident's restart time."""
        start, seen, t_s = self.setup.start_s, self.setup.start_s + HIDE_S, self.setup.restart_s
        self.script.hide(start, seen)
        self.script.lie(seen, t_s, spot)
        self.anchor(taker, seen, stands)
        return self.script.play(t_s, taker, stands, kind, ball_m=spot)

    def build_up(self, a_u: float, a_y: float) -> tuple[int, float]:
        """A free kick by a centre-back to midfielder A at (a_u, a_y); returns A and when he
        has the ball."""
        t_r = self.setup.restart_s
        taker = self.nearest(t_r, self.xy(a_u - 12.0, a_y), Role.DEFENDER)
        where = self.stage.at(t_r)[taker]
        stands = (float(where[0]), float(where[1]))
        dx, dy = self.stage.offset(taker)
        ball = self.restart(EventKind.FREE_KICK, (stands[0] + dx, stands[1] + dy), taker, stands)
        a = self.nearest(t_r + 1.0, self.xy(a_u, a_y), Role.MIDFIELDER)
        self.script.checks.append(OnsideCheck(t_r, a, ball[0]))
        t_a, _ = self.script.pass_to(t_r, ball, a, self.xy(a_u, a_y), PASS_MPS)
        return a, t_a

    def set_line(self, t_s: float, clear_of: tuple[float, ...]) -> int:
        """Anchor Y's defence at `t_s` (module docstring); returns the second-last opponent.
        His lane keeps 4 m from every y in `clear_of` (the attackers the incident is about)."""
        positions = self.stage.at(t_s)
        outfield = self.stage.columns(self.y, *_OUTFIELD)
        depth = np.array([self.u(positions[p]) for p in outfield])
        second = outfield[int(np.argmax(depth))]
        y_second = float(positions[second][1])
        for y in clear_of:
            if abs(y_second - y) < 4.0:
                y_second = y - 5.0 * (np.sign(y - y_second) or 1.0)
        self.anchor(second, t_s, self.xy(self.line, y_second))
        for player, player_depth in zip(outfield, depth, strict=True):
            if player != second and player_depth > self.line - 0.5:
                self.anchor(
                    player,
                    t_s,
                    self.xy(self.line - self.uniform(1.0, 3.0), float(positions[player][1])),
                )
        keeper = self.stage.columns(self.y, Role.GOALKEEPER)[0]
        half = self.stage.pitch.half_length_m
        if self.u(positions[keeper]) < self.line + 3.0:
            self.anchor(
                keeper, t_s, self.xy(min(self.line + 5.0, half - 0.5), float(positions[keeper][1]))
            )
        return second

    def onside_rest(self, t_s: float, *about: int) -> None:
        """Every X outfield player but `about` a metre and a half or more onside at `t_s`."""
        positions = self.stage.at(t_s)
        for player in self.stage.columns(self.x, *_OUTFIELD):
            if player not in about and self.u(positions[player]) > self.line - 1.5:
                self.anchor(
                    player,
                    t_s,
                    self.xy(self.line - self.uniform(2.0, 4.0), float(positions[player][1])),
                )

    def keeps_it(self, player: int, since_s: float) -> Restart:
        """`player` holds the ball until the stoppage; Y restarts with a free kick there."""
        self.script.hold(player, since_s, self.setup.end_s)
        where = self.stage.at(self.setup.end_s)[player]
        spot = free_kick_spot(self.stage, (float(where[0]), float(where[1])))
        return Restart(EventKind.FREE_KICK, self.y, self.setup.end_s, spot)

    def plant(self, t_s: float, attacker: int, offence: bool, involved_s: float) -> None:
        stage = self.stage
        attacker_id = stage.player_ids[attacker]
        self.script.truth.append(
            PlantedIncident(
                kind=self.setup.kind,
                period=stage.period,
                t_s=t_s,
                team=stage.team_ids[self.x],
                attacker=attacker_id,
                offender=attacker_id if offence else None,
                offence=offence,
            )
        )
        if offence:
            self.script.calls.append((involved_s + CALL_DELAY_S, attacker))
        self.script.incident_spans.append((self.setup.start_s, self.setup.end_s))

    def pass_from(
        self,
        passer: int,
        since_s: float,
        t_s: float,
        stands: Point,
        event: EventKind = EventKind.PASS,
    ) -> Point:
        self.script.hold(passer, since_s, t_s)
        return self.script.play(t_s, passer, stands, event)

    def pass_with_b_at_the_line(
        self, build_up_m: float, lane_m: float, b_lane_m: tuple[float, float], c_back_m: float
    ) -> tuple[int, int, float, float, float, Point]:
        """A, `build_up_m` short of the line in the lane `lane_m` on the incident's side,
        passes at t_p; B, a forward, is at the line in a lane drawn from `b_lane_m` on that
        side, C `c_back_m` behind it on the other. Returns B, C, their lanes, t_p and the
        ball."""
        line, side = self.line, self.side
        a, t_a = self.build_up(line - build_up_m, side * lane_m)
        t_p = t_a + HOLD_S
        y_b, y_c = side * self.uniform(*b_lane_m), -side * self.uniform(2.0, 8.0)
        b = self.nearest(t_p, self.xy(line, y_b), Role.FORWARD)
        c = self.nearest(
            t_p, self.xy(line - c_back_m, y_c), Role.FORWARD, Role.MIDFIELDER, but=(a, b)
        )
        self.set_line(t_p, (y_b, y_c))
        self.onside_rest(t_p, a, b, c)
        ball = self.pass_from(a, t_a, t_p, self.xy(line - build_up_m + 1.0, side * lane_m))
        return b, c, y_b, y_c, t_p, ball


def _offside_pass(sc: _IncidentWriter, level: bool) -> Restart:
    """INTERFERING (past the line, plays the ball) and LEVEL (level with the second-last)."""
    line, side = sc.line, sc.side
    a, t_a = sc.build_up(line - 14.0, side * 4.0)
    t_p = t_a + HOLD_S
    y_b = side * sc.uniform(8.0, 16.0)
    margin = 0.0 if level else sc.uniform(0.3, 1.5)
    b = sc.nearest(t_p, sc.xy(line + margin, y_b), Role.FORWARD)
    second = sc.set_line(t_p, (y_b,))
    sc.onside_rest(t_p, a, b)
    ball = sc.pass_from(a, t_a, t_p, sc.xy(line - 13.0, side * 4.0))
    sc.anchor(b, t_p, sc.xy(line + margin, y_b))
    if level:
        # Both step up together through the pass; B copies the defender's x frame by frame.
        y_second = next(
            anchor.xy_m[1] for anchor in reversed(sc.script.anchors) if anchor.player == second
        )
        for dt in (-0.4, 0.4):
            sc.anchor(second, t_p + dt, sc.xy(line + 0.8 * dt, y_second))
            sc.anchor(b, t_p + dt, sc.xy(line + 0.8 * dt, y_b))
        sc.script.pins.append(Pin(b, second, t_p - 0.35, t_p + 0.35))
    t_r, _ = sc.script.pass_to(t_p, ball, b, sc.xy(line + margin + 4.0, y_b), PASS_MPS)
    sc.plant(t_p, b, offence=not level, involved_s=t_r)
    return sc.keeps_it(b, t_r)


def _interfering(sc: _IncidentWriter) -> Restart:
    return _offside_pass(sc, level=False)


def _level(sc: _IncidentWriter) -> Restart:
    return _offside_pass(sc, level=True)


def _not_involved(sc: _IncidentWriter) -> Restart:
    line = sc.line
    b, c, y_b, y_c, t_p, ball = sc.pass_with_b_at_the_line(14.0, 4.0, (10.0, 16.0), 3.0)
    sc.anchor(b, t_p, sc.xy(line + sc.uniform(1.0, 3.0), y_b))
    sc.anchor(c, t_p, sc.xy(line - 3.0, y_c))
    t_c, _ = sc.script.pass_to(t_p, ball, c, sc.xy(line - 2.0, y_c), PASS_MPS)
    sc.anchor(b, t_c, sc.xy(line + 1.0, y_b))
    sc.plant(t_p, b, offence=False, involved_s=t_c)
    return sc.keeps_it(c, t_c)


def _deflection(sc: _IncidentWriter) -> Restart:
    """A's pass glances off a Y midfielder 7 m away (fast, no time, 15 degrees) to B."""
    line, side = sc.line, sc.side
    a, t_a = sc.build_up(line - 16.0, side * 3.0)
    t_p = t_a + HOLD_S
    y_b = side * sc.uniform(6.0, 12.0)
    b = sc.nearest(t_p, sc.xy(line, y_b), Role.FORWARD)
    sc.set_line(t_p, (y_b,))
    sc.onside_rest(t_p, a, b)
    ball = np.array(sc.pass_from(a, t_a, t_p, sc.xy(line - 15.0, side * 3.0)))
    b_at = np.array(sc.xy(line + sc.uniform(0.5, 1.5), y_b))
    sc.anchor(b, t_p, (float(b_at[0]), float(b_at[1])))
    direct = b_at - ball
    direct /= np.hypot(*direct)
    turn = np.radians(15.0) * float(sc.rng.choice([-1.0, 1.0]))
    rotate = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    touch = ball + 7.0 * (rotate @ direct)
    t_d = t_p + 7.0 / 22.0
    deflector = sc.nearest(t_d, (float(touch[0]), float(touch[1])), Role.MIDFIELDER, team=sc.y)
    dx, dy = sc.stage.offset(deflector)
    stands = (float(touch[0] - dx), float(touch[1] - dy))
    sc.anchor(deflector, t_p, stands)
    sc.script.play(
        t_d, deflector, stands, EventKind.BLOCK, ball_m=(float(touch[0]), float(touch[1]))
    )
    sc.script.fly(t_p, t_d, (float(ball[0]), float(ball[1])), (float(touch[0]), float(touch[1])))
    # Deflected, the ball runs parallel to A's pass line: B steps across to meet it.
    meet = touch + (float((b_at - touch) @ direct) + 2.0) * direct
    dx, dy = sc.stage.offset(b)
    t_r = t_d + float(np.hypot(*(meet - touch))) / (0.7 * 22.0)
    sc.script.play(t_r, b, (float(meet[0] - dx), float(meet[1] - dy)), None)
    sc.script.fly(t_d, t_r, (float(touch[0]), float(touch[1])), (float(meet[0]), float(meet[1])))
    sc.plant(t_p, b, offence=True, involved_s=t_r)
    return sc.keeps_it(b, t_r)


def _deliberate_play(sc: _IncidentWriter) -> Restart:
    """A's long ball reaches a Y defender with time and from distance: he controls it and
    clears it to B, who was offside at A's pass. The defender's play resets offside."""
    line, side = sc.line, sc.side
    a, t_a = sc.build_up(line - 26.0, side * 2.0)
    t_p = t_a + HOLD_S
    y_b, y_d = side * sc.uniform(8.0, 14.0), -side * sc.uniform(0.0, 6.0)
    b = sc.nearest(t_p, sc.xy(line, y_b), Role.FORWARD)
    second = sc.set_line(t_p, (y_b, y_d))
    defender = sc.nearest(t_p, sc.xy(line - 2.0, y_d), Role.DEFENDER, team=sc.y, but=(second,))
    sc.onside_rest(t_p, a, b)
    ball = sc.pass_from(a, t_a, t_p, sc.xy(line - 25.0, side * 2.0))
    sc.anchor(b, t_p, sc.xy(line + 1.5, y_b))
    sc.anchor(defender, t_p, sc.xy(line - 2.0, y_d))
    stands = sc.xy(line - 3.0, y_d)
    t_d, _ = sc.script.pass_to(t_p, ball, defender, stands, 13.0, event=EventKind.INTERCEPTION)
    t_c = t_d + 0.8
    cleared = sc.pass_from(defender, t_d, t_c, stands, EventKind.CLEARANCE)
    t_r, _ = sc.script.pass_to(t_c, cleared, b, sc.xy(line + 3.0, y_b), PASS_MPS)
    sc.plant(t_p, b, offence=False, involved_s=t_r)
    return sc.keeps_it(b, t_r)


def _save_rebound(sc: _IncidentWriter) -> Restart:
    """A shoots from the edge of the box; the goalkeeper parries it to B."""
    line, side = sc.line, sc.side
    half = sc.stage.pitch.half_length_m
    a, t_a = sc.build_up(35.0, side * 3.0)
    t_p = t_a + HOLD_S
    y_b = side * sc.uniform(4.0, 8.0)
    b = sc.nearest(t_p, sc.xy(line, y_b), Role.FORWARD)
    sc.set_line(t_p, (y_b,))
    sc.onside_rest(t_p, a, b)
    ball = np.array(sc.pass_from(a, t_a, t_p, sc.xy(36.0, side * 3.0), EventKind.SHOT))
    aim = np.array(sc.xy(half, -side * sc.uniform(0.5, 2.5)))
    save = ball + (aim - ball) * (50.5 - sc.u(ball)) / (half - sc.u(ball))
    t_s = t_p + float(np.hypot(*(save - ball))) / 24.0
    keeper = sc.stage.columns(sc.y, Role.GOALKEEPER)[0]
    dx, dy = sc.stage.offset(keeper)
    stands = (float(save[0] - dx), float(save[1] - dy))
    sc.anchor(keeper, t_p, stands)
    save_m = (float(save[0]), float(save[1]))
    sc.script.play(t_s, keeper, stands, EventKind.SAVE, ball_m=save_m)
    sc.script.fly(t_p, t_s, (float(ball[0]), float(ball[1])), save_m)
    b_u = line + sc.uniform(0.5, 1.5)
    sc.anchor(b, t_p, sc.xy(b_u, y_b))
    dx, dy = sc.stage.offset(b)
    stands_b = sc.xy(b_u + 1.5, y_b)
    meet = (stands_b[0] + dx, stands_b[1] + dy)
    t_r = t_s + float(np.hypot(meet[0] - save_m[0], meet[1] - save_m[1])) / 10.0
    sc.script.play(t_r, b, stands_b, None)
    sc.script.fly(t_s, t_r, save_m, meet)
    sc.plant(t_p, b, offence=True, involved_s=t_r)
    return sc.keeps_it(b, t_r)


def _new_play(sc: _IncidentWriter) -> Restart:
    """B is offside at A's pass to C, onside (he dropped back) when C passes to him."""
    line = sc.line
    b, c, y_b, y_c, t_p, ball = sc.pass_with_b_at_the_line(15.0, 2.0, (8.0, 14.0), 4.0)
    sc.anchor(b, t_p, sc.xy(line + 1.5, y_b))
    sc.anchor(c, t_p, sc.xy(line - 4.0, y_c))
    t_c, _ = sc.script.pass_to(t_p, ball, c, sc.xy(line - 3.5, y_c), PASS_MPS)
    t_p2 = t_c + 1.6
    sc.set_line(t_p2, (y_b, y_c))
    sc.onside_rest(t_p2, b, c)
    sc.anchor(b, t_p2, sc.xy(line - 2.5, y_b))
    ball = sc.pass_from(c, t_c, t_p2, sc.xy(line - 3.0, y_c))
    t_r, _ = sc.script.pass_to(t_p2, ball, b, sc.xy(line - 2.0, y_b), 13.0)
    sc.plant(t_p, b, offence=False, involved_s=t_r)
    return sc.keeps_it(b, t_r)


@dataclass(frozen=True, slots=True)
class _Delivery:
    """A restart played straight to B, who is past the line when it is taken."""

    kind: EventKind
    spot: Point
    b_u: float
    y_b: float
    run_u: float  # how far B moves along the attack to meet the ball
    speed_mps: float
    loft_m: float = 0.0
    stands: Point | None = None  # where the taker stands (None: just behind the ball)
    taker: int | None = None  # None: X's outfield player nearest the spot, B aside


def _straight_from_restart(sc: _IncidentWriter, delivery: _Delivery, offence: bool) -> Restart:
    t_r = sc.setup.restart_s
    b = sc.nearest(t_r, sc.xy(delivery.b_u, delivery.y_b), Role.FORWARD)
    taker = delivery.taker
    if taker is None:
        taker = sc.nearest(t_r, delivery.spot, *_OUTFIELD, but=(b,))
    stands = delivery.stands
    if stands is None:
        dx, dy = sc.stage.offset(taker)
        stands = (delivery.spot[0] - dx, delivery.spot[1] - dy)
    sc.set_line(t_r, (delivery.y_b,))
    sc.onside_rest(t_r, taker, b)
    sc.anchor(b, t_r, sc.xy(delivery.b_u, delivery.y_b))
    ball = sc.restart(delivery.kind, delivery.spot, taker, stands)
    meet = sc.xy(delivery.b_u + delivery.run_u, delivery.y_b)
    t_recv, _ = sc.script.pass_to(t_r, ball, b, meet, delivery.speed_mps, delivery.loft_m)
    sc.plant(t_r, b, offence, involved_s=t_recv)
    return sc.keeps_it(b, t_recv)


def _throw_in(sc: _IncidentWriter) -> Restart:
    half_w, u_spot = sc.stage.pitch.half_width_m, sc.line - 10.0
    delivery = _Delivery(
        EventKind.THROW_IN,
        spot=sc.xy(u_spot, sc.side * (half_w + 0.3)),
        b_u=sc.line + sc.uniform(1.0, 2.0),
        y_b=sc.side * sc.uniform(14.0, 22.0),
        run_u=2.0,
        speed_mps=12.0,
        loft_m=1.5,
        stands=sc.xy(u_spot, sc.side * (half_w + 0.8)),
    )
    return _straight_from_restart(sc, delivery, offence=False)


def _corner_kick(sc: _IncidentWriter) -> Restart:
    """The ball in the corner arc 0.6 m from the goal line; B on the goal line beyond it,
    the goalkeeper behind him, every other defender in front: an offside position."""
    half_l, half_w = sc.stage.pitch.half_length_m, sc.stage.pitch.half_width_m
    keeper = sc.stage.columns(sc.y, Role.GOALKEEPER)[0]
    for t_s in (sc.setup.restart_s - 1.0, sc.setup.restart_s):
        sc.anchor(keeper, t_s, sc.xy(half_l - 0.2, sc.side * 0.5))
    delivery = _Delivery(
        EventKind.CORNER_KICK,
        spot=sc.xy(half_l - 0.6, sc.side * (half_w - 0.4)),
        b_u=half_l - 0.45,
        y_b=sc.side * sc.uniform(2.5, 5.0),
        run_u=-0.05,
        speed_mps=16.0,
        loft_m=3.0,
        stands=sc.xy(half_l + 0.3, sc.side * (half_w + 0.3)),
    )
    return _straight_from_restart(sc, delivery, offence=False)


def _goal_kick(sc: _IncidentWriter) -> Restart:
    half_l = sc.stage.pitch.half_length_m
    delivery = _Delivery(
        EventKind.GOAL_KICK,
        spot=sc.xy(-(half_l - 4.5), sc.side * sc.uniform(1.0, 4.0)),
        b_u=sc.line + sc.uniform(1.0, 2.0),
        y_b=sc.side * sc.uniform(5.0, 15.0),
        run_u=6.0,
        speed_mps=20.0,
        loft_m=12.0,
        taker=sc.stage.columns(sc.x, Role.GOALKEEPER)[0],
    )
    return _straight_from_restart(sc, delivery, offence=False)


def _free_kick(sc: _IncidentWriter) -> Restart:
    delivery = _Delivery(
        EventKind.FREE_KICK,
        spot=sc.xy(sc.line - 18.0, -sc.side * sc.uniform(3.0, 10.0)),
        b_u=sc.line + sc.uniform(0.5, 1.5),
        y_b=sc.side * sc.uniform(5.0, 14.0),
        run_u=3.0,
        speed_mps=16.0,
    )
    return _straight_from_restart(sc, delivery, offence=True)


def _own_half(sc: _IncidentWriter) -> Restart:
    """Y's back line 3 m inside X's half: B, in his own half, is past it and past the ball."""
    side = sc.side
    a, t_a = sc.build_up(-20.0, side * 3.0)
    t_p = t_a + HOLD_S
    y_b = side * sc.uniform(6.0, 14.0)
    b_u = sc.uniform(-2.0, -1.0)
    b = sc.nearest(t_p, sc.xy(b_u, y_b), Role.FORWARD)
    sc.set_line(t_p, (y_b,))
    sc.onside_rest(t_p, a, b)
    ball = sc.pass_from(a, t_a, t_p, sc.xy(-19.0, side * 3.0))
    sc.anchor(b, t_p, sc.xy(b_u, y_b))
    t_r, _ = sc.script.pass_to(t_p, ball, b, sc.xy(b_u + 3.0, y_b), PASS_MPS)
    sc.plant(t_p, b, offence=False, involved_s=t_r)
    return sc.keeps_it(b, t_r)


_WRITERS: dict[IncidentKind, Callable[[_IncidentWriter], Restart]] = {
    IncidentKind.INTERFERING: _interfering,
    IncidentKind.LEVEL: _level,
    IncidentKind.NOT_INVOLVED: _not_involved,
    IncidentKind.DEFLECTION: _deflection,
    IncidentKind.DELIBERATE_PLAY: _deliberate_play,
    IncidentKind.SAVE_REBOUND: _save_rebound,
    IncidentKind.NEW_PLAY: _new_play,
    IncidentKind.THROW_IN: _throw_in,
    IncidentKind.CORNER_KICK: _corner_kick,
    IncidentKind.GOAL_KICK: _goal_kick,
    IncidentKind.FREE_KICK: _free_kick,
    IncidentKind.OWN_HALF: _own_half,
}


def play_incident(script: Script, setup: IncidentSetup, rng: np.random.Generator) -> Restart:
    """Write one planted incident; returns the restart that follows it."""
    return _WRITERS[setup.kind](_IncidentWriter(script, setup, rng))
