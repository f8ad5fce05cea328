"""An independent oracle for judging on partial data (issue 21, item 7).

Nothing here imports varroom: the situations are written as the format's JSON
(shared/spec/situation.md, version 1.2) by a generator of its own, with arrangements seen in
real football that `varroom.synthetic` does not make (a goalkeeper still up field after a
corner at the other end, a defender on his own goal line, a far-side full-back a metre or two
deeper than the line, staggered back lines, attackers within half a metre of the goal line,
a defender off the field over his goal line without permission), and the Law is read again
here, minimally, for the one kind of phase the generator writes: a team-mate's play, maybe a
defender's touch, then a receiver plays the ball.

The masks are those of a broadcast camera or a StatsBomb 360 freeze frame (a view polygon;
every player outside it dropped) and masks without a view that only drop players (fewer
listed than `team_sizes`).

The oracle on a masked situation is an exact adversarial search: every unseen opponent is
placed at the deepest, then at the shallowest, point the unseen ground allows (the pitch and
the 10 m around it, outside the view; off the field a defender counts on the line he crossed,
Law 11.4), and a hidden receiver at the deepest and shallowest point within his reach outside
the view. The offside line is monotone in every opponent's depth, so those extremes bound every
placement: the verdict is determined only when both give the same one. The extremes of x over
(rectangle minus polygon), cut by a disc, are attained at vertices of the region, which are
found among the polygons' corners, their edges' crossings and the circle's crossings: exact,
no grid.

`python tests/football11.py --situations 300 --seed 21` prints the counts for the product.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

HALF_LENGTH_M, HALF_WIDTH_M = 52.5, 34.0
# The format refuses a position more than this outside the pitch: nobody can stand farther.
AROUND_M = 10.0
# The halfway line is not the opponents' half: 12 cm wide, so it starts 6 cm past the centre.
HALFWAY_M = 0.06
# A receiver out of view at the play was within this reach of where he played the ball: no
# footballer runs faster than 10 m/s, plus a stride (the bound the issue names).
TOP_SPEED_MPS, STRIDE_M = 10.0, 3.0
EXEMPT = ("throw_in", "goal_kick", "corner_kick")  # Law 11.3
_EPS = 1e-9

Point = tuple[float, float]


# -- the generator -------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A complete situation and how its phase runs, in the oracle's own terms."""

    data: dict[str, Any]  # the format's JSON, every player listed at the play
    receiver: str
    flow: str  # "direct", "deflected" (a defender's deflection on the way), "reset"
    arrangement: str


def _clip(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def generate(rng: random.Random) -> Case:
    """One complete 11 v 11 situation: the attacking team plays the ball, a team-mate plays it."""
    arrangement = rng.choice(
        ["open", "open", "staggered", "counter_keeper_up", "goal_line", "off_field", "deep"]
    )
    towards = rng.choice([1.0, -1.0])  # which goal the attack is towards: x = towards * depth
    line = rng.uniform(5.0, 46.0) if arrangement != "deep" else rng.uniform(40.0, 50.5)
    defenders: list[dict[str, Any]] = []

    def defender(depth: float, y: float, **extra: Any) -> None:
        defenders.append({"depth": depth, "y": _clip(y, -33.5, 33.5), **extra})

    # The back four, staggered a little, the far-side full-back sometimes deeper than the line.
    back = [-24.0, -8.0, 8.0, 24.0]
    for k, y in enumerate(back):
        spread = 2.0 if arrangement == "staggered" else 0.6
        depth = line + rng.gauss(0, spread)
        if k == 3 and rng.random() < 0.35:
            depth = line + rng.uniform(1.0, 2.5)  # the far-side full-back, deeper
        defender(_clip(depth, -50.0, 52.3), y + rng.gauss(0, 3))
    for y in (-20.0, -6.0, 6.0, 20.0):  # midfield
        defender(_clip(line - rng.uniform(6, 18), -50, 50), y + rng.gauss(0, 4))
    for _ in range(2):  # the front two, up the pitch
        defender(_clip(line - rng.uniform(20, 45), -50, 50), rng.uniform(-20, 20))
    keeper_depth = _clip(line + rng.uniform(4, 25), line + 0.5, 51.8)
    if arrangement == "counter_keeper_up":
        # A corner at the other end: the goalkeeper went up and is still there; a counter.
        keeper_depth = rng.uniform(-50.0, -25.0)
    keeper_y = rng.uniform(-6, 6)
    if arrangement == "goal_line":
        # A defender on his own goal line, by the post; the goalkeeper off his line.
        defenders[rng.randrange(4)].update(depth=HALF_LENGTH_M - rng.uniform(0, 0.3), y=3.6)
    off_field_index = -1
    if arrangement == "off_field":
        # A defender who left over his own goal line without permission: he counts on it.
        off_field_index = rng.randrange(4)
        defenders[off_field_index].update(
            depth=HALF_LENGTH_M + rng.uniform(0.5, 3.0), y=rng.uniform(-15, 15)
        )
    keeper = {"depth": keeper_depth, "y": keeper_y}

    # Attackers: a passer, a receiver near the line, the rest about.
    action = rng.choices(
        ["pass", "cross", "free_kick", "throw_in", "corner_kick", "goal_kick"],
        weights=[10, 3, 2, 2, 1, 1],
    )[0]
    if action == "throw_in":
        ball = (rng.uniform(-45, 45), rng.choice([-1, 1]) * HALF_WIDTH_M)
    elif action == "corner_kick":
        ball = (HALF_LENGTH_M, rng.choice([-1, 1]) * HALF_WIDTH_M)
    elif action == "goal_kick":
        ball = (-HALF_LENGTH_M + 5.5, rng.uniform(-9, 9))
    else:
        ball = (_clip(line - rng.uniform(-5, 35), -50, 50), rng.uniform(-30, 30))
    receiver_depth = line + rng.choice([rng.gauss(0, 0.6), rng.uniform(-6, 6)])
    if arrangement == "deep":
        receiver_depth = HALF_LENGTH_M - rng.uniform(0.0, 0.5)
    if rng.random() < 0.08:
        receiver_depth = rng.uniform(-30, 0)  # in his own half
    if rng.random() < 0.08:
        receiver_depth = ball[0] - rng.uniform(0, 8)  # behind the ball
    receiver_depth = _clip(receiver_depth, -52.0, HALF_LENGTH_M)
    attackers = [{"depth": ball[0] - 0.5, "y": ball[1]}]  # the passer, at the ball
    attackers.append({"depth": receiver_depth, "y": rng.uniform(-30, 30)})  # the receiver
    for _ in range(8):
        attackers.append(
            {"depth": _clip(line - rng.uniform(-4, 30), -50, 52), "y": rng.uniform(-32, 32)}
        )
    attackers.append({"depth": rng.uniform(-52, -30), "y": rng.uniform(-5, 5)})  # goalkeeper

    flow = rng.choices(["direct", "deflected", "reset"], weights=[8, 1, 1])[0]
    data = _write(towards, ball, action, attackers, defenders, keeper, off_field_index, flow, rng)
    return Case(data, "a1", flow, arrangement)


def _write(
    towards: float,
    ball: Point,
    action: str,
    attackers: list[dict[str, Any]],
    defenders: list[dict[str, Any]],
    keeper: dict[str, Any],
    off_field_index: int,
    flow: str,
    rng: random.Random,
) -> dict[str, Any]:
    players: list[dict[str, Any]] = []
    positions: dict[str, Any] = {}
    for k, spot in enumerate(attackers):
        players.append({"id": f"a{k}", "team": "A", "goalkeeper": k == len(attackers) - 1})
        positions[f"a{k}"] = {"x": round(towards * spot["depth"], 2), "y": round(spot["y"], 2)}
    for k, spot in enumerate([*defenders, keeper]):
        pid = "dgk" if k == len(defenders) else f"d{k}"
        players.append({"id": pid, "team": "D", "goalkeeper": pid == "dgk"})
        positions[pid] = {"x": round(towards * spot["depth"], 2), "y": round(spot["y"], 2)}
        if k == off_field_index:
            positions[pid]["off_field"] = "without_permission"
    ball_xy = [round(towards * ball[0], 2), round(ball[1], 2)]
    play = {"t": 0.0, "player": "a0", "action": action, "ball": ball_xy, "positions": positions}
    receiver = positions["a1"]
    took_s = round(rng.uniform(0.6, 2.5), 2)
    # He runs on at most 8 m/s to where he plays the ball.
    run = rng.uniform(0, 8.0 * took_s)
    angle = rng.uniform(0, 2 * math.pi)
    at = [
        round(_clip(receiver["x"] + run * math.cos(angle), -HALF_LENGTH_M, HALF_LENGTH_M), 2),
        round(_clip(receiver["y"] + run * math.sin(angle), -HALF_WIDTH_M, HALF_WIDTH_M), 2),
    ]
    touches = [play]
    if flow != "direct":
        between = [round((ball_xy[0] + at[0]) / 2, 2), round((ball_xy[1] + at[1]) / 2, 2)]
        touches.append(
            {
                "t": round(took_s / 2, 2),
                "player": "d5",
                "action": "deflection" if flow == "deflected" else "clearance",
                "ball": between,
                "positions": {"d5": {"x": between[0], "y": between[1]}},
            }
        )
    touches.append(
        {
            "t": took_s,
            "player": "a1",
            "action": "receive",
            "ball": at,
            "positions": {"a1": {"x": at[0], "y": at[1]}},
        }
    )
    return {
        "version": "1.2",
        "players": players,
        "attack": {"team": "A", "towards": "+x" if towards > 0 else "-x"},
        "team_sizes": {"A": 11, "D": 11},
        "touches": touches,
    }


# -- the masks -----------------------------------------------------------------------------


def masks(case: Case, rng: random.Random, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """`count` masked copies of the case: (kind, data)."""
    play = case.data["touches"][0]
    ball = play["ball"]
    for _ in range(count):
        kind = rng.choices(["broadcast", "freeze_frame", "strip", "drop"], weights=[4, 4, 2, 3])[0]
        if kind == "drop":
            yield kind, _dropped(case, rng)
            continue
        if kind == "broadcast":
            area = _broadcast(ball, rng)
        elif kind == "freeze_frame":
            area = [
                (_clip(x, -HALF_LENGTH_M, HALF_LENGTH_M), _clip(y, -HALF_WIDTH_M, HALF_WIDTH_M))
                for x, y in _broadcast(ball, rng)
            ]
        else:
            area = _strip(case.data, rng)
        yield kind, _viewed(case, area)


def _broadcast(ball: Sequence[float], rng: random.Random) -> list[Point]:
    """A main camera on the near touchline: a trapezoid, narrow near, wide far, about the ball."""
    centre = ball[0] + rng.gauss(0, 6)
    near, far = rng.uniform(10, 25), rng.uniform(18, 42)
    near_y = -HALF_WIDTH_M - rng.uniform(0, 4)
    far_y = rng.choice([HALF_WIDTH_M + rng.uniform(0, 4), rng.uniform(0, HALF_WIDTH_M)])
    tilt = rng.gauss(0, 4)
    return [
        (centre - near, near_y),
        (centre + near, near_y),
        (centre + far + tilt, far_y),
        (centre - far + tilt, far_y),
    ]


def _strip(data: dict[str, Any], rng: random.Random) -> list[Point]:
    """The whole width from the attackers' own end up to an edge short of the goal line, or
    (towards -x) its mirror: a view that misses a strip by the goal line attacked."""
    sign = 1.0 if data["attack"]["towards"] == "+x" else -1.0
    edge = rng.choice([rng.uniform(15, 52.5), HALF_LENGTH_M - rng.uniform(0, 6)])
    far = -HALF_LENGTH_M - AROUND_M
    width = HALF_WIDTH_M + AROUND_M
    return [
        (sign * far, -width),
        (sign * edge, -width),
        (sign * edge, width),
        (sign * far, width),
    ]


def _viewed(case: Case, area: list[Point]) -> dict[str, Any]:
    data = copy.deepcopy(case.data)
    play = data["touches"][0]
    polygon = [(round(x, 2), round(y, 2)) for x, y in area]
    play["view"] = {"area": [list(p) for p in polygon]}
    play["positions"] = {
        pid: pos
        for pid, pos in play["positions"].items()
        if strictly_inside(polygon, (pos["x"], pos["y"]))
    }
    return data


def _dropped(case: Case, rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(case.data)
    play = data["touches"][0]
    ids = [pid for pid in play["positions"] if pid != "a0"]
    for pid in rng.sample(ids, rng.randint(1, 6)):
        del play["positions"][pid]
    return data


# -- geometry, exact -----------------------------------------------------------------------


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if abs(cross) > 1e-7 * max(1.0, math.dist(a, b)):
        return False
    return (
        min(a[0], b[0]) - 1e-7 <= p[0] <= max(a[0], b[0]) + 1e-7
        and min(a[1], b[1]) - 1e-7 <= p[1] <= max(a[1], b[1]) + 1e-7
    )


def _edges(polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon))]


def strictly_inside(polygon: Sequence[Point], p: Point) -> bool:
    """Inside and not on the boundary (a player on the view's edge may be unlisted)."""
    if any(_on_segment(p, a, b) for a, b in _edges(polygon)):
        return False
    inside = False
    for a, b in _edges(polygon):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x_at = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x_at > p[0]:
                inside = not inside
    return inside


def _segment_crossings(a: Point, b: Point, c: Point, d: Point) -> list[Point]:
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    denominator = r[0] * s[1] - r[1] * s[0]
    if abs(denominator) < _EPS:
        # Parallel: overlapping collinear pieces meet at each other's ends.
        return [p for p in (a, b) if _on_segment(p, c, d)] + [
            p for p in (c, d) if _on_segment(p, a, b)
        ]
    t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / denominator
    u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / denominator
    if -_EPS <= t <= 1 + _EPS and -_EPS <= u <= 1 + _EPS:
        return [(a[0] + t * r[0], a[1] + t * r[1])]
    return []


def _circle_crossings(a: Point, b: Point, centre: Point, radius: float) -> list[Point]:
    d = (b[0] - a[0], b[1] - a[1])
    f = (a[0] - centre[0], a[1] - centre[1])
    qa = d[0] ** 2 + d[1] ** 2
    qb = 2 * (f[0] * d[0] + f[1] * d[1])
    qc = f[0] ** 2 + f[1] ** 2 - radius**2
    disc = qb * qb - 4 * qa * qc
    if qa < _EPS or disc < 0:
        return []
    root = math.sqrt(disc)
    return [
        (a[0] + t * d[0], a[1] + t * d[1])
        for t in ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))
        if -_EPS <= t <= 1 + _EPS
    ]


GROUND: list[Point] = [
    (-HALF_LENGTH_M - AROUND_M, -HALF_WIDTH_M - AROUND_M),
    (HALF_LENGTH_M + AROUND_M, -HALF_WIDTH_M - AROUND_M),
    (HALF_LENGTH_M + AROUND_M, HALF_WIDTH_M + AROUND_M),
    (-HALF_LENGTH_M - AROUND_M, HALF_WIDTH_M + AROUND_M),
]


def unseen_x_range(
    view: Sequence[Point] | None, disc: tuple[Point, float] | None = None
) -> tuple[float, float] | None:
    """The least and greatest x of the ground (the pitch and 10 m around it) outside the view,
    within the disc if one is given; None when nothing is left."""
    polygons = [GROUND] + ([list(view)] if view else [])
    candidates: list[Point] = [p for polygon in polygons for p in polygon]
    edges = [e for polygon in polygons for e in _edges(polygon)]
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1 :]:
            candidates += _segment_crossings(a, b, c, d)
    if disc is not None:
        centre, radius = disc
        candidates += [(centre[0] - radius, centre[1]), (centre[0] + radius, centre[1])]
        for a, b in edges:
            candidates += _circle_crossings(a, b, centre, radius)

    def free(p: Point, slack: float) -> bool:
        in_ground = (
            abs(p[0]) <= HALF_LENGTH_M + AROUND_M + slack
            and abs(p[1]) <= HALF_WIDTH_M + AROUND_M + slack
        )
        in_disc = disc is None or math.dist(p, disc[0]) <= disc[1] + slack
        return in_ground and in_disc and not (view and strictly_inside(view, p))

    def keep(p: Point) -> bool:
        """In the closure of the unseen ground: free itself, or with free ground right beside
        it when it lies on the view's edge (probed a millimetre away, beside every edge
        direction through it and at eight bearings off them)."""
        if not free(p, 1e-7):
            return False
        if not view or not any(_on_segment(p, a, b) for a, b in _edges(view)):
            return True
        bearings = [0.1234 + k * math.pi / 4 for k in range(8)]  # off any edge
        for a, b in _edges(list(view)) + _edges(GROUND):
            if _on_segment(p, a, b):
                for end in (a, b):
                    if math.dist(end, p) > 1e-7:
                        along = math.atan2(end[1] - p[1], end[0] - p[0])
                        bearings += [along - 1e-2, along + 1e-2]
        return any(
            free((p[0] + 1e-3 * math.cos(b), p[1] + 1e-3 * math.sin(b)), 0.0) for b in bearings
        )

    xs = [p[0] for p in candidates if keep(p)]
    return (min(xs), max(xs)) if xs else None


# -- the Law, read again (11.1 to 11.4, for this one kind of phase) ------------------------


def _second_largest(depths: list[float]) -> float:
    return sorted(depths, reverse=True)[1] if len(depths) >= 2 else -math.inf


def _clamp_depth(depth: float) -> float:
    """Off the field over a goal line a defender counts on it (Law 11.4), beyond a touchline on
    it at his depth: either way no deeper than the goal line, no shallower than the other."""
    return _clip(depth, -HALF_LENGTH_M, HALF_LENGTH_M)


def oracle(data: dict[str, Any], receiver: str, flow: str) -> tuple[str, str | None]:
    """The verdict every placement of the unseen players agrees on: ("offence", offender),
    ("no_offence", None), or ("undecidable", None) when two placements disagree."""
    play = data["touches"][0]
    if flow == "reset":  # a defender's deliberate play resets (Law 11.2)
        return "no_offence", None
    if play["action"] in EXEMPT and flow == "direct":  # Law 11.3
        return "no_offence", None
    sign = 1.0 if data["attack"]["towards"] == "+x" else -1.0
    teams = {p["id"]: p["team"] for p in data["players"]}
    view = [tuple(p) for p in play["view"]["area"]] if "view" in play else None
    positions = play["positions"]
    seen_defenders = [
        _clamp_depth(sign * pos["x"]) for pid, pos in positions.items() if teams[pid] == "D"
    ]
    unseen = data.get("team_sizes", {}).get("D", len(seen_defenders)) - len(seen_defenders)
    floor = max(sign * play["ball"][0], HALFWAY_M)  # the ball and the halfway line
    if unseen:
        span = unseen_x_range(view)
        assert span is not None
        depths = sorted(_clamp_depth(sign * x) for x in span)
        shallow, deep = depths
    else:
        shallow = deep = -math.inf
    line_low = max(floor, _second_largest(seen_defenders + [shallow] * unseen))
    line_high = max(floor, _second_largest(seen_defenders + [deep] * unseen))
    if receiver in positions:
        near = far = sign * positions[receiver]["x"]
    else:
        last = data["touches"][-1]
        reach = TOP_SPEED_MPS * (last["t"] - play["t"]) + STRIDE_M
        span = unseen_x_range(view, ((last["ball"][0], last["ball"][1]), reach))
        assert span is not None, "the receiver stood somewhere"
        near, far = sorted(_clamp_depth(sign * x) for x in span)
    if near > line_high:
        return "offence", receiver
    if far <= line_low:
        return "no_offence", None
    return "undecidable", None


# -- the count, for the product -------------------------------------------------------------


def count(situations: int, seed: int, masks_each: int = 17) -> dict[str, int]:
    """Judge every masked moment with the product; compare with the complete truth and the
    exact oracle."""
    import varroom  # only here: the oracle above never uses the product
    from varroom.formats.situation_json import situation_from_dict

    rng = random.Random(seed)
    tally = dict.fromkeys(
        [
            "situations",
            "moments",
            "settled",
            "contradicting",
            "contradicting_situations",
            "undecidable",
            "oracle_undecidable",
            "complete_disagreements",
        ],
        0,
    )
    for _ in range(situations):
        case = generate(rng)
        truth = oracle(case.data, case.receiver, case.flow)
        complete = varroom.judge(situation_from_dict(case.data))
        tally["complete_disagreements"] += (complete.status.value, complete.offender) != truth
        tally["situations"] += 1
        wrong_here = False
        for _kind, masked in masks(case, rng, masks_each):
            verdict = varroom.judge(situation_from_dict(masked))
            tally["moments"] += 1
            exact = oracle(masked, case.receiver, case.flow)
            tally["oracle_undecidable"] += exact[0] == "undecidable"
            if verdict.status.value == "undecidable":
                tally["undecidable"] += 1
                continue
            tally["settled"] += 1
            if (verdict.status.value, verdict.offender) != truth:
                tally["contradicting"] += 1
                wrong_here = True
        tally["contradicting_situations"] += wrong_here
    return tally


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--situations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    print(count(args.situations, args.seed))
