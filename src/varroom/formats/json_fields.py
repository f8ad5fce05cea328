"""Reading JSON field by field: each check names the file and the JSON path of a fault."""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Iterable, Mapping
from enum import Enum
from typing import Any, TypeVar

from varroom.errors import FormatWarning, InputError
from varroom.kinds import KINDS
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.situation import Pitch
from varroom.model.view import AROUND_PITCH_M

E = TypeVar("E", bound=Enum)

# Tracking puts players metres beyond a line (a run behind the goal, a throw-in taken from
# the track, a celebration); nobody takes part in play farther out than this.
OUTSIDE_PITCH_LIMIT_M = AROUND_PITCH_M


class JsonReader:
    """Checks JSON values one at a time; every fault is an `InputError` with the JSON path."""

    def __init__(self, source: str, noise_defaults: NoiseDefaults = STATED_NOISE) -> None:
        self.source = source
        # The noise of each kind of data where the file does not state its own (the profile's).
        self.noise_defaults = noise_defaults

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
        """A file of another format is a fault at `$.kind` that says which command reads it;
        a missing kind is this format's, unless the format requires it or the file's keys
        say it is another's (a situation given to `varroom still`)."""
        if "kind" not in root:
            other = looks_like(root)
            if other is not None and other != expected:
                raise self.fail("$.kind", f"missing, and the file reads as {read_by(other)}")
        kind = self.required(root, "kind", "$") if required else root.get("kind", expected)
        if kind != expected:
            raise self.fail("$.kind", f"expected {expected!r}, got {kind!r}: {read_by(kind)}")

    def number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number, got {kind_of(value)}")
        try:
            number = float(value)
        except OverflowError:  # an integer of over 308 digits: past what a float holds
            raise self.fail(
                where, "too large: expected a number within ±1.8e308, got a larger integer"
            ) from None
        if not math.isfinite(number):
            raise self.fail(where, f"expected a finite number, got {value}")
        return number

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
        names = [str(member.value) for member in enum]
        allowed = ", ".join(names)
        if not isinstance(value, str):
            raise self.fail(where, f"expected one of {allowed}, got {kind_of(value)}")
        try:
            return enum(value)
        except ValueError:
            raise self.fail(
                where,
                f"unknown value {value!r}{did_you_mean(value, names)}; expected one of {allowed}",
            ) from None

    def known_keys(self, obj: Mapping[str, Any], where: str, known: Collection[str]) -> None:
        """A key one slip away from one the format names is a typo, and a typo must be an
        error, never a different verdict: `"goalkeper": true` read as no goalkeeper (issue 28).
        Any other key the format does not name is ignored, as the spec says a reader must (a
        file may carry keys of its own), and said aloud, so that nothing is ignored silently."""
        for key in obj:
            if key in known:
                continue
            if (near := nearest(key, known)) is not None:
                raise self.fail(f"{where}.{key}", f"unknown key {key!r}; did you mean {near!r}?")
            warnings.warn(
                FormatWarning(
                    f"{self.source}: {where}.{key}: not a key of the format, ignored "
                    "(a file's own notes belong in $.meta)"
                ),
                stacklevel=2,
            )

    def on_field(self, value: Any, calls: type[E]) -> str | None:
        """`$.on_field`: the call being checked, one of `calls` (a closed list: "ofside" is a
        typo, not a different call), and who made it (`by`, not read)."""
        if value is None:
            return None
        obj = self.object(value, "$.on_field")
        self.known_keys(obj, "$.on_field", ("decision", "by"))
        if "decision" not in obj:
            return None
        return str(self.choice(calls, obj["decision"], "$.on_field.decision").value)

    def pitch(self, value: Any) -> Pitch:
        """`$.pitch` (the Law 1 default where it is absent). Every position of the file is
        then checked against this pitch, passed on, never a reader's state."""
        if value is None:
            return Pitch()
        obj = self.object(value, "$.pitch")
        self.known_keys(obj, "$.pitch", ("length", "width", "line_width"))
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


# Every kind of file varroom reads, and the command that reads it (docs/formats/): the kinds of
# decision, and the live frame stream.
KIND_COMMANDS = {kind.name: kind.read_by for kind in KINDS.values()} | {
    "header": "varroom live (a frame stream)"
}
# The key that only one kind has, to tell a file without `kind` by.
_SIGNATURE_KEYS = {kind.signature_key: kind.name for kind in KINDS.values()}


def looks_like(root: Mapping[str, Any]) -> str | None:
    """The kind a file's keys say it is, where one of them belongs to one kind only."""
    return next((kind for key, kind in _SIGNATURE_KEYS.items() if key in root), None)


def read_by(kind: Any) -> str:
    """Which command reads a file of `kind`, or the kinds there are."""
    if isinstance(kind, str) and kind in KIND_COMMANDS:
        return f"a {kind} file, which `{KIND_COMMANDS[kind]}` reads"
    names = ", ".join(k for k in KIND_COMMANDS if k != "header")
    near = did_you_mean(kind, KIND_COMMANDS) if isinstance(kind, str) else ""
    return f"unknown kind {kind!r}{near}; the kinds are {names}"


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """ "; did you mean 'x'?" for the option `word` is a slip away from, else ""."""
    near = nearest(word, options)
    return "" if near is None else f" (did you mean {near!r}?)"


def nearest(word: str, options: Iterable[str]) -> str | None:
    """The option `word` is most likely a slip of: the same but for case, underscores or
    hyphens; the start of it (five letters or more); or within one edit of it, two for a name
    of eight letters or more (a letter left out, added, changed or two swapped). None where
    nothing is that near."""
    fold = word.lower().replace("-", "_")
    best: tuple[int, str] | None = None
    for option in options:
        folded = option.lower().replace("-", "_").replace(" ", "_")
        if fold == folded:
            return option
        # Short names too: a slip of "v" drops a velocity as surely as one of "goalkeeper"
        # drops a goalkeeper. A word that begins a longer name is a slip of it.
        allowed = 2 if len(option) >= 8 else 1
        if len(fold) >= 5 and folded.startswith(fold):
            allowed = max(allowed, len(option) - len(fold))
        distance = _edits(fold, folded, allowed)
        if distance <= allowed and (best is None or (distance, option) < best):
            best = (distance, option)
    return None if best is None else best[1]


def _edits(a: str, b: str, cap: int) -> int:
    """Edits from a to b (insert, delete, change, swap two neighbours), counted up to cap + 1."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if (
                before is not None
                and i > 1
                and j > 1
                and a[i - 1] == b[j - 2]
                and a[i - 2] == b[j - 1]
            ):
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return min(row[len(b)], cap + 1)
