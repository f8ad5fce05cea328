"""Reading JSON field by field: each check names the file and the JSON path of a fault."""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from varroom.errors import InputError
from varroom.model.situation import Pitch
from varroom.model.view import AROUND_PITCH_M

E = TypeVar("E", bound=Enum)

# Tracking puts players metres beyond a line (a run behind the goal, a throw-in taken from
# the track, a celebration); nobody takes part in play farther out than this.
OUTSIDE_PITCH_LIMIT_M = AROUND_PITCH_M


class JsonReader:
    """Checks JSON values one at a time; every fault is an `InputError` with the JSON path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> InputError:
        return InputError(self.source, where, problem)

    def object(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, got {kind_of(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array, got {kind_of(value)}")
        return value

    def required(self, obj: Mapping[str, Any], key: str, where: str) -> Any:
        if key not in obj:
            raise self.fail(f"{where}.{key}", "missing")
        return obj[key]

    def check_kind(self, root: Mapping[str, Any], expected: str, *, required: bool = False) -> None:
        """A file of another format is a fault at `$.kind`; a missing kind is this format's,
        unless the format requires it."""
        kind = self.required(root, "kind", "$") if required else root.get("kind", expected)
        if kind != expected:
            raise self.fail("$.kind", f"expected {expected!r}, got {kind!r}")

    def number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number, got {kind_of(value)}")
        if not math.isfinite(value):
            raise self.fail(where, f"expected a finite number, got {value}")
        return float(value)

    def positive(self, value: Any, where: str) -> float:
        number = self.number(value, where)
        if number <= 0:
            raise self.fail(where, f"expected a positive number, got {number}")
        return number

    def non_negative(self, value: Any, where: str) -> float:
        number = self.number(value, where)
        if number < 0:
            raise self.fail(where, f"expected zero or more, got {number}")
        return number

    def velocity(self, value: Any, where: str) -> tuple[float, float]:
        if value is None:
            return (0.0, 0.0)
        vx, vy = self.point(value, where, (2,))
        return (vx, vy)

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"expected a non-empty string, got {kind_of(value)}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {kind_of(value)}")
        return value

    def choice(self, enum: type[E], value: Any, where: str) -> E:
        allowed = ", ".join(member.value for member in enum)
        if not isinstance(value, str):
            raise self.fail(where, f"expected one of {allowed}, got {kind_of(value)}")
        try:
            return enum(value)
        except ValueError:
            raise self.fail(where, f"unknown value {value!r}; expected one of {allowed}") from None

    def pitch(self, value: Any) -> Pitch:
        """`$.pitch` (the Law 1 default where it is absent). Every position of the file is
        then checked against this pitch, passed on, never a reader's state."""
        if value is None:
            return Pitch()
        obj = self.object(value, "$.pitch")
        default = Pitch()
        return Pitch(
            length_m=self.positive(obj.get("length", default.length_m), "$.pitch.length"),
            width_m=self.positive(obj.get("width", default.width_m), "$.pitch.width"),
        )

    def on_the_pitch(self, x_m: float, y_m: float, pitch: Pitch, where: str, what: str) -> None:
        beyond = max(abs(x_m) - pitch.half_length_m, abs(y_m) - pitch.half_width_m)
        if beyond > OUTSIDE_PITCH_LIMIT_M:
            raise self.fail(
                where,
                f"{what} at ({x_m:g}, {y_m:g}) is {beyond:.1f} m outside the "
                f"{pitch.length_m:g} x {pitch.width_m:g} m pitch (more than "
                f"{OUTSIDE_PITCH_LIMIT_M:g} m is not football)",
            )

    def point(self, value: Any, where: str, sizes: tuple[int, ...]) -> tuple[float, ...]:
        items = self.array(value, where)
        if len(items) not in sizes:
            wanted = " or ".join(str(n) for n in sizes)
            raise self.fail(where, f"expected {wanted} numbers, got {len(items)}")
        return tuple(self.number(item, f"{where}[{i}]") for i, item in enumerate(items))


def kind_of(value: Any) -> str:
    """A JSON value's kind, as a fault message names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)
