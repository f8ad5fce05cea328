"""Where everyone and the ball were between the touches, for the clip.

A situation records positions only at its touches. Between two touches every player (and the
ball) moves in a straight line at constant speed from one recorded point to the next. Before
the first touch a player with a velocity `v` is moved back along it (x - v * (t0 - t)); one
without a velocity stands still where the first touch has him, and so does the ball unless the
first touch gives `ball_v`. After the last touch everything stands still. A player listed at only
one of two touches stands where he is known (he is never made to appear from nowhere mid-run).
"""

from __future__ import annotations

import bisect

from varroom.model.situation import Situation, Touch

XY = tuple[float, float]


def _bracket(times: list[float], t_s: float) -> tuple[int, int, float]:
    """The touches either side of `t_s` and how far between them (0..1)."""
    if t_s <= times[0]:
        return 0, 0, 0.0
    if t_s >= times[-1]:
        last = len(times) - 1
        return last, last, 0.0
    after = bisect.bisect_right(times, t_s)
    before = after - 1
    span = times[after] - times[before]
    return before, after, 0.0 if span <= 0 else (t_s - times[before]) / span


def positions_at(situation: Situation, t_s: float) -> dict[str, XY]:
    """Every player's tracked point at time `t_s`."""
    touches = situation.touches
    times = [touch.t_s for touch in touches]
    if t_s < times[0]:
        first = touches[0]
        back = times[0] - t_s
        return {
            pid: (pos.x_m - pos.v_mps[0] * back, pos.y_m - pos.v_mps[1] * back)
            for pid, pos in first.positions.items()
        }
    i, j, f = _bracket(times, t_s)
    a, b = touches[i], touches[j]
    out: dict[str, XY] = {}
    for pid in dict.fromkeys([*a.positions, *b.positions]):
        pa, pb = a.positions.get(pid), b.positions.get(pid)
        if pa is not None and pb is not None:
            out[pid] = (pa.x_m + f * (pb.x_m - pa.x_m), pa.y_m + f * (pb.y_m - pa.y_m))
        else:
            known = pa if pa is not None else pb
            assert known is not None
            out[pid] = (known.x_m, known.y_m)
    return out


def ball_at(situation: Situation, t_s: float) -> tuple[float, float, float]:
    """The ball's centre at time `t_s` (straight lines between touches)."""
    touches = situation.touches
    times = [touch.t_s for touch in touches]
    if t_s < times[0]:
        first: Touch = touches[0]
        back = times[0] - t_s
        x, y, z = first.ball_m
        return x - first.ball_v_mps[0] * back, y - first.ball_v_mps[1] * back, z
    i, j, f = _bracket(times, t_s)
    a, b = touches[i].ball_m, touches[j].ball_m
    return tuple(a[k] + f * (b[k] - a[k]) for k in range(3))  # type: ignore[return-value]
