"""The judge gives the verdicts it gave at the golden file's revision (issue 26 item 3: the
judge vectorised, the same verdicts to the millimetre), on every example and on random
situations from tests/judge_golden.py's own generator. 1,000 of them by default (about 6 s);
all 10,000 with VARROOM_GOLDEN_ALL=1."""

from __future__ import annotations

import gzip
import json
import math
import os
from typing import Any

import pytest

from judge_golden import GOLDEN, examples, judged, random_situations

with gzip.open(GOLDEN, "rt") as _stream:
    _GOLDEN: dict[str, Any] = json.load(_stream)
_COUNT = len(_GOLDEN["random"]) if os.environ.get("VARROOM_GOLDEN_ALL") else 1_000


def _same(now: dict[str, Any], then: dict[str, Any]) -> bool:
    """Equal, P to 1e-9 (a rounding of the normal CDF is not a change of verdict)."""
    p_now, p_then = now.pop("p", None), then.pop("p", None)
    if (p_now is None) != (p_then is None):
        return False
    close = (
        p_now is None
        or math.isclose(p_now, p_then, rel_tol=0, abs_tol=1e-9)
        or (math.isnan(p_now) and math.isnan(p_then))
    )
    return close and now == then


@pytest.mark.parametrize("name", sorted(examples()))
def test_every_example_as_at_the_golden_revision(name: str) -> None:
    then = dict(_GOLDEN["examples"][name])
    now = judged(examples()[name])
    assert _same(now, then), (name, now, then)


def test_random_situations_as_at_the_golden_revision() -> None:
    texts = random_situations(len(_GOLDEN["random"]), _GOLDEN["seed"])[:_COUNT]
    differ = [
        k for k, text in enumerate(texts) if not _same(judged(text), dict(_GOLDEN["random"][k]))
    ]
    assert not differ, f"{len(differ)} of {_COUNT} differ, first {differ[:10]}"
