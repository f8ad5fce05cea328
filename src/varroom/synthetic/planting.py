"""Scenes planted over a generated period after the fact: penalty kicks and ball-line moments.

A scene overwrites a window of frames (the ball, and for a penalty every player) and the
events inside it. The ball is unseen at the window's two ends, as a dead ball being fetched
is, so no touch is read from its jump into and out of the scene. Windows are spread evenly
over the period and kept clear of the planted offside incidents and of every dead ball (so
no scene makes play go on after a ball the generated play put out); their times come from a
random stream of their own, so a match without planted scenes is the match it always was.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

FIRST_S = 20.0  # no scene before this in a period (the kick-off)
LAST_GAP_S = 10.0
CLEAR_S = 5.0  # a scene keeps this far from a planted offside incident


class NoRoomError(ValueError):
    """The scenes asked for do not fit in the period (with its offside incidents clear of
    them): plant fewer, or make the match longer."""


def scene_starts(
    period_s: float,
    lengths: Sequence[float],
    busy: Sequence[tuple[float, float]],
    rng: np.random.Generator,
    tries: int = 200,
) -> list[float]:
    """A start for each window (`lengths` in order), one window per even slot of the period,
    clear of the `busy` spans by `CLEAR_S`."""
    if not lengths:
        return []
    slot = (period_s - FIRST_S - LAST_GAP_S) / len(lengths)
    spans = np.array(list(busy) or [(-1e9, -1e9)], dtype=np.float64).reshape(-1, 2)
    starts = []
    for k, length in enumerate(lengths):
        room = slot - length
        if room < 0:
            raise NoRoomError(
                f"{len(lengths)} planted scenes do not fit in a {period_s:g} s period"
            )
        for _ in range(tries):
            start = FIRST_S + k * slot + float(rng.uniform(0.0, room))
            clear = (spans[:, 1] < start - CLEAR_S) | (spans[:, 0] > start + length + CLEAR_S)
            if clear.all():
                starts.append(start)
                break
        else:
            raise NoRoomError(f"no room for planted scene {k + 1} clear of the offside incidents")
    return starts


def dead_ball_spans(
    t_s: Floats, ball_m: Floats, half_length_m: float, half_width_m: float
) -> list[tuple[float, float]]:
    """The spans with the ball over a line or unseen (being fetched, or lost): a scene next
    to one would have play go on after a ball the match put out of play."""
    dead = np.isnan(ball_m[:, 0]) | (np.abs(ball_m[:, 0]) > half_length_m)
    dead |= np.abs(ball_m[:, 1]) > half_width_m
    edges = np.diff(np.concatenate([[0], dead.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    return [(float(t_s[a]), float(t_s[b])) for a, b in zip(starts, ends, strict=True)]


def blend(t_s: Floats, start_s: float, end_s: float) -> Floats:
    """(T,) 0 before `start_s`, 1 after `end_s`, linear between: a walk from where the play
    had players into a scene, or back."""
    return np.clip((t_s - start_s) / max(end_s - start_s, 1e-9), 0.0, 1.0)
