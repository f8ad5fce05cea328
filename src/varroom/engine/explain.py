"""The reason: a verdict in plain English a fan can follow, citing the Law."""

from __future__ import annotations

import dataclasses
from enum import Enum

from varroom.engine.judgement import Judgement, LineSetter, PlayerJudgement, Reference
from varroom.engine.policy import Policy, PolicyKind
from varroom.engine.unseen import STRIDE_M, TOP_SPEED_MPS, Proof, UnseenOpponents
from varroom.engine.verdict import Cause, Effect, Status, Step, Verdict
from varroom.law.offence import Involvement
from varroom.model.situation import Action, InvolvementKind, Situation

_PLAYED = {
    Action.PASS: "passed it",
    Action.SHOT: "shot",
    Action.HEADER: "headed it",
    Action.CROSS: "crossed it",
    Action.CLEARANCE: "cleared it",
    Action.DEFLECTION: "touched it",
    Action.SAVE: "saved it",
    Action.THROW_IN: "took the throw-in",
    Action.GOAL_KICK: "took the goal kick",
    Action.CORNER_KICK: "took the corner kick",
    Action.FREE_KICK: "took the free kick",
    Action.KICK_OFF: "took the kick-off",
    Action.PENALTY_KICK: "took the penalty kick",
    Action.DROPPED_BALL: "played the dropped ball",
}

_INTERFERES = {
    InvolvementKind.OBSTRUCTS_LINE_OF_VISION: "clearly obstructed an opponent's line of vision",
    InvolvementKind.CHALLENGES_OPPONENT: "challenged an opponent for the ball",
    InvolvementKind.ATTEMPTS_TO_PLAY_CLOSE: "clearly tried to play a ball close to him, affecting an opponent",
    InvolvementKind.OBVIOUS_ACTION_IMPACTING_OPPONENT: "made an obvious action that affected an opponent",
}

_RESTART_NAME = {
    Action.THROW_IN: "a throw-in",
    Action.GOAL_KICK: "a goal kick",
    Action.CORNER_KICK: "a corner kick",
}


def explain(situation: Situation, verdict: Verdict) -> Verdict:
    """The verdict with its reason, the Law paragraph that decided it, and what each touch of
    its chain did in words."""
    reason, law = _Explainer(situation, verdict).reason()
    reason += _assumptions(verdict)
    chain = tuple(
        dataclasses.replace(step, said=touch_said(situation, verdict, step))
        for step in verdict.chain
    )
    explained = dataclasses.replace(verdict, reason=reason, law=law, chain=chain)
    return dataclasses.replace(
        explained, announcement=_Explainer(situation, explained).announcement()
    )


_EFFECT_SAID = {
    Effect.JUDGEMENT: "team-mate's play",
    Effect.EXEMPT_RESTART: "no offence directly from it (11.3)",
    Effect.RESET: "deliberate play: resets offside",
    Effect.DEFLECTION: "deflection: no reset",
    Effect.SAVE: "save: no reset",
    Effect.REBOUND: "rebound: no reset",
    Effect.OUT_OF_PLAY: "ball out of play (Law 9)",
    Effect.OFFENCE: "offence",
}


def touch_said(situation: Situation, verdict: Verdict, step: Step) -> str:
    """What a touch of the chain did, in words: the touch the verdict judged positions at
    (`verdict.judged_at`) says so, the offence says how he was involved, and the player the
    verdict is about playing the ball himself is his own play, not a team-mate's."""
    if step.index == verdict.judged_at and verdict.judgement is not None:
        if step.effect is Effect.EXEMPT_RESTART:
            return "judged; no offence directly from it"
        return "positions judged"
    if step.effect is Effect.OFFENCE and verdict.involvement is not None:
        return f"offence: {verdict.involvement.value.replace('_', ' ')}"
    if step.effect is Effect.JUDGEMENT and step.player == focus_player(situation, verdict):
        return "his own play"
    return _EFFECT_SAID[step.effect]


def focus_player(situation: Situation, verdict: Verdict) -> str | None:
    """The player a verdict is about: its offender, else the attacker nearest to being one;
    undecidable with no margins, the attacker nearest the goal line attacked."""
    if verdict.offender is not None:
        return verdict.offender
    if verdict.nearest_attacker is not None:
        return verdict.nearest_attacker
    judgement = verdict.judgement
    if judgement is None or not judgement.attackers:
        return None
    sign = situation.attack_direction.sign
    return max(judgement.attackers.values(), key=lambda j: sign * j.reach.x_m).player


def _assumptions(verdict: Verdict) -> str:
    """Format 1.2: the assumption a settled verdict rests on, or what one would settle."""
    setting = f"setting unseen_goalkeeper: {verdict.settings.unseen_goalkeeper.value}"
    text = "".join(
        f" This rests on an assumption ({setting}): {assumption}." for assumption in verdict.assumed
    )
    would = verdict.would_be
    if would is not None:
        outcome = "an offside offence" if would.status is Status.OFFENCE else "no offence"
        text += f" Were it assumed that {would.assuming} ({would.setting}), it would be {outcome}."
    return text


def in_words(value: Enum | str) -> str:
    """A closed list's value as a person reads it: `goalkeeper_off_line` -> "goalkeeper off
    line" (the JSON keeps the value itself)."""
    return str(value.value if isinstance(value, Enum) else value).replace("_", " ")


def signed_distance(margin_m: float) -> str:
    """'+4 cm', '\u221235 cm', '+1.20 m'; '\u00b10 cm' for anything that rounds to nothing."""
    text = distance(margin_m)
    if text == "0 cm":
        return "\u00b10 cm"
    return ("+" if margin_m > 0 else "\u2212") + text


def counted(count: int, one: str, many: str = "") -> str:
    """A count and its noun, singular or plural as it should be: "1 match", "3 matches"."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def distance(margin_m: float) -> str:
    """A margin as people say it: centimetres under a metre."""
    size = abs(margin_m)
    if size < 1.0:
        return f"{round(size * 100)} cm"
    return f"{size:.2f} m"


class _Explainer:
    def __init__(self, situation: Situation, verdict: Verdict) -> None:
        self.s = situation
        self.v = verdict

    def name(self, player_id: str | None) -> str:
        if player_id is None:
            return "nobody"
        return self.s.players[player_id].short_label

    def play(self, judgement: Judgement) -> str:
        touch = self.s.touches[judgement.index]
        return f"{self.name(touch.player)} {_PLAYED.get(touch.action, 'played it')}"

    def line(self, judgement: Judgement) -> str:
        line = judgement.reference
        if line.set_by is LineSetter.BALL:
            return "the ball"
        if line.set_by is LineSetter.SECOND_LAST_OPPONENT:
            off = line.second_last_reach is not None and (
                line.second_last_reach.reference is Reference.LINE_CROSSED
            )
            where = (
                " (off the field without permission, counted on the line he crossed)" if off else ""
            )
            return f"{self.name(line.second_last)}, the second-last opponent{where},{self.off_field(judgement)}"
        return "the halfway line"

    def off_field(self, judgement: Judgement) -> str:
        """Defenders who left without permission and so count on a line (Law 11.4)."""
        assert judgement.line is not None
        away = [
            pid
            for pid, reach in judgement.defenders.items()
            if reach.reference is Reference.LINE_CROSSED and pid != judgement.line.second_last
        ]
        if not away:
            return ""
        names = " and ".join(self.name(pid) for pid in away)
        return f" with {names} off the field without permission counted on the line he crossed (Law 11.4),"

    def position(self, judged: PlayerJudgement, judgement: Judgement) -> str:
        """'Kane was 4 cm nearer the goal line than the ball when Emerson headed it.'"""
        who = self.name(judged.player)
        reach = judged.reach
        if reach.reference is Reference.LINE_CROSSED:
            who = f"{who} (off the field, counted on the line he crossed, Law 11.4)"
        elif reach.part is not None:
            who = f"{who}'s {reach.part.value.replace('_', ' ')}"
        when = f"when {self.play(judgement)}"
        if judged.margin_m > 0:
            return f"{who} was {distance(judged.margin_m)} nearer the goal line than {self.line(judgement)} {when}"
        if judged.margin_m == 0:
            return f"{who} was level with {self.line(judgement)} {when}, and level is onside"
        if judgement.reference.set_by is LineSetter.HALFWAY_LINE:
            return f"{who} was in his own half {when}"
        return (
            f"{who} was {distance(judged.margin_m)} behind {self.line(judgement)} {when}, so onside"
        )

    def touched(self, steps: list[Step]) -> str:
        """Who or what the ball touched: 'Coates', 'the woodwork'."""
        return " and ".join(
            self.name(step.player)
            if step.player is not None
            else ("the woodwork" if step.action == Action.WOODWORK.value else "a match official")
            for step in steps
        )

    def between(self, start: int, end: int) -> list[Step]:
        return [step for step in self.v.chain if start < step.index < end]

    def happened(self, steps: list[Step], offender: str) -> str:
        """Why the offside position still stood after the opponents' touches."""
        phrases = []
        mine = f"{self.name(offender)}'s offside position"
        for step in steps:
            if step.effect is Effect.DEFLECTION:
                phrases.append(
                    f"the ball then came off {self.name(step.player)} in a deflection, not a deliberate "
                    f"play, so {mine} was not reset"
                )
            elif step.effect is Effect.SAVE:
                phrases.append(
                    f"{self.name(step.player)} then made a deliberate save, which does not reset {mine}"
                )
            elif step.effect is Effect.REBOUND:
                what = (
                    "the woodwork" if step.action == Action.WOODWORK.value else "a match official"
                )
                phrases.append(f"the ball then rebounded off {what}, which does not reset {mine}")
        return "".join(f". {_capital(p)}" for p in phrases)

    def reason(self) -> tuple[str, str]:
        v = self.v
        if v.status is Status.OFFENCE:
            return self.offence(), "11.2"
        judgement = v.judgement
        if judgement is None:
            return (
                f"No player of {self.s.attacking_team} played the ball, so nobody could be "
                "penalised for offside (Law 11.2).",
                "11.2",
            )
        if v.status is Status.NO_OFFENCE:
            return self.no_offence(judgement)
        # Undecidable: the walk says whether the unseen or the missing line left it open.
        out_of_view = self.out_of_view(judgement, v.nearest_attacker)
        if v.cause is Cause.UNSEEN and out_of_view:
            return (
                f"{out_of_view}, some of it beyond the offside line the opponents in view "
                "draw: undecidable (Law 11.1).",
                "11.1",
            )
        if v.cause is Cause.UNSEEN and v.unseen is not None and v.nearest_attacker:
            judged = judgement.attackers[v.nearest_attacker]
            return (
                f"{self.position(judged, judgement)}, on the opponents in view. "
                f"{self.unseen(v.unseen, judged.player)}: undecidable (Law 11.1).",
                "11.1",
            )
        return (
            f"Fewer than two opponents are known to be on the pitch when {self.play(judgement)}, "
            "so the offside line cannot be drawn: undecidable (Law 11.1).",
            "11.1",
        )

    def offence(self) -> str:
        v = self.v
        assert v.judgement is not None and v.offender is not None and v.involved_at is not None
        judged = v.judgement.attackers.get(v.offender)
        if judged is None:  # out of view at the play, and beyond the line wherever he stood
            text = (
                f"{self.out_of_view(v.judgement, v.offender)}, all of it beyond the offside line "
                "wherever the players out of view stood"
            )
        else:
            text = self.position(judged, v.judgement)
        on_the_way = self.between(v.judgement.index, v.involved_at)
        text += self.happened(on_the_way, v.offender)
        restart = _RESTART_NAME.get(self.s.touches[v.judgement.index].action)
        if restart is not None and on_the_way:
            text += (
                f". He did not receive the ball directly from {restart}, which touched "
                f"{self.touched(on_the_way)} on the way, so Law 11.3 does not exempt him "
                "(setting restart_touched: ends_exemption)"
            )
        touch = self.s.touches[v.involved_at]
        if v.involvement is Involvement.INTERFERING_WITH_AN_OPPONENT or (
            v.involvement is Involvement.GAINING_AN_ADVANTAGE and touch.player != v.offender
        ):
            kind = next(f.kind for f in touch.involvement if f.player == v.offender)
            act = f"he {_INTERFERES[kind]}"
        elif v.involvement is Involvement.GAINING_AN_ADVANTAGE:
            act = "he then played the ball, gaining an advantage"
        else:
            act = "he then played the ball"
        where = ""
        if v.restart_spot_m is not None and self.s.attack_direction.sign * v.restart_spot_m[0] < 0:
            where = ", in his own half"
        unseen = (
            "" if v.unseen is None or v.unseen.hidden else f" {self.unseen(v.unseen, v.offender)}."
        )
        return (
            f"{text}; {act}: offside offence (Law 11.2).{unseen} Indirect free kick to "
            f"{self.s.defending_team} where the offence happened{where} (Law 11.4)."
        )

    def unseen(self, unseen: UnseenOpponents, player: str) -> str:
        """What the opponents out of view could change for `player`, in a sentence: who is
        unseen, and where he would have to stand."""
        team = self.s.defending_team
        who = self.name(player)
        if unseen.unseen == 0:
            return f"All of {team}'s players are in view"
        many = unseen.unseen
        out = f"{many} of {team}'s players {'is' if many == 1 else 'are'} out of view"
        if unseen.goalkeeper_unseen:
            out += ", the goalkeeper among them"
        sign = self.s.attack_direction.sign
        if unseen.needed == 0:
            return f"{out}; they could only stand deeper, which cannot make {who} offside"
        deeper = f"nearer the goal line than {who} (beyond x = {sign * unseen.depth_m:.1f} m)"
        some = "one of them" if unseen.needed == 1 else f"{unseen.needed} of them"
        if unseen.proof is Proof.OFFSIDE:
            if unseen.needed > unseen.unseen:
                return (
                    f"{out}: it would take {unseen.needed} players standing {deeper} to put him "
                    "onside, more than are out of view"
                )
            reach = 0.0 if unseen.deepest_m is None else sign * unseen.deepest_m
            return (
                f"{out}, but the ground out of the camera's view reaches no deeper than "
                f"x = {reach:.1f} m: none of them could stand {deeper}"
            )
        if unseen.proof is Proof.ONSIDE:
            shallow = 0.0 if unseen.shallowest_m is None else sign * unseen.shallowest_m
            return (
                f"{out}, and the camera saw the whole pitch short of x = {shallow:.1f} m: they "
                f"stood beyond it, {deeper}, which puts him onside"
            )
        where = (
            "even off the field over the goal line, where a defender who left without "
            "permission counts on it (Law 11.4)"
            if unseen.over_goal_line
            else f"up to x = {0.0 if unseen.deepest_m is None else sign * unseen.deepest_m:.1f} m"
        )
        if unseen.samples:
            many_there = "none" if unseen.hits == 0 else str(unseen.hits)
            seen = (
                f"{many_there} of {unseen.samples} whole teams seen in real play in these "
                "circumstances had that many there "
                f"(chance {_chance(unseen.probability_onside)}, docs/uncertainty.md)"
            )
        else:
            # No chance is said where nothing measured gives one: an even chance would be a
            # guess dressed as a figure.
            seen = (
                "no whole team seen in real play in these circumstances to weigh it by "
                "(docs/uncertainty.md)"
            )
        return (
            f"{out}: had {some} stood {deeper}, out of the camera's view ({where}), he would "
            f"be onside; {seen}"
        )

    def out_of_view(self, judgement: Judgement, player: str | None) -> str:
        """'Yilmaz was out of view when Karaman passed it: ... could have stood ...', for the
        attacker the verdict is about when he was not listed at the judged touch but out of
        view there (a `view`, or fewer listed than his team's size); '' otherwise."""
        touch = self.s.touches[judgement.index]
        unseen = self.v.unseen
        if player is None or unseen is None or not unseen.hidden or player in touch.positions:
            return ""
        later = next((t for t in self.s.touches[judgement.index + 1 :] if t.player == player), None)
        if later is None:
            return ""
        took_s = max(0.0, later.t_s - touch.t_s)
        reach_m = TOP_SPEED_MPS * took_s + STRIDE_M
        unseen_where = "out of the camera's view" if touch.view is not None else "not in the data"
        return (
            f"{self.name(player)} was {unseen_where} when {self.play(judgement)}, "
            f"and received the ball {took_s:.1f} s later at x = {later.ball_m[0]:.1f} m: at the "
            f"play he stood somewhere out of view within {reach_m:.0f} m of there"
        )

    def no_offence(self, judgement: Judgement) -> tuple[str, str]:
        """The reason for no offence, by what the walk found decided it (`Verdict.cause`)."""
        cause = self.v.cause
        receiver = self.v.receiver
        judged = None if receiver is None else judgement.attackers.get(receiver)
        if judged is None and cause is Cause.UNSEEN:
            return (
                f"{self.out_of_view(judgement, receiver)}, none of it beyond the offside line "
                "the opponents in view draw, and unseen opponents could only draw it deeper: "
                "onside, no offence (Law 11.1).",
                "11.1",
            )
        if judged is None:
            return self.nobody_involved(judgement)
        text = self.position(judged, judgement)
        if cause is Cause.EXEMPT_RESTART and (judged.offside_position or not judgement.decidable):
            return self.exempt(judgement, text)
        if cause in (Cause.ONSIDE, Cause.EXEMPT_RESTART):
            return (
                f"{text}: no offence (Law 11.1).{self.bystanders(judgement, judged.player)}",
                "11.1",
            )
        if cause is Cause.UNSEEN:
            assert self.v.unseen is not None
            return (
                f"{text}, on the opponents in view. {self.unseen(self.v.unseen, judged.player)}: "
                "onside, no offence (Law 11.1).",
                "11.1",
            )
        if cause is Cause.RESET:
            # The first deliberate play by an opponent after the judged touch: who reset it.
            reset = next(
                s for s in self.v.chain if s.index > judgement.index and s.effect is Effect.RESET
            )
            return (
                f"{text}, but {self.name(reset.player)} then deliberately played the ball "
                f"({reset.action.replace('_', ' ')}), which resets offside (Law 11.2): no offence.",
                "11.2",
            )
        return f"{text}, but {self.policy_excuse(judged)}: no offence.", "11.1"

    def nobody_involved(self, judgement: Judgement) -> tuple[str, str]:
        """No offence because no attacker became involved after the judged touch, or play
        stopped first (Law 9 setting)."""
        if not judgement.decidable:
            return (
                f"No team-mate played the ball after {self.play(judgement)}, so nobody could be "
                "penalised for offside (Law 11.2).",
                "11.2",
            )
        nearest = judgement.nearest_attacker()
        if nearest is None:
            return (
                f"No team-mate was on the pitch ahead of the ball when {self.play(judgement)}.",
                "11.1",
            )
        text = self.position(nearest, judgement)
        if self.v.cause is Cause.OUT_OF_PLAY and nearest.offside_position:
            return (
                f"{text}, but the ball then touched a match official and, under Law 9, play "
                "stopped for a dropped ball before he became involved: no offence.",
                "9",
            )
        if nearest.offside_position:
            return (
                f"{text}, but he did not become involved in active play: no offence (Law 11.2).",
                "11.2",
            )
        return f"{text}; no attacker was in an offside position (Law 11.1).", "11.1"

    def exempt(self, judgement: Judgement, text: str) -> tuple[str, str]:
        """No offence directly from a throw-in, goal kick or corner kick (Law 11.3)."""
        restart = _RESTART_NAME[self.s.touches[judgement.index].action]
        on_the_way = [
            step
            for step in self.v.chain
            if step.index > judgement.index
            and step.effect in (Effect.DEFLECTION, Effect.SAVE, Effect.REBOUND)
        ]
        if on_the_way:
            return (
                f"{text}; the ball from {restart} touched {self.touched(on_the_way)} on "
                "the way, not in a deliberate play, and under the setting restart_touched: "
                "keeps_exemption that still counts as received directly from it: no "
                "offside offence (Law 11.3).",
                "11.3",
            )
        return (
            f"{text}, but there is no offside offence when the ball is received directly "
            f"from {restart} (Law 11.3).",
            "11.3",
        )

    def policy_excuse(self, judged: PlayerJudgement) -> str:
        """Why a player in an offside position who became involved was not penalised: the
        competition's policy on tight calls (only policies other than the Law's own get here)."""
        policy = Policy.parse(self.v.policy)
        if policy.kind is PolicyKind.TOLERANCE:
            return (
                f"that is within the {distance(policy.tolerance_m)} tolerance of the "
                f"competition's policy ({policy})"
            )
        if policy.kind is PolicyKind.DAYLIGHT:
            return (
                "part of his body was still level with the line, and the competition's daylight "
                "policy penalises only when there is daylight between them"
            )
        chance = self.v.uncertainty.probability if self.v.uncertainty else float("nan")
        return (
            f"the chance that he was in an offside position is {chance:.0%}, short of the "
            f"{policy.confidence:.0%} the competition's policy ({policy}) requires, so the "
            "on-field decision stands"
        )

    def bystanders(self, judgement: Judgement, receiver: str) -> str:
        """Team-mates in an offside position who took no part: no offence (IFAB diagrams 2, 7)."""
        idle = [
            j
            for j in judgement.attackers.values()
            if j.offside_position and j.player != receiver and not judgement.exempt_restart
        ]
        if not idle:
            return ""
        names = ", ".join(f"{self.name(j.player)} ({distance(j.margin_m)})" for j in idle)
        verb = "was" if len(idle) == 1 else "were"
        return f" {names} {verb} in an offside position but not involved in active play (Law 11.2)."

    def called(self, player_id: str | None) -> str:
        """How the referee names a player in the stadium: by shirt number."""
        if player_id is None:
            return "nobody"
        player = self.s.players[player_id]
        return f"number {player.number}" if player.number is not None else player.short_label

    def announcement(self) -> str:
        """What the referee says in the stadium after the review (Law 11 in a sentence)."""
        v, s = self.v, self.s
        goal = s.on_field_decision == "goal"
        if v.status is Status.UNDECIDABLE:
            at = v.judgement
            if at is not None and self.out_of_view(at, v.nearest_attacker):
                return (
                    "After review, the decision on the field stands: the pictures cannot show "
                    f"where {self.called(v.nearest_attacker)} stood when the ball was played."
                )
            if v.unseen is not None:
                return (
                    "After review, the decision on the field stands: the pictures do not show "
                    f"enough of {s.defending_team}'s players to settle it."
                )
            return (
                "After review, the decision on the field stands: the tracking cannot show "
                "where the second-last defender was."
            )
        judgement = v.judgement
        passer = None if judgement is None else s.touches[judgement.index]
        play = (
            ""
            if passer is None
            else (f" when {self.called(passer.player)} {_PLAYED.get(passer.action, 'played it')}")
        )
        if v.status is Status.OFFENCE:
            opening = "the goal is disallowed" if goal else "the decision is offside"
            text = f"After review, {opening}: {self.called(v.offender)} was in an offside position{play}"
            assert judgement is not None and v.involved_at is not None
            for step in self.between(judgement.index, v.involved_at):
                if step.effect is Effect.DEFLECTION:
                    text += (
                        f"; the touch by {self.called(step.player)} was a deflection, "
                        "not a deliberate play"
                    )
                elif step.effect is Effect.SAVE:
                    text += (
                        f"; a deliberate save by {self.called(step.player)} does not change that"
                    )
            return text + ". The restart is an indirect free kick."
        if s.on_field_decision == "offside":
            opening = "the offside decision is overturned"
        else:
            opening = "the goal stands" if goal else "there is no offside offence"
        if v.margin_m is not None and v.margin_m <= 0 and v.nearest_attacker is not None:
            return f"After review, {opening}: {self.called(v.nearest_attacker)} was onside{play}."
        if judgement is not None and judgement.exempt_restart:
            restart = _RESTART_NAME[s.touches[judgement.index].action]
            touched = any(
                st.index > judgement.index
                and st.effect in (Effect.DEFLECTION, Effect.SAVE, Effect.REBOUND)
                for st in v.chain
            )
            return (
                f"After review, {opening}: the ball came from {restart}, and under the "
                "competition's setting a touch on the way does not change that: no offside "
                "offence."
                if touched
                else f"After review, {opening}: there is no offside offence when the ball is "
                f"received directly from {restart}."
            )
        reset = next((st for st in v.chain if st.effect is Effect.RESET), None)
        if reset is not None and judgement is not None and reset.index > judgement.index:
            return (
                f"After review, {opening}: the ball was deliberately played by "
                f"{self.called(reset.player)}, which resets offside."
            )
        if v.nearest_attacker is not None and judgement is not None and judgement.decidable:
            receiver = v.receiver
            if receiver == v.nearest_attacker:  # involved, in an offside position: the policy
                judged = judgement.attackers[receiver]
                return (
                    f"After review, {opening}: {self.called(receiver)} was in an offside "
                    f"position{play}, but {self.policy_excuse(judged)}."
                )
            onside = (
                ""
                if receiver in (None, v.nearest_attacker)
                else (f"; {self.called(receiver)}, who played the ball, was onside")
            )
            return (
                f"After review, {opening}: {self.called(v.nearest_attacker)} was in an "
                f"offside position{play} but was not involved in active play{onside}."
            )
        return f"After review, {opening}. {self.v.reason}"


def _chance(probability: float) -> str:
    """A chance as people say it, never rounded to a certainty it is not."""
    if probability >= 0.995:
        return "over 99%"
    if probability <= 0.005:
        return "under 1%" if probability > 0 else "nil"
    return f"{probability:.0%}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
