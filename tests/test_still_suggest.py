"""The automatic landmark suggestion (OpenCV, the `still` extra) on a committed synthetic
still whose camera is known."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from varroom.still.judge import still_verdict
from varroom.synthetic.stills import EXAMPLE_SCENES, StillScene, marks

cv2 = pytest.importorskip("cv2")

from varroom.still.suggest import (  # noqa: E402
    LandmarkSuggestion,
    suggest_landmarks,
    suggest_players,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "still"


def _suggested_on_the_true_landmarks(
    image: np.ndarray, still: StillScene, at_least: int
) -> LandmarkSuggestion:
    """The suggestion for `image`, asserted to hold `at_least` landmarks, each within 5 px of
    where the still's camera puts it."""
    suggestion = suggest_landmarks(image)
    assert suggestion is not None
    assert len(suggestion.landmarks) >= at_least
    for (x, y), pixel in suggestion.landmarks:
        truth = still.camera.project([(x, y)])[0]
        assert np.hypot(*(np.array(pixel) - truth)) < 5.0, (x, y)
    return suggestion


def test_suggested_landmarks_lie_on_the_true_ones_and_judge_the_still():
    still = EXAMPLE_SCENES[0]
    image = np.asarray(Image.open(EXAMPLES / f"{still.name}.png").convert("RGB"))
    suggestion = _suggested_on_the_true_landmarks(image, still, at_least=8)
    data = {**marks(still), "landmarks": suggestion.to_json()}
    verdict = still_verdict(data, still.camera.size).verdict
    assert verdict.margin_m == pytest.approx(still.margin_m, abs=0.08)


def test_a_picture_without_pitch_lines_gets_no_suggestion():
    grass = np.zeros((540, 960, 3), np.uint8)
    grass[...] = (60, 140, 60)
    assert suggest_landmarks(grass) is None


@pytest.mark.parametrize("height_px, width_px", [(16, 16), (36, 64), (76, 200), (300, 38)])
def test_a_still_too_small_for_a_player_gets_no_player(height_px: int, width_px: int) -> None:
    # Smaller than the people detector's window (64 x 128 once scaled): OpenCV read outside
    # the picture and brought the review room down.
    grass = np.full((height_px, width_px, 3), (60, 140, 60), np.uint8)
    assert suggest_players(grass) == []


@pytest.mark.parametrize("camera", [0, 1])
def test_a_noisy_and_blurred_still_is_still_calibrated(camera: int) -> None:
    # Noise (SD 6 grey levels) and blur (1.2 px) break a far line, a pixel wide, into dashes
    # as faint as the noise: the suggestion smooths first and joins the dashes.
    from varroom.synthetic.stills import CAMERAS, render, scene

    still = scene("noisy", CAMERAS[camera], 0.20)
    image = render(still, np.random.default_rng(camera), noise_sd=6.0, blur_px=1.2)
    _suggested_on_the_true_landmarks(image, still, at_least=6)
