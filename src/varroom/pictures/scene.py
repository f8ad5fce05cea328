"""The 3D scene: one self-contained HTML page a fan can turn (drag to rotate, wheel or pinch to
zoom, shift-drag to move), at the moment of play.

The offside plane stands as a translucent wall at the line's x; players are skeletons where body
parts were given (`varroom.pictures.body`), else simple ~1.8 m figures, in team colours; the
ball at its height; the pitch markings. No WebGL, no external file: a small renderer in plain JS
on a <canvas> (perspective projection from an orbiting camera, painter's algorithm split exactly
at the offside plane: what lies beyond the wall, the wall, what lies in front of it).

The scene's data is embedded as JSON in `<script type="application/json" id="scene-data">`:

    {"version": 1, "pitch": {"length", "width"}, "attack": "+x" | "-x",
     "plane": {"x", "set_by", "height"}, "ball_line_x", "ball": [x, y, z],
     "moment": {"touch", "t", "label"}, "headline", "margin", "margin_m", "caption",
     "subheadline", "colour",
     "players": [{"id", "name", "number", "team", "attacker", "goalkeeper", "colour", "x", "y",
                  "role": "attacker" | "defender" | null, "body": "skeleton" | "figure",
                  "joints": {part: [x, y, z]}, "measured": [part, ...], "reach": [x, y, z] | null}],
     "bones": [[part, part], ...], "lines": [[[x, y], ...], ...], "view": {...}}

Coordinates are situation metres (centre spot origin, z up), rounded to the millimetre.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from varroom.engine.verdict import Verdict
from varroom.model.situation import Situation
from varroom.output_file import HTML_SUFFIXES, check_target, write_atomically
from varroom.pictures import style
from varroom.pictures.body import ARM_JOINTS, BONES, FIGURE_HEIGHT_M, POSE, skeleton
from varroom.pictures.geometry import pitch_lines
from varroom.pictures.story import Side, Story

Floats = npt.NDArray[np.float64]

PLANE_HEIGHT_M = 2.4
FOV_RAD = math.radians(40)  # the page camera's vertical field of view (scene.html)
SHOT = (1200, 800)  # the window the start view is fitted to, as in docs/images/kane-scene.png
# The part of that window no panel covers (headline top left, views top right, key bottom
# right), as fractions: left, top, right, bottom.
SAFE = (0.03, 0.23, 0.8, 0.93)
# The panels themselves (headline, views, key, help), the same way: a label keeps off them.
PANELS = (
    (0.0, 0.0, 0.55, 0.23),
    (0.84, 0.0, 1.0, 0.29),
    (0.79, 0.79, 1.0, 1.0),
    (0.0, 0.93, 0.46, 1.0),
)
LABEL_PX = 16  # the height of a label over a head or over the wall
CHAR_EM = 0.5  # the width of a character of a label, in ems (Liberation Sans: 0.41-0.47)


def _r(value: float) -> float:
    return round(float(value), 3)


def scene_data(situation: Situation, verdict: Verdict) -> dict[str, Any]:
    """The scene as plain data (what the page embeds)."""
    story = Story(situation, verdict)
    touch, line = story.touch, story.line
    sign = story.sign
    defender = story.defender()
    setter_id = None if defender is None or defender.player is None else defender.player.id
    players = []
    for player_id, position in touch.positions.items():
        player = situation.players.get(player_id)
        if player is None:
            continue
        attacker = situation.is_attacker(player_id)
        body = skeleton(position, sign if attacker else -sign)
        reach = None
        if story.judgement is not None:
            judged = story.judgement.attackers.get(player_id)
            point = judged.reach if judged is not None else story.judgement.defenders.get(player_id)
            if point is not None:
                height = 0.0
                if point.part is not None and body is not None:
                    height = body.joints[point.part.value][2]
                reach = [_r(point.x_m), _r(point.y_m), _r(height)]
        players.append(
            {
                "id": player_id,
                "name": player.short_label,
                "number": player.number,
                "team": player.team,
                "attacker": attacker,
                "goalkeeper": player.goalkeeper,
                "colour": story.team_colour(player_id),
                "x": _r(position.x_m),
                "y": _r(position.y_m),
                "role": "attacker"
                if player_id == story.focus
                else ("defender" if player_id == setter_id else None),
                "body": "figure" if body is None else "skeleton",
                "height": FIGURE_HEIGHT_M,
                "joints": {}
                if body is None
                else {name: [_r(v) for v in xyz] for name, xyz in body.joints.items()},
                "measured": [] if body is None else sorted(body.measured),
                "reach": reach,
            }
        )
    focus = story.focus_judged
    target_y = focus.reach.y_m if focus is not None else touch.ball_m[1]
    azimuth = (-math.pi / 2 if target_y <= 0 else math.pi / 2) + sign * (
        0.5 if target_y <= 0 else -0.5
    )
    target_x = line.x_m if line is not None else touch.ball_m[0]
    view = fit_view(_key_points(story, players), (target_x, target_y), azimuth)
    _lift_names(players, view, np.asarray(touch.ball_m, dtype=float))
    return {
        "version": 1,
        "pitch": {"length": situation.pitch.length_m, "width": situation.pitch.width_m},
        "attack": situation.attack_direction.value,
        "plane": None
        if line is None
        else {
            "x": _r(line.x_m),
            "set_by": line.set_by.value,
            "height": PLANE_HEIGHT_M,
            "label": story.line_label(),
            "label_at": [_r(v) for v in _line_label_at(story, players, view)],
        },
        "ball_line_x": None if line is None else _r(line.ball_x_m),
        "ball": [_r(v) for v in touch.ball_m],
        "moment": {"touch": story.judged_at, "t": touch.t_s, "label": story.played_label()},
        "headline": story.headline,
        "margin": story.margin_text(),
        "margin_m": None if story.margin is None else _r(story.margin),
        "caption": story.margin_caption(),
        "subheadline": story.sentence(),
        "setter": "ball"
        if defender is not None and defender.kind is Side.BALL
        else (
            "halfway_line"
            if defender is not None and defender.kind is Side.HALFWAY_LINE
            else setter_id
        ),
        "colour": story.colour,
        "colours": {
            "offside": style.OFFSIDE_RED,
            "onside": style.ONSIDE_GREEN,
            "line": style.LINE,
            "lines": style.PITCH_LINES,
            "pitch": style.PITCH,
            "stripe": style.STRIPE,
        },
        "players": players,
        "bones": [list(bone) for bone in BONES],
        "arm_joints": sorted(ARM_JOINTS),
        "pose_joints": sorted(POSE),
        "lines": [
            [[_r(x), _r(y)] for x, y in polyline] for polyline in pitch_lines(situation.pitch)
        ],
        "view": view,
        "match": story.match_line(),
    }


def project(view: Mapping[str, Any], points: npt.ArrayLike, size: tuple[int, int] = SHOT) -> Floats:
    """Where the page's camera (scene.html: `setup`, `toCam`, `toScreen`) draws 3D points in a
    window of `size` pixels: rows of (x px from the left, y px from the top, depth m)."""
    width, height = size
    target = np.asarray(view["target"], dtype=float)
    az, el, dist = view["azimuth"], view["elevation"], view["distance"]
    eye = target + dist * np.array(
        [math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]
    )
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    focal = (height / 2) / math.tan(FOV_RAD / 2)
    v = np.asarray(points, dtype=float).reshape(-1, 3) - eye
    depth = v @ forward
    return np.column_stack(
        [width / 2 + focal * (v @ right) / depth, height / 2 - focal * (v @ up) / depth, depth]
    )


def player_box(view: Mapping[str, Any], x_m: float, y_m: float) -> tuple[float, ...]:
    """The screen box (x0, y0, x1, y1 px, y down) a standing player and the number over his
    head take in the start view; infinite (covering nothing) when he is not in front of the
    camera."""
    corners = [
        (x_m + dx, y_m + dy, z) for dx in (-0.3, 0.3) for dy in (-0.3, 0.3) for z in (0.0, 2.0)
    ]
    projected = project(view, corners)
    if np.any(projected[:, 2] < 0.05):  # at or behind the camera: not drawn whole
        return (math.inf,) * 4
    xy = projected[:, :2]
    return (xy[:, 0].min(), xy[:, 1].min() - LABEL_PX, xy[:, 0].max(), xy[:, 1].max())


def label_box(
    view: Mapping[str, Any], at: tuple[float, float, float], text: str, size_px: float = 13
) -> tuple[float, ...]:
    """The screen box of a label as the page's `label` sets it: text of `size_px` centred just
    above the point (inf when the point is behind the camera)."""
    sx, sy, depth = project(view, [at])[0]
    if depth < 0.05:
        return (math.inf,) * 4
    half = 0.5 * CHAR_EM * size_px * len(text)
    return (sx - half, sy - 3 - 1.2 * size_px, sx + half, sy + 1)


def name_box(view: Mapping[str, Any], player: Mapping[str, Any]) -> tuple[float, ...]:
    """The boxed name over the head of one of the two that decide it (15 px, 6 px padding)."""
    head = player["joints"].get("head") if player["body"] == "skeleton" else None
    x, y, z = head if head else (player["x"], player["y"], 1.67 * player["height"] / 1.8)
    text = player["name"] + ("" if player["number"] is None else f"  {player['number']}")
    x0, y0, x1, y1 = label_box(view, (x, y, z + 0.3), text, 15)
    lift = player.get("lift_px", 0)
    return (x0 - 6, y0 - 4 - lift, x1 + 6, y1 + 4 - lift)


def _lift_names(players: list[dict[str, Any]], view: Mapping[str, Any], ball: Floats) -> None:
    """Raise a name over another's (the two often stand level at the line) or over the ball,
    in steps of its own height, so that both read. (Not off the players behind: lifted any
    higher, a name no longer reads as his.)"""
    bx, by, _ = project(view, [ball])[0]
    taken: list[tuple[float, ...]] = [(bx - 6, by - 6, bx + 6, by + 6)]
    for player in sorted(players, key=lambda p: p["role"] != "attacker"):
        if player["role"] is None:
            continue
        for _ in range(4):
            box = name_box(view, player)
            if all(_overlap(box, other) == 0 for other in taken):
                break
            player["lift_px"] = player.get("lift_px", 0) + (box[3] - box[1]) + 4
        taken.append(name_box(view, player))


def fit_view(
    points: list[tuple[float, float, float]], centre: tuple[float, float], azimuth: float
) -> dict[str, Any]:
    """The start view: looking at `centre` (the line beside the attacker) from `azimuth`, a
    little above, as close as it can be while every point stays in the part of the window no
    panel covers."""
    pts = np.asarray(points, dtype=float)
    target = [centre[0], centre[1], 1.0]
    width, height = SHOT
    x0, y0, x1, y1 = SAFE
    view: dict[str, Any] = {}
    for distance in np.arange(12.0, 120.0, 1.0):
        view = {
            "target": [_r(v) for v in target],
            "azimuth": azimuth,
            "elevation": 0.22,
            "distance": float(distance),
        }
        xy = project(view, pts)
        if (
            np.all(xy[:, 2] > 1.0)
            and np.all((x0 * width <= xy[:, 0]) & (xy[:, 0] <= x1 * width))
            and np.all((y0 * height <= xy[:, 1]) & (xy[:, 1] <= y1 * height))
        ):
            break
    return view


def _key_points(story: Story, players: list[dict[str, Any]]) -> list[tuple[float, float, float]]:
    """What the start view must hold whole: the two that decide it and the player on the ball
    (feet to head), the ball, and the attacker's point against the plane."""
    keep = {story.focus, story.touch.player}
    points: list[tuple[float, float, float]] = []
    for player in players:
        if player["role"] is not None or player["id"] in keep:
            for z in (0.0, 2.3):
                points.append((player["x"], player["y"], z))
    ball = story.touch.ball_m
    points.append((ball[0], ball[1], ball[2]))
    judged = story.focus_judged
    if judged is not None and story.line is not None:
        points.append((story.line.x_m, judged.reach.y_m, 0.0))
    return points


def _line_label_at(
    story: Story, players: list[dict[str, Any]], view: Mapping[str, Any]
) -> tuple[float, float, float]:
    """Where the offside line's label goes: over the top of the wall, else at its foot, at the
    spot nearest the attacker where it covers no player, no name and no panel in the start
    view."""
    line = story.line
    assert line is not None
    judged = story.focus_judged
    start = judged.reach.y_m if judged is not None else story.touch.ball_m[1]
    half_width = story.s.pitch.half_width_m - 1.0
    text = story.line_label()
    width, height = SHOT
    boxes = [player_box(view, p["x"], p["y"]) for p in players]
    boxes += [name_box(view, p) for p in players if p["role"] is not None]
    boxes += [(x0 * width, y0 * height, x1 * width, y1 * height) for x0, y0, x1, y1 in PANELS]
    best = (math.inf, (line.x_m, start, PLANE_HEIGHT_M + 0.25))
    for k in range(0, 141):
        for y in (start - 0.5 * k, start + 0.5 * k):
            if abs(y) > half_width:
                continue
            for z in (PLANE_HEIGHT_M + 0.25, 0.0):
                box = label_box(view, (line.x_m, y, z), text)
                inside = box[0] >= 0 and box[2] <= width and box[1] >= 0 and box[3] <= height
                score = sum(_overlap(box, other) for other in boxes) + (0 if inside else 1e6)
                if score < best[0]:
                    best = (score, (line.x_m, y, z))
        if best[0] == 0:
            break
    return best[1]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def scene_html(situation: Situation, verdict: Verdict) -> str:
    """The page: the template with the scene's JSON in it (`</` escaped so that no name can end
    the script element)."""
    data = json.dumps(scene_data(situation, verdict), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/")
    template = resources.files("varroom.pictures").joinpath("scene.html").read_text("utf-8")
    story = Story(situation, verdict)
    attacker = story.attacker()
    title = f"{story.headline} \u2014 {attacker.name if attacker else ''}".strip(" \u2014")
    return template.replace("__TITLE__", _escape(title)).replace("__SCENE_DATA__", data)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_scene(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the interactive 3D scene as one self-contained HTML file (temporary file, then
    rename); a path that cannot be written is a `PictureError`."""
    target = check_target(path, "3D scene", HTML_SUFFIXES)
    page = scene_html(situation, verdict).encode("utf-8")
    write_atomically(target, "3D scene", lambda stream: stream.write(page))
