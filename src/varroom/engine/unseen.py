"""Opponents out of view: could they have put an attacker onside? (docs/uncertainty.md)

Where a touch has a `view` (format 1.1), the opponents not listed stand somewhere outside
it. An opponent can only move the offside line towards the goal line, so a player onside
against the opponents in view is onside whatever the unseen do; one in an offside position
against them is onside only if enough unseen opponents stand deeper than him:
`needed` = 2 minus the opponents in view at least as deep as he is. When more are needed
than are unseen (the team size minus those in view), or the unseen part of the pitch reaches
no deeper than him, the unseen cannot change it.

Otherwise the chance that at least `needed` of them stand out of view deeper than him is
read off whole teams seen in real play (`unseen_prior.npz`, built by bench/unseen_prior.py
from SkillCorner broadcast tracking): each sample is one team's eleven places, by distance
from its own goal line and across the pitch, turned to defend the same goal with the ball
on the same side. The samples kept are those with the ball as far from the goal (within
`BALL_BAND_M`), their deepest outfield player in view as deep as the one here (within
as much), and with as many players out of this view as are unseen here, the goalkeeper
among them or not as here; the chance is the share of them with `needed` players out of view
deeper than the attacker, by Laplace's rule (k + 1) / (n + 2), so that a finite sample never
claims a certainty. An unseen goalkeeper thus counts as deep as goalkeepers stand.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from varroom.engine.judgement import Judgement
from varroom.model.situation import Pitch, Situation

Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]

# Samples are kept with the ball within this distance of the situation's (from the goal line).
BALL_BAND_M = 10.0
# Fewer matching samples than this: the match on the number out of view is loosened by one,
# then the ball's band dropped. An offside is settled by the samples only when none of at
# least this many has enough players out of view deeper than him: Laplace's rule then puts
# the chance that the unseen change it below 2.5%.
FEWEST_SAMPLES = 40
# No footballer runs faster (the fastest are timed at about 36 km/h).
TOP_SPEED_MPS = 10.0
# Beyond the run: a stride to the ball, and the error of estimated spots.
STRIDE_M = 3.0
# The grid the unseen part of the pitch is measured on: 1 m cells.
_CELL_M = 1.0


@dataclass(frozen=True, slots=True)
class UnseenOpponents:
    """What the opponents out of view could change for one attacker at one judgement."""

    unseen: int  # opponents on the pitch and not in view
    goalkeeper_unseen: bool
    # How many opponents, besides those in view, must stand deeper than him to put him onside
    # (0: he is onside against those in view).
    needed: int
    room: bool  # whether the unseen part of the pitch reaches deeper than him
    probability_onside: float  # P(enough unseen opponents stand deeper than him)
    depth_x_m: float  # they would have to stand nearer the goal line than this x
    samples: int = 0  # whole-team samples the probability was read from
    hits: int = 0  # those of them with enough players out of view deeper than him
    # Of every sample with as many out of view, the goalkeeper among them or not (wherever
    # the ball was), those with enough deeper than him.
    anywhere: int = 0

    @property
    def goalkeeper_counts(self) -> bool:
        """An unseen goalkeeper is taken to stand deep, nearer his goal line than the attacker,
        wherever the unseen part of the pitch allows it."""
        return self.goalkeeper_unseen and self.room and self.needed > 0

    @property
    def still_needed(self) -> int:
        """How many unseen outfield players must stand deeper than him, the goalkeeper apart."""
        return max(0, self.needed - self.goalkeeper_counts)

    @property
    def could_change(self) -> bool:
        """Whether unseen outfield players could put him onside."""
        outfield = self.unseen - self.goalkeeper_unseen
        return 0 < self.still_needed <= outfield and self.room

    @property
    def settles_offside(self) -> bool:
        """He is offside whatever the unseen did: too few of them, no room deeper than him,
        or no whole team seen in real play with as many players out of this view had enough
        of them deeper than him (and `FEWEST_SAMPLES` or more match the circumstances)."""
        if self.needed == 0 or (self.goalkeeper_counts and self.still_needed == 0):
            return False
        if not self.could_change:
            return True
        return self.hits == 0 and self.anywhere == 0 and self.samples >= FEWEST_SAMPLES

    @property
    def onside_by_goalkeeper(self) -> bool:
        """The unseen goalkeeper, taken to stand deep, is the one opponent he needed."""
        return self.goalkeeper_counts and self.still_needed == 0


def unseen_opponents(
    situation: Situation, judgement: Judgement, player: str
) -> UnseenOpponents | None:
    """The unseen opponents' effect on `player` at `judgement` (None: the touch has no view,
    its positions are complete; or no line could be drawn)."""
    touch = situation.touches[judgement.index]
    judged = judgement.attackers.get(player)
    if touch.view is None or judged is None or judgement.line is None:
        return None
    defending = situation.defending_team
    in_view = [p for p in touch.positions if situation.players[p].team == defending]
    unseen = max(0, situation.team_size(defending) - len(in_view))
    keeper_unseen = unseen > 0 and not any(situation.players[p].goalkeeper for p in in_view)
    sign = situation.attack_direction.sign
    depth = sign * judged.reach.x_m
    deeper_in_view = sum(1 for reach in judgement.defenders.values() if sign * reach.x_m >= depth)
    needed = 0 if not judged.offside_position else max(0, 2 - deeper_in_view)
    grid = _grid(situation.pitch)
    hidden = ~touch.view.covers(grid[0], grid[1])
    room = bool((hidden & (sign * grid[0] > depth)).any())
    found = UnseenOpponents(unseen, keeper_unseen, needed, room, 0.0, judged.reach.x_m)
    if found.onside_by_goalkeeper:
        return dataclasses.replace(found, probability_onside=1.0)
    if not found.could_change:
        return found
    outfield = [
        sign * reach.x_m
        for pid, reach in judgement.defenders.items()
        if not situation.players[pid].goalkeeper
    ]
    places = _Places.of(situation, judgement.index, max(outfield, default=-np.inf))
    hits, samples, anywhere = places.count(needed, unseen, keeper_unseen, depth)
    # Laplace's rule: a finite sample never claims a certainty.
    onside = (hits + 1) / (samples + 2)
    return dataclasses.replace(
        found, probability_onside=onside, samples=samples, hits=hits, anywhere=anywhere
    )


@dataclass(frozen=True, slots=True)
class _Places:
    """The whole-team samples placed on this situation's pitch, seen through its view."""

    depth_m: Floats  # (S, 11) along the attack
    hidden: Flags  # (S, 11) out of the view
    goalkeeper: Flags  # (S, 11)
    ball_near: Flags  # (S,) the ball within BALL_BAND_M of the situation's
    line_near: Flags  # (S,) their deepest player in view within BALL_BAND_M of the one here

    @staticmethod
    def of(situation: Situation, index: int, deepest_seen_m: float) -> _Places:
        touch = situation.touches[index]
        assert touch.view is not None
        prior = whole_teams()
        half = situation.pitch.half_length_m
        sign = situation.attack_direction.sign
        depth = half - prior["from_goal_m"]
        # Turned so that the ball is on the same side of the pitch as here.
        flip = np.where(np.sign(prior["ball_across_m"]) == np.sign(touch.ball_m[1]), 1.0, -1.0)
        across = prior["across_m"] * flip[:, None]
        hidden = ~touch.view.covers(sign * depth, across)
        ball_from_goal = half - sign * touch.ball_m[0]
        near = np.abs(prior["ball_from_goal_m"] - ball_from_goal) <= BALL_BAND_M
        seen_depth = np.where(hidden | prior["goalkeeper"], -np.inf, depth).max(axis=1)
        line_near = np.abs(seen_depth - deepest_seen_m) <= BALL_BAND_M
        return _Places(depth, hidden, prior["goalkeeper"], near, line_near)

    def count(
        self, needed: int, unseen: int, keeper_unseen: bool, depth_m: float
    ) -> tuple[int, int, int]:
        """How many samples have `needed` players out of view deeper than `depth_m`, of how
        many that match the circumstances; and how many of all those with as many out of view
        (wherever the ball) have them there."""
        out_of_view = self.hidden.sum(axis=1)
        keeper_hidden = (self.hidden & self.goalkeeper).any(axis=1) == keeper_unseen
        deeper = (self.hidden & (self.depth_m > depth_m)).sum(axis=1) >= needed
        anywhere = int((deeper & (out_of_view == unseen) & keeper_hidden).sum())
        for slack, banded in ((0, True), (1, True), (1, False)):
            keep = (np.abs(out_of_view - unseen) <= slack) & keeper_hidden
            if banded:
                keep &= self.ball_near & self.line_near
            kept = int(keep.sum())
            if kept >= FEWEST_SAMPLES:
                break
        return int((deeper & keep).sum()), kept, anywhere


@functools.lru_cache(maxsize=1)
def whole_teams() -> dict[str, npt.NDArray[Any]]:
    prior = resources.files("varroom.engine").joinpath("unseen_prior.npz")
    with prior.open("rb") as stream, np.load(stream) as data:
        return {name: np.asarray(data[name]) for name in data.files}


@functools.lru_cache(maxsize=8)
def _grid(pitch: Pitch) -> tuple[Floats, Floats]:
    xs = np.arange(-pitch.half_length_m + _CELL_M / 2, pitch.half_length_m, _CELL_M)
    ys = np.arange(-pitch.half_width_m + _CELL_M / 2, pitch.half_width_m, _CELL_M)
    x_m, y_m = np.meshgrid(xs, ys)
    return x_m.ravel(), y_m.ravel()


def unseen_attacker_could_be_offside(
    situation: Situation, judgement: Judgement, player: str, at_index: int
) -> bool | None:
    """An attacker who plays the ball at touch `at_index` and was not listed at the judged
    touch, which has a view: he stood out of view at the play, somewhere he could run from to
    where he played the ball in the time between. Whether any such place is beyond the offside
    line drawn by the opponents in view (unseen opponents could only draw it deeper, so a place
    behind it is onside whatever they did). None when the judged touch has no view or he was
    listed: the question does not arise."""
    judged_touch = situation.touches[judgement.index]
    if judged_touch.view is None or player in judged_touch.positions or judgement.line is None:
        return None
    touch = situation.touches[at_index]
    sign = situation.attack_direction.sign
    x_m, y_m = _grid(situation.pitch)
    reach_m = TOP_SPEED_MPS * max(0.0, touch.t_s - judged_touch.t_s) + STRIDE_M
    near = np.hypot(x_m - touch.ball_m[0], y_m - touch.ball_m[1]) <= reach_m
    hidden = ~judged_touch.view.covers(x_m, y_m)
    beyond = sign * x_m > sign * judgement.line.x_m
    return bool((near & hidden & beyond).any())
