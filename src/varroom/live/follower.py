"""The live follower: a match followed frame by frame, an alert the moment an offside
offence, a penalty kick or a ball over a line is decidable.

It runs the audit's own steps (`varroom.audit`), a few frames at a time:

1. Frames pass a short reordering buffer (`REORDER_FRAMES`): a frame that comes out of
   order within it takes its place; a duplicate, or a frame later than that, is dropped (a
   missing frame, as the audit treats one). Frames go into a window of the last
   `WINDOW_S` seconds; nothing older is kept, so memory stays flat over a match.
2. Each step between two frames is examined for a touch (`moments.peak_steps`) as soon as
   the frames it depends on are there: a fit window and half a fit window after it, 0.36 s
   at 25 Hz. With an event feed (the header does not say `"events": false`), a touch also
   waits until no event still to come can change the event the audit gives it
   (`moments.events_final_after_s`): the nearest event within `EVENT_WINDOW_S` names it, so
   once one at distance d is in, the wait ends when the stream is d past the touch.
3. The touch becomes a moment of play (`moments.moments_at`, from the moment before it),
   joins its possession chain (`phases.Chains`), is screened (`screening.screen`), and an
   attacker's touch is judged at his team-mate's play (`phases.judged_position`) by the
   audit's `Situations` and `judge()`. An offence is an `Alert`; the phase is then over.
4. Penalty kicks and the ball over a line are followed beside (`varroom.live.laws`): each
   is a `LawAlert` once what follows it can no longer change the audit's verdict.

Every figure the audit computes from frames, the follower computes from the same frames
(`moments.peak_steps` sums each window on its own, so where the window starts does not
change a bit): over a recorded match it alerts on exactly the audit's offences.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from varroom.audit.ball_out import STOPPAGES, scan_ball_out
from varroom.audit.model import Incident, clock
from varroom.audit.moments import (
    EVENT_WINDOW_S,
    Before,
    Moments,
    concat_moments,
    events_final_after_s,
    moments_at,
    one_per_plateau,
    peak_steps,
    plateau_frames,
    window_frames,
)
from varroom.audit.phases import (
    RESTARTS,
    Chains,
    Pair,
    Phase,
    judged_position,
    missed_ball_outs,
    stretch_breaks,
)
from varroom.audit.restarts import DEAD_S, STILL_WINDOW_S
from varroom.audit.screening import Screen, screen
from varroom.audit.tracking import Situations, Unseen, tracking_of
from varroom.engine.verdict import Status
from varroom.formats.situation_json import situation_to_dict
from varroom.law.position import offside_position
from varroom.live.laws import LawAlert, LiveLaws
from varroom.live.stream import End, Frame, Header
from varroom.live.window import Template, Window
from varroom.match.tracking import MatchEvent, MatchTracking
from varroom.model.situation import touch_kind
from varroom.profiles import Profile, ifab

REORDER_FRAMES = 2  # frames held back to put a frame that comes out of order in its place
WINDOW_S = 8.0  # frames kept: a restart is told from DEAD_S + STILL_WINDOW_S before a touch
EVENTS_KEPT_S = 5.0  # unclaimed events kept behind the newest frame
BALL_OUT_MARGIN_FRAMES = 5  # the ball-out scan starts this far before the frames it decides

Key = tuple[int, float]  # (period, t_s): stream order


@dataclass(frozen=True, slots=True)
class Alert:
    """An offside offence, the moment the follower could decide it."""

    incident: Incident  # as the audit gives it: the situation and the verdict
    involved_t_s: float  # when the offender became involved
    detected_after_s: float  # stream time from then to the item after which it was decided
    compute_ms: float  # wall time spent on the frame that decided it

    def upload(self, header: Header) -> dict[str, Any]:
        """The alert's situation in the situation format, with what the room shows of it."""
        incident = self.incident
        situation = situation_to_dict(incident.situation)
        meta = situation["meta"]
        meta["match"] = header.match
        meta["minute"] = clock(incident.period, incident.t_s)
        meta["source"] = "live (tracking)"
        meta["chain_confidence"] = round(incident.chain_confidence, 3)
        return situation

    def said(self) -> str:
        """The alert in a line, as `varroom live` prints it."""
        incident = self.incident
        verdict = incident.verdict
        margin = "" if verdict.margin_m is None else f", {verdict.margin_m:.2f} m beyond"
        return (
            f"{clock(incident.period, self.involved_t_s)} offside: {verdict.offender}{margin}"
            f" (decided {self.detected_after_s:.2f} s after he became involved)"
        )

    def to_dict(self, situation: dict[str, Any]) -> dict[str, Any]:
        """The alert line of the frame stream's spec; `situation` is the incident's
        situation in the situation format (`upload`)."""
        verdict = self.incident.verdict
        return {
            "kind": "alert",
            "decision": "offside",
            "period": self.incident.period,
            "t": round(self.involved_t_s, 3),
            "offender": verdict.offender,
            "margin_m": None if verdict.margin_m is None else round(verdict.margin_m, 4),
            "probability": None if verdict.uncertainty is None else verdict.uncertainty.probability,
            "detected_after_s": round(self.detected_after_s, 3),
            "compute_ms": round(self.compute_ms, 2),
            "judged_t": round(self.incident.t_s, 3),
            "passer": self.incident.passer,
            "situation": situation,
        }


@dataclass
class Counts:
    """What the follower did with what came."""

    frames: int = 0  # frames taken into the window
    duplicates: int = 0  # a frame whose time was already taken: dropped
    late: int = 0  # a frame older than the window's newest beyond reordering: dropped
    events: int = 0
    moments: int = 0
    judged: int = 0  # pairs the engine judged, as the audit's phases_judged counts them
    undecidable: int = 0
    alerts: int = 0


class LiveFollower:
    """Follows one frame stream (module docstring): `frame`, `event`, `end`, each giving the
    alerts it decided."""

    def __init__(self, header: Header, profile: Profile | None = None) -> None:
        self.header = header
        # How the Laws are applied: the Laws as written (`ifab`) unless given.
        self.profile = profile or ifab()
        self.counts = Counts()
        fps = header.fps
        self._fit = window_frames(fps)
        # Frames after a step that its answer depends on (moments.peak_steps).
        self._ahead = plateau_frames(self._fit) + self._fit + 1
        # Frames before a touch that its moment depends on: the restart's dead time.
        self._behind = math.ceil((DEAD_S + STILL_WINDOW_S) * fps) + self._fit + 2
        self._window = Window(
            max(round(WINDOW_S * fps), 2 * (self._behind + self._ahead)), len(header.players)
        )
        self._template = Template(header)
        self._reorder: list[tuple[Key, int, Frame]] = []
        self._arrived = 0
        self._released: Key | None = None  # the newest frame taken into the window
        # The newest time the stream has reached: events come in time order, so every event
        # before it has come.
        self._stream: Key = (0, -math.inf)
        self._seen_before_s: float | None = None
        self._broken = 0
        self._next_step = 0  # the first step not yet examined
        self._last_peak: int | None = None
        self._pending: list[int] = []  # touch steps waiting for their events
        # What the last look at waiting touches saw unsettled: the stream's time, the
        # touches waiting and the events come by then (nothing new: nothing to look at).
        self._waiting: tuple[Key, int, int] | None = None
        self._events: list[tuple[int, MatchEvent]] = []
        self._event_id = 0
        self._before: Before | None = None
        self._last_broken = 0  # breaks of play counted at the last moment's frame
        self._last_frame: int | None = None  # the last moment's frame
        self._stoppages: list[MatchEvent] = []  # recent events that stop play (ball-outs)
        self._missed: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)  # ball-outs played on
        self._missed_first = 0  # the frame `_missed` starts at
        self._last_period = 0
        self._chains = Chains()
        self._rows: dict[int, _Row] = {}  # the open chain's moments
        self._over = False  # the open chain ended in an offence
        self._moment_id = 0
        self._started = 0.0
        self._laws = LiveLaws(self._window, self._template, self.profile)

    # -- what comes in ---------------------------------------------------------------------

    def frame(self, frame: Frame) -> list[Alert | LawAlert]:
        self._started = time.perf_counter()
        key = (frame.period, frame.t_s)
        if self._released is not None and key <= self._released:
            if key == self._released:
                self.counts.duplicates += 1
            else:
                self.counts.late += 1
            return []
        if any(held == key for held, _, _ in self._reorder):
            self.counts.duplicates += 1
            return []
        self._arrived += 1
        self._stream = max(self._stream, key)
        heapq.heappush(self._reorder, (key, self._arrived, frame))
        alerts: list[Alert | LawAlert] = []
        while len(self._reorder) > REORDER_FRAMES:
            alerts += self._take(heapq.heappop(self._reorder)[2])
        if self._pending and self.header.events:
            # The stream's time moved on: the events a waiting touch waits for may be in.
            alerts += self._decide(at_end=False)
        return alerts

    def event(self, event: MatchEvent) -> None:
        self.counts.events += 1
        if event.kind in STOPPAGES:
            self._stoppages.append(event)
        self._stream = max(self._stream, (event.period, event.t_s))
        self._events.append((self._event_id, event))
        self._event_id += 1

    def end(self) -> list[Alert | LawAlert]:
        """The stream is over: every frame held is taken, and every touch and law decided."""
        self._started = time.perf_counter()
        alerts: list[Alert | LawAlert] = []
        while self._reorder:
            alerts += self._take(heapq.heappop(self._reorder)[2])
        if self._window.n:
            self._examine(self._window.last, at_end=True)
            alerts += self._decide(at_end=True)
        return alerts + self._laws.end(tuple(self._stoppages), self._started)

    def feed(self, item: Frame | MatchEvent | End | Header) -> list[Alert | LawAlert]:
        """Any item of the stream (a repeated header changes nothing)."""
        if isinstance(item, Frame):
            return self.frame(item)
        if isinstance(item, MatchEvent):
            self.event(item)
        elif isinstance(item, End):
            return self.end()
        return []

    def held(self) -> int:
        """Frames, events and moments held now: bounded, however long the match."""
        return (
            self._window.n
            + len(self._reorder)
            + len(self._events)
            + len(self._stoppages)
            + len(self._rows)
            + self._laws.held()
        )

    # -- frames, steps, touches ------------------------------------------------------------

    def _take(self, frame: Frame) -> list[Alert | LawAlert]:
        self._released = (frame.period, frame.t_s)
        breaks = stretch_breaks(
            np.array([frame.t_s]), frame.ball_m[None, :], self.header.pitch, self._seen_before_s
        )
        if not np.isnan(frame.ball_m[:2]).any():
            self._seen_before_s = frame.t_s
        self._broken += int(breaks[0])
        self._window.append(frame, self._broken)
        self.counts.frames += 1
        self._examine(self._window.last - self._ahead + 1)
        alerts: list[Alert | LawAlert] = []
        alerts += self._decide(at_end=False)
        return alerts + self._laws.frame(
            frame, self._stream, self._touched(), tuple(self._stoppages), self._started
        )

    def _touched(self) -> Key:
        """The time up to which every touch is a moment of play."""
        window = self._window
        step = self._pending[0] if self._pending else self._next_step
        if step < window.first or step > window.last:
            return (0, -math.inf)
        row = window.row(step)
        return int(window.period[row]), float(window.t_s[row])

    def _examine(self, last: int, at_end: bool = False) -> None:
        """Look for touches in the steps before step `last` (from frame `last` to the next)."""
        first = self._next_step
        if last <= first:
            return
        window = self._window
        lo = max(window.first, first - plateau_frames(self._fit) - self._fit)
        hi = window.last if at_end else min(window.last, last + self._ahead - 1)
        peaks = peak_steps(self._template.match(window, lo, hi + 1)) + lo
        peaks = peaks[(peaks >= first) & (peaks < last)]
        touches = one_per_plateau(peaks, self._fit, self._last_peak)
        if len(peaks):
            self._last_peak = int(peaks[-1])
        self._pending += touches.tolist()
        self._next_step = last

    def _decide(self, at_end: bool) -> list[Alert]:
        """Moments of play from the touches no event still to come can change; alerts from
        them."""
        if not self._pending:
            self._forget_events()
            return []
        waiting = (self._stream, len(self._pending), self._event_id)
        if not at_end and waiting == self._waiting:
            return []  # nothing came that could settle a waiting touch
        window = self._window
        steps = self._pending
        lo = max(window.first, steps[0] - self._behind)
        events = self._events_near(steps[0], steps[-1])
        match = self._template.match(window, lo, window.last + 1, tuple(e for _, e in events))
        moments = moments_at(
            match, np.array(steps, dtype=np.intp) - lo, self.profile.law, self._before
        )
        if self.header.events and not at_end:
            ready = self._settled(match, moments, lo)
            if ready < len(steps):
                self._waiting = waiting
                if not ready:
                    self._forget_events()
                    return []
                # The settled touches alone: the moments of a prefix are the prefix's moments
                # (`moments_at` gives each its event in order).
                kept = int(np.searchsorted(moments.frame, steps[ready] - lo))
                moments = moments.take(range(kept))
                steps = steps[:ready]
        self._pending = self._pending[len(steps) :]
        self._waiting = None
        _, unseen = tracking_of(match, self.profile.noise)
        screened = screen(
            match, moments, self.profile.law, out_of_picture=unseen is Unseen.OUT_OF_PICTURE
        )
        self._scan_ball_outs(lo)
        alerts = []
        for j in range(len(moments)):
            claimed = int(moments.event_index[j])
            if claimed >= 0:
                self._events = [item for item in self._events if item[0] != events[claimed][0]]
            alert = self._moment(match, moments, screened, j, lo)
            if alert is not None:
                alerts.append(alert)
        self._forget_events()
        return alerts

    def _settled(self, match: MatchTracking, moments: Moments, lo: int) -> int:
        """How many of the waiting touches, from the first, no event still to come can change
        (`moments.events_final_after_s`; events come in time order, so every event before
        the stream's time is in)."""
        final_s = events_final_after_s(match, moments)
        for j in range(len(moments)):
            if (int(moments.period[j]), float(final_s[j])) >= self._stream:
                # The touches before this moment's: those with no moment need no event.
                return self._pending.index(int(moments.frame[j]) + lo)
        return len(self._pending)

    def _moment(
        self, match: MatchTracking, moments: Moments, screened: Screen, j: int, lo: int
    ) -> Alert | None:
        self.counts.moments += 1
        self._laws.moment(match, moments, j, int(moments.frame[j]) + lo)
        period = int(moments.period[j])
        broken = int(self._window.broken[self._window.row(int(moments.frame[j]) + lo)])
        kind = touch_kind(moments.actions[j])
        player = int(moments.player[j])
        team = self._template.teams[player]
        frame = int(moments.frame[j]) + lo
        new_stretch = (
            self._before is None
            or period != self._last_period
            or broken > self._last_broken
            or self._ball_out_since(frame)
            or kind in RESTARTS
        )
        self._before = Before(period, float(moments.t_s[j]), moments.ball_m[j, :2].copy())
        self._last_period, self._last_broken, self._last_frame = period, broken, frame
        moment = self._moment_id
        self._moment_id += 1
        if self._chains.add(moment, period, team, player, new_stretch, kind) is not None:
            self._rows = {}
            self._over = False
        self._rows[moment] = _Row(moments, j, screened.margin_m[j].copy())
        chain = self._chains.moments
        self._rows = {m: self._rows[m] for m in chain}
        if self._over:
            return None
        teams = [self._template.teams[p] for p in self._chains.players]
        judged = judged_position(self._chains.players, teams, self._chains.team)
        if judged is None:
            return None
        if not offside_position(self._rows[chain[judged]].margin_m[player]):
            return None
        incident = self._judge(match, chain[judged:])
        self.counts.judged += 1
        if incident.status is Status.UNDECIDABLE:
            self.counts.undecidable += 1
        if incident.status is not Status.OFFENCE:
            return None
        self._over = True
        self.counts.alerts += 1
        involved_t_s = float(moments.t_s[j])
        now = self._stream
        after = now[1] - involved_t_s if now[0] == period else math.inf
        return Alert(incident, involved_t_s, after, 1000 * (time.perf_counter() - self._started))

    def _judge(self, match: MatchTracking, chosen: list[int]) -> Incident:
        """The audit's incident for the pair from `chosen[0]` (the team-mate's play) to
        `chosen[-1]` (the attacker's touch)."""
        rows = [self._rows[m] for m in chosen]
        moments = _stack(rows)
        tracking, unseen = tracking_of(match, self.profile.noise)
        phase = Phase(self._chains.period, self._chains.team, tuple(range(len(rows))))
        builder = Situations(match, moments, tracking, self.profile)
        return builder.incident(phase, Pair(0, 0, len(rows) - 1), unseen)

    def _scan_ball_outs(self, lo: int) -> None:
        """The ball-outs play went on after (`audit.ball_out`), over the window's frames from
        the last moment on: they end a stretch of play as in the audit."""
        window = self._window
        first = lo if self._last_frame is None else min(lo, self._last_frame)
        first = max(window.first, first - BALL_OUT_MARGIN_FRAMES)
        recent = tuple(self._stoppages)
        scan = scan_ball_out(
            self._template.match(window, first, window.last + 1, recent), self.profile
        )
        self._missed = np.zeros(window.last + 1 - first, dtype=bool)
        self._missed_first = first
        # The scan's frames count from `first`, as the window's match it scanned does.
        missed_ball_outs(self._missed, scan)

    def _ball_out_since(self, frame: int) -> bool:
        """Whether a ball-out play went on after lies in the frames after the last moment's
        up to `frame`."""
        if self._last_frame is None:
            return False
        start = max(self._last_frame + 1 - self._missed_first, 0)
        return bool(self._missed[start : frame + 1 - self._missed_first].any())

    # -- events ----------------------------------------------------------------------------

    def _events_near(self, first_step: int, last_step: int) -> list[tuple[int, MatchEvent]]:
        """Unclaimed events that may name a touch at these steps, in stream order."""
        window = self._window
        start = (
            int(window.period[window.row(first_step)]),
            float(window.t_s[window.row(first_step)]) - 2 * EVENT_WINDOW_S,
        )
        row = window.row(last_step + 1)
        stop = (int(window.period[row]), float(window.t_s[row]) + 2 * EVENT_WINDOW_S)
        return [item for item in self._events if start <= (item[1].period, item[1].t_s) <= stop]

    def _forget_events(self) -> None:
        """Events too old to name any touch still to come."""
        if self._released is None or not self._events:
            return
        oldest = self._pending[0] if self._pending else self._next_step
        row = self._window.row(max(oldest, self._window.first))
        horizon = min(
            (int(self._window.period[row]), float(self._window.t_s[row]) - EVENTS_KEPT_S),
            (self._released[0], self._released[1] - EVENTS_KEPT_S),
        )
        self._events = [item for item in self._events if (item[1].period, item[1].t_s) >= horizon]
        # Stoppages are few: kept over the whole window, where a goal's play is looked back
        # on for a ball-out before it (`ball_lines.out_before`).
        first = (int(self._window.period[0]), float(self._window.t_s[0]))
        self._stoppages = [e for e in self._stoppages if (e.period, e.t_s) >= min(horizon, first)]


@dataclass(frozen=True, eq=False, slots=True)
class _Row:
    """One moment of the open chain: row `index` of a batch of moments, and its screen."""

    moments: Moments
    index: int
    margin_m: npt.NDArray[np.float64]


def _stack(rows: list[_Row]) -> Moments:
    """The moments of `rows` as one `Moments`, in order."""
    return concat_moments([row.moments.take([row.index]) for row in rows])
