"""Penalty kicks and the ball over the line, followed live: the audit's own steps
(`varroom.audit.ball_out`, `ball_lines`, `penalties`) on the follower's window, each
incident alerted the moment nothing still to come can change it.

- **The ball over a line.** A frame with the ball within `NEAR_LINE_M` of a line opens a
  stretch; the window's ball-out scan (`scan_ball_out`) decides its runs. A goal-line moment
  is decided once a frame after it shows the ball away from the goal line (the audit judges
  it on its frames and one either side); a ball-out once the ball has been back on the field
  for the scan's `RESUME_S` with no stoppage among the events (events come in time order),
  or once it has been out longer than that (not a missed ball-out). Alerts: every missed
  ball-out and every goal-line moment, as the audit lists them.
- **Penalty kicks.** A moment of play named by a penalty-kick event, or a restart on the mark
  by the audit's tracking rules (`penalties.kicks_from_tracking`), is a kick. What became of
  it is read from the `penalties.RESULT_S` after it (a goal, the ball over the goal line, the
  goalkeeper's save): it is judged (`penalties.penalty_incident`) once the frames, the next
  moment of play and the goal-line moments of that time are in.

The window holds `WINDOW_S` seconds: a stretch still open when its first frames are about to
leave it is decided on what the window holds (a ball sitting on a line that long).
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from varroom.audit.ball_lines import (
    BallLineIncident,
    BallLineWhat,
    goal_line_incident,
    missed_incident,
)
from varroom.audit.ball_out import BallOut, scan_ball_out
from varroom.audit.model import clock
from varroom.audit.moments import MAX_STEP_FRAMES, Moments, concat_moments
from varroom.audit.penalties import (
    RESULT_S,
    PenaltyIncident,
    kicks_from_tracking,
    match_players,
    penalty_incident,
)
from varroom.audit.tracking import tracking_of
from varroom.engine.ball_line_path import past_lines_m
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.live.stream import Frame, Header
from varroom.live.window import Template, Window
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking
from varroom.model.ball_line import BallLineDecision
from varroom.model.measures import BALL_RADIUS_M
from varroom.profiles import Profile

NEAR_LINE_M = 3.0  # nearer a line than this the ball may be out between two frames
RESUME_S = 2.0  # `scan_ball_out`'s: back on the field this soon, no stoppage: played on
EDGE_FRAMES = 2  # a run's last frame is known with two frames after it (the path's peaks)

Key = tuple[int, float]  # (period, t_s): stream order


@dataclass(frozen=True, slots=True)
class LawAlert:
    """A penalty kick or the ball over a line, the moment the follower could decide it."""

    incident: PenaltyIncident | BallLineIncident  # as the audit gives it
    detected_after_s: float  # stream time from the incident's t_s to its decision
    compute_ms: float  # wall time spent on the frame that decided it

    @property
    def decision(self) -> str:
        """`penalty`, `ball_out` (a missed ball-out) or `goal_line`."""
        return self.incident.alert_decision

    def upload(self, header: Header) -> dict[str, Any]:
        """The kick or the ball line in its own format, as the review room queues it."""
        return self.incident.case_file()

    def said(self) -> str:
        """The alert in a line, as `varroom live` prints it."""
        incident = self.incident
        return (
            f"{clock(incident.period, incident.t_s)} {incident.said()} "
            f"(decided {self.detected_after_s:.2f} s after)"
        )

    def to_dict(self, case: dict[str, Any]) -> dict[str, Any]:
        """The alert line of the frame stream (docs/formats/frames.md); `case` is the kick or
        the ball line in its own format (the incident's `case_file`)."""
        incident = self.incident
        return {
            "kind": "alert",
            "decision": self.decision,
            "period": incident.period,
            "t": round(incident.t_s, 3),
            "detected_after_s": round(self.detected_after_s, 3),
            "compute_ms": round(self.compute_ms, 2),
        } | incident.alert_fields(case)


@dataclass
class _Kick:
    """A penalty kick waiting for what became of it."""

    moments: Moments  # its moment, then the next of its period once found
    by_event: bool
    frame: int  # the window's frame before the kick

    @property
    def key(self) -> Key:
        return int(self.moments.period[0]), float(self.moments.t_s[0])


class LiveLaws:
    """Penalty kicks and ball-line moments of one followed match (module docstring). The
    follower tells it each frame taken into `window` and each moment of play."""

    def __init__(self, window: Window, template: Template, profile: Profile) -> None:
        self._window = window
        self._template = template
        self._profile = profile
        empty = template.match(window, 0, 0)
        self._tracking, _ = tracking_of(empty, profile.noise)
        self._players = {p.id: p for p in match_players(empty)}
        self._lines_from: int | None = None  # the first frame of an undecided stretch
        self._near: Key = (0, -math.inf)  # the last frame with the ball near a line
        self._goals: list[tuple[int, BallLineVerdict]] = []  # decided goals, recent
        self._kicks: list[_Kick] = []
        self._open = False  # a run of the stretch is still open

    def held(self) -> int:
        return len(self._goals) + len(self._kicks)

    def _stretch_from(self) -> Key | None:
        """The time of the open ball-line stretch's first frame; None when none is open."""
        if self._lines_from is None:
            return None
        row = self._window.row(self._lines_from)
        return int(self._window.period[row]), float(self._window.t_s[row])

    def moment(self, match: MatchTracking, moments: Moments, j: int, frame: int) -> None:
        """Moment `j` of `moments` (in `match`, the window's frames) at the window's `frame`."""
        row = moments.take([j])
        event = int(moments.event_index[j])
        by_event = event >= 0 and match.events[event].kind is EventKind.PENALTY_KICK
        for kick in self._kicks:
            if len(kick.moments) == 1 and kick.key[0] == int(row.period[0]):
                kick.moments = concat_moments([kick.moments, row])
        if by_event or kicks_from_tracking(match, row):
            self._kicks.append(_Kick(row, by_event, frame))

    def frame(
        self,
        frame: Frame,
        stream: Key,
        touched: Key,
        events: tuple[MatchEvent, ...],
        started: float,
    ) -> list[LawAlert]:
        """The frame just taken into the window; `stream`: the stream's time (every event
        before it is in), `touched`: the time up to which every touch is a moment of play;
        `events`: the recent stoppages."""
        window = self._window
        key = (frame.period, frame.t_s)
        past = past_lines_m(frame.ball_m[None, :], self._template.header.pitch, BALL_RADIUS_M)
        near = np.nan_to_num(past, nan=-np.inf).max() > -NEAR_LINE_M
        if near or self._after_gap():
            self._near = key
            if self._lines_from is None:
                # From the frame before: the path between them may peak over a line.
                self._lines_from = max(window.first, window.last - 1)
        alerts: list[LawAlert] = []
        if self._lines_from is not None:
            leaving = self._leaving(self._lines_from)
            closing = self._near < key and (self._near[0], self._near[1] + RESUME_S) < stream
            # Every frame: a run is alerted on the frame that decides it.
            alerts += self._decide_lines(stream, events, started, force=leaving)
            if closing and self._lines_from is not None and not self._open:
                self._lines_from = None
        alerts += self._decide_kicks(key, stream, touched, events, started, at_end=False)
        return alerts

    def end(self, events: tuple[MatchEvent, ...], started: float) -> list[LawAlert]:
        """The stream is over: everything open is decided on what came."""
        if not self._window.n:
            return []
        done: Key = (2**31, math.inf)
        alerts = []
        if self._lines_from is not None:
            alerts += self._decide_lines(done, events, started, force=True)
        return alerts + self._decide_kicks(done, done, done, events, started, at_end=True)

    def _after_gap(self) -> bool:
        """Whether frames are missing before the newest: the path the audit fits over the
        gap between them may peak anywhere, over a line too."""
        window = self._window
        if window.n < 2:
            return False
        last = window.n - 1
        step_s = float(window.t_s[last] - window.t_s[last - 1])
        return bool(step_s * self._template.header.fps > MAX_STEP_FRAMES)

    def _leaving(self, frame: int) -> bool:
        """Whether the window's next frame pushes out frames the incident from `frame` needs
        (the window drops its oldest frames in bulk when full)."""
        window = self._window
        if window.n < len(window.t_s):
            return False
        return frame - EDGE_FRAMES - 1 < window.first + window.n - window.keep

    # -- the ball over a line ---------------------------------------------------------------

    def _decide_lines(
        self, stream: Key, events: tuple[MatchEvent, ...], started: float, force: bool
    ) -> list[LawAlert]:
        """The runs of the open stretch that nothing to come can change (all of them when
        `force`d: at the end, or its first frames leaving the window), as alerts; the
        stretch then starts at the first run still open (`_open` says whether one is)."""
        window = self._window
        assert self._lines_from is not None
        first = window.first
        match = self._template.match(window, first, window.last + 1, events)
        scan = scan_ball_out(match, self._profile, BALL_RADIUS_M, resume_s=RESUME_S)
        start = self._lines_from - first
        last = window.n - 1
        known = last if force else last - EDGE_FRAMES  # the last frame whose run is known
        open_at = known + 1  # the first frame of a run still open
        decided: list[tuple[int, BallLineIncident]] = []
        for out in scan.ball_outs:
            if out.start_frame < start:
                continue
            if not (force or self._out_decided(match, out, known, stream)):
                open_at = min(open_at, out.start_frame)
            elif out.played_on:
                decided.append((out.start_frame, missed_incident(match, out, self._profile)))
        for moment in scan.goal_line:
            if moment.start_frame < start:
                continue
            if not force and moment.end_frame + 1 > known:
                open_at = min(open_at, moment.start_frame)
            else:
                decided.append((moment.start_frame, goal_line_incident(match, scan, moment)))
        alerts = []
        for frame, incident in sorted(decided, key=lambda d: (d[1].period, d[1].t_s)):
            if frame >= open_at:
                continue  # after a run still open: taken when that one is
            verdict = incident.verdict
            if (
                incident.what is BallLineWhat.GOAL_LINE
                and verdict.decision is BallLineDecision.GOAL
            ):
                self._goals.append((incident.period, verdict))
            shifted = dataclasses.replace(
                incident,
                start_frame=incident.start_frame + first,
                end_frame=incident.end_frame + first,
            )
            alerts.append(_alert(shifted, stream, started))
        self._open = open_at <= known
        self._lines_from = None if force else first + max(open_at, start)
        oldest = (int(window.period[0]), float(window.t_s[0]) - RESULT_S)
        self._goals = [g for g in self._goals if (g[0], g[1].peak_t_s) >= oldest]
        return alerts

    @staticmethod
    def _out_decided(match: MatchTracking, out: BallOut, known: int, stream: Key) -> bool:
        """Whether a ball-out's run and whether play went on after it are final."""
        if out.end_frame + 1 > known:
            return False
        if out.back_in_s is None:  # not back yet: out longer than RESUME_S is never missed
            return (out.period, out.t_s + RESUME_S) < (
                int(match.period[known]),
                float(match.t_s[known]),
            )
        # A stoppage recorded up to RESUME_S after the ball came back stops it.
        return (out.period, out.t_s + out.back_in_s + RESUME_S) < stream

    # -- penalty kicks ------------------------------------------------------------------------

    def _decide_kicks(
        self,
        framed: Key,
        stream: Key,
        touched: Key,
        events: tuple[MatchEvent, ...],
        started: float,
        at_end: bool,
    ) -> list[LawAlert]:
        alerts = []
        window = self._window
        lines = self._stretch_from()
        waiting = []
        for kick in self._kicks:
            period, t_s = kick.key
            until = (period, t_s + RESULT_S)
            ready = at_end or (
                until < framed
                and (len(kick.moments) > 1 or until < touched)
                and (lines is None or until < lines)
            )
            leaving = self._leaving(kick.frame)
            if not (ready or leaving):
                waiting.append(kick)
                continue
            lo = max(window.first, kick.frame - EDGE_FRAMES)
            match = self._template.match(window, lo, window.last + 1, events)
            incident = penalty_incident(
                match,
                kick.moments,
                0,
                kick.by_event,
                self._players,
                self._tracking,
                self._goals,
                self._profile,
            )
            alerts.append(_alert(incident, stream, started))
        self._kicks = waiting
        return alerts


def _alert(incident: PenaltyIncident | BallLineIncident, stream: Key, started: float) -> LawAlert:
    after = stream[1] - incident.t_s if stream[0] == incident.period else math.inf
    return LawAlert(incident, after, 1000 * (time.perf_counter() - started))
