"""The pictures of the other Laws read as well as the offside ones (issue 8, item 6): every
penalty example (the picture `--image` writes and the stadium screen), every ball-line example
(the goal-line-technology view and its screen) and every still example (the still with the line
drawn), measured as drawn, in display pixels, with the checks of tests/test_legibility.py:

- no label's box covers a marker, or another label;
- everything drawn lies inside the figure, and a name on a pitch inside that pitch;
- no colour is written in the modules: they take theirs from `varroom.pictures.style`.

Each picture is drawn once per example (module-scoped fixtures); nothing is written to disk.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

import varroom
from test_legibility import Drawn, Rules, _clashes, _everything, _inside, measure
from varroom.pictures import ball_line, penalty, still
from varroom.still.judge import judge_still
from varroom.still.marks import load_marks

EXAMPLES = Path(__file__).parents[1] / "examples"
PENALTIES = sorted((EXAMPLES / "penalty").glob("*.json"))
BALL_LINES = sorted((EXAMPLES / "ball-line").glob("*.json"))
STILLS = sorted((EXAMPLES / "still").glob("*.marks.json"))

PENALTY = Rules(
    markers=r"penalty-(player:.*|ball|encroached:.*|foot:.*|keeper)",
    labels=r"penalty-(name:.*|foot-label:.*|margin|title|reason|announcement)",
    numbers=r"^$",
    on_top=r"^$",
    held=r"penalty-(player:.*|ball|name:.*|foot-label:.*|margin)",
)
BALL_LINE = Rules(
    markers=r"ball-line-ball:.*",
    labels=r"ball-line-(headline|screen-.*)",
    numbers=r"^$",
    on_top=r"^$",
    held=r"ball-line-ball:.*",
)
STILL = Rules(
    markers=r"still-(player:.*|ball)",
    labels=r"still-(name:.*|headline|detail)",
    numbers=r"^$",
    on_top=r"^$",
    held=r"still-(player:.*|ball|name:.*)",
)


def _measured(figure: Figure, rules: Rules) -> Drawn:
    figure.canvas.draw()  # type: ignore[no-untyped-call]
    return measure(_everything(figure), figure, rules)


def _penalty(path: Path) -> dict[str, Drawn]:
    kick = varroom.load_penalty_kick(path)
    verdict = varroom.judge_penalty(kick)
    return {
        "picture": _measured(penalty.draw_penalty_picture(kick, verdict), PENALTY),
        "screen": _measured(penalty.draw_penalty_screen(kick, verdict), PENALTY),
    }


def _ball_line(path: Path) -> dict[str, Drawn]:
    case = varroom.load_ball_line(path)
    verdict = varroom.judge_ball_line(case)
    return {
        "view": _measured(ball_line.draw_ball_line_view(case, verdict), BALL_LINE),
        "screen": _measured(ball_line.draw_ball_line_screen(case, verdict), BALL_LINE),
    }


def _still(path: Path) -> dict[str, Drawn]:
    with Image.open(path.with_name(path.name.replace(".marks.json", ".png"))) as image:
        pixels = np.asarray(image.convert("RGB"))
    result = judge_still(load_marks(path, (pixels.shape[1], pixels.shape[0])))
    return {"still": _measured(still.draw_still(result, pixels), STILL)}


CASES = (
    [(_penalty, path) for path in PENALTIES]
    + [(_ball_line, path) for path in BALL_LINES]
    + [(_still, path) for path in STILLS]
)


@pytest.fixture(
    scope="module",
    params=CASES,
    ids=[f"{path.parent.name}-{path.name.removesuffix('.json')}" for _, path in CASES],
)
def pictures(request: pytest.FixtureRequest) -> dict[str, Drawn]:
    """Every picture of one example, drawn once."""
    draw, path = request.param
    return draw(path)  # type: ignore[no-any-return]


def test_labels_clear_of_markers(pictures: dict[str, Drawn]) -> None:
    for drawn in pictures.values():
        assert drawn.markers or drawn.labels  # the gids are there to be checked
        assert _clashes(drawn.labels, drawn.markers) == []


def test_labels_clear_of_each_other(pictures: dict[str, Drawn]) -> None:
    for drawn in pictures.values():
        assert _clashes(drawn.labels, drawn.labels, same=True) == []


def test_everything_inside(pictures: dict[str, Drawn]) -> None:
    for drawn in pictures.values():
        assert [gid for gid, box, frame in drawn.held if not _inside(box, frame)] == []


def test_every_penalty_player_is_marked_and_named(pictures: dict[str, Drawn]) -> None:
    if "picture" not in pictures:
        pytest.skip("not a penalty kick")
    for drawn in pictures.values():
        players = {
            gid.split(":", 1)[1] for gid in drawn.markers if gid.startswith("penalty-player:")
        }
        names = {gid.split(":", 1)[1] for gid in drawn.labels if gid.startswith("penalty-name:")}
        assert players and names == players


@pytest.mark.parametrize("module", [penalty, ball_line, still])
def test_no_colour_is_written_outside_the_palette(module: object) -> None:
    source = Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8")
    assert re.findall(r"#[0-9a-fA-F]{6}\b|\"(?:white|black)\"", source) == []
