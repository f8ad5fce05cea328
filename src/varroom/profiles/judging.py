"""Each kind's judge under a profile: the profile's settings and policy handed to the engine's
judge of that kind (`varroom.kinds` names these). Each imports its own engine when called, so
that judging a situation never loads the penalty or ball-line engines."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from varroom.engine.policy import Policy, PolicyError
from varroom.errors import OptionError
from varroom.profiles.profile import Profile

if TYPE_CHECKING:
    from varroom.engine.ball_line_verdict import BallLineVerdict
    from varroom.engine.penalty_verdict import PenaltyVerdict
    from varroom.engine.verdict import Verdict
    from varroom.model.ball_line import BallLineCase
    from varroom.model.penalty import PenaltyKick
    from varroom.model.situation import Situation
    from varroom.still.judge import StillVerdict
    from varroom.still.marks import StillMarks


def judge_situation(situation: Situation, profile: Profile) -> Verdict:
    from varroom.engine.judge import judge

    return judge(situation, profile.law, profile.policy)


def judge_penalty_kick(kick: PenaltyKick, profile: Profile) -> PenaltyVerdict:
    from varroom.engine.penalty import judge_penalty

    return judge_penalty(kick, profile.penalty, profile.policy)


def judge_ball_line_case(case: BallLineCase, profile: Profile) -> BallLineVerdict:
    from varroom.engine.ball_line import judge_ball_line

    return judge_ball_line(case, profile.policy)


def judge_still_marks(marks: StillMarks, profile: Profile) -> StillVerdict:
    from varroom.still.judge import judge_still  # OpenCV and the calibration: only for a still

    return judge_still(marks, profile.policy, profile.law)


def with_policy(profile: Profile, policy_text: str | None) -> Profile:
    """The profile with another policy for tight calls (`--policy`), named so: the verdict
    records what it was judged under, never the profile's name for other settings."""
    if policy_text is None:
        return profile
    try:
        policy = Policy.parse(policy_text)
    except PolicyError as error:
        said = str(error).split(": ", 1)[1]  # the text is named by the option already
        raise OptionError("--policy", policy_text, f"unknown policy: {said}") from None
    if policy == profile.policy:
        return profile
    return dataclasses.replace(profile, name=f"{profile.name}+{policy}", policy=policy)
