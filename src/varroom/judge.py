"""Walk a situation's touches through Law 11 and reach a verdict."""

from __future__ import annotations

from dataclasses import dataclass

from varroom.explain import explain
from varroom.judgement import Judgement, judge_positions
from varroom.law.offence import Involvement, gives_an_advantage, is_involved, resets_offside
from varroom.law.sanction import sanction
from varroom.settings import LawSettings, OfficialTouch
from varroom.situation import Action, Situation, Touch
from varroom.verdict import Effect, Status, Step, Verdict

DEFAULT_SETTINGS = LawSettings()


@dataclass(frozen=True, slots=True)
class _Offence:
    offender: str
    judgement: Judgement
    involved_at: int
    involvement: Involvement
    spot_m: tuple[float, float]


def judge(situation: Situation, settings: LawSettings = DEFAULT_SETTINGS) -> Verdict:
    """The decision Law 11 requires for a situation, with its margin and reason."""
    steps: list[Step] = []
    current: Judgement | None = None  # the judgement an offence can still come from
    last: Judgement | None = None  # the latest judgement, even after a reset
    key: Judgement | None = None  # the latest judgement an attacker then became involved after
    after_advantage = False
    offence: _Offence | None = None
    undecidable = False

    for index, touch in enumerate(situation.touches):
        by_attacker = touch.player is not None and situation.is_attacker(touch.player)
        if touch.action is Action.OFFICIAL and settings.official_touch is OfficialTouch.OUT_OF_PLAY:
            steps.append(_step(touch, index, Effect.OUT_OF_PLAY))
            break
        if by_attacker:
            assert touch.player is not None
            # A player's own earlier touch (receive, then shoot) is not the play he is judged at.
            if last is not None and situation.touches[last.index].player != touch.player:
                key = last
            if current is not None and not current.decidable:
                undecidable = True
            elif current is not None and current.can_be_penalised(touch.player):
                involvement = is_involved(True, False, after_advantage)
                assert involvement is not None
                offence = _Offence(
                    touch.player, current, index, involvement, (touch.ball_m[0], touch.ball_m[1])
                )
            if undecidable or offence:
                steps.append(_step(touch, index, Effect.OFFENCE if offence else Effect.JUDGEMENT))
                break
            # A new play by a team-mate sets up a new judgement (IFAB diagram 14).
            current = last = judge_positions(situation, index, settings)
            after_advantage = False
            effect = Effect.EXEMPT_RESTART if current.exempt_restart else Effect.JUDGEMENT
        else:
            effect = _opponent_effect(touch)
        # Interference is judged against the positions before an opponent's touch changes them.
        for fact in touch.involvement:
            if not situation.is_attacker(fact.player) or current is None:
                continue
            key = last
            if not current.decidable:
                undecidable = True
            elif current.can_be_penalised(fact.player):
                involvement = is_involved(False, True, after_advantage)
                assert involvement is not None
                offence = _Offence(
                    fact.player, current, index, involvement, _where(touch, fact.player)
                )
            if undecidable or offence:
                break
        if undecidable or offence:
            steps.append(_step(touch, index, Effect.OFFENCE if offence else effect))
            break
        steps.append(_step(touch, index, effect))
        if not by_attacker and resets_offside(touch.kind):
            current = None
        elif not by_attacker and gives_an_advantage(touch.kind):
            after_advantage = True

    return _verdict(situation, settings, tuple(steps), offence, key or last, undecidable)


def _opponent_effect(touch: Touch) -> Effect:
    if resets_offside(touch.kind):
        return Effect.RESET
    if touch.player is None:
        return Effect.REBOUND
    return Effect.SAVE if touch.action is Action.SAVE else Effect.DEFLECTION


def _step(touch: Touch, index: int, effect: Effect) -> Step:
    return Step(index, touch.player, touch.action.value, effect, touch.t_s, touch.ball_m)


def _where(touch: Touch, player: str) -> tuple[float, float]:
    """Where an interference happened: the player's own spot, else the ball's."""
    position = touch.positions.get(player)
    if position is None:
        return touch.ball_m[0], touch.ball_m[1]
    return position.x_m, position.y_m


def _verdict(
    situation: Situation,
    settings: LawSettings,
    chain: tuple[Step, ...],
    offence: _Offence | None,
    key: Judgement | None,
    undecidable: bool,
) -> Verdict:
    if offence is not None:
        restart, spot = sanction(offence.spot_m)
        judged = offence.judgement.attackers[offence.offender]
        status = Status.OFFENCE
        judgement, nearest = offence.judgement, offence.offender
        margin: float | None = judged.margin_m
        offender, involved_at, involvement = (
            offence.offender,
            offence.involved_at,
            offence.involvement,
        )
        restart_spot: tuple[float, float] | None = spot
        restart_kind = restart
    else:
        judgement = key
        closest = None if key is None or not key.decidable else key.nearest_attacker()
        nearest = None if closest is None else closest.player
        margin = None if closest is None else closest.margin_m
        status = Status.UNDECIDABLE if undecidable else Status.NO_OFFENCE
        offender = involved_at = involvement = restart_spot = restart_kind = None
    verdict = Verdict(
        status=status,
        offender=offender,
        judged_at=None if judgement is None else judgement.index,
        involved_at=involved_at,
        involvement=involvement,
        restart=restart_kind,
        restart_spot_m=restart_spot,
        margin_m=margin,
        nearest_attacker=nearest,
        judgement=judgement,
        chain=chain,
        reason="",
        law="11.2" if status is Status.OFFENCE else "11",
        settings=settings,
    )
    return explain(situation, verdict)
