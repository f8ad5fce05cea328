"""What every picture tells, picked out of a situation and its verdict once: the headline, the
two players (or the ball) that decide it, the margin, the moment of play, the involvement, the
touches shown and the points every view must hold. Every picture (top-down, screen, clip, 3D,
broadcast) reads one `Story`; none changes it, and none re-derives what the verdict says (the
touch judged is `verdict.judged_at`, the involvement `verdict.involved_at`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

from varroom.engine.explain import distance, focus_player
from varroom.engine.judgement import (
    Judgement,
    LineSetter,
    OffsideLine,
    PlayerJudgement,
    Reach,
    Reference,
)
from varroom.engine.verdict import Status, Verdict
from varroom.model.situation import Player, Position, Situation, Touch
from varroom.pictures import style

_PLAYED = {
    "pass": "passed it",
    "shot": "shot",
    "header": "headed it",
    "cross": "crossed it",
    "clearance": "cleared it",
    "dribble": "played it",
    "receive": "played it",
    "deliberate_play": "played it",
    "deflection": "touched it",
    "save": "saved it",
    "woodwork": "came off the woodwork",
    "official": "came off a match official",
    "throw_in": "took the throw-in",
    "goal_kick": "took the goal kick",
    "corner_kick": "took the corner kick",
    "free_kick": "took the free kick",
    "kick_off": "took the kick-off",
    "penalty_kick": "took the penalty kick",
    "dropped_ball": "played the dropped ball",
}


# A sentence of a reason ends at '. ' before a capital or a count ('11.2). 5 of Italy's ...'),
# never inside a number ('x = 24.3 m').
_SENTENCES = re.compile(r"(?<=\.)\s+(?=[A-Z0-9])")


class Side(Enum):
    """What stands on the defending side of the comparison."""

    PLAYER = "player"  # the second-last opponent
    BALL = "ball"
    HALFWAY_LINE = "halfway_line"


@dataclass(frozen=True, slots=True)
class Figure:
    """One of the two that decide a call, as the pictures name it."""

    kind: Side
    player: Player | None
    role: str  # "attacker", "second-last opponent", "the ball", "the halfway line"
    team: str | None
    point: str  # what was measured: "left knee", "tracked position", "ball centre"
    reach: Reach | None
    colour: str

    @property
    def name(self) -> str:
        if self.player is not None:
            return self.player.short_label
        return {Side.BALL: "The ball", Side.HALFWAY_LINE: "Halfway line"}.get(self.kind, "")

    @property
    def number(self) -> int | None:
        return None if self.player is None else self.player.number


def headline(situation: Situation, verdict: Verdict) -> str:
    """The big words: OFFSIDE, GOAL DISALLOWED — OFFSIDE, ONSIDE, GOAL STANDS, NO OFFENCE, or
    ON-FIELD DECISION STANDS when the data cannot settle it."""
    goal = situation.on_field_decision == "goal"
    if verdict.status is Status.OFFENCE:
        return "GOAL DISALLOWED \u2014 OFFSIDE" if goal else "OFFSIDE"
    if verdict.status is Status.UNDECIDABLE:
        return "ON-FIELD DECISION STANDS"
    if goal:
        return "GOAL STANDS"
    margin = verdict.margin_m
    if margin is not None and math.isfinite(margin) and margin <= 0:
        return "ONSIDE"
    return "NO OFFENCE"


def part_name(reach: Reach | None) -> str:
    if reach is None:
        return ""
    if reach.reference is Reference.LINE_CROSSED:
        return "off the field: counts on the line"
    if reach.part is not None:
        return reach.part.value.replace("_", " ")
    return "tracked position"


class Story:
    """The facts the pictures show."""

    def __init__(self, situation: Situation, verdict: Verdict) -> None:
        self.s = situation
        self.v = verdict
        touches = situation.touches
        judged = verdict.judged_at
        self.judged_at = judged if judged is not None and 0 <= judged < len(touches) else 0
        self.touch: Touch = touches[self.judged_at]
        self.judgement: Judgement | None = verdict.judgement
        self.line: OffsideLine | None = None if self.judgement is None else self.judgement.line
        self.sign = situation.attack_direction.sign
        self.focus = focus_player(situation, verdict)
        self.focus_judged: PlayerJudgement | None = (
            None
            if self.focus is None or self.judgement is None
            else self.judgement.attackers.get(self.focus)
        )
        involved = verdict.involved_at
        # Where the verdict says the attacker became involved (None: he did not).
        self.involved_at = (
            involved if involved is not None and 0 <= involved < len(touches) else None
        )
        indices = sorted({step.index for step in verdict.chain if 0 <= step.index < len(touches)})
        # The touches the pictures number: the verdict's chain, else every touch.
        self.path = indices or list(range(len(touches)))
        self.phase_end = self._phase_end()
        self.receiver = self._receiver()
        self.headline = headline(situation, verdict)
        self.colour = style.status_colour(verdict.status)

    # -- who ---------------------------------------------------------------------------------

    def _phase_end(self) -> int:
        """Where the phase shown ends: the involvement, else the next attacker's touch after the
        judged one (the receiver), else the last touch of the chain."""
        if self.involved_at is not None:
            return self.involved_at
        touches = self.s.touches
        chain = [step.index for step in self.v.chain if 0 <= step.index < len(touches)]
        for index in chain:
            if index <= self.judged_at:
                continue
            touch = touches[index]
            if touch.involvement or (touch.player is not None and self.s.is_attacker(touch.player)):
                return index
        return max([self.judged_at, *chain])

    def _receiver(self) -> PlayerJudgement | None:
        """With no offence, the team-mate the reason is about when he is not the nearest attacker:
        the first attacker to play the ball, or to interfere, after the judged touch."""
        if self.judgement is None or self.line is None or self.v.status is not Status.NO_OFFENCE:
            return None
        player = self.v.receiver
        judged = None if player is None else self.judgement.attackers.get(player)
        if player == self.focus or judged is None or not math.isfinite(judged.margin_m):
            return None
        return judged

    def player(self, player_id: str | None) -> Player | None:
        return None if player_id is None else self.s.players.get(player_id)

    def short(self, player_id: str | None) -> str:
        """A surname, else 'number 9', else the id; 'nobody' for no one."""
        player = self.player(player_id)
        if player is None:
            return player_id or "nobody"
        return player.short_label

    def position(self, player_id: str | None, index: int | None) -> Position | None:
        """Where a player was at a touch (None: not there, or no such touch)."""
        if player_id is None or index is None or not (0 <= index < len(self.s.touches)):
            return None
        return self.s.touches[index].positions.get(player_id)

    def is_attacker(self, player_id: str) -> bool:
        player = self.player(player_id)
        return player is not None and player.team == self.s.attacking_team

    def team_colour(self, player_id: str) -> str:
        player = self.s.players[player_id]
        attacking = player.team == self.s.attacking_team
        if player.goalkeeper:
            return style.GOALKEEPER_ATTACKING if attacking else style.GOALKEEPER_DEFENDING
        return style.ATTACKERS if attacking else style.DEFENDERS

    def setter_id(self) -> str | None:
        """The second-last opponent when he set the line, else None."""
        line = self.line
        if line is None or line.set_by is not LineSetter.SECOND_LAST_OPPONENT:
            return None
        return line.second_last

    def attacker(self) -> Figure | None:
        if self.focus is None:
            return None
        player = self.s.players[self.focus]
        reach = None if self.focus_judged is None else self.focus_judged.reach
        role = "offender" if self.v.offender == self.focus else "nearest attacker"
        return Figure(
            Side.PLAYER, player, role, player.team, part_name(reach), reach, style.ATTACKERS
        )

    def defender(self) -> Figure | None:
        """What set the line: the second-last opponent, the ball or the halfway line."""
        line = self.line
        if line is None:
            return None
        if line.set_by is LineSetter.BALL:
            return Figure(Side.BALL, None, "set the offside line", None, "ball", None, style.BALL)
        if line.set_by is LineSetter.HALFWAY_LINE:
            return Figure(
                Side.HALFWAY_LINE,
                None,
                "set the offside line",
                None,
                "halfway line",
                None,
                style.PITCH_LINES,
            )
        player = self.player(line.second_last)
        return Figure(
            Side.PLAYER,
            player,
            "second-last opponent",
            None if player is None else player.team,
            part_name(line.second_last_reach),
            line.second_last_reach,
            style.DEFENDERS,
        )

    # -- the line ----------------------------------------------------------------------------------

    def line_setter(self) -> str:
        """What set the offside line: 'the ball', 'the halfway line' or the opponent's name."""
        line = self.line
        if line is None:
            return ""
        if line.set_by is LineSetter.BALL:
            return "the ball"
        if line.set_by is LineSetter.HALFWAY_LINE:
            return "the halfway line"
        return self.short(line.second_last)

    def line_label(self, detail: bool = False, narrow: bool = False) -> str:
        """The offside line's label in every picture: 'offside line: Coates', 'offside line: the
        ball'; `narrow` puts what set it on a line of its own; with `detail`, a second line says
        which of the opponent's points set it."""
        line = self.line
        if line is None:
            return ""
        label = f"offside line{chr(10) if narrow else ': '}{self.line_setter()}"
        reach = line.second_last_reach
        if not detail or line.set_by is not LineSetter.SECOND_LAST_OPPONENT or reach is None:
            return label
        if reach.reference is Reference.LINE_CROSSED:
            return f"{label}\n2nd-last opponent, off the field: on the line"
        if reach.part is not None:
            return f"{label}\n2nd-last opponent, {reach.part.value.replace('_', ' ')}"
        return f"{label}\n2nd-last opponent"

    # -- how much ------------------------------------------------------------------------------

    @property
    def margin(self) -> float | None:
        margin = self.v.margin_m
        return margin if margin is not None and math.isfinite(margin) else None

    def margin_text(self) -> str:
        """'4 cm', '1.30 m'; '' when there is no margin."""
        margin = self.margin
        return "" if margin is None else distance(margin)

    def margin_caption(self) -> str:
        margin = self.margin
        if margin is None:
            return ""
        if margin > 0 and self.v.status is Status.UNDECIDABLE and self.v.unseen is not None:
            return "beyond the opponents seen"
        if margin > 0 and self.v.offender is None:
            return "beyond the line: not penalised"
        if margin > 0:
            return "beyond the offside line"
        if margin < 0:
            return "behind the offside line: onside"
        return "level with the offside line: onside"

    def reach_part(self) -> str:
        """Which point of the attacker was measured: 'left knee', 'off the field: on the line',
        or '' (his tracked position)."""
        judged = self.focus_judged
        if judged is None:
            return ""
        name = part_name(judged.reach)
        return "" if name == "tracked position" else name.replace("counts ", "")

    def reach_caption(self) -> str:
        """'Kane, left knee', 'Kane (off the field: on the line)', 'Kane'."""
        judged = self.focus_judged
        if judged is None:
            return ""
        who, part = self.short(judged.player), self.reach_part()
        if judged.reach.reference is Reference.LINE_CROSSED:
            return f"{who} ({part})"
        return f"{who}, {part}" if part else who

    # -- when ----------------------------------------------------------------------------------------

    def play_label(self, index: int | None = None) -> str:
        """'Emerson header' for a touch (the judged one by default)."""
        touch = self.s.touches[self.judged_at if index is None else index]
        action = touch.action.value.replace("_", " ")
        who = self.player(touch.player)
        return f"{who.short_label} {action}" if who is not None else action.capitalize()

    def played_label(self, index: int | None = None) -> str:
        """'Emerson headed it' for a touch (the judged one by default)."""
        touch = self.s.touches[self.judged_at if index is None else index]
        who = self.player(touch.player)
        verb = _PLAYED.get(touch.action.value, "played it")
        return f"{who.short_label} {verb}" if who is not None else f"the ball {verb}"

    # -- where ----------------------------------------------------------------------------------------

    def key_points(self) -> list[tuple[float, float]]:
        """What every view of the moment of play must hold: the ball from the judged touch on,
        the attacker there and where he became involved, his measured point (and the receiver's),
        the offside line beside him, and the opponent who set it."""
        touches = self.s.touches
        points = [
            (touches[i].ball_m[0], touches[i].ball_m[1]) for i in self.path if i >= self.judged_at
        ]
        for index in (self.judged_at, self.involved_at):
            where = self.position(self.focus, index)
            if where is not None:
                points.append((where.x_m, where.y_m))
        judged = self.focus_judged
        if judged is not None:
            points.append((judged.reach.x_m, judged.reach.y_m))
        if self.receiver is not None:
            points.append((self.receiver.reach.x_m, self.receiver.reach.y_m))
        line = self.line
        if line is not None:
            points.append(
                (line.x_m, judged.reach.y_m if judged is not None else self.touch.ball_m[1])
            )
            where = self.position(self.setter_id(), self.judged_at)
            if where is not None:
                points.append((where.x_m, where.y_m))
        return points

    # -- words -----------------------------------------------------------------------------------------

    def announcement(self) -> str:
        text = self.v.announcement.strip()
        if not text:
            return self.v.reason.strip()
        if text.endswith(":"):  # an announcement with its reason missing
            reason = self.v.reason.strip()
            return f"{text} {reason}" if reason else text[:-1] + "."
        return text

    def out_of_view(self, whole: bool = False) -> str:
        """The reason's sentence on what the camera did not see, as the verdict words it (the
        opponents out of view and where they would have to stand, or the attacker out of view),
        up to its first ';' (`whole`: with how often whole teams stood so, without the pointer
        to the docs); '' where none."""
        for sentence in _SENTENCES.split(self.v.reason.strip()):
            if "out of view" in sentence or "out of the camera's view" in sentence:
                if whole:
                    words = sentence.replace(", docs/uncertainty.md", "")
                else:
                    words = sentence.split("; ")[0].split(", some of it beyond")[0]
                return words.rstrip(".") + "."
        return ""

    def undecided(self) -> str:
        """What keeps an undecidable call open, in a few words for a headline: '1.74 m beyond
        the opponents seen; 5 out of view could stand deeper', 'Yilmaz out of the camera's view
        when Karaman passed it', or 'the offside line cannot be drawn'."""
        unseen, margin = self.v.unseen, self.margin
        if unseen is not None and margin is not None and margin > 0 and unseen.could_change:
            many = unseen.unseen
            return (
                f"{distance(margin)} beyond the opponents seen; "
                f"{many} out of view could stand deeper"
            )
        if self.touch.view is not None and self.judgement is not None:
            player = self.v.receiver
            if player is not None and player not in self.touch.positions:
                return f"{self.short(player)} out of the camera's view when {self.played_label()}"
        return "the offside line cannot be drawn"

    def match_line(self) -> str:
        """'Tottenham Hotspur 1-1 Sporting CP · 90+5′ · UEFA Champions League …'."""
        meta = self.s.meta
        get = getattr(meta, "get", None)
        if get is None:
            return ""
        parts = []
        for key in ("match", "minute", "competition"):
            value = get(key)
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                continue
            value = str(value).strip()
            if value:
                parts.append(f"{value}\u2032" if key == "minute" else value)
        return "  \u00b7  ".join(parts)

    def sentence(self) -> str:
        """One sentence: who was how far from what, when; for a call left open, what keeps it
        open."""
        if self.v.status is Status.UNDECIDABLE:
            words = self.undecided()
            if self.v.unseen is not None and words[:1].isdigit():
                words = f"{self.short(self.focus)} {words}"
            return words[:1].upper() + words[1:] + "."
        attacker, defender = self.attacker(), self.defender()
        margin = self.margin
        if attacker is None or defender is None or margin is None:
            if self.line is None and self.judgement is not None:
                return "Fewer than two opponents were tracked: the offside line cannot be drawn."
            return ""
        point = attacker.point
        owner = attacker.name
        if point and point != "tracked position" and not point.startswith("off the field"):
            owner = f"{attacker.name}\u2019s {point}"
        if defender.kind is Side.BALL:
            than = "the ball"
        elif defender.kind is Side.HALFWAY_LINE:
            than = "the halfway line"
        else:
            than = f"the second-last opponent ({defender.name})"
        when = f"when {self.played_label()}"
        if margin > 0 and self.v.offender is None:
            return (
                f"{owner} was {distance(margin)} beyond the offside line {when}, but not penalised."
            )
        if margin > 0:
            return f"{owner} was {distance(margin)} nearer the goal line than {than} {when}."
        if margin < 0:
            return f"{owner} was {distance(margin)} behind {than} {when}."
        return f"{owner} was level with {than} {when}."
