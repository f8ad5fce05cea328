"""`varroom still --json` on a 1920x1080 still against `varroom check --json` on the situation
its marks give (interleaved runs, medians), and, when OpenCV is installed, the automatic
landmark suggestion measured on synthetic stills (docs/still.md)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
MARKS = ROOT / "examples" / "still" / "offside-by-20cm.marks.json"


def _wall_s(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def bench_still(runs: int = 7) -> dict[str, Any]:
    varroom_bin = str(Path(sys.executable).with_name("varroom"))
    still = [varroom_bin, "still", str(STILL), "--marks", str(MARKS), "--json"]
    answer = json.loads(subprocess.run(still, check=True, capture_output=True).stdout)
    with tempfile.TemporaryDirectory() as tmp:
        situation = Path(tmp) / "situation.json"
        situation.write_text(json.dumps(answer["situation"]))
        check = [varroom_bin, "check", str(situation), "--json"]
        still_s, check_s = [], []
        for _ in range(runs):  # interleaved: both see the same machine load
            still_s.append(_wall_s(still))
            check_s.append(_wall_s(check))
    results: dict[str, Any] = {
        "still_json_wall_s": statistics.median(still_s),
        "reference_check_same_situation_wall_s": statistics.median(check_s),
    }
    try:
        import cv2  # noqa: F401  (OpenCV is optional: the `still` extra)
    except ImportError:
        return results
    results.update(measure_suggestions())
    return results


WITHIN_PX = 5.0


def measure_suggestions(seed: int = 14) -> dict[str, Any]:
    """The landmark suggestion on synthetic stills from every synthetic camera, clean and with
    noise and blur: landmark recall (suggested within WITHIN_PX of the truth), the ground error
    in cm over the penalty area (the truth pixel of each point mapped back through the suggested
    homography), and the HOG detector's player recall (a foot within 25 px)."""
    import numpy as np

    from varroom.still.pitch_model import GROUND_LANDMARKS
    from varroom.still.suggest import suggest_landmarks, suggest_players
    from varroom.synthetic.stills import CAMERAS, render, scene

    rng = np.random.default_rng(seed)
    grid = np.array(
        [(x, y) for x in np.linspace(36.0, 52.5, 12) for y in np.linspace(-20.16, 20.16, 12)]
    )
    found = visible = players_found = players = 0
    medians, worst, failed, rows = [], [], 0, []
    for k, camera in enumerate(CAMERAS):
        for noise_sd, blur_px in ((0.0, 0.0), (6.0, 1.2)):
            still = scene(f"bench-{k}", camera, 0.20)
            image = render(still, rng, noise_sd=noise_sd, blur_px=blur_px)
            truth = camera.project(list(GROUND_LANDMARKS))
            shown = camera.visible(truth)
            visible += int(shown.sum())
            suggestion = suggest_landmarks(image)
            row = {"camera": k, "k1": camera.k1, "noise_sd": noise_sd, "blur_px": blur_px}
            if suggestion is None:
                failed += 1
                rows.append({**row, "calibrated": False})
                continue
            suggested = dict(suggestion.landmarks)
            for point, uv in zip(GROUND_LANDMARKS, truth, strict=True):
                if point in suggested and np.all(np.isfinite(uv)):
                    found += int(np.hypot(*(np.array(suggested[point]) - uv)) <= WITHIN_PX)
            pixels = camera.project(grid)
            keep = camera.visible(pixels)
            q = (
                np.column_stack([pixels[keep], np.ones(keep.sum())])
                @ np.linalg.inv(suggestion.homography).T
            )
            error_cm = 100 * np.hypot(*(q[:, :2] / q[:, 2:3] - grid[keep]).T)
            median = float(np.median(error_cm))
            if median > 100.0:  # a wrong fit, not an imprecise one
                failed += 1
            else:
                medians.append(median)
                worst.append(float(error_cm.max()))
            feet = camera.project([(f.x_m, f.y_m) for f in still.figures])
            guesses = np.array(suggest_players(image)).reshape(-1, 2)
            for foot in feet[camera.visible(feet)]:
                players += 1
                players_found += int(len(guesses) > 0 and np.hypot(*(guesses - foot).T).min() < 25)
            rows.append(
                {
                    **row,
                    "calibrated": median <= 100.0,
                    "ground_cm_median": round(median, 1),
                    "ground_cm_max": round(float(error_cm.max()), 1),
                    "line_error_px": round(suggestion.line_error_px, 2),
                }
            )
    return {
        "still_suggest_stills": len(rows),
        "still_suggest_failed": failed,
        "still_suggest_recall": found / max(visible, 1),
        "still_suggest_within_px": WITHIN_PX,
        "still_suggest_ground_cm_median": float(np.median(medians)) if medians else float("nan"),
        "still_suggest_ground_cm_max": max(worst) if worst else float("nan"),
        "still_suggest_player_recall": players_found / max(players, 1),
        "still_suggest_rows": rows,
    }
