"""Bodies for the 3D scene: a skeleton where a tracker gave body parts, else nothing but the
tracked point (drawn as a simple ~1.8 m figure).

Parts come as x only, [x, y] or [x, y, z] (the part's point nearest the goal line attacked). A
skeleton needs every joint, so joints are filled in from a standard standing pose for a 1.80 m
player round the tracked point, facing the goal attacked (an attacker) or the other way, towards
the play (a defender); a given part
replaces the standard joint's coordinates it gives, and keeps the standard ones it does not
(a part given as x only keeps the pose's y and height). Which joints were given is kept, so the
scene can show measured joints apart from filled ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from varroom.model.situation import BodyPart, Position

# Standard pose: (forward, left, height) in metres from the tracked point, facing +forward.
POSE: Mapping[str, tuple[float, float, float]] = {
    "head": (0.02, 0.0, 1.68),
    "neck": (0.0, 0.0, 1.50),
    "torso": (0.0, 0.0, 1.18),
    "left_shoulder": (0.0, 0.20, 1.45),
    "right_shoulder": (0.0, -0.20, 1.45),
    "left_arm": (0.0, 0.25, 1.29),
    "right_arm": (0.0, -0.25, 1.29),
    "left_elbow": (0.02, 0.28, 1.12),
    "right_elbow": (0.02, -0.28, 1.12),
    "left_wrist": (0.06, 0.29, 0.90),
    "right_wrist": (0.06, -0.29, 0.90),
    "left_hand": (0.08, 0.29, 0.82),
    "right_hand": (0.08, -0.29, 0.82),
    "left_hip": (0.0, 0.11, 0.95),
    "right_hip": (0.0, -0.11, 0.95),
    "left_knee": (0.04, 0.12, 0.50),
    "right_knee": (0.04, -0.12, 0.50),
    "left_ankle": (0.0, 0.12, 0.09),
    "right_ankle": (0.0, -0.12, 0.09),
    "left_heel": (-0.07, 0.12, 0.04),
    "right_heel": (-0.07, -0.12, 0.04),
    "left_foot": (0.10, 0.12, 0.05),
    "right_foot": (0.10, -0.12, 0.05),
    "left_toe": (0.19, 0.12, 0.03),
    "right_toe": (0.19, -0.12, 0.03),
}

BONES: tuple[tuple[str, str], ...] = (
    ("head", "neck"),
    ("neck", "torso"),
    ("neck", "left_shoulder"),
    ("neck", "right_shoulder"),
    ("left_shoulder", "left_arm"),
    ("left_arm", "left_elbow"),
    ("left_elbow", "left_wrist"),
    ("left_wrist", "left_hand"),
    ("right_shoulder", "right_arm"),
    ("right_arm", "right_elbow"),
    ("right_elbow", "right_wrist"),
    ("right_wrist", "right_hand"),
    ("torso", "left_hip"),
    ("torso", "right_hip"),
    ("left_hip", "right_hip"),
    ("left_hip", "left_knee"),
    ("left_knee", "left_ankle"),
    ("left_ankle", "left_foot"),
    ("left_foot", "left_toe"),
    ("left_ankle", "left_heel"),
    ("right_hip", "right_knee"),
    ("right_knee", "right_ankle"),
    ("right_ankle", "right_foot"),
    ("right_foot", "right_toe"),
    ("right_ankle", "right_heel"),
)

ARM_JOINTS = frozenset(
    name for name in POSE if any(k in name for k in ("arm", "elbow", "wrist", "hand"))
)
FIGURE_HEIGHT_M = 1.80

assert set(POSE) == {part.value for part in BodyPart}


@dataclass(frozen=True, slots=True)
class Skeleton:
    joints: Mapping[str, tuple[float, float, float]]
    measured: frozenset[str]


def skeleton(position: Position, facing: float) -> Skeleton | None:
    """The joints of a player with body parts (None without any): `facing` is +1 when he faces
    +x, -1 when he faces -x; his left is then +y, respectively -y."""
    if not position.parts:
        return None
    joints: dict[str, tuple[float, float, float]] = {}
    for name, (forward, left, height) in POSE.items():
        joints[name] = (position.x_m + facing * forward, position.y_m + facing * left, height)
    measured = set()
    for part in position.parts:
        x, y, z = joints[part.part.value]
        joints[part.part.value] = (
            part.x_m,
            y if part.y_m is None else part.y_m,
            z if part.z_m is None else part.z_m,
        )
        measured.add(part.part.value)
    return Skeleton(joints, frozenset(measured))
