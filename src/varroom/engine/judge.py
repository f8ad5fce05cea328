"""Walk a situation's touches through Law 11 and reach a verdict."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from varroom.engine.explain import explain
from varroom.engine.judgement import Judgement, PlayerJudgement, judge_positions
from varroom.engine.policy import IFAB, STANDARD_POLICIES, Policy
from varroom.engine.uncertainty import MarginNoise, margin_noise
from varroom.engine.unseen import Proof, UnseenOpponents, unseen_opponents
from varroom.engine.verdict import Cause, Effect, Status, Step, Verdict, WouldBe
from varroom.law.offence import Involvement, gives_an_advantage, is_involved, resets_offside
from varroom.law.restarts import still_directly
from varroom.law.sanction import sanction
from varroom.model.settings import LawSettings, OfficialTouch, UnseenGoalkeeper
from varroom.model.situation import Action, Situation, Touch
from varroom.model.situation import Involvement as Fact

DEFAULT_SETTINGS = LawSettings()

# Whether a player's position at a judgement can be penalised (None when players out of view
# leave it open), and what decided it.
Penalisable = Callable[[Judgement, str, int], tuple[bool | None, Cause]]


@dataclass(frozen=True, slots=True)
class _Offence:
    offender: str
    judgement: Judgement
    involved_at: int
    involvement: Involvement
    spot_m: tuple[float, float]


@dataclass(frozen=True, slots=True)
class _Walk:
    chain: tuple[Step, ...]
    offence: _Offence | None
    key: Judgement | None  # the judgement the verdict is about
    undecidable: bool
    # The attacker the verdict is about and the touch he became involved at: the offender,
    # the one the data left undecided, or the first judged against `key`; None if nobody was.
    subject: tuple[str, int] | None = None
    cause: Cause = Cause.NOT_INVOLVED  # what decided it about him

    @property
    def status(self) -> Status:
        if self.offence is not None:
            return Status.OFFENCE
        return Status.UNDECIDABLE if self.undecidable else Status.NO_OFFENCE


class _SituationJudgements:
    """One situation under one set of settings: its judgements, each attacker's noise model
    and P(offside position), computed once and shared by every policy's walk."""

    def __init__(self, situation: Situation, settings: LawSettings) -> None:
        self.situation = situation
        self.settings = settings
        self.on_field_offside = situation.on_field_decision == "offside"
        self._judgements: dict[int, Judgement] = {}
        self._noise: dict[tuple[int, str], MarginNoise | None] = {}
        self._probabilities: dict[tuple[int, str], float] = {}
        self._unseen: dict[tuple[int, str, int], UnseenOpponents | None] = {}
        self.saw_unseen = False  # whether any judgement met players out of view

    def positions(self, index: int) -> Judgement:
        if index not in self._judgements:
            self._judgements[index] = judge_positions(self.situation, index, self.settings)
        return self._judgements[index]

    def noise(self, judgement: Judgement, player: str) -> MarginNoise | None:
        key = (judgement.index, player)
        if key not in self._noise:
            self._noise[key] = margin_noise(self.situation, judgement, player, self.settings)
        return self._noise[key]

    def unseen(self, judgement: Judgement, player: str, at_index: int) -> UnseenOpponents | None:
        """The unseen players' effect on `player`, who became involved at `at_index` (which
        matters only for an attacker out of view at the play: it bounds where he stood)."""
        hidden = player not in judgement.attackers
        key = (judgement.index, player, at_index if hidden else -1)
        if key not in self._unseen:
            found = unseen_opponents(self.situation, judgement, player, at_index, self.settings)
            self._unseen[key] = found
            self.saw_unseen = self.saw_unseen or found is not None
        return self._unseen[key]

    def probability(self, judgement: Judgement, player: str) -> float:
        """P(offside position): the measured positions and the moment of play, and the chance
        that no unseen opponent stands where he would put the player onside."""
        key = (judgement.index, player)
        if key not in self._probabilities:
            noise = self.noise(judgement, player)
            unseen = self.unseen(judgement, player, judgement.index)
            seen = float("nan") if noise is None else noise.probability()
            kept = 1.0 if unseen is None else 1.0 - unseen.probability_onside
            self._probabilities[key] = seen * kept
        return self._probabilities[key]

    def penalisable(self, policy: Policy) -> Penalisable:
        """Law 11.2 and 11.3, with the policy deciding what counts as an offside position; on
        partial data only what every placement of the unseen agrees on (format 1.2)."""

        def check(judgement: Judgement, player: str, at_index: int) -> tuple[bool | None, Cause]:
            touch = self.situation.touches[judgement.index]
            # Law 11.3 first; and a player's own touch is not a team-mate's play.
            if judgement.exempt_restart:
                return False, Cause.EXEMPT_RESTART
            if touch.player == player:
                return False, Cause.NOT_INVOLVED
            unseen = self.unseen(judgement, player, at_index)
            judged = judgement.attackers.get(player)
            if judged is None:
                # Not listed: off the pitch at the play, or out of view (then bounded).
                if unseen is None:
                    return False, Cause.NOT_INVOLVED
                return _proven(unseen.proof), Cause.UNSEEN
            reference = self.situation.attack_direction.sign * judgement.reference.x_m
            if unseen is not None:
                low, high = unseen.line_low_m, unseen.line_high_m
            elif judgement.line is not None:
                low = high = reference
            else:  # fewer than two opponents on the pitch: only the ball and halfway line
                low, high = reference, float("inf")

            def counts(line_m: float) -> bool:
                measured = _against(judged, reference, line_m)
                return measured.offside_position and policy.offside(
                    measured, lambda: self.probability(judgement, player), self.on_field_offside
                )

            if counts(high):
                return True, Cause.OFFENCE
            if not counts(low):
                if _against(judged, reference, low).offside_position:
                    return False, Cause.POLICY
                # Onside only because of where the unseen must stand, or on the players listed.
                return False, Cause.UNSEEN if judged.offside_position else Cause.ONSIDE
            return None, Cause.NO_LINE if unseen is None else Cause.UNSEEN

        return check

    def walk(self, penalisable: Penalisable) -> _Walk:
        situation, settings = self.situation, self.settings
        steps: list[Step] = []
        current: Judgement | None = None  # the judgement an offence can still come from
        last: Judgement | None = None  # the latest judgement, even after a reset
        key: Judgement | None = None  # the latest judgement an attacker became involved after
        after_advantage = False
        offence: _Offence | None = None
        undecidable = False

        # The first attacker judged against each judgement, and where he became involved; what
        # decided each judgement of an attacker (none: offside was reset before he played).
        first: dict[int, tuple[str, int]] = {}
        decided: tuple[str, int] | None = None
        causes: dict[tuple[str, int], Cause] = {}
        ended = False  # play stopped (Law 9) before the walk was settled

        def involved(player: str, index: int, plays: bool, spot: tuple[float, float]) -> bool:
            """Judge `player` becoming involved (playing the ball, or interfering) against the
            phase as it stands; True once the walk is settled: an offence, or undecidable."""
            nonlocal undecidable, offence, decided
            assert current is not None
            settled, causes[(player, index)] = penalisable(current, player, index)
            if settled is None:
                undecidable = True
                decided = (player, index)
            elif settled:
                decided = (player, index)
                involvement = is_involved(plays, not plays, after_advantage)
                assert involvement is not None
                offence = _Offence(player, current, index, involvement, spot)
            return undecidable or offence is not None

        def interferes(facts: tuple[Fact, ...], index: int, touch: Touch) -> bool:
            """Judge stated interference against the phase as it stands; True once settled."""
            nonlocal key
            for fact in facts:
                if not situation.is_attacker(fact.player) or current is None:
                    continue
                key = last
                if key is not None:
                    first.setdefault(key.index, (fact.player, index))
                if involved(fact.player, index, False, _where(touch, fact)):
                    return True
            return False

        for index, touch in enumerate(situation.touches):
            # Interference stated between the previous touch and this one (format 1.1 `t`)
            # is judged before this touch changes the phase.
            before = tuple(f for f in touch.involvement if f.t_s is not None and f.t_s < touch.t_s)
            if before and interferes(before, index, touch):
                steps.append(_step(touch, index, Effect.OFFENCE if offence else Effect.JUDGEMENT))
                break
            by_attacker = touch.player is not None and situation.is_attacker(touch.player)
            if (
                touch.action is Action.OFFICIAL
                and settings.official_touch is OfficialTouch.OUT_OF_PLAY
            ):
                steps.append(_step(touch, index, Effect.OUT_OF_PLAY))
                ended = True
                break
            if by_attacker:
                assert touch.player is not None
                # A player's own earlier touch (receive, then shoot) is not the play he is
                # judged at.
                if last is not None and situation.touches[last.index].player != touch.player:
                    key = last
                    first.setdefault(last.index, (touch.player, index))
                if current is not None:
                    involved(touch.player, index, True, (touch.ball_m[0], touch.ball_m[1]))
                if undecidable or offence:
                    steps.append(
                        _step(touch, index, Effect.OFFENCE if offence else Effect.JUDGEMENT)
                    )
                    break
                # A new play by a team-mate sets up a new judgement (IFAB diagram 14).
                current = last = self.positions(index)
                after_advantage = False
                effect = Effect.EXEMPT_RESTART if current.exempt_restart else Effect.JUDGEMENT
            else:
                effect = _opponent_effect(touch)
            # Interference is judged against the positions before an opponent's touch changes
            # them.
            at = tuple(f for f in touch.involvement if f.t_s is None or f.t_s >= touch.t_s)
            if interferes(at, index, touch):
                steps.append(_step(touch, index, Effect.OFFENCE if offence else effect))
                break
            steps.append(_step(touch, index, effect))
            if not by_attacker and resets_offside(touch.kind):
                current = None
            elif not by_attacker and gives_an_advantage(touch.kind):
                after_advantage = True
                if current is not None and current.exempt_restart and not still_directly(settings):
                    current = dataclasses.replace(current, exempt_restart=False)

        about = key or last
        subject = decided or (None if about is None else first.get(about.index))
        if subject is not None:
            # Judged against `about` with no cause recorded: he played it after a reset.
            cause = causes.get(subject, Cause.RESET)
        else:
            cause = Cause.OUT_OF_PLAY if ended else Cause.NOT_INVOLVED
        return _Walk(tuple(steps), offence, about, undecidable, subject, cause)


def judge(
    situation: Situation, settings: LawSettings = DEFAULT_SETTINGS, policy: Policy = IFAB
) -> Verdict:
    """The decision Law 11 requires for a situation, with its margin, uncertainty and reason."""
    judgements = _SituationJudgements(situation, settings)
    walk = judgements.walk(judgements.penalisable(policy))
    outcomes = {
        str(other): (
            walk.status
            if other == policy
            else judgements.walk(judgements.penalisable(other)).status
        )
        for other in dict.fromkeys((policy, *STANDARD_POLICIES))
    }
    assumed, would_be = _assumptions(judgements, walk.status, policy)
    return _verdict(judgements, walk, policy, outcomes, assumed, would_be)


def _assumptions(
    judgements: _SituationJudgements, status: Status, policy: Policy
) -> tuple[tuple[str, ...], WouldBe | None]:
    """Format 1.2: what a verdict on partial data rests on. A verdict the default would leave
    undecidable names the unseen goalkeeper's setting that settled it (`assumed`); one left
    undecidable says what the first other setting that settles it would make it (`would_be`)."""
    if not judgements.saw_unseen:
        return (), None
    settings = judgements.settings

    def status_under(goalkeeper: UnseenGoalkeeper) -> Status:
        other = _SituationJudgements(
            judgements.situation, dataclasses.replace(settings, unseen_goalkeeper=goalkeeper)
        )
        return other.walk(other.penalisable(policy)).status

    chosen = settings.unseen_goalkeeper
    if status is not Status.UNDECIDABLE:
        if chosen is UnseenGoalkeeper.ANYWHERE:
            return (), None
        rests = status_under(UnseenGoalkeeper.ANYWHERE) is Status.UNDECIDABLE
        return ((chosen.assumption,) if rests else ()), None
    for goalkeeper in UnseenGoalkeeper:
        if goalkeeper in (chosen, UnseenGoalkeeper.ANYWHERE):
            continue
        settled = status_under(goalkeeper)
        if settled is not Status.UNDECIDABLE:
            return (), WouldBe(
                settled, goalkeeper.assumption, f"unseen_goalkeeper: {goalkeeper.value}"
            )
    return (), None


def _proven(proof: Proof) -> bool | None:
    return {Proof.OFFSIDE: True, Proof.ONSIDE: False, Proof.OPEN: None}[proof]


def _against(judged: PlayerJudgement, reference_m: float, line_m: float) -> PlayerJudgement:
    """His judgement measured against a line at depth `line_m` instead of `reference_m`."""
    shift = reference_m - line_m
    margin = judged.margin_m + shift
    # Built directly: dataclasses.replace, called for every policy at every check, cost the
    # judge a tenth of its time.
    return PlayerJudgement(
        judged.player,
        bool(margin > 0),
        margin,
        judged.reach,
        judged.daylight_margin_m + shift,
    )


def _opponent_effect(touch: Touch) -> Effect:
    if resets_offside(touch.kind):
        return Effect.RESET
    if touch.player is None:
        return Effect.REBOUND
    return Effect.SAVE if touch.action is Action.SAVE else Effect.DEFLECTION


def _step(touch: Touch, index: int, effect: Effect) -> Step:
    return Step(index, touch.player, touch.action.value, effect, touch.t_s, touch.ball_m)


def _where(touch: Touch, fact: Fact) -> tuple[float, float]:
    """Where an interference happened: where the data puts him then, else his spot at the
    touch, else the ball's."""
    if fact.at_m is not None:
        return fact.at_m
    position = touch.positions.get(fact.player)
    if position is None:
        return touch.ball_m[0], touch.ball_m[1]
    return position.x_m, position.y_m


def _verdict(
    judgements: _SituationJudgements,
    walk: _Walk,
    policy: Policy,
    outcomes: dict[str, Status],
    assumed: tuple[str, ...],
    would_be: WouldBe | None,
) -> Verdict:
    offence = walk.offence
    restart = restart_spot = offender = involved_at = involvement = None
    if offence is not None:
        restart, restart_spot = sanction(offence.spot_m)
        judgement: Judgement | None = offence.judgement
        player: str | None = offence.offender
        offender, involved_at, involvement = player, offence.involved_at, offence.involvement
    else:
        judgement = walk.key
        closest = (
            None if judgement is None or not judgement.decidable else judgement.nearest_attacker()
        )
        player = None if closest is None else closest.player
        if walk.undecidable and walk.subject is not None:
            player = walk.subject[0]
    # The unseen block is about the player the reason names: the offender, the one the data
    # left undecided, the receiver; else the nearest attacker.
    subject = walk.subject
    if subject is None and player is not None and judgement is not None:
        subject = (player, judgement.index)
    judged = None if judgement is None or player is None else judgement.attackers.get(player)
    margin = None if judged is None else judged.margin_m
    spread = unseen = None
    if judgement is not None and subject is not None:
        unseen = judgements.unseen(judgement, *subject)
    if judgement is not None and player is not None:
        noise = judgements.noise(judgement, player)
        if noise is not None:
            spread = noise.uncertainty(judgements.probability(judgement, player))
    verdict = Verdict(
        status=walk.status,
        offender=offender,
        judged_at=None if judgement is None else judgement.index,
        involved_at=involved_at,
        involvement=involvement,
        restart=restart,
        restart_spot_m=restart_spot,
        margin_m=margin,
        nearest_attacker=player,
        judgement=judgement,
        chain=walk.chain,
        reason="",
        law="",
        settings=judgements.settings,
        uncertainty=spread,
        policy=str(policy),
        policy_outcomes=outcomes,
        tracking=judgements.situation.tracking,
        unseen=unseen,
        receiver=None if walk.subject is None else walk.subject[0],
        assumed=assumed,
        would_be=would_be,
        cause=walk.cause,
    )
    return explain(judgements.situation, verdict)
