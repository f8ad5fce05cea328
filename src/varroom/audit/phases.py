"""Attacking phases: the moments of play cut where no offside judgement can carry over.

The moments are cut first into stretches of play: a new one starts at a period's start,
after the ball was out of the field (further over a line than `OUT_MARGIN_M`, so a
throw-in's ball held over the touchline does not count; or wholly over by any margin while
play went on: a missed ball-out of `varroom.audit.ball_out`), after the ball was unseen for
`GAP_S` or more (what happened meanwhile is unknown), and at every restart. Within a
stretch, each team's possession chain is a phase: it runs on through the opponents'
deflections and saves (Law 11.2: they do not reset offside) and ends at an opponent's
deliberate play, which starts the opponents' chain. Consecutive touches by one player keep
only the first and the last: his receiving the ball, and the play that a team-mate's
position is judged at.

Within a phase, every touch by an attacker is paired with the previous touch by a
different team-mate: the play his position is judged at (IFAB diagram 14, a new play by a
team-mate sets up a new judgement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.audit.ball_out import BallOutScan
from varroom.audit.moments import OUT_MARGIN_M, Moments
from varroom.law.offence import resets_offside
from varroom.match.tracking import MatchTracking
from varroom.model.situation import Pitch, TouchKind, touch_kind

GAP_S = 2.0

RESTARTS = (TouchKind.RESTART, TouchKind.EXEMPT_RESTART)


@dataclass(frozen=True, slots=True)
class Phase:
    period: int
    team: str  # the attacking team
    moments: tuple[int, ...]  # indices into the match's Moments, in time order


@dataclass(frozen=True, slots=True)
class Pair:
    """An attacker's touch (`involved`) and the team-mate's play he is judged at (`judged`),
    as positions in `phases[phase].moments`."""

    phase: int
    judged: int
    involved: int


class Chains:
    """Possession chains cut one moment at a time (module docstring): `cut_phases` feeds it a
    whole match's moments, a live follower feeds it each moment as it is found."""

    def __init__(self) -> None:
        self.moments: list[int] = []  # the open chain
        self.players: list[int] = []  # who played each of its moments
        self.period = 0
        self.team = ""

    def add(
        self, moment: int, period: int, team: str, player: int, new_stretch: bool, kind: TouchKind
    ) -> Phase | None:
        """Moment `moment` joins a chain; the chain it closed, if it closed one."""
        closed = None
        if self.moments and (new_stretch or (team != self.team and resets_offside(kind))):
            closed = self.close()
        if not self.moments:
            self.period, self.team = period, team
        if len(self.moments) >= 2 and self.players[-1] == self.players[-2] == player:
            # The same player again: only his first and last touches count.
            self.moments[-1] = moment
        else:
            self.moments.append(moment)
            self.players.append(player)
        return closed

    def close(self) -> Phase | None:
        """The open chain as a phase (None when there is none); the next moment starts anew."""
        if not self.moments:
            return None
        phase = Phase(self.period, self.team, tuple(self.moments))
        self.moments, self.players = [], []
        return phase


def cut_phases(match: MatchTracking, moments: Moments, scan: BallOutScan) -> list[Phase]:
    """Every possession chain of the match (module docstring); `scan` is the match's ball-out
    scan."""
    teams = match.player_teams[moments.player]
    kinds = [touch_kind(action) for action in moments.actions]
    new_stretch = _stretch_starts(match, moments, kinds, scan)
    chains = Chains()
    phases = []
    for i in range(len(moments)):
        closed = chains.add(
            i,
            int(moments.period[i]),
            str(teams[i]),
            int(moments.player[i]),
            bool(new_stretch[i]),
            kinds[i],
        )
        if closed is not None:
            phases.append(closed)
    last = chains.close()
    return phases if last is None else [*phases, last]


def stretch_breaks(
    t_s: npt.NDArray[np.float64],
    ball_m: npt.NDArray[np.float64],
    pitch: Pitch,
    seen_before_s: float | None = None,
) -> npt.NDArray[np.bool_]:
    """(T,) frames no stretch of play runs across: the ball out of the field, or seen again
    after `GAP_S` or more unseen. `seen_before_s`: when the ball was last seen before these
    frames (a live feed sees them a few at a time)."""
    ball = ball_m[:, :2]
    seen = ~np.isnan(ball).any(axis=1)
    out = seen & (
        (np.abs(ball[:, 0]) > pitch.half_length_m + OUT_MARGIN_M)
        | (np.abs(ball[:, 1]) > pitch.half_width_m + OUT_MARGIN_M)
    )
    seen_at = np.flatnonzero(seen)
    seen_t = t_s[seen_at]
    if seen_before_s is not None:
        seen_t = np.concatenate([[seen_before_s], seen_t])
    else:
        seen_at = seen_at[1:]
    after_gap = np.zeros(len(ball), dtype=bool)
    after_gap[seen_at] = np.diff(seen_t) >= GAP_S
    breaks: npt.NDArray[np.bool_] = out | after_gap
    return breaks


def missed_ball_outs(breaks: npt.NDArray[np.bool_], scan: BallOutScan) -> None:
    """Mark in `breaks`, frame for frame with the scanned match, the frames of every ball-out
    play went on after: a ball wholly out of play (Law 9.1) ends the phase all the same."""
    for missed in scan.missed:
        breaks[missed.start_frame : missed.end_frame + 1] = True


def _stretch_starts(
    match: MatchTracking, moments: Moments, kinds: list[TouchKind], scan: BallOutScan
) -> npt.NDArray[np.bool_]:
    """(N,) whether each moment starts a new stretch of play."""
    breaks = stretch_breaks(match.t_s, match.ball_m, match.pitch)
    missed_ball_outs(breaks, scan)
    broken = np.concatenate([[0], np.cumsum(breaks)])
    frame = moments.frame
    starts = np.ones(len(moments), dtype=bool)
    # Frames after the previous moment's instant up to this one's.
    between = broken[frame[1:] + 1] - broken[frame[:-1] + 1]
    starts[1:] = (moments.period[1:] != moments.period[:-1]) | (between > 0)
    starts |= np.array([kind in RESTARTS for kind in kinds], dtype=bool)
    return starts


def judged_position(players: Sequence[int], teams: Sequence[str], team: str) -> int | None:
    """The position in a phase's moments (who played each, of which team) of the play the
    last one is judged at: the previous touch by `team`, when he is a different team-mate;
    None when the last is not `team`'s or has no such play before it."""
    if teams[-1] != team:
        return None
    for position in range(len(players) - 2, -1, -1):
        if teams[position] == team:
            return position if players[position] != players[-1] else None
    return None


def pairs(phases: list[Phase], moments: Moments, match: MatchTracking) -> list[Pair]:
    """Every attacker's touch with the team-mate's play he is judged at (module docstring)."""
    teams = [str(team) for team in match.player_teams[moments.player]]
    found: list[Pair] = []
    for index, phase in enumerate(phases):
        players = [int(moments.player[m]) for m in phase.moments]
        in_phase = [teams[m] for m in phase.moments]
        for position in range(1, len(players)):
            judged = judged_position(players[: position + 1], in_phase[: position + 1], phase.team)
            if judged is not None:
                found.append(Pair(index, judged, position))
    return found
