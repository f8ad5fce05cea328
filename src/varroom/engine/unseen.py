"""Players out of the data's view: what they could change, proven, and how likely it is.

On partial data (format 1.2: a touch with a `view`, or fewer players listed than the team's
`team_sizes`) a verdict is settled only when no placement of the unseen players changes it
(docs/uncertainty.md). An unseen opponent stands anywhere out of view on the pitch or in the
`AROUND_PITCH_M` around it, where off the field he counts on the line he crossed (Law 11.4):
on the goal line if he is beyond it, on the touchline at his own depth if beyond that. The
offside line is the second deepest of the opponents, and so it rises with each one's depth:
with every unseen opponent at the deepest point the ground out of view reaches it is as deep
as it can be, with every one at the shallowest as shallow, and those two lines bound every
placement. The ground's reach is exact (`model.view.unseen_x_range`, no grid). An attacker out
of view at the play stood somewhere out of view within his reach of where he next played the
ball (top speed and a stride), and is bounded the same way.

Assumptions about the unseen goalkeeper are settings (`LawSettings.unseen_goalkeeper`), never
defaults; the verdict names any it rests on.

The probability is another matter: the chance that enough unseen opponents stand deeper than
the attacker to put him onside is read off whole teams seen in real play
(`unseen_prior.npz`, built by bench/unseen_prior.py from SkillCorner broadcast tracking):
each sample is one team's eleven places, by distance from its own goal line and across the
pitch, turned to defend the same goal with the ball on the same side. The samples kept are
those with the ball as far from the goal (within `BALL_BAND_M`), their deepest outfield player
in view as deep as the one here (within as much), and with as many players out of this view
as are unseen here, the goalkeeper among them or not as here; the chance is the share of them
with enough players out of view deeper than the attacker, by Laplace's rule (k + 1) / (n + 2).
It gives `probability` only; the status never rests on it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from varroom.engine.judgement import Judgement
from varroom.law.position import ball_depth_m, opponents_half_starts_m
from varroom.model.measures import GOAL_AREA_DEPTH_M, GOAL_AREA_HALF_WIDTH_M
from varroom.model.settings import LawSettings, UnseenGoalkeeper
from varroom.model.situation import Pitch, Situation
from varroom.model.view import AROUND_PITCH_M, Box, Disc, View, unseen_x_range

Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]

# Samples are kept with the ball within this distance of the situation's (from the goal line).
BALL_BAND_M = 10.0
# Fewer matching samples than this: the match on the number out of view is loosened by one,
# then the ball's band dropped.
FEWEST_SAMPLES = 40
# No footballer runs faster (the fastest are timed at about 36 km/h).
TOP_SPEED_MPS = 10.0
# Beyond the run: a stride to the ball, and the error of estimated spots.
STRIDE_M = 3.0


class Proof(Enum):
    """What the unseen players leave of an attacker's offside position."""

    OFFSIDE = "offside"  # beyond the line wherever they stood
    ONSIDE = "onside"  # not beyond it wherever they stood
    OPEN = "open"  # some placement puts him onside, another offside


@dataclass(frozen=True, slots=True)
class UnseenOpponents:
    """What the players out of view could change for one attacker at one judgement. Depths
    are metres along the attack (`direction.sign * x`)."""

    unseen: int  # opponents on the pitch and not listed
    goalkeeper_unseen: bool
    # How many opponents, besides those listed, must stand deeper than him to put him onside
    # (0: he is onside against those listed).
    needed: int
    # The offside line with every unseen opponent as shallow, and as deep, as the ground out
    # of view allows (inf: fewer than two opponents, the line may be anywhere deeper).
    line_low_m: float
    line_high_m: float
    # The deepest and shallowest an unseen opponent could count at (None: none unseen), and
    # whether the deepest is off the field over the goal line (Law 11.4).
    deepest_m: float | None
    shallowest_m: float | None
    over_goal_line: bool
    # His depth; for an attacker out of view at the play, the span he could have stood in.
    depth_m: float
    spots_m: tuple[float, float] | None
    proof: Proof
    probability_onside: float  # P(the unseen put him onside), from the prior
    sign: float  # the attack's direction: x = sign * depth
    samples: int = 0  # whole-team samples the probability was read from
    hits: int = 0  # those of them with enough players out of view deeper than him

    @property
    def could_change(self) -> bool:
        """Whether some placement of the unseen changes his offside position."""
        return self.proof is Proof.OPEN

    def x_m(self, depth_m: float | None) -> float | None:
        """A depth as a pitch x (None stays None; an infinite line stays infinite)."""
        return None if depth_m is None else self.sign * depth_m

    @property
    def hidden(self) -> bool:
        """He was out of view at the play himself."""
        return self.spots_m is not None


def unseen_opponents(
    situation: Situation, judgement: Judgement, player: str, at_index: int, settings: LawSettings
) -> UnseenOpponents | None:
    """The unseen players' effect on `player` at `judgement`, who became involved at touch
    `at_index` (None: the data of the judged touch is complete)."""
    touch = situation.touches[judgement.index]
    defending = situation.defending_team
    listed = [p for p in touch.positions if situation.players[p].team == defending]
    if touch.view is not None:
        size = situation.team_size(defending)
    else:
        size = situation.team_sizes.get(defending, len(listed))
    unseen = max(0, size - len(listed))
    judged = judgement.attackers.get(player)
    hidden = judged is None and _attacker_unseen(situation, judgement.index, player)
    if touch.view is None and unseen == 0 and not hidden:
        return None
    if judged is None and not hidden:
        return None
    sign = situation.attack_direction.sign
    keeper_unseen = unseen > 0 and not any(situation.players[p].goalkeeper for p in listed)
    seen = [sign * reach.x_m for reach in judgement.defenders.values()]
    outfield_seen = [
        sign * reach.x_m
        for pid, reach in judgement.defenders.items()
        if not situation.players[pid].goalkeeper
    ]
    ground = _ground(situation, touch.view)
    deepest_outfield = max(outfield_seen, default=-math.inf)
    keeper = _keeper_ground(situation, touch.view, settings, ground, deepest_outfield)
    floor = max(
        float(ball_depth_m(touch.ball_m[0], situation.attack_direction, settings)),
        opponents_half_starts_m(settings),
    )
    outfield = unseen - keeper_unseen
    keepers = [keeper] if keeper_unseen else []
    low = _line(floor, seen + [ground[0]] * outfield + [k[0] for k in keepers], math.inf)
    high = _line(floor, seen + [ground[1]] * outfield + [k[1] for k in keepers], math.inf)
    if len(seen) + unseen < 2:
        low = floor
    if hidden:
        spots = _spots(situation, judgement.index, player, at_index)
        depth = spots[1]
        proof = (
            Proof.OFFSIDE if spots[0] > high else Proof.ONSIDE if spots[1] <= low else Proof.OPEN
        )
    else:
        assert judged is not None
        spots = None
        depth = sign * judged.reach.x_m
        proof = Proof.OFFSIDE if depth > high else Proof.ONSIDE if depth <= low else Proof.OPEN
    deeper_seen = sum(1 for d in seen if d >= depth)
    needed = 0 if depth <= _line(floor, seen, -math.inf) else max(0, 2 - deeper_seen)
    found = UnseenOpponents(
        unseen=unseen,
        goalkeeper_unseen=keeper_unseen,
        needed=needed,
        line_low_m=low,
        line_high_m=high,
        deepest_m=ground[1] if unseen else None,
        shallowest_m=ground[0] if unseen else None,
        over_goal_line=unseen > 0 and _over_goal_line(situation, touch.view),
        depth_m=depth,
        spots_m=spots,
        proof=proof,
        # Onside on the players listed (needed 0), the unseen add nothing to the chance of
        # an offside position the measured positions give; onside only because of where
        # the unseen must stand, they make it certain.
        probability_onside=1.0 if proof is Proof.ONSIDE and needed > 0 else 0.0,
        sign=sign,
    )
    if proof is not Proof.OPEN or touch.view is None or hidden or needed == 0:
        return found if proof is not Proof.OPEN else _even(found)
    places = _Places.of(situation, judgement.index, deepest_outfield)
    hits, samples = places.count(needed, unseen, keeper_unseen, depth)
    # Laplace's rule: a finite sample never claims a certainty.
    return _with_prior(found, hits, samples)


def _even(found: UnseenOpponents) -> UnseenOpponents:
    """No prior for this case (no view to read whole teams through): even odds."""
    return _with_prior(found, 0, 0)


def _with_prior(found: UnseenOpponents, hits: int, samples: int) -> UnseenOpponents:
    return dataclasses.replace(
        found, probability_onside=(hits + 1) / (samples + 2), samples=samples, hits=hits
    )


def _line(floor: float, depths: Sequence[float], fewer: float) -> float:
    """Law 11.1: the deepest of the ball, the halfway line and the second-last opponent;
    `fewer` where fewer than two opponents stand anywhere."""
    if len(depths) < 2:
        return max(floor, fewer)
    return max(floor, sorted(depths, reverse=True)[1])


def _attacker_unseen(situation: Situation, index: int, player: str) -> bool:
    """An attacker not listed at a touch was out of view there (a `view`, or his team has
    fewer listed than its `team_sizes`), or missing from the data where he plays the ball
    later in the phase: he was on the pitch, so the gap is the data's, and he is bounded by
    his reach of that touch as one out of view is (issue 28: dropping Kane from the header's
    positions gave "no attacker was in an offside position"). Otherwise he was not on the
    pitch."""
    touch = situation.touches[index]
    if player in touch.positions or player == touch.player:
        return False
    if touch.view is not None:
        return True
    if any(t.player == player for t in situation.touches[index + 1 :]):
        return True
    team = situation.attacking_team
    listed = sum(1 for p in touch.positions if situation.players[p].team == team)
    return listed < situation.team_sizes.get(team, listed)


def _depths(situation: Situation, span: tuple[float, float]) -> tuple[float, float]:
    """x extremes as depths along the attack, counted on the goal line beyond which they lie
    (Law 11.4: off the field a player counts on the line he crossed; beyond a touchline he
    keeps his depth)."""
    half = situation.pitch.half_length_m
    sign = situation.attack_direction.sign
    low, high = sorted(sign * x for x in span)
    return max(-half, min(half, low)), max(-half, min(half, high))


def _around(pitch: Pitch) -> Box:
    """The pitch and the ground around it where a player can still take part."""
    return Box(
        -pitch.half_length_m - AROUND_PITCH_M,
        pitch.half_length_m + AROUND_PITCH_M,
        -pitch.half_width_m - AROUND_PITCH_M,
        pitch.half_width_m + AROUND_PITCH_M,
    )


@functools.lru_cache(maxsize=256)
def _unseen_span(
    box: Box, view: View | None, disc: Disc | None = None
) -> tuple[float, float] | None:
    return unseen_x_range(box, view, disc)


def _ground(situation: Situation, view: View | None) -> tuple[float, float]:
    """The shallowest and deepest an unseen opponent could count at. A view that covers all of
    the ground while players are unseen contradicts itself: they may then be anywhere."""
    box = _around(situation.pitch)
    span = _unseen_span(box, view) or (box.x_min_m, box.x_max_m)
    return _depths(situation, span)


def _over_goal_line(situation: Situation, view: View | None) -> bool:
    """Whether some ground beyond the goal line defended is out of view: an unseen defender
    who left there without permission counts on the goal line itself (Law 11.4)."""
    around = _around(situation.pitch)
    half = situation.pitch.half_length_m
    if situation.attack_direction.sign > 0:
        beyond = dataclasses.replace(around, x_min_m=half)
    else:
        beyond = dataclasses.replace(around, x_max_m=-half)
    return _unseen_span(beyond, view) is not None


def _keeper_ground(
    situation: Situation,
    view: View | None,
    settings: LawSettings,
    ground: tuple[float, float],
    deepest_outfield_m: float,
) -> tuple[float, float]:
    """Where an unseen goalkeeper could count, under `settings.unseen_goalkeeper`. An
    assumption the view contradicts (his goal area all in view) assumes nothing."""
    low, high = ground
    assumed = settings.unseen_goalkeeper
    if assumed is UnseenGoalkeeper.DEEPEST:
        return min(high, max(low, deepest_outfield_m)), high
    if assumed is UnseenGoalkeeper.IN_GOAL_AREA:
        half = situation.pitch.half_length_m
        sign = situation.attack_direction.sign
        ends = sorted((sign * half, sign * (half - GOAL_AREA_DEPTH_M)))
        area = Box(ends[0], ends[1], -GOAL_AREA_HALF_WIDTH_M, GOAL_AREA_HALF_WIDTH_M)
        span = _unseen_span(area, view)
        if span is not None:
            return _depths(situation, span)
    return ground


def _spots(situation: Situation, index: int, player: str, at_index: int) -> tuple[float, float]:
    """The depths an attacker out of view at touch `index` could have stood at: out of view,
    within his run (top speed) and a stride of where he was at touch `at_index` (his listed
    spot, else the ball). Where no such ground is out of view, he was not there at all: his
    spot then, which he could not have left in time, keeps him at the least depth he had."""
    touch = situation.touches[index]
    later = situation.touches[at_index]
    there = later.positions.get(player)
    x_m, y_m = (later.ball_m[0], later.ball_m[1]) if there is None else (there.x_m, there.y_m)
    reach = TOP_SPEED_MPS * max(0.0, later.t_s - touch.t_s) + STRIDE_M
    span = _unseen_span(_around(situation.pitch), touch.view, Disc(x_m, y_m, reach))
    return _depths(situation, span or (x_m - reach, x_m + reach))


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
    ) -> tuple[int, int]:
        """How many samples have `needed` players out of view deeper than `depth_m`, of how
        many that match the circumstances."""
        out_of_view = self.hidden.sum(axis=1)
        keeper_hidden = (self.hidden & self.goalkeeper).any(axis=1) == keeper_unseen
        deeper = (self.hidden & (self.depth_m > depth_m)).sum(axis=1) >= needed
        for slack, banded in ((0, True), (1, True), (1, False)):
            keep = (np.abs(out_of_view - unseen) <= slack) & keeper_hidden
            if banded:
                keep &= self.ball_near & self.line_near
            kept = int(keep.sum())
            if kept >= FEWEST_SAMPLES:
                break
        return int((deeper & keep).sum()), kept


@functools.lru_cache(maxsize=1)
def whole_teams() -> dict[str, npt.NDArray[Any]]:
    prior = resources.files("varroom.engine").joinpath("unseen_prior.npz")
    with prior.open("rb") as stream, np.load(stream) as data:
        return {name: np.asarray(data[name]) for name in data.files}
