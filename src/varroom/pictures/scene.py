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
from importlib import resources
from typing import Any

from varroom.engine.verdict import Verdict
from varroom.model.situation import Situation
from varroom.output_file import check_target, write_atomically
from varroom.pictures import style
from varroom.pictures.body import ARM_JOINTS, BONES, FIGURE_HEIGHT_M, POSE, skeleton
from varroom.pictures.geometry import pitch_lines
from varroom.pictures.story import Side, Story

PLANE_HEIGHT_M = 2.4


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
    plane_x = line.x_m if line is not None else None
    target_x = plane_x if plane_x is not None else touch.ball_m[0]
    return {
        "version": 1,
        "pitch": {"length": situation.pitch.length_m, "width": situation.pitch.width_m},
        "attack": situation.attack_direction.value,
        "plane": None
        if line is None
        else {"x": _r(line.x_m), "set_by": line.set_by.value, "height": PLANE_HEIGHT_M},
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
        "view": {
            "target": [_r(target_x), _r(target_y), 1.0],
            "azimuth": (-math.pi / 2 if target_y <= 0 else math.pi / 2)
            + sign * (0.5 if target_y <= 0 else -0.5),
            "elevation": 0.22,
            "distance": 15.0,
        },
        "match": story.match_line(),
    }


def scene_html(situation: Situation, verdict: Verdict) -> str:
    """The page: the template with the scene's JSON in it (`</` escaped so that no name can end
    the script element)."""
    data = json.dumps(scene_data(situation, verdict), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/")
    template = resources.files("varroom.pictures").joinpath("scene.html").read_text("utf-8")
    story = Story(situation, verdict)
    title = f"{story.headline} \u2014 {story.attacker().name if story.attacker() else ''}".strip(
        " \u2014"
    )
    return template.replace("__TITLE__", _escape(title)).replace("__SCENE_DATA__", data)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_scene(situation: Situation, verdict: Verdict, path: str | os.PathLike[str]) -> None:
    """Write the interactive 3D scene as one self-contained HTML file (temporary file, then
    rename); a path that cannot be written is a `PictureError`."""
    target = check_target(path, "3D scene", (".html", ".htm"))
    page = scene_html(situation, verdict).encode("utf-8")
    write_atomically(target, "3D scene", lambda stream: stream.write(page))
