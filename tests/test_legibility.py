"""Every picture of every example can be read by a TV audience (issue 8, item 6).

For each example in examples/ and each picture (the 2D decision picture the CLI writes with
--image, the stadium screen, the clip's frozen frame and its last frame, the 3D scene's start
view, and the broadcast picture from a main-stand camera), measured as drawn, in display pixels:

- no label's box covers a player's or the ball's marker, or another label;
- no shirt number sits under the measured point or the ball;
- everything drawn lies inside the figure, and what is drawn on a pitch inside that pitch;
- when the ball sets the offside line, the ball's mark lies on the line.

Artists are found by their gids (each picture module's docstring lists them). Each picture is
drawn once per example (module-scoped fixtures); nothing is written to disk.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.artist import Artist
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

import varroom
from varroom.engine.judgement import LineSetter
from varroom.kinds import SITUATION
from varroom.model.camera import look_at
from varroom.model.situation import Situation
from varroom.pictures import broadcast, scene, screen
from varroom.pictures.clip import ClipPainter, clip_frames
from varroom.pictures.story import Story

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.json")) + sorted(
    # Situations the StatsBomb audit wrote (format 1.1, with the camera's view per touch): the
    # unseen part of the pitch shaded, the opponents out of view named.
    (Path(__file__).parent / "files" / "out-of-view").glob("*.json")
)
TOUCH_PX = 1.0  # boxes may touch: only an overlap deeper than this counts


@dataclass
class Case:
    name: str
    situation: Situation
    verdict: Any
    story: Story


@dataclass
class Drawn:
    """One picture as drawn: boxes by gid, in display pixels (y up)."""

    figure: Bbox
    markers: dict[str, Bbox] = field(default_factory=dict)
    labels: dict[str, Bbox] = field(default_factory=dict)
    numbers: dict[str, Bbox] = field(default_factory=dict)
    on_top: dict[str, Bbox] = field(default_factory=dict)  # what a number must not sit under
    # (gid, box, the box it must stay in)
    held: list[tuple[str, Bbox, Bbox]] = field(default_factory=list)
    centres: dict[str, tuple[float, float]] = field(default_factory=dict)
    boxes: dict[str, Bbox] = field(default_factory=dict)  # every gid drawn
    words: dict[str, str] = field(default_factory=dict)  # every text drawn, by gid


@dataclass(frozen=True)
class Rules:
    """Which gids are markers, labels and numbers in one picture."""

    markers: str
    labels: str
    numbers: str
    on_top: str
    held: str  # gids that must lie inside their own axes


def _box(artist: Artist, renderer: RendererBase) -> Bbox | None:
    if isinstance(artist, Text):
        if not artist.get_text().strip():
            return None
        # The text itself: an annotation's leader line runs to its point by design.
        if isinstance(artist, Annotation):
            artist.update_positions(renderer)
        box = Text.get_window_extent(artist, renderer)
        patch = artist.get_bbox_patch()
        if patch is not None:
            artist.update_bbox_position_size(renderer)
            box = Bbox.union([box, patch.get_window_extent(renderer)])
        return box
    if isinstance(artist, Line2D) and len(artist.get_xdata()) == 0:  # type: ignore[arg-type]
        return None
    return artist.get_window_extent(renderer)


def _shown(artist: Artist, renderer: RendererBase) -> bool:
    if not artist.get_visible():
        return False
    if isinstance(artist, Annotation) and artist.axes is not None:
        # An annotation whose point lies outside its axes is not drawn.
        return bool(artist._check_xy(renderer))
    return True


def measure(artists: Iterable[Artist], figure: Figure, rules: Rules) -> Drawn:
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    drawn = Drawn(figure.bbox)
    for artist in artists:
        gid = artist.get_gid()
        if not gid or not _shown(artist, renderer):
            continue
        axes = artist.axes
        if isinstance(artist, PathCollection):  # one marker per point
            points = artist.get_offset_transform().transform(artist.get_offsets())
            sizes = np.broadcast_to(artist.get_sizes(), (len(points),))
            window = axes.get_window_extent(renderer) if axes is not None else figure.bbox
            for k, ((x, y), size) in enumerate(zip(points, sizes, strict=True)):
                r = math.sqrt(size) / 2 * figure.dpi / 72
                box = Bbox.from_extents(x - r, y - r, x + r, y + r)
                if np.isfinite(x) and _overlap(box, window) > 0:  # the part the axes show
                    drawn.markers[f"{gid}:{k}"] = Bbox.intersection(box, window)
                    drawn.centres[f"{gid}:{k}"] = (x, y)
            continue
        box = _box(artist, renderer)
        if box is None:
            continue
        drawn.boxes[gid] = box
        if isinstance(artist, Text):
            drawn.words[gid] = artist.get_text()
        if isinstance(artist, Line2D) and artist.get_marker() not in (None, "None", ""):
            x, y = artist.get_transform().transform(artist.get_xydata()[0])  # type: ignore[index]
            drawn.centres[gid] = (x, y)
        for kind, pattern in (
            ("markers", rules.markers),
            ("labels", rules.labels),
            ("numbers", rules.numbers),
            ("on_top", rules.on_top),
        ):
            if re.fullmatch(pattern, gid):
                getattr(drawn, kind)[gid] = box
        if axes is not None and re.fullmatch(rules.held, gid) and artist is not axes.title:
            drawn.held.append((gid, box, axes.get_window_extent(renderer)))
        if isinstance(artist, Text) or re.fullmatch(rules.labels, gid):
            drawn.held.append((gid, box, figure.bbox))
    return drawn


def _overlap(a: Bbox, b: Bbox) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return min(w, h) if w > 0 and h > 0 else 0.0


def _inside(box: Bbox, frame: Bbox) -> bool:
    return (
        box.x0 >= frame.x0 - TOUCH_PX
        and box.y0 >= frame.y0 - TOUCH_PX
        and box.x1 <= frame.x1 + TOUCH_PX
        and box.y1 <= frame.y1 + TOUCH_PX
    )


def _clashes(first: dict[str, Bbox], second: dict[str, Bbox], same: bool = False) -> list[str]:
    out = []
    for a, box_a in first.items():
        for b, box_b in second.items():
            if (same and a >= b) or a == b:
                continue
            if a == "magnifier" and b.startswith("zoom:"):
                continue  # the close-up's own marks lie in it
            if _overlap(box_a, box_b) > TOUCH_PX:
                out.append(f"{a} covers {b}")
    return out


# -- the pictures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=EXAMPLES, ids=[path.stem for path in EXAMPLES])
def case(request: pytest.FixtureRequest) -> Case:
    situation = varroom.load_situation(request.param)
    verdict = varroom.judge(situation)
    return Case(request.param.stem, situation, verdict, Story(situation, verdict))


DECISION = Rules(
    markers=r"(zoom:)?(player:.*|involved:.*|ball|reach-point|receiver-reach-point|"
    r"second-last-reach)",
    labels=r"(zoom:)?(offside-line-label|ball-line-label|margin-label|receiver-margin-label|"
    r"label:.*|involved-label|touch-label:.*)|magnifier",
    numbers=r"(zoom:)?number:.*",
    on_top=r"(zoom:)?(ball|reach-point|receiver-reach-point|touch:.*)",
    held=r"(zoom:)?(player:.*|ball|reach-point|offside-line-label|margin-label|label:.*)|"
    r"closeup-.*",
)
SCREEN = Rules(
    markers=r"inset-(player:.*|ball|reach)",
    labels=r"inset-(name|attack|title)|screen-(?!.*-number$).*",
    numbers=r"inset-number:.*",
    on_top=r"inset-(ball|reach)",
    held=r"inset-(player:.*|ball|reach|name|attack)",
)
CLIP = Rules(
    markers=r"clip-(players:\d+|ball|reach)",
    labels=r"clip-(name:.*|margin|line-label|verdict|verdict-detail|frozen|caption|clock)",
    numbers=r"clip-number:.*",
    on_top=r"clip-(ball|reach)",
    held=r"clip-(ball|reach|name:.*|margin|line-label)",
)
BROADCAST = Rules(
    markers=r"broadcast-(player:.*|post:.*|ball|reach|second-last)",
    labels=r"broadcast-(headline|margin|line-label|reach-label|note)",
    numbers=r"broadcast-number:.*",
    on_top=r"broadcast-(ball|reach|second-last)",
    held=r"broadcast-(ball|reach|second-last|line-label|reach-label)",
)


def _everything(figure: Figure) -> list[Artist]:
    return list(figure.findobj(lambda artist: bool(artist.get_gid())))


@pytest.fixture(scope="module")
def decision(case: Case) -> Drawn:
    """The 2D picture, drawn by the module whose writer `varroom check --image` calls."""
    module, writer = SITUATION.pictures["image"].split(":")
    draw: Callable[..., Figure] = getattr(import_module(module), writer.replace("write", "draw"))
    figure = draw(case.situation, case.verdict)
    return measure(_everything(figure), figure, DECISION)


@pytest.fixture(scope="module")
def screen_picture(case: Case) -> Drawn:
    figure = screen.draw_screen(case.situation, case.verdict)
    return measure(_everything(figure), figure, SCREEN)


@pytest.fixture(scope="module")
def clip_pictures(case: Case) -> dict[str, Drawn]:
    """The frozen frame (the first of the freeze) and the last frame, as the clip draws them."""
    frames = clip_frames(case.situation, case.verdict)
    painter = ClipPainter(case.situation, case.verdict, frames)
    frozen = next(frame for frame in frames if frame.frozen)
    out = {}
    for name, frame in (("frozen", frozen), ("last", frames[-1])):
        drawn = painter.prepare(frame, [])
        out[name] = measure(drawn, painter.figure, CLIP)
    return out


@pytest.fixture(scope="module")
def broadcast_picture(case: Case) -> Drawn:
    """From a main-stand camera looking at the attacker (the situation's own when it has one)."""
    camera = case.situation.camera
    if camera is None:
        judged = case.story.focus_judged
        x, y = (judged.reach.x_m, judged.reach.y_m) if judged else case.story.touch.ball_m[:2]
        camera = look_at((x, -68.0, 28.0), (x, y, 0.0), 2900.0)
    figure = broadcast.draw_broadcast(case.situation, case.verdict, camera)
    FigureCanvasAgg(figure)
    return measure(_everything(figure), figure, BROADCAST)


PICTURES = ["decision", "screen", "clip-frozen", "clip-last", "broadcast"]


@pytest.fixture(params=PICTURES)
def picture(case: Case, request: pytest.FixtureRequest) -> Drawn:
    """Each picture of the example `case` (drawn once: the fixtures it names are the module's)."""
    kind: str = request.param
    if kind.startswith("clip-"):
        return request.getfixturevalue("clip_pictures")[kind.removeprefix("clip-")]  # type: ignore[no-any-return]
    fixture = {"decision": "decision", "screen": "screen_picture", "broadcast": "broadcast_picture"}
    return request.getfixturevalue(fixture[kind])  # type: ignore[no-any-return]


# -- the checks -----------------------------------------------------------------------------------


def test_labels_clear_of_markers(picture: Drawn) -> None:
    assert _clashes(picture.labels, picture.markers) == []


def test_labels_clear_of_each_other(picture: Drawn) -> None:
    assert _clashes(picture.labels, picture.labels, same=True) == []


def test_numbers_not_under_marks(picture: Drawn) -> None:
    assert _clashes(picture.numbers, picture.on_top) == []


def test_everything_inside(picture: Drawn) -> None:
    outside = [gid for gid, box, frame in picture.held if not _inside(box, frame)]
    assert outside == []


LINE_AND_BALL = {
    "decision": ("offside-line", "ball"),
    "screen": ("inset-offside-line", "inset-ball"),
    "clip-frozen": ("clip-offside-line", "clip-ball"),
}


@pytest.mark.parametrize("kind", sorted(LINE_AND_BALL))
def test_ball_on_the_line_it_sets(case: Case, kind: str, request: pytest.FixtureRequest) -> None:
    line = case.story.line
    if line is None or line.set_by is not LineSetter.BALL:
        pytest.skip("the ball does not set the offside line")
    if kind.startswith("clip-"):
        drawn = request.getfixturevalue("clip_pictures")[kind.removeprefix("clip-")]
    else:
        drawn = request.getfixturevalue({"decision": "decision", "screen": "screen_picture"}[kind])
    line_gid, ball_gid = LINE_AND_BALL[kind]
    line_box = drawn.boxes[line_gid]
    assert drawn.centres[ball_gid][0] == pytest.approx((line_box.x0 + line_box.x1) / 2, abs=1.0)


# -- the 3D scene -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scene_view(case: Case) -> dict[str, Any]:
    return scene.scene_data(case.situation, case.verdict)


def test_scene_start_view_holds_the_call(case: Case, scene_view: dict[str, Any]) -> None:
    """The attacker, the player on the ball, the opponent who set the line and the ball stand
    whole in the part of a 1200 x 800 window that no panel covers."""
    width, height = scene.SHOT
    x0, y0, x1, y1 = scene.SAFE
    story = case.story
    wanted = {story.focus, story.touch.player, story.setter_id()} - {None}
    points = [
        (p["x"], p["y"], z) for p in scene_view["players"] if p["id"] in wanted for z in (0, 1.9)
    ]
    points.append(tuple(scene_view["ball"]))
    xy = scene.project(scene_view["view"], points)
    assert np.all(xy[:, 2] > 0)
    assert np.all((xy[:, 0] >= x0 * width) & (xy[:, 0] <= x1 * width))
    assert np.all((xy[:, 1] >= y0 * height) & (xy[:, 1] <= y1 * height))


def _clear(box: tuple[float, ...], other: tuple[float, ...]) -> bool:
    w = min(box[2], other[2]) - max(box[0], other[0])
    h = min(box[3], other[3]) - max(box[1], other[1])
    return w <= TOUCH_PX or h <= TOUCH_PX


def test_scene_labels_clear_of_players_and_each_other(scene_view: dict[str, Any]) -> None:
    """The line's label covers no player and no name; the two names cover neither each other
    nor the ball (the start view, 1200 x 800)."""
    view, width, height = scene_view["view"], *scene.SHOT
    names = {p["id"]: scene.name_box(view, p) for p in scene_view["players"] if p["role"]}
    ball = scene.project(view, [scene_view["ball"]])[0]
    ball_box = (ball[0] - 6, ball[1] - 6, ball[0] + 6, ball[1] + 6)
    clashes = [
        f"{a} covers {b}" for a in names for b in names if a < b and not _clear(names[a], names[b])
    ]
    clashes += [f"{a} covers the ball" for a, box in names.items() if not _clear(box, ball_box)]
    plane = scene_view["plane"]
    if plane is not None:
        label = scene.label_box(view, plane["label_at"], plane["label"])
        assert label[0] >= 0 and label[2] <= width and label[1] >= 0 and label[3] <= height
        clashes += [
            f"line label covers {p['id']}"
            for p in scene_view["players"]
            if not _clear(label, scene.player_box(view, p["x"], p["y"]))
        ]
        clashes += [f"line label covers {a}" for a, box in names.items() if not _clear(label, box)]
    assert clashes == []


def test_scene_ball_on_the_plane_it_sets(scene_view: dict[str, Any]) -> None:
    plane = scene_view["plane"]
    if plane is None or plane["set_by"] != "ball":
        pytest.skip("the ball does not set the offside line")
    assert scene_view["ball"][0] == pytest.approx(plane["x"], abs=0.005)


# -- the same words in every picture -----------------------------------------------------------


def test_every_picture_names_the_same_touch_judged(
    case: Case, decision: Drawn, clip_pictures: dict[str, Drawn], scene_view: dict[str, Any]
) -> None:
    """The touch at which positions were judged is the verdict's in the 2D picture's list of
    touches, in the clip's freeze and in the 3D scene; an attacker's own touches are never
    called a team-mate's play."""
    touches, judged = case.situation.touches, case.story.judged_at
    rows = {
        int(gid.split(":")[1]): words
        for gid, words in decision.words.items()
        if gid.startswith("touch-what:")
    }
    assert [i for i, words in rows.items() if "judged" in words] == (
        [judged] if judged in rows else []
    )
    for index, words in rows.items():
        if touches[index].player == case.story.focus:
            assert "team-mate" not in words
    assert case.story.played_label() in clip_pictures["frozen"].words["clip-caption"]
    assert scene_view["moment"]["touch"] == judged
