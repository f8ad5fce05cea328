"""What to draw: the facts the picture shows, picked out of the situation and the verdict once.
Every part of the picture reads its `Scene`; none changes it."""

from __future__ import annotations

import math

from varroom.engine.explain import distance, receiver_after
from varroom.engine.judgement import Judgement, LineSetter, OffsideLine, PlayerJudgement, Reference
from varroom.engine.verdict import Status, Verdict
from varroom.model.situation import Player, Position, Situation, Touch
from varroom.render.frame import frame_of


class Scene:
    """The facts the picture shows, picked out of the situation and the verdict once."""

    def __init__(self, situation: Situation, verdict: Verdict) -> None:
        self.s = situation
        self.v = verdict
        self.frame = frame_of(situation)
        self.sign = situation.attack_direction.sign
        touches = situation.touches
        judged = verdict.judged_at
        self.judged_at = judged if judged is not None and 0 <= judged < len(touches) else 0
        self.touch: Touch | None = touches[self.judged_at] if touches else None
        self.judgement: Judgement | None = verdict.judgement
        self.line: OffsideLine | None = None if self.judgement is None else self.judgement.line
        self.focus = self._focus()
        self.focus_judged: PlayerJudgement | None = (
            None
            if self.focus is None or self.judgement is None
            else self.judgement.attackers.get(self.focus)
        )
        involved = verdict.involved_at
        self.involved_at = (
            involved if involved is not None and 0 <= involved < len(touches) else None
        )
        indices = sorted({step.index for step in verdict.chain if 0 <= step.index < len(touches)})
        self.path = indices or list(range(len(touches)))
        self.receiver: PlayerJudgement | None = self._receiver()

    def _receiver(self) -> PlayerJudgement | None:
        """With no offence, the team-mate the reason is about when he is not the nearest attacker:
        the first attacker to play the ball, or to interfere, after the judged touch."""
        if self.judgement is None or self.line is None or self.v.status is not Status.NO_OFFENCE:
            return None
        player = receiver_after(self.s, self.judgement)
        judged = None if player is None else self.judgement.attackers.get(player)
        if player == self.focus or judged is None or not math.isfinite(judged.margin_m):
            return None
        return judged

    def _focus(self) -> str | None:
        if self.v.offender is not None:
            return self.v.offender
        if self.v.nearest_attacker is not None:
            return self.v.nearest_attacker
        if self.judgement is None or not self.judgement.attackers:
            return None
        # Undecidable: no margins, so the attacker nearest the goal line attacked.
        return max(self.judgement.attackers.values(), key=lambda j: self.sign * j.reach.x_m).player

    def player(self, player_id: str | None) -> Player | None:
        return None if player_id is None else self.s.players.get(player_id)

    def short(self, player_id: str | None) -> str:
        """A surname, else the shirt number, else the id."""
        player = self.player(player_id)
        if player is None:
            return player_id or "nobody"
        if player.name:
            return player.short_label
        if player.number is not None:
            return f"#{player.number}"
        return player.id

    def position(self, player_id: str | None, index: int | None) -> Position | None:
        if player_id is None or index is None or not (0 <= index < len(self.s.touches)):
            return None
        return self.s.touches[index].positions.get(player_id)

    def is_attacker(self, player_id: str) -> bool:
        player = self.player(player_id)
        return player is not None and player.team == self.s.attacking_team

    @property
    def margin(self) -> float | None:
        judged = self.focus_judged
        if judged is None or self.line is None or not math.isfinite(judged.margin_m):
            return None
        return judged.margin_m

    def touch_label(self, index: int) -> str:
        touch = self.s.touches[index]
        action = touch.action.value.replace("_", " ")
        who = self.short(touch.player) if touch.player else ""
        return f"{index + 1} {who} {action}".replace("  ", " ")

    def line_setter(self) -> str:
        """What set the offside line: 'ball', 'halfway line' or the second-last opponent."""
        line = self.line
        if line is None:
            return ""
        if line.set_by is LineSetter.BALL:
            return "ball"
        if line.set_by is LineSetter.HALFWAY_LINE:
            return "halfway line"
        return self.short(line.second_last)

    def line_caption(self) -> str:
        line = self.line
        if line is None:
            return ""
        if line.set_by is not LineSetter.SECOND_LAST_OPPONENT:
            return f"offside line ({self.line_setter()})"
        who = self.line_setter()
        reach = line.second_last_reach
        if reach is not None and reach.part is not None:
            who += f", {reach.part.value.replace('_', ' ')}"
        elif reach is not None and reach.reference is Reference.LINE_CROSSED:
            who += ", off the field: on the line"
        return f"offside line\n2nd-last defender: {who}"

    def reach_part(self) -> str:
        """Which point of the attacker was measured: 'left knee', 'off the field', or ''."""
        judged = self.focus_judged
        if judged is None:
            return ""
        reach = judged.reach
        if reach.reference is Reference.LINE_CROSSED:
            return "off the field: on the line"
        if reach.part is not None:
            return reach.part.value.replace("_", " ")
        return ""

    def reach_caption(self) -> str:
        judged = self.focus_judged
        if judged is None:
            return ""
        who, part = self.short(judged.player), self.reach_part()
        if judged.reach.reference is Reference.LINE_CROSSED:
            return f"{who} ({part})"
        return f"{who}, {part}" if part else who


def signed_distance(margin_m: float) -> str:
    """'+4 cm', '−35 cm', '±0 cm', '+1.20 m'."""
    sign = "+" if margin_m > 0 else "\u2212" if margin_m < 0 else "\u00b1"
    return sign + distance(margin_m)
