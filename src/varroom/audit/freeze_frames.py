"""StatsBomb 360 freeze frames as situations: every pass judged at the moment it was played.

A freeze frame shows where the players in the broadcast camera's view stood when an event
happened; only the player on the ball is named. Each pass with a frame becomes a situation
of one or two touches: the pass (or the restart it was), then, when a team-mate played the
ball (the pass was complete, or stopped for offside), his touch at the pass's end. StatsBomb
names that team-mate but not his place in the frame (`_FramedMatch._judged` says how he is
placed). An `Offside` event (offside called on no pass: after a shot, a rebound) is judged at
the latest play of a team-mate before it, the offender being the team-mate nearest the spot
of the offence.

The situation says what the camera saw (format 1.1: the pass's `view`, `team_sizes`), and
the audit's verdict is the engine's on exactly that situation: the engine weighs the
opponents out of view (`varroom.engine.unseen`), so `varroom check` on the written situation
gives the audit's verdict.

The camera's view and the passes' ends and outcomes are StatsBomb's facts about the frames,
which `load_match` reads with the match (`MatchTracking.statsbomb_facts`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from varroom.audit.calls import audit_with_calls
from varroom.audit.model import Audit, Incident, IncidentSource, Progress, clock
from varroom.engine.judge import judge
from varroom.engine.unseen import STRIDE_M, TOP_SPEED_MPS
from varroom.engine.verdict import Status, Verdict
from varroom.formats.situation_json import situation_from_dict
from varroom.law.position import ball_depth_m, offside_line_depth_m, offside_margin_m
from varroom.law.restarts import no_offence_from
from varroom.match.statsbomb_facts import StatsBombFacts
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking
from varroom.model.noise import TrackingSource
from varroom.model.situation import FULL_TEAM, Action, Situation
from varroom.profiles import Profile

# How far a freeze frame's moment may be from the kick's (the event's logged timestamp).
FRAME_TIMING_SD_S = 0.1
# Velocities come from the next freeze frame when it follows within this window (s): sooner,
# the estimated spots' error dominates the run; later, the run is no longer straight.
NEXT_FRAME_S = (0.5, 3.0)
# A player is matched to one of his team in the next frame within his run plus this (m).
NEXT_FRAME_SLACK_M = 1.0
# An offside call follows the play it punishes within seconds (`match_calls` allows 8 s).
OFFSIDE_LOOKBACK_S = 10.0

_ACTION_OF_KIND: dict[EventKind, Action] = {
    EventKind.PASS: Action.PASS,
    EventKind.SHOT: Action.SHOT,
    EventKind.CLEARANCE: Action.CLEARANCE,
    EventKind.CORNER_KICK: Action.CORNER_KICK,
    EventKind.THROW_IN: Action.THROW_IN,
    EventKind.GOAL_KICK: Action.GOAL_KICK,
    EventKind.FREE_KICK: Action.FREE_KICK,
    EventKind.KICK_OFF: Action.KICK_OFF,
    EventKind.PENALTY_KICK: Action.PENALTY_KICK,
}
# kloppy names a corner or a throw-in as the restart; StatsBomb's own type says it was a pass.
_PASS_TYPE = "Pass"


def audit_freeze_frames(match: MatchTracking, progress: Progress, profile: Profile) -> Audit:
    """Judge every pass with a freeze frame, and the play before each `Offside` event, and
    pair the offences with the officials' calls, as `profile` applies the Laws."""
    framed = _FramedMatch(match, profile)
    plays = framed.plays()
    incidents: list[Incident] = []
    undecidable: list[Incident] = []
    for done, (index, target) in enumerate(plays.items()):
        event = match.events[index]
        progress(done, len(plays), f"{event.raw_type} {clock(event.period, event.t_s)}")
        phase = framed.phase(index, target)
        if phase.incident.status is Status.OFFENCE:
            incidents.append(phase.incident)
        elif phase.offence_possible:
            undecidable.append(phase.incident)
    progress(len(plays), len(plays), "done")
    return audit_with_calls(
        match,
        incidents,
        undecidable,
        phases_judged=len(plays),
        notes=(
            "Positions are StatsBomb 360 freeze frames: estimated from the broadcast picture, "
            "at the pass only, and only of the players in the camera's view.",
            "A pass can be an offence when a team-mate played it (complete, or stopped for "
            "offside); he is taken to be the team-mate nearest the pass's end.",
        ),
        profile=profile,
    )


def every_play(match: MatchTracking, profile: Profile) -> Iterator[Incident]:
    """Every play the audit judges (each pass with a frame, and the play before each
    `Offside` event), whatever the verdict, in time order."""
    framed = _FramedMatch(match, profile)
    for index, target in framed.plays().items():
        yield framed.phase(index, target).incident


def call_phases(match: MatchTracking, audit: Audit) -> tuple[Incident | None, ...]:
    """The engine's verdict, whatever it is, on the play each official call refers to
    (None where no play with a freeze frame precedes the call), under the audit's profile."""
    framed = _FramedMatch(match, audit.profile)
    plays = framed.plays()
    phases: list[Incident | None] = []
    for call in audit.official_calls:
        play = None if call.event_index is None else framed.play_of_call(call.event_index)
        phases.append(None if play is None else framed.phase(play, plays[play]).incident)
    return tuple(phases)


# -- one play as a situation ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Target:
    """Who played the ball after the play, where and when (player None: nobody known)."""

    player: str | None
    at_m: tuple[float, float] | None
    t_s: float


@dataclass(frozen=True, slots=True)
class _Phase:
    incident: Incident
    offence_possible: bool  # undecidable, but an offence could have been committed


class _FramedMatch:
    """A match of freeze frames with StatsBomb's facts about it, and what judging its plays
    looks up: team names, players' columns, the plays an official call refers to."""

    def __init__(self, match: MatchTracking, profile: Profile) -> None:
        if match.statsbomb_facts is None and len(match.t_s):
            # Only StatsBomb's files give freeze frames, and load_match reads their facts
            # with them: a match made otherwise must be given its facts.
            raise ValueError("freeze frames are judged with StatsBomb's facts about them")
        self.match = match
        # A match without frames (events alone) has no play to judge: no facts are needed.
        self.facts = match.statsbomb_facts or StatsBombFacts({}, {})
        self.profile = profile
        self.team_name = {team.id: team.name for team in match.teams}
        self.column_of = {str(pid): column for column, pid in enumerate(match.player_ids)}
        self.called = {
            self.play_of_call(index)
            for index, event in enumerate(match.events)
            if event.offside_call
        }

    # -- which plays --------------------------------------------------------------------------

    def plays(self) -> dict[int, _Target]:
        """Every pass with a freeze frame and the play before each `Offside` event, by event
        index in time order, with who played the ball next."""
        offences = {
            play: _Target(event.player, self._location(event), event.t_s)
            for index, event in enumerate(self.match.events)
            if event.kind is EventKind.OFFSIDE and (play := self.play_of_call(index)) is not None
        }
        return {
            index: offences.get(index) or self._receiver(event)
            for index, event in enumerate(self.match.events)
            if index in offences or (event.frame is not None and event.raw_type == _PASS_TYPE)
        }

    def play_of_call(self, index: int) -> int | None:
        """The play an official call refers to: the pass itself, or for an `Offside` event the
        latest play by a team-mate of the offender, with a freeze frame, shortly before."""
        event = self.match.events[index]
        if event.kind is not EventKind.OFFSIDE:
            return index if event.frame is not None else None
        for earlier in range(index - 1, -1, -1):
            play = self.match.events[earlier]
            if play.period != event.period or event.t_s - play.t_s > OFFSIDE_LOOKBACK_S:
                return None
            if (
                play.team == event.team
                and play.player != event.player
                and play.frame is not None
                and play.kind in _ACTION_OF_KIND
            ):
                return earlier
        return None

    def _receiver(self, event: MatchEvent) -> _Target:
        facts = self.facts.event(event)
        if facts is None or not facts.reached or event.receiver is None:
            return _Target(None, None, event.t_s)
        return _Target(event.receiver, facts.end_m, event.t_s + facts.duration_s)

    def _location(self, event: MatchEvent) -> tuple[float, float] | None:
        if event.frame is not None:  # a frame's ball is its event's location
            x_m, y_m, _ = self.match.ball_m[event.frame]
            return float(x_m), float(y_m)
        facts = self.facts.event(event)
        return None if facts is None else facts.location_m

    # -- one play ---------------------------------------------------------------------------

    def phase(self, index: int, target: _Target) -> _Phase:
        """The play judged as its situation says: the audit's verdict is the engine's on
        exactly the situation it writes, so `varroom check` on that file gives it too."""
        event = self.match.events[index]
        assert event.frame is not None and event.team is not None and event.player is not None
        in_view = np.flatnonzero(~np.isnan(self.match.players_m[event.frame, :, 0])).tolist()
        situation, verdict = self._judged(index, target, in_view)
        incident = Incident(
            period=event.period,
            t_s=event.t_s,
            team=event.team,
            situation=situation,
            verdict=verdict,
            source=IncidentSource.FREEZE_FRAME,
            event_index=index,
        )
        if incident.status is not Status.UNDECIDABLE:
            return _Phase(incident, False)
        judgement = verdict.judgement
        judged = (
            None if judgement is None else judgement.attackers.get(verdict.nearest_attacker or "")
        )
        # Out of view at the play: placed where he played the ball, as a player offside at
        # the play receives it in the opponents' half, but for a rare run back.
        x_m = (
            judged.reach.x_m
            if judged is not None
            else None
            if target.at_m is None
            else target.at_m[0]
        )
        return _Phase(incident, self._could_be_offside(situation, x_m))

    def _could_be_offside(self, situation: Situation, x_m: float | None) -> bool:
        """Whether the team-mate who played the ball next, his nearest point at `x_m` when
        the play was made, could have been offside whatever the unseen opponents: in the
        opponents' half, ahead of the ball, and not receiving a throw-in, goal kick or corner."""
        play = situation.touches[0]
        if x_m is None or no_offence_from(play.kind):
            return False
        direction = situation.attack_direction
        ball = ball_depth_m(play.ball_m[0], direction, self.profile.law)
        line = offside_line_depth_m(ball, -math.inf, self.profile.law)
        return bool(offside_margin_m(direction.sign * x_m, line) > 0)

    def _judged(self, index: int, target: _Target, in_view: list[int]) -> tuple[Situation, Verdict]:
        """The play's situation and verdict, with the receiver placed as the data allows.

        Named in the frame: himself. Otherwise, where the pass ended in the camera's view, the
        team-mate in view nearest its end who could have run there. Where it ended out of
        view, he may have been out of view at the play: that is judged first (the engine asks
        whether he could have stood out of view beyond the line), and only if he could not is
        he taken as the nearest team-mate in view who could have got there."""
        event = self.match.events[index]
        receiver = self._receiver_column(event, target, in_view)
        view = self.facts.view(event)
        ends_in_view = (
            target.at_m is not None
            and view is not None
            and view.covers(target.at_m, self.match.pitch)
        )
        own_in_view = self.column_of.get(target.player or "") in in_view
        if receiver is not None and (ends_in_view or own_in_view):
            situation = self.situation(index, target, in_view, receiver)
            return situation, judge(situation, self.profile.law, self.profile.policy)
        unseen = self.situation(index, target, in_view, None)
        verdict = judge(unseen, self.profile.law, self.profile.policy)
        if receiver is None or verdict.status is Status.UNDECIDABLE:
            return unseen, verdict
        situation = self.situation(index, target, in_view, receiver)
        return situation, judge(situation, self.profile.law, self.profile.policy)

    def _receiver_column(
        self, event: MatchEvent, target: _Target, in_view: list[int]
    ) -> int | None:
        """The receiver's column: his own when the frame names him, else the unnamed team-mate
        in view nearest where he played the ball, if he could have run there in the time the
        ball took. None when no team-mate in view could have: he was out of view at the play,
        and the engine judges where he could have stood (`unseen_attacker_could_be_offside`)."""
        if target.player is None or target.at_m is None:
            return None
        own = self.column_of.get(target.player)
        if own in in_view:
            return own
        unnamed = self._unnamed(in_view, event.team)
        nearest = None if not unnamed else self._nearest(event.frame, unnamed, target.at_m)
        took_s = max(0.0, target.t_s - event.t_s)
        if nearest is None or self._distance(event.frame, nearest, target.at_m) > (
            TOP_SPEED_MPS * took_s + STRIDE_M
        ):
            return None
        return nearest

    def situation(
        self, index: int, target: _Target, in_view: list[int], receiver: int | None
    ) -> Situation:
        """The play as a situation: the play, then the receiver's touch when he is known."""
        event = self.match.events[index]
        assert event.frame is not None and event.player is not None
        frame = event.frame
        names = self._names(event, in_view, receiver, target.player)
        unseen = None if receiver is not None else self.column_of.get(target.player or "")
        if unseen is not None and unseen not in names:
            names |= self._names(event, [unseen], None, None)
        ball_x, ball_y, _ = self.match.ball_m[frame]
        positions: dict[str, dict[str, Any]] = {
            names[c][0]: dict(_xy(self.match.players_m[frame, c])) for c in in_view
        }
        for column, v in self._velocities(index, in_view).items():
            positions[names[column][0]]["v"] = v
        if receiver is not None and target.at_m is not None:
            # His run from the play to the pass's end: the one speed the data gives, for the
            # timing part of the margin's uncertainty.
            took_s = target.t_s - event.t_s
            start = self.match.players_m[frame, receiver]
            v = [(target.at_m[k] - float(start[k])) / took_s for k in (0, 1)] if took_s > 0 else []
            if v and math.hypot(*v) <= TOP_SPEED_MPS:
                positions[names[receiver][0]]["v"] = v
        touches: list[dict[str, Any]] = [
            {
                "t": event.t_s,
                "player": names[self.column_of[event.player]][0],
                "action": _ACTION_OF_KIND.get(event.kind, Action.PASS).value,
                "ball": [float(ball_x), float(ball_y)],
                "positions": positions,
                "view": {"area": [list(corner) for corner in self._area(event)]},
            }
        ]
        played_by = receiver if receiver is not None else unseen
        if played_by is not None and target.at_m is not None:
            x_m, y_m = target.at_m
            touches.append(
                {
                    "t": max(target.t_s, event.t_s),
                    "player": names[played_by][0],
                    "action": Action.RECEIVE.value,
                    "ball": [x_m, y_m],
                    # The frame holds the moment of the play: only the receiver is known later,
                    # at the pass's end, and nobody else is seen then.
                    "positions": {names[played_by][0]: {"x": x_m, "y": y_m}},
                    "view": {"area": _around(x_m, y_m)},
                }
            )
        where = f"{event.raw_type} at {clock(event.period, event.t_s)} (freeze frame {frame})"
        return situation_from_dict(
            self._situation_dict(index, event, names, touches), where, self.profile.noise
        )

    def _situation_dict(
        self,
        index: int,
        event: MatchEvent,
        names: Mapping[int, tuple[str, dict[str, Any]]],
        touches: list[dict[str, Any]],
    ) -> dict[str, Any]:
        assert event.team is not None
        home, away = self.match.teams
        pitch = self.match.pitch
        data: dict[str, Any] = {
            "pitch": {"length": pitch.length_m, "width": pitch.width_m},
            "attack": {
                "team": self.team_name[event.team],
                "towards": self.match.attack_of(event.team, event.period).direction.value,
            },
            "players": [
                {"id": pid, "team": self.team_name[str(self.match.player_teams[c])], **shown}
                for c, (pid, shown) in names.items()
            ]
            + self._teams_out_of_view(names),
            "touches": touches,
            # StatsBomb records sendings-off as events; none is read yet, so eleven a side.
            "team_sizes": {team.name: FULL_TEAM for team in self.match.teams},
            # A freeze frame is taken at the event's timestamp, which the logger sets to within
            # about a tenth of a second of the kick.
            "tracking": {
                "source": TrackingSource.BROADCAST.value,
                "timing_sd_s": FRAME_TIMING_SD_S,
            },
            "meta": {
                "match": f"{home.name} v {away.name}",
                "competition": "StatsBomb 360 open data",
                "minute": _minute(event),
                "clock": clock(event.period, event.t_s),
                "event_index": index,
            },
        }
        if index in self.called:
            data["on_field"] = {"decision": "offside"}
        return data

    def _velocities(self, index: int, in_view: list[int]) -> dict[int, list[float]]:
        """Each player's velocity from the next freeze frame a moment later: the nearest
        player of his team there, when he could have run that far (frames name nobody but
        the player on the ball, so players are matched by place, greedily, nearest first)."""
        event = self.match.events[index]
        assert event.frame is not None
        later = next(
            (
                e
                for e in self.match.events[index + 1 :]
                if e.frame is not None and e.frame != event.frame
            ),
            None,
        )
        if later is None or later.frame is None or later.period != event.period:
            return {}
        took_s = later.t_s - event.t_s
        if not NEXT_FRAME_S[0] <= took_s <= NEXT_FRAME_S[1]:
            return {}
        here, there = self.match.players_m[event.frame], self.match.players_m[later.frame]
        seen_there = np.flatnonzero(~np.isnan(there[:, 0])).tolist()
        pairs = sorted(
            (float(np.hypot(*(there[b] - here[a]))), a, b)
            for a in in_view
            for b in seen_there
            if self.match.player_teams[a] == self.match.player_teams[b]
        )
        reach_m = TOP_SPEED_MPS * took_s + NEXT_FRAME_SLACK_M
        velocities: dict[int, list[float]] = {}
        taken: set[int] = set()
        for apart, a, b in pairs:
            if apart > reach_m:
                break
            if a in velocities or b in taken:
                continue
            taken.add(b)
            velocities[a] = [float(there[b, k] - here[a, k]) / took_s for k in (0, 1)]
        return velocities

    def _area(self, event: MatchEvent) -> tuple[tuple[float, float], ...]:
        """The camera's view at the event; where StatsBomb gives none, a polygon of no area:
        nothing is known to have been seen, so any player not in the frame may be anywhere."""
        view = self.facts.view(event)
        return _NOTHING_SEEN if view is None or len(view.area_m) < 3 else view.area_m

    def _teams_out_of_view(
        self, names: Mapping[int, tuple[str, dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        """A player, in no touch's positions, for a team with nobody in view: a situation
        has two teams, and a listed player absent from the positions is not on the pitch."""
        seen = {str(self.match.player_teams[column]) for column in names}
        return [
            {
                "id": f"{team.name.lower()}-none-in-view",
                "team": team.name,
                "name": f"{team.name} (none in view)",
            }
            for team in self.match.teams
            if team.id not in seen
        ]

    def _names(
        self, event: MatchEvent, in_view: list[int], receiver: int | None, receiver_id: str | None
    ) -> dict[int, tuple[str, dict[str, Any]]]:
        """Each column's situation id and display fields: named players as the data names them,
        the receiver by his name, the others 'Turkey team-mate 3', 'Italy opponent 2' (kloppy
        names the goalkeepers: the team's goalkeeper at the time)."""
        counts: dict[str, int] = {}
        names: dict[int, tuple[str, dict[str, Any]]] = {}
        for column in in_view:
            known = self.column_of.get(receiver_id or "", column) if column == receiver else column
            name = self.match.player_names[known]
            if name is not None:
                number = self.match.player_numbers[known]
                shown = {"name": name, "goalkeeper": bool(self.match.goalkeeper[known])}
                if self.match.player_short_names[known]:
                    shown["short_name"] = self.match.player_short_names[known]
                names[column] = (
                    str(self.match.player_ids[known]),
                    shown if number is None else shown | {"number": number},
                )
                continue
            team = self.team_name[str(self.match.player_teams[column])]
            counts[team] = counts.get(team, 0) + 1
            role = "team-mate" if self.match.player_teams[column] == event.team else "opponent"
            label = f"{team} {role} {counts[team]}"
            names[column] = (label.lower().replace(" ", "-"), {"name": label})
        return names

    def _unnamed(self, in_view: list[int], team: str | None) -> list[int]:
        return [
            c
            for c in in_view
            if self.match.player_teams[c] == team and self.match.player_names[c] is None
        ]

    def _nearest(self, frame: int | None, columns: list[int], at_m: tuple[float, float]) -> int:
        return min(columns, key=lambda column: self._distance(frame, column, at_m))

    def _distance(self, frame: int | None, column: int, at_m: tuple[float, float]) -> float:
        x_m, y_m = self.match.players_m[frame, column]
        return math.hypot(float(x_m) - at_m[0], float(y_m) - at_m[1])


_NOTHING_SEEN = ((0.0, 0.0), (0.0, 0.0), (0.0, 0.0))
# The receipt's view: the pass's end, where the data places the receiver and nobody else.
_RECEIPT_VIEW_M = 0.5


def _around(x_m: float, y_m: float) -> list[list[float]]:
    r = _RECEIPT_VIEW_M
    return [[x_m - r, y_m - r], [x_m + r, y_m - r], [x_m + r, y_m + r], [x_m - r, y_m + r]]


def _xy(point: np.ndarray) -> dict[str, float]:
    return {"x": float(point[0]), "y": float(point[1])}


def _minute(event: MatchEvent) -> int:
    # As broadcasts count: the first minute is 1', the second half starts at 46'.
    return (45 if event.period == 2 else 0) + int(event.t_s // 60) + 1
