"""Moments of play in continuous tracking: when the ball was played, by whom, and how.

Detection runs over every frame at once (a live feed runs the same two halves, `peak_steps`
and `moments_at`, on a window of its latest frames: `varroom.live.follower`). The ball's
velocity is averaged over `FIT_WINDOW_S` before and after every step between two frames;
a step where it changes by
`MIN_CHANGE_MPS` or more, more than anywhere within half a window either side, is a
candidate touch. Only then, at the few thousand candidates: straight lines are fitted to the ball's
path over the window before and after, and the instant of the touch is where they meet,
to a fraction of a frame (the step's ends when the fit puts it outside). Every player is
interpolated linearly to that instant, with his velocity over the windows for the timing
error of the uncertainty model. A candidate with no player within `REACH_M` of the ball is
not a touch (a bounce, the woodwork, noise). Steps across missing frames, a missing ball
or a period end are never candidates: no verdict comes from frames without the ball.

Who played it: the nearest player at the instant, or the player an event names. How: from
event data where an event of a touch falls within `EVENT_WINDOW_S` and names a player near
the ball; otherwise a dead ball played again is a restart (`varroom.audit.restarts`); a
ball going into or very close to the toucher's own goal is a save; anything else is a
deliberate play or a deflection by the IFAB indicators (`varroom.audit.deliberate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view
from scipy.ndimage import maximum_filter1d

from varroom.audit.deliberate import (
    STOPPED_FRACTION,
    Flight,
    deliberate_probability,
    heading_into_goal,
)
from varroom.audit.restarts import (
    DEAD_S,
    RESTART_CONFIDENCE,
    dead_before_s,
    restart_actions,
)
from varroom.match.tracking import EventKind, MatchTracking
from varroom.model.settings import LawSettings
from varroom.model.situation import Action

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Indices = npt.NDArray[np.intp]

REACH_M = 1.5  # a player's foot, knee or head reaches the ball from his tracked point
FIT_WINDOW_S = 0.2  # the ball flies straight for this long either side of a touch
MIN_CHANGE_MPS = 3.0  # a touch changes the ball's velocity by this much; noise does not
MAX_STEP_FRAMES = 1.5  # a step over more frame periods than this spans missing frames
OUT_MARGIN_M = 1.0  # a ball further over a line was fetched, not played (throw-ins are nearer)
EVENT_WINDOW_S = (
    0.4  # event clocks are this close to the tracking's (a touch then alerts live within 0.5 s)
)
# Beyond the rounding of `_match_events`'s keys (period * 10^6 + t, ~10^-9 s): an event this
# much past a touch's window is surely outside it.
KEY_ROUNDING_S = 1e-6
EVENT_REACH_M = 2 * REACH_M  # an event's player this near the ball can be the touch's player
DECIDED = 0.5  # deliberate play from this estimated probability up


class ActionSource(Enum):
    """Where a moment's action came from."""

    EVENT = "event"  # an event of the provider's event data
    RESTART = "restart"  # a dead ball played again, named by where it was taken
    INDICATORS = "indicators"  # the ball's flight read with the IFAB indicators


_ACTION_OF_EVENT: dict[EventKind, Action] = {
    EventKind.PASS: Action.PASS,
    EventKind.SHOT: Action.SHOT,
    EventKind.CLEARANCE: Action.CLEARANCE,
    EventKind.INTERCEPTION: Action.DELIBERATE_PLAY,
    EventKind.RECEIPT: Action.RECEIVE,
    EventKind.CARRY: Action.DRIBBLE,
    EventKind.TAKE_ON: Action.DRIBBLE,
    EventKind.RECOVERY: Action.DELIBERATE_PLAY,
    # A failed attempt to control is still a deliberate play (laws.md).
    EventKind.MISCONTROL: Action.DELIBERATE_PLAY,
    EventKind.GOALKEEPER: Action.DELIBERATE_PLAY,  # a claim, a punch, a pick-up
    EventKind.BLOCK: Action.DEFLECTION,
    EventKind.SAVE: Action.SAVE,
    EventKind.THROW_IN: Action.THROW_IN,
    EventKind.CORNER_KICK: Action.CORNER_KICK,
    EventKind.GOAL_KICK: Action.GOAL_KICK,
    EventKind.FREE_KICK: Action.FREE_KICK,
    EventKind.KICK_OFF: Action.KICK_OFF,
    EventKind.PENALTY_KICK: Action.PENALTY_KICK,
}


@dataclass(frozen=True, eq=False, repr=False)
class Moments:
    """N moments of play of a match as columns, in the order of the frames."""

    frame: Indices  # (N,) the frame just before the instant
    period: npt.NDArray[np.int8]  # (N,)
    t_s: Floats  # (N,) the instant, seconds since the period's start
    ball_m: Floats  # (N, 3) height NaN where the provider gives none
    ball_in_mps: Floats  # (N, 2) the ball's velocity before the touch
    ball_out_mps: Floats  # (N, 2) and after it
    players_m: Floats  # (N, P, 2) every player at the instant, NaN unseen
    players_v_mps: Floats  # (N, P, 2)
    player: Indices  # (N,) column of the player who played it
    player_confidence: Floats  # (N,) how sure that he, not another, played it
    actions: tuple[Action, ...]
    action_confidence: Floats  # (N,) how sure the action is (1 from event data)
    sources: tuple[ActionSource, ...]
    event_index: Indices  # (N,) the event naming the touch, -1 none

    def __len__(self) -> int:
        return len(self.t_s)

    def take(self, rows: Sequence[int]) -> Moments:
        """These rows, in this order, as moments (a live feed keeps a few)."""
        index = np.asarray(rows, dtype=np.intp)
        values: dict[str, Any] = {}
        for field in fields(Moments):
            column = getattr(self, field.name)
            values[field.name] = (
                tuple(column[i] for i in index) if isinstance(column, tuple) else column[index]
            )
        return Moments(**values)


def concat_moments(parts: Sequence[Moments]) -> Moments:
    """Moments one after another, as one `Moments`."""
    values: dict[str, Any] = {}
    for field in fields(Moments):
        columns = [getattr(part, field.name) for part in parts]
        values[field.name] = (
            tuple(x for column in columns for x in column)
            if isinstance(columns[0], tuple)
            else np.concatenate(columns)
        )
    return Moments(**values)


@dataclass(frozen=True, slots=True)
class _Steps:
    """The ball between consecutive frames."""

    valid: Bools  # (T - 1,) both frames see the ball, same period, no frames missing
    velocity_mps: Floats  # (T - 1, 2)


@dataclass(frozen=True, slots=True)
class _Instants:
    step: Indices  # (N,) the step holding the touch
    fraction: Floats  # (N,) where in the step, 0..1
    t_s: Floats
    ball_xy_m: Floats  # (N, 2)
    incoming_mps: Floats
    outgoing_mps: Floats

    def take(self, rows: Bools) -> _Instants:
        return _Instants(
            self.step[rows],
            self.fraction[rows],
            self.t_s[rows],
            self.ball_xy_m[rows],
            self.incoming_mps[rows],
            self.outgoing_mps[rows],
        )


def window_frames(frame_rate_hz: float) -> int:
    """Frames in a fit window: two at least, or a line through them says nothing."""
    return max(2, round(FIT_WINDOW_S * frame_rate_hz))


def plateau_frames(window: int) -> int:
    """How near two peaks of the velocity change are one touch: half a fit window (a touch's
    change fades to nothing a window away either side; half a window keeps the peak of a
    second touch soon after, a deflection of a pass, from hiding under the first)."""
    return (window + 1) // 2


@dataclass(frozen=True, slots=True)
class Before:
    """The moment of play before the first of a batch (a live feed finds them a few at a
    time): the time to react and the ball's travel are measured from it."""

    period: int
    t_s: float
    ball_xy_m: Floats  # (2,)


def find_moments(match: MatchTracking, settings: LawSettings | None = None) -> Moments:
    """Every moment the ball was played in a match with continuous tracking."""
    if match.frame_rate_hz is None:
        raise ValueError("moments of play need continuous tracking, not freeze frames")
    window = window_frames(match.frame_rate_hz)
    steps = one_per_plateau(peak_steps(match), window)
    return moments_at(match, steps, settings or LawSettings())


def moments_at(
    match: MatchTracking, steps: Indices, settings: LawSettings, before: Before | None = None
) -> Moments:
    """The moments of play at candidate touch `steps` (from `one_per_plateau`): the instant,
    who played it and how. Each step needs a fit window of frames either side of it, and
    the frames of `restarts.DEAD_S` before it to tell a restart."""
    assert match.frame_rate_hz is not None
    window = window_frames(match.frame_rate_hz)
    instants = _fit_instants(match, steps, window)
    players_m, players_v = _players_at(match, instants, window)
    distance = np.hypot(*(players_m - instants.ball_xy_m[:, None, :]).transpose(2, 0, 1))
    distance = np.where(np.isnan(distance), np.inf, distance)
    if distance.shape[1] < 2:
        distance = np.concatenate([distance, np.full((len(distance), 1), np.inf)], axis=1)
    nearest = np.argmin(distance, axis=1)
    two = np.sort(np.partition(distance, 1, axis=1)[:, :2], axis=1)
    fetched = (np.abs(instants.ball_xy_m) > _half_pitch(match) + OUT_MARGIN_M).any(axis=1)
    keep = (two[:, 0] <= REACH_M) & ~fetched
    kept = instants.take(keep)
    frame = kept.step
    height = (
        match.ball_m[frame, 2] * (1 - kept.fraction) + match.ball_m[frame + 1, 2] * kept.fraction
    )
    period = match.period[frame]
    how = _how_played(
        match,
        kept,
        players_m[keep],
        nearest[keep],
        _who_confidence(two[keep]),
        height,
        dead_before_s(match, frame, settings.ball_radius_m),
        before,
    )
    return Moments(
        frame=frame,
        period=period,
        t_s=kept.t_s,
        ball_m=np.column_stack([kept.ball_xy_m, height]),
        ball_in_mps=kept.incoming_mps,
        ball_out_mps=kept.outgoing_mps,
        players_m=players_m[keep],
        players_v_mps=players_v[keep],
        player=how.player,
        player_confidence=how.player_confidence,
        actions=how.actions,
        action_confidence=how.action_confidence,
        sources=how.sources,
        event_index=how.event_index,
    )


def _half_pitch(match: MatchTracking) -> Floats:
    return np.array([match.pitch.half_length_m, match.pitch.half_width_m])


def _steps(match: MatchTracking) -> _Steps:
    assert match.frame_rate_hz is not None
    ball = match.ball_m[:, :2]
    dt = np.diff(match.t_s)
    seen = ~np.isnan(ball).any(axis=1)
    valid = (
        seen[:-1]
        & seen[1:]
        & (match.period[1:] == match.period[:-1])
        & (dt > 0)
        & (dt <= MAX_STEP_FRAMES / match.frame_rate_hz)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        velocity = np.diff(ball, axis=0) / dt[:, None]
    return _Steps(valid, np.where(valid[:, None], velocity, np.nan))


def peak_steps(match: MatchTracking) -> Indices:
    """Steps where the ball's velocity changes most, by at least `MIN_CHANGE_MPS`, with a
    whole window of good steps either side; a plateau of equal neighbours gives all of them
    (`one_per_plateau` keeps one). A step's answer depends only on the frames within a fit
    window and a plateau either side of it."""
    assert match.frame_rate_hz is not None
    window = window_frames(match.frame_rate_hz)
    steps = _steps(match)
    n_steps = len(steps.valid)
    bad_before = np.concatenate([[0], np.cumsum(~steps.valid)])
    if n_steps < 2 * window + 1:
        return np.zeros(0, dtype=np.intp)
    middle = np.arange(window, n_steps - window)
    whole = bad_before[middle + window + 1] - bad_before[middle - window] == 0
    # Mean velocities over the windows, each summed over its own steps (not read off a running
    # sum): the same frames give the same figures to the last bit, wherever a feed's window
    # of frames starts, so a live follower finds the very peaks the audit finds.
    sums = sliding_window_view(np.nan_to_num(steps.velocity_mps), window, axis=0).sum(axis=-1)
    before = sums[middle - window] / window
    after = sums[middle + 1] / window
    change = np.zeros(n_steps)
    change[middle] = np.where(whole, np.hypot(*(after - before).T), 0.0)
    reach = plateau_frames(window)
    peak = (change >= MIN_CHANGE_MPS) & (change == maximum_filter1d(change, 2 * reach + 1))
    return np.flatnonzero(peak)


def one_per_plateau(peaks: Indices, window: int, previous: int | None = None) -> Indices:
    """Equal neighbours on a plateau are one touch: the first of `peaks` (in order) that is
    not within a plateau of the peak before it; `previous` is the last peak before these."""
    reach = plateau_frames(window)
    first = -reach - 1 if previous is None else previous
    return peaks[np.diff(peaks, prepend=first) > reach]


def _line_fits(t_s: Floats, xy_m: Floats, t_ref_s: Floats) -> tuple[Floats, Floats]:
    """Least-squares lines through (N, K) times and (N, K, 2) points: velocity and the point
    at `t_ref_s`."""
    t_mean = t_s.mean(axis=1, keepdims=True)
    xy_mean = xy_m.mean(axis=1)
    dt = t_s - t_mean
    velocity = (
        np.einsum("nk,nkc->nc", dt, xy_m - xy_mean[:, None, :]) / (dt**2).sum(axis=1)[:, None]
    )
    return velocity, xy_mean + velocity * (t_ref_s - t_mean)


def _fit_instants(match: MatchTracking, step: Indices, window: int) -> _Instants:
    """The instant of each touch, where the lines before and after it meet."""
    before = step[:, None] + np.arange(-window, 1)
    after = step[:, None] + 1 + np.arange(window + 1)
    t_s, ball = match.t_s, match.ball_m[:, :2]
    t0 = t_s[step][:, None]
    v_in, at_in = _line_fits(t_s[before], ball[before], t0)
    v_out, at_out = _line_fits(t_s[after], ball[after], t0)
    gap, closing = at_in - at_out, v_in - v_out
    step_s = t_s[step + 1] - t_s[step]
    with np.errstate(invalid="ignore", divide="ignore"):
        offset_s = -np.einsum("nc,nc->n", gap, closing) / np.einsum("nc,nc->n", closing, closing)
    offset_s = np.clip(np.nan_to_num(offset_s, nan=0.0), 0.0, step_s)
    at = offset_s[:, None]
    point = ((at_in + v_in * at) + (at_out + v_out * at)) / 2
    return _Instants(step, offset_s / step_s, t_s[step] + offset_s, point, v_in, v_out)


def _players_at(match: MatchTracking, instants: _Instants, window: int) -> tuple[Floats, Floats]:
    """Every player interpolated linearly to each instant, and his velocity over the windows."""
    step = instants.step
    fraction = instants.fraction[:, None, None]
    here = match.players_m[step].astype(np.float64)
    there = match.players_m[step + 1].astype(np.float64)
    first, last = step - window, step + 1 + window
    span_s = (match.t_s[last] - match.t_s[first])[:, None, None]
    velocity = (match.players_m[last].astype(np.float64) - match.players_m[first]) / span_s
    return here + (there - here) * fraction, velocity


def _who_confidence(two_nearest_m: Floats) -> Floats:
    """1 with nobody else within reach; 0.5 with another player as near as the nearest."""
    first, second = two_nearest_m[:, 0], two_nearest_m[:, 1]
    room = REACH_M - first
    share = np.divide(second - first, room, out=np.ones_like(room), where=room > 0)
    return np.where(second >= REACH_M, 1.0, 0.5 + 0.5 * np.clip(share, 0.0, 1.0))


def attack_signs(match: MatchTracking, teams: np.ndarray, periods: np.ndarray) -> Floats:
    """+1 or -1 along x for the goal each team attacks in each period; NaN when unknown."""
    signs = np.full(len(teams), np.nan)
    for attack in match.attack:
        signs[(teams == attack.team) & (periods == attack.period)] = attack.direction.sign
    return signs


@dataclass(frozen=True, slots=True)
class _HowPlayed:
    player: Indices
    player_confidence: Floats
    actions: tuple[Action, ...]
    action_confidence: Floats
    sources: tuple[ActionSource, ...]
    event_index: Indices


def _how_played(
    match: MatchTracking,
    instants: _Instants,
    players_m: Floats,
    nearest: Indices,
    who_confidence: Floats,
    height_m: Floats,
    dead_s: Floats,
    before: Before | None,
) -> _HowPlayed:
    period = match.period[instants.step]
    event_index, event_player = _match_events(match, instants, players_m, period)
    player = np.where(event_player >= 0, event_player, nearest)
    who = np.where(event_player >= 0, 1.0, who_confidence)
    sign = attack_signs(match, match.player_teams[player], period)
    half = match.pitch.half_length_m
    react_s, travelled_m = _since_previous(instants.t_s, instants.ball_xy_m, period, before)
    flight = Flight(
        incoming_mps=instants.incoming_mps,
        outgoing_mps=instants.outgoing_mps,
        react_s=react_s,
        travelled_m=travelled_m,
        height_m=height_m,
    )
    deliberate = deliberate_probability(flight)
    saved, save_sureness = heading_into_goal(
        instants.ball_xy_m, instants.incoming_mps, -sign * half
    )
    shot, _ = heading_into_goal(instants.ball_xy_m, instants.outgoing_mps, sign * half)
    speed_in = np.hypot(*instants.incoming_mps.T)
    stopped = np.hypot(*instants.outgoing_mps.T) < STOPPED_FRACTION * speed_in
    restart = dead_s >= DEAD_S
    restarts = restart_actions(instants.ball_xy_m, -sign * half, match.pitch)

    actions: list[Action] = []
    sources: list[ActionSource] = []
    confidence = np.empty(len(player))
    for i in range(len(player)):
        if event_index[i] >= 0:
            action = _ACTION_OF_EVENT[match.events[event_index[i]].kind]
            source, confidence[i] = ActionSource.EVENT, 1.0
        elif restart[i]:
            action = restarts[i]
            source, confidence[i] = ActionSource.RESTART, RESTART_CONFIDENCE
        elif saved[i]:
            action = Action.SAVE
            source, confidence[i] = ActionSource.INDICATORS, save_sureness[i]
        else:
            action = _open_play_action(deliberate[i], bool(shot[i]), bool(stopped[i]))
            source = ActionSource.INDICATORS
            confidence[i] = max(deliberate[i], 1.0 - deliberate[i])
        actions.append(action)
        sources.append(source)
    return _HowPlayed(player, who, tuple(actions), confidence, tuple(sources), event_index)


def _open_play_action(deliberate: float, shot: bool, stopped: bool) -> Action:
    if deliberate < DECIDED:
        return Action.DEFLECTION
    if shot:
        return Action.SHOT
    return Action.RECEIVE if stopped else Action.PASS


def _since_previous(
    t_s: Floats, ball_xy_m: Floats, period: np.ndarray, before: Before | None
) -> tuple[Floats, Floats]:
    """Time since the previous touch of the same period (the time to react) and how far the
    ball travelled from it; NaN for the first of a period."""
    if before is not None:
        t_s = np.concatenate([[before.t_s], t_s])
        ball_xy_m = np.concatenate([before.ball_xy_m[None, :], ball_xy_m])
        period = np.concatenate([[before.period], period])
    react_s, travelled_m = np.full(len(t_s), np.nan), np.full(len(t_s), np.nan)
    same = period[1:] == period[:-1]
    react_s[1:] = np.where(same, np.diff(t_s), np.nan)
    travelled_m[1:] = np.where(same, np.hypot(*np.diff(ball_xy_m, axis=0).T), np.nan)
    if before is not None:  # the moment before is not one of these
        return react_s[1:], travelled_m[1:]
    return react_s, travelled_m


def events_final_after_s(match: MatchTracking, moments: Moments) -> Floats:
    """For each moment, the time of its period after which no event still to come can change
    the event `_match_events` gives it, when events come in time order and every earlier
    moment's event is final: the nearest fitting event wins, so once one at distance d is
    in, only an event nearer than d could take its place, and none comes after t + d (an
    event as near but later loses the tie: `argmin` keeps the earlier). With no event in,
    one could come until the window closes, t + `EVENT_WINDOW_S`."""
    claimed = moments.event_index
    event_t = np.array([match.events[k].t_s if k >= 0 else np.nan for k in claimed])
    distance = np.where(
        claimed >= 0, np.abs(event_t - moments.t_s), EVENT_WINDOW_S + KEY_ROUNDING_S
    )
    return np.asarray(moments.t_s + distance, dtype=np.float64)


def _match_events(
    match: MatchTracking, instants: _Instants, players_m: Floats, period: np.ndarray
) -> tuple[Indices, Indices]:
    """For each moment, the nearest unclaimed event of a touch within `EVENT_WINDOW_S` whose
    player (if it names one) is within `EVENT_REACH_M` of the ball: its index and the player's
    column (-1: none, or the event names nobody)."""
    n = len(instants.t_s)
    event_index = np.full(n, -1, dtype=np.intp)
    event_player = np.full(n, -1, dtype=np.intp)
    touches = [k for k, event in enumerate(match.events) if event.kind in _ACTION_OF_EVENT]
    if not touches:
        return event_index, event_player
    column_of = {str(pid): c for c, pid in enumerate(match.player_ids)}
    e_index = np.array(touches, dtype=np.intp)
    e_t = np.array([match.events[k].t_s for k in touches])
    e_period = np.array([match.events[k].period for k in touches])
    e_column = np.array([column_of.get(match.events[k].player or "", -1) for k in touches])
    order = np.lexsort((e_t, e_period))
    e_index, e_t, e_period, e_column = e_index[order], e_t[order], e_period[order], e_column[order]
    key = e_period * 1e6 + e_t  # periods never last 10^6 s
    lo = np.searchsorted(key, period * 1e6 + instants.t_s - EVENT_WINDOW_S)
    hi = np.searchsorted(key, period * 1e6 + instants.t_s + EVENT_WINDOW_S, side="right")
    claimed = np.zeros(len(e_index), dtype=bool)
    for i in range(n):
        near = np.arange(lo[i], hi[i])
        near = near[~claimed[near]]
        if len(near) == 0:
            continue
        column = e_column[near]
        where = players_m[i, np.maximum(column, 0)]
        reach = np.hypot(*(where - instants.ball_xy_m[i]).T)
        fits = (column < 0) | (reach <= EVENT_REACH_M)
        if not fits.any():
            continue
        candidates = near[fits]
        best = candidates[np.argmin(np.abs(e_t[candidates] - instants.t_s[i]))]
        claimed[best] = True
        event_index[i] = e_index[best]
        event_player[i] = e_column[best]
    return event_index, event_player
