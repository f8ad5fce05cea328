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

Joint = tuple[float, float, float]

# Standard pose: (forward, left, height) in metres from the tracked point, facing +forward. The
# body's middle, then its left side: the right side mirrors the left, so the two cannot differ.
_MIDDLE: Mapping[str, Joint] = {
    "head": (0.02, 0.0, 1.68),
    "neck": (0.0, 0.0, 1.50),
    "torso": (0.0, 0.0, 1.18),
}
_LEFT: Mapping[str, Joint] = {
    "shoulder": (0.0, 0.20, 1.45),
    "arm": (0.0, 0.25, 1.29),
    "elbow": (0.02, 0.28, 1.12),
    "wrist": (0.06, 0.29, 0.90),
    "hand": (0.08, 0.29, 0.82),
    "hip": (0.0, 0.11, 0.95),
    "knee": (0.04, 0.12, 0.50),
    "ankle": (0.0, 0.12, 0.09),
    "heel": (-0.07, 0.12, 0.04),
    "foot": (0.10, 0.12, 0.05),
    "toe": (0.19, 0.12, 0.03),
}
_SIDES = (("left", 1.0), ("right", -1.0))
POSE: Mapping[str, Joint] = {
    **_MIDDLE,
    **{
        f"{side}_{joint}": (forward, sign * left, height)
        for joint, (forward, left, height) in _LEFT.items()
        for side, sign in _SIDES
    },
}


def _each_side(*chains: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The bones along each chain of joints, on the left then on the right (a middle joint in a
    chain is the same on both sides)."""
    bones: list[tuple[str, str]] = []
    for side, _ in _SIDES:
        for chain in chains:
            joints = [joint if joint in _MIDDLE else f"{side}_{joint}" for joint in chain]
            bones += zip(joints, joints[1:], strict=False)
    return tuple(bones)


BONES: tuple[tuple[str, str], ...] = (
    ("head", "neck"),
    ("neck", "torso"),
    *_each_side(("neck", "shoulder")),
    *_each_side(("shoulder", "arm", "elbow", "wrist", "hand")),
    *_each_side(("torso", "hip")),
    ("left_hip", "right_hip"),
    *_each_side(("hip", "knee", "ankle", "foot", "toe"), ("ankle", "heel")),
)

ARM_JOINTS = frozenset(
    name for name in POSE if any(k in name for k in ("arm", "elbow", "wrist", "hand"))
)
FIGURE_HEIGHT_M = 1.80

assert set(POSE) == {part.value for part in BodyPart}


@dataclass(frozen=True, slots=True)
class Skeleton:
    joints: Mapping[str, Joint]
    measured: frozenset[str]


def skeleton(position: Position, facing: float) -> Skeleton | None:
    """The joints of a player with body parts (None without any): `facing` is +1 when he faces
    +x, -1 when he faces -x; his left is then +y, respectively -y."""
    if not position.parts:
        return None
    joints: dict[str, Joint] = {}
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
