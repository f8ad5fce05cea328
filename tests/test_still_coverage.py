"""The still's 95% interval covers the true margin when the reviewer understates the click
error by half: the error the landmarks' residuals show is used for every click, widened for
being an estimate (Student's t). Issue 29 item 1.

The clicks are the shipped examples' exact projections (their truth in `meta`) with seeded
normal noise added here; the interval is checked against that truth, not against varroom's
own numbers."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from varroom.errors import InputError
from varroom.still.judge import judge_still
from varroom.still.marks import marks_from_dict

STILLS = Path(__file__).resolve().parent.parent / "examples" / "still"


def _clicked(marks: dict[str, Any], sd_px: float, rng: np.random.Generator) -> dict[str, Any]:
    """The marks as a hand clicks them: every pixel moved by N(0, sd_px) in x and in y."""
    out = copy.deepcopy(marks)
    for point in [*out["landmarks"], *out["marks"].values()]:
        point["pixel"] = [c + rng.normal(0.0, sd_px) for c in point["pixel"]]
    return out


@pytest.mark.parametrize("name", ["offside-by-20cm", "onside-by-15cm"])
@pytest.mark.parametrize("true_sd_px", [1.0, 3.0])
def test_the_interval_covers_the_truth_with_pixel_sd_understated_by_half(
    name: str, true_sd_px: float
) -> None:
    marks = json.loads((STILLS / f"{name}.marks.json").read_text())
    truth_m = marks["meta"]["truth_margin_m"]
    size = Image.open(STILLS / f"{name}.png").size
    rng = np.random.default_rng(29)
    covered = judged = refused = 0
    for _ in range(200):
        clicked = _clicked(marks, true_sd_px, rng)
        clicked["pixel_sd"] = true_sd_px / 2
        try:
            judged_still = judge_still(marks_from_dict(clicked, size))
        except InputError:  # clicks so far off that the camera misses them: refused, not judged
            refused += 1
            continue
        low_m, high_m = judged_still.verdict.uncertainty.margin_ci_m
        judged += 1
        covered += low_m <= truth_m <= high_m
    assert refused <= 5 and covered / judged >= 0.93, (covered, judged, refused)
