"""Settled means proven (issue 21): on any complete 11 v 11 situation of the independent
generator (tests/football11.py) and any mask a broadcast camera, a freeze frame or a dropped
track makes of it, the masked verdict is `undecidable` or the complete one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import varroom
from football11 import count, generate, masks, oracle
from varroom.formats.situation_json import situation_from_dict


def _status(data: dict) -> tuple[str, str | None]:
    verdict = varroom.judge(situation_from_dict(data))
    return verdict.status.value, verdict.offender


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_product_reads_the_complete_situation_as_the_oracle_does(seed: int) -> None:
    case = generate(random.Random(seed))
    assert _status(case.data) == oracle(case.data, case.receiver, case.flow)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_masked_verdict_is_undecidable_or_the_complete_one(seed: int) -> None:
    rng = random.Random(seed)
    case = generate(rng)
    truth = oracle(case.data, case.receiver, case.flow)
    for kind, masked in masks(case, rng, 3):
        status = _status(masked)
        assert status[0] == "undecidable" or status == truth, (kind, masked)
        # Stronger: settled only where every placement of the unseen agrees.
        exact = oracle(masked, case.receiver, case.flow)
        assert status[0] == "undecidable" or status == exact, (kind, masked)


@pytest.mark.parametrize("seed", [21])
def test_the_oracles_count_on_a_seeded_sample(seed: int) -> None:
    """The figure BENCHMARKS.md reports for 300 situations, on a tenth of them here."""
    tally = count(30, seed)
    assert tally["complete_disagreements"] == 0
    assert tally["contradicting"] == 0
    # Never needlessly undecidable by more than the issue allows (3 points of the moments).
    assert tally["undecidable"] - tally["oracle_undecidable"] <= 0.03 * tally["moments"]
