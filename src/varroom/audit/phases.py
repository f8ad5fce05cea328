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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.audit.ball_out import BallOutScan, scan_ball_out
from varroom.audit.moments import OUT_MARGIN_M, Moments
from varroom.law.offence import resets_offside
from varroom.match.tracking import MatchTracking
from varroom.model.situation import TouchKind, touch_kind

GAP_S = 2.0

_RESTARTS = (TouchKind.RESTART, TouchKind.EXEMPT_RESTART)


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


def cut_phases(
    match: MatchTracking, moments: Moments, scan: BallOutScan | None = None
) -> list[Phase]:
    """Every possession chain of the match (module docstring); `scan` is the match's ball-out
    scan where the caller has it."""
    teams = match.player_teams[moments.player]
    kinds = [touch_kind(action) for action in moments.actions]
    new_stretch = _stretch_starts(match, moments, kinds, scan or scan_ball_out(match))
    phases: list[Phase] = []
    chain: list[int] = []
    for i in range(len(moments)):
        team = teams[i]
        if chain and (new_stretch[i] or (team != teams[chain[0]] and resets_offside(kinds[i]))):
            phases.append(Phase(int(moments.period[chain[0]]), str(teams[chain[0]]), tuple(chain)))
            chain = []
        player = moments.player[i]
        if len(chain) >= 2 and moments.player[chain[-1]] == moments.player[chain[-2]] == player:
            chain[-1] = i  # the same player again: only his first and last touches count
        else:
            chain.append(i)
    if chain:
        phases.append(Phase(int(moments.period[chain[0]]), str(teams[chain[0]]), tuple(chain)))
    return phases


def _stretch_starts(
    match: MatchTracking, moments: Moments, kinds: list[TouchKind], scan: BallOutScan
) -> npt.NDArray[np.bool_]:
    """(N,) whether each moment starts a new stretch of play."""
    ball = match.ball_m[:, :2]
    seen = ~np.isnan(ball).any(axis=1)
    out = seen & (
        (np.abs(ball[:, 0]) > match.pitch.half_length_m + OUT_MARGIN_M)
        | (np.abs(ball[:, 1]) > match.pitch.half_width_m + OUT_MARGIN_M)
    )
    # A ball wholly out of play that play went on after (Law 9.1) ends the phase all the same.
    for missed in scan.missed:
        out[missed.start_frame : missed.end_frame + 1] = True
    seen_at = np.flatnonzero(seen)
    after_gap = np.zeros(len(ball), dtype=bool)
    after_gap[seen_at[1:]] = np.diff(match.t_s[seen_at]) >= GAP_S
    broken = np.concatenate([[0], np.cumsum(out | after_gap)])
    frame = moments.frame
    starts = np.ones(len(moments), dtype=bool)
    # Frames after the previous moment's instant up to this one's.
    between = broken[frame[1:] + 1] - broken[frame[:-1] + 1]
    starts[1:] = (moments.period[1:] != moments.period[:-1]) | (between > 0)
    starts |= np.array([kind in _RESTARTS for kind in kinds], dtype=bool)
    return starts


def pairs(phases: list[Phase], moments: Moments, match: MatchTracking) -> list[Pair]:
    """Every attacker's touch with the team-mate's play he is judged at (module docstring)."""
    teams = match.player_teams[moments.player]
    found: list[Pair] = []
    for index, phase in enumerate(phases):
        last: int | None = None
        for position, moment in enumerate(phase.moments):
            if teams[moment] != phase.team:
                continue
            if last is not None and moments.player[phase.moments[last]] != moments.player[moment]:
                found.append(Pair(index, last, position))
            last = position
    return found
