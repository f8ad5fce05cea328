"""The vectorised screen: every attacker's margin at every moment of play at once.

At each moment the team of the player on the ball attacks; each team-mate's margin is taken
against the offside line of the opponents *seen* there (Law 11.1, `varroom.law.position` on
(moments, players) arrays). An unseen opponent can only add a deeper one, so this line is
never deeper than the true one: a team-mate with no positive margin against it is onside,
whoever was unseen. With fewer than two opponents seen the line is the ball's or the
halfway line's, again a lower bound. Only a pair whose judged player had a positive margin
needs the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.audit.moments import Moments, attack_signs
from varroom.law.position import (
    ball_depth_m,
    offside_line_depth_m,
    offside_margin_m,
    offside_position,
    second_last_opponent,
)
from varroom.match.tracking import MatchTracking
from varroom.model.settings import LawSettings
from varroom.model.situation import Direction

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Screen:
    margin_m: Floats  # (N, P) each team-mate's margin against the seen line; NaN otherwise

    def offside_position(self, moment: int, player: int) -> bool:
        """Past the seen line: in an offside position, unless an unseen opponent was deeper."""
        return bool(offside_position(self.margin_m[moment, player]))


def screen(
    match: MatchTracking, moments: Moments, settings: LawSettings, *, out_of_picture: bool
) -> Screen:
    """Each team-mate's margin at each moment against the line of the opponents seen: an
    unseen opponent can only make the line deeper, so a team-mate not past it is onside
    wherever they stood. With `out_of_picture` (broadcast tracking) a team-mate missing from
    the frame may have stood anywhere, past the line too: his margin is +inf, so that the
    engine judges him, bounded by his reach."""
    teams = match.player_teams[moments.player]
    sign = attack_signs(match, teams, moments.period)
    x_m = moments.players_m[..., 0]
    seen = ~np.isnan(x_m)
    same_team = match.player_teams[None, :] == teams[:, None]
    opponent = seen & ~same_team
    mate = seen & same_team
    mate[np.arange(len(moments)), moments.player] = False
    depth = sign[:, None] * x_m
    defenders = np.where(opponent, depth, np.nan)
    second = second_last_opponent(defenders)
    second_depth = np.take_along_axis(defenders, np.maximum(second, 0)[:, None], axis=1)[:, 0]
    second_depth = np.where(second >= 0, second_depth, -np.inf)
    ball = np.full(len(moments), np.nan)
    for direction in Direction:
        rows = sign == direction.sign
        ball[rows] = ball_depth_m(moments.ball_m[rows, 0], direction, settings)
    line = offside_line_depth_m(ball, second_depth, settings)
    margin = np.where(mate, offside_margin_m(depth, line[:, None]), np.nan)
    if out_of_picture:
        hidden = ~seen & same_team
        hidden[np.arange(len(moments)), moments.player] = False
        margin[hidden] = np.inf
    return Screen(margin)
