"""Reading a situation's `camera` (docs/pictures.md) from its JSON: a projection matrix or
ground landmarks, an optional still and its size. Every fault is an `InputError` naming the
situation file and the JSON path."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from varroom.formats.json_fields import JsonReader, kind_of
from varroom.model.camera import (
    DEFAULT_SIZE,
    Camera,
    DegenerateLandmarks,
    homography_camera,
    projection_camera,
)


class _Reader(JsonReader):
    def row(self, value: Any, where: str, length: int) -> list[float]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array of {length} numbers, got {kind_of(value)}")
        if len(value) != length:
            raise self.fail(where, f"expected {length} numbers, got {len(value)}")
        return [self.number(item, f"{where}[{k}]") for k, item in enumerate(value)]

    def rows(self, value: Any, where: str, width: int, least: int) -> list[list[float]]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array, got {kind_of(value)}")
        if len(value) < least:
            raise self.fail(where, f"expected at least {least} points, got {len(value)}")
        return [self.row(item, f"{where}[{k}]", width) for k, item in enumerate(value)]


def camera_from_json(data: Any, situation_path: str | Path) -> Camera | None:
    """The camera a situation's JSON carries (`data` is the whole situation object), or None
    when it has none. Faults are `InputError`s naming the situation file and the JSON path."""
    reader = _Reader(str(situation_path))
    if not isinstance(data, Mapping) or data.get("camera") is None:
        return None
    obj = data["camera"]
    if not isinstance(obj, Mapping):
        raise reader.fail("$.camera", f"expected an object, got {kind_of(obj)}")
    reader.known_keys(obj, "$.camera", ("projection", "homography", "image", "size"))
    kinds = [key for key in ("projection", "homography") if key in obj]
    if len(kinds) != 1:
        raise reader.fail(
            "$.camera",
            "expected exactly one of projection (a 3x4 matrix) or homography (landmarks)",
        )
    still = None
    if "image" in obj:
        still = _still(reader, obj["image"], Path(situation_path))
    size = _size(reader, obj.get("size"), still)
    if kinds[0] == "projection":
        matrix = obj["projection"]
        if not isinstance(matrix, list) or len(matrix) != 3:
            raise reader.fail(
                "$.camera.projection", "expected a 3x4 matrix: an array of 3 rows of 4 numbers"
            )
        rows = [reader.row(row, f"$.camera.projection[{k}]", 4) for k, row in enumerate(matrix)]
        try:
            return projection_camera(rows, size, still)
        except ValueError as exc:
            raise reader.fail("$.camera.projection", str(exc)) from None
    landmarks = obj["homography"]
    if not isinstance(landmarks, Mapping):
        raise reader.fail("$.camera.homography", f"expected an object, got {kind_of(landmarks)}")
    reader.known_keys(landmarks, "$.camera.homography", ("pitch", "image"))
    for key in ("pitch", "image"):
        if key not in landmarks:
            raise reader.fail(f"$.camera.homography.{key}", "missing")
    pitch = reader.rows(landmarks["pitch"], "$.camera.homography.pitch", 2, 4)
    image = reader.rows(landmarks["image"], "$.camera.homography.image", 2, 4)
    if len(pitch) != len(image):
        raise reader.fail(
            "$.camera.homography",
            f"{len(pitch)} pitch points but {len(image)} image points: expected one for each",
        )
    try:
        return homography_camera(pitch, image, size, still)
    except DegenerateLandmarks as exc:
        raise reader.fail("$.camera.homography", str(exc)) from None


def _still(reader: _Reader, value: Any, situation_path: Path) -> Path:
    if not isinstance(value, str) or not value:
        raise reader.fail("$.camera.image", f"expected a file name, got {kind_of(value)}")
    path = Path(value)
    if not path.is_absolute():
        path = situation_path.parent / path
    if not path.is_file():
        raise reader.fail("$.camera.image", f"no such file: {path}")
    return path


def _size(reader: _Reader, value: Any, still: Path | None) -> tuple[int, int]:
    if value is None:
        if still is None:
            return DEFAULT_SIZE
        try:
            from PIL import Image

            with Image.open(still) as image:
                return image.size
        except (OSError, ValueError) as exc:
            raise reader.fail("$.camera.image", f"not a picture Pillow can read ({exc})") from None
    if not isinstance(value, list) or len(value) != 2:
        raise reader.fail("$.camera.size", "expected [width, height] in pixels")
    out = []
    for k, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= 16384:
            raise reader.fail(
                f"$.camera.size[{k}]",
                f"expected a whole number of pixels (1 to 16384), got {item!r}",
            )
        out.append(item)
    return out[0], out[1]
