"""How far the probability of an undecidable verdict can be trusted (issue 21): the whole-team
prior gives it, never the status. On football11's masked moments (tests/football11.py, the
same situations and masks as bench/unseen_oracle.py) that the engine leaves undecidable
because of the unseen, about the receiver, the predicted P(offside position) in bins against
the share the complete truth calls offside, and the Brier score beside that of one constant
guess, the share itself: below it, the prior tells more than the base rate does.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from unseen_oracle import MASKS_EACH, SEED, SITUATIONS  # noqa: E402

import varroom  # noqa: E402
from football11 import generate, masks, oracle  # noqa: E402
from varroom.engine.verdict import Cause, Status  # noqa: E402
from varroom.formats.situation_json import situation_from_dict  # noqa: E402

BINS = 10  # equal widths of probability, 0-0.1 to 0.9-1


def bench_unseen_calibration() -> dict[str, Any]:
    forecasts = _forecasts()
    return {
        "calibration_moments": len(forecasts),
        "calibration_brier": brier(forecasts),
        "calibration_brier_base_rate": brier_of_base_rate(forecasts),
        "calibration_bins": reliability(forecasts),
    }


def _forecasts() -> list[tuple[float, bool]]:
    """(P, truly offside) for every masked moment left undecidable by the unseen, about the
    receiver (the player the probability is about)."""
    rng = random.Random(SEED)
    found: list[tuple[float, bool]] = []
    for _ in range(SITUATIONS):
        case = generate(rng)
        truth = oracle(case.data, case.receiver, case.flow) == ("offence", case.receiver)
        for _kind, masked in masks(case, rng, MASKS_EACH):
            verdict = varroom.judge(situation_from_dict(masked))
            if (
                verdict.status is not Status.UNDECIDABLE
                or verdict.cause is not Cause.UNSEEN
                or verdict.nearest_attacker != case.receiver
                or verdict.uncertainty is None
                or verdict.uncertainty.probability != verdict.uncertainty.probability
            ):
                continue
            found.append((verdict.uncertainty.probability, truth))
    return found


def brier(forecasts: Sequence[tuple[float, bool]]) -> float:
    """The mean squared gap between each forecast and what happened (0 or 1)."""
    return sum((p - float(y)) ** 2 for p, y in forecasts) / len(forecasts)


def brier_of_base_rate(forecasts: Sequence[tuple[float, bool]]) -> float:
    """The Brier score of forecasting the share of offside ones every time."""
    share = sum(y for _, y in forecasts) / len(forecasts)
    return brier([(share, y) for _, y in forecasts])


def reliability(forecasts: Sequence[tuple[float, bool]]) -> list[dict[str, float | int]]:
    """Each non-empty bin of forecasts: its range, how many, their mean, the share offside."""
    rows = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [(p, y) for p, y in forecasts if low <= p < high or (b == BINS - 1 and p == 1)]
        if inside:
            rows.append(
                {
                    "low": low,
                    "high": high,
                    "count": len(inside),
                    "mean_p": sum(p for p, _ in inside) / len(inside),
                    "share_offside": sum(y for _, y in inside) / len(inside),
                }
            )
    return rows
