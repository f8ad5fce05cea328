"""Time each picture of the Kane example beside a reference timed in the same run.

`bench_pictures()` returns seconds (the median of a few runs, after one warm-up run of each):
`picture_s_image` (the 2D picture, `varroom.pictures.decision.write_decision`), `picture_s_screen`,
`picture_s_clip_gif`, `picture_s_clip_mp4`, `picture_s_scene`, `picture_s_broadcast` (a
projection-matrix camera on a blank frame), and `reference_picture_s`: matplotlib saving an
empty 1600 x 1000 Figure to PNG. Goals: the 2D picture and the screen under 1 s, the clip and
the scene under 5 s.

Run alone: `python bench/pictures.py` prints the figures as JSON.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

import varroom  # noqa: E402


def _seconds(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm up: imports, font caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _reference() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(16, 10), dpi=100)
    FigureCanvasAgg(figure)
    figure.savefig(io.BytesIO(), format="png")


def bench_pictures(runs: int = 3) -> dict[str, float]:
    from varroom.model.camera import look_at
    from varroom.pictures import write_broadcast, write_clip, write_scene, write_screen
    from varroom.pictures.decision import write_decision

    situation = varroom.load_situation(KANE)
    verdict = varroom.judge(situation)
    camera = look_at((48.0, -68.0, 28.0), (47.0, -1.0, 0.0), 2900.0)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        results = {
            "reference_picture_s": _seconds(_reference, runs),
            "picture_s_image": _seconds(
                lambda: write_decision(situation, verdict, out / "kane.png"), runs
            ),
            "picture_s_screen": _seconds(
                lambda: write_screen(situation, verdict, out / "screen.png"), runs
            ),
            "picture_s_clip_gif": _seconds(
                lambda: write_clip(situation, verdict, out / "clip.gif"), runs
            ),
            "picture_s_clip_mp4": _seconds(
                lambda: write_clip(situation, verdict, out / "clip.mp4"), runs
            ),
            "picture_s_scene": _seconds(
                lambda: write_scene(situation, verdict, out / "scene.html"), runs
            ),
            "picture_s_broadcast": _seconds(
                lambda: write_broadcast(situation, verdict, camera, out / "broadcast.png"), runs
            ),
        }
    return results


if __name__ == "__main__":
    print(json.dumps(bench_pictures(), indent=2))
