"""What a reviewer may set that tracking cannot see, and how it changes a situation or a
penalty kick; a ball line has none.

Facts are a complete state, not a patch: `plays` overrides the kind of touch (deliberate
play, deflection, save) of some touches by a player; `involvement` and `off_field`, when
given, replace every involvement fact and every `off_field` mark of the situation. A penalty
kick (kind `penalty_kick`) has no touches: its facts are `penalty`, which, when given,
replaces the kick's `facts` that a reviewer may set (`PENALTY_FLAGS`, `encroacher_involved`).
A ball line (kind `ball_line`) is the ball's tracked path and nothing else: its format states
only the on-field decision besides, which is the call under review, not a fact to set.
The original file is never changed: `apply_facts` returns a modified copy, which then goes
through the same reader as `varroom check`.

Each kind's part is one `RoomFacts` (`SITUATION_FACTS`, `PENALTY_FACTS`, `NO_FACTS`), named by
the kind's registration in `varroom.kinds`; the functions below look it up by the file's kind.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from varroom.formats.load import kind_of_file
from varroom.kinds import resolve
from varroom.model.situation import Action, TouchKind, touch_kind

PlayKind = Literal["deliberate_play", "deflection", "save"]
InvolvementKindName = Literal[
    "obstructs_line_of_vision",
    "challenges_opponent",
    "attempts_to_play_close",
    "obvious_action_impacting_opponent",
]
OffFieldStatus = Literal["without_permission", "with_permission", "stepped_off"]

_SETTABLE = {
    TouchKind.DELIBERATE_PLAY: "deliberate_play",
    TouchKind.DEFLECTION: "deflection",
    TouchKind.SAVE: "save",
}

PLAY_WORDS = {"deliberate_play": "deliberate play", "deflection": "deflection", "save": "save"}
INVOLVEMENT_WORDS = {
    "obstructs_line_of_vision": "obstructs an opponent's line of vision",
    "challenges_opponent": "challenges an opponent for the ball",
    "attempts_to_play_close": "clearly attempts to play a ball close to him",
    "obvious_action_impacting_opponent": "makes an obvious action impacting an opponent",
}
OFF_FIELD_WORDS = {
    "without_permission": "off the field without permission",
    "with_permission": "off the field with permission",
    "stepped_off": "stepped off the field",
}

MAX_FACTS = 500

# The penalty-kick facts tracking cannot see (shared/spec/penalty.md), as a reviewer reads them.
PENALTY_FLAGS = {
    "feint_after_run_up": "the kicker feinted after completing the run-up",
    "clearly_affected_keeper": "an attacker's encroachment clearly affected the goalkeeper",
    "clearly_affected_kicker": "a defender's offence clearly affected the kicker",
    "keeper_touching_frame": "the goalkeeper touched the goal frame",
    "keeper_warned_before": "the goalkeeper was warned before in this match",
}


class PlayFact(BaseModel):
    """The kind of a touch by a player, as the reviewer judges it (Law 11.2)."""

    model_config = ConfigDict(extra="forbid")
    touch: int = Field(ge=0, le=100_000, description="index in `touches` (0 is the first)")
    kind: PlayKind


class InvolvementFact(BaseModel):
    """A player interfering with an opponent at a touch (Law 11.2)."""

    model_config = ConfigDict(extra="forbid")
    touch: int = Field(ge=0, le=100_000)
    player: str = Field(min_length=1, max_length=200)
    kind: InvolvementKindName


class OffFieldFact(BaseModel):
    """A player off the field of play at a touch (Law 11.4)."""

    model_config = ConfigDict(extra="forbid")
    touch: int = Field(ge=0, le=100_000)
    player: str = Field(min_length=1, max_length=200)
    status: OffFieldStatus


class PenaltyFactsIn(BaseModel):
    """What tracking cannot see at a penalty kick (Law 14), as a reviewer judges it: the
    complete state (a flag not sent is false)."""

    model_config = ConfigDict(extra="forbid")
    feint_after_run_up: bool = False
    clearly_affected_keeper: bool = False
    clearly_affected_kicker: bool = False
    keeper_touching_frame: bool = False
    keeper_warned_before: bool = False
    encroacher_involved: list[str] = Field(
        default_factory=list,
        max_length=30,
        description="players who encroached and then played or challenged for the ball",
    )


class Facts(BaseModel):
    """The facts a reviewer sets. `involvement` and `off_field`, when given, are complete;
    `penalty` is for a penalty kick only, and the plays, involvement and off-field marks for
    a situation only."""

    model_config = ConfigDict(extra="forbid")
    plays: list[PlayFact] = Field(default_factory=list, max_length=MAX_FACTS)
    involvement: list[InvolvementFact] | None = Field(default=None, max_length=MAX_FACTS)
    off_field: list[OffFieldFact] | None = Field(default=None, max_length=MAX_FACTS)
    penalty: PenaltyFactsIn | None = None


class FactsError(Exception):
    """A fact that does not fit the situation: `where` is its JSON path in the request."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def play_kind(action: str) -> str | None:
    """The settable kind of a touch's action, or None (restarts, woodwork, officials)."""
    try:
        kind = touch_kind(Action(action))
    except ValueError:
        return None
    return _SETTABLE.get(kind)


@dataclass(frozen=True, slots=True)
class RoomFacts:
    """What a reviewer sets of one kind of file, and how it changes the file: each kind's
    registration (`varroom.kinds`, `room_facts`) names its instance. This one is a kind with
    nothing to set (a ball line); the situation's and the penalty kick's override the steps.

    `parts` are the parts of `Facts` the kind takes; `not_taken` is said of any other part
    sent (`{where}`: the JSON path of the facts in the request)."""

    parts: tuple[str, ...]
    not_taken: str

    def original(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The facts as the file states them."""
        return {}

    def normalise(self, data: Mapping[str, Any], facts: Facts, where: str) -> dict[str, Any]:
        """`facts` checked against the file, complete and in a stable order."""
        for part in Facts.model_fields:
            if getattr(facts, part) and part not in self.parts:
                raise FactsError(f"{where}.{part}", self.not_taken.format(where=where))
        return self.checked(data, facts, where)

    def checked(self, data: Mapping[str, Any], facts: Facts, where: str) -> dict[str, Any]:
        """`normalise` once the parts sent are known to be the kind's own."""
        return self.original(data)

    def apply(self, data: dict[str, Any], facts: Mapping[str, Any]) -> dict[str, Any]:
        """`data` (a copy, changed in place) with the normalised facts written into it."""
        return data

    def describe(
        self, data: Mapping[str, Any], facts: Mapping[str, Any], names: Mapping[str, str]
    ) -> list[str]:
        """Plain words for how the facts differ from the file's own."""
        return []


@dataclass(frozen=True, slots=True)
class _SituationFacts(RoomFacts):
    """A situation's: the kind of some touches, involvement, off-field marks."""

    def original(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """No overrides, the situation's own involvement and marks."""
        involvement = []
        off_field = []
        for index, touch in enumerate(data["touches"]):
            for item in touch.get("involvement") or []:
                involvement.append({"touch": index, "player": item["player"], "kind": item["kind"]})
            for player, position in touch["positions"].items():
                if position.get("off_field") is not None:
                    off_field.append(
                        {"touch": index, "player": player, "status": position["off_field"]}
                    )
        return {"plays": [], "involvement": involvement, "off_field": off_field}

    def checked(self, data: Mapping[str, Any], facts: Facts, where: str) -> dict[str, Any]:
        """Plays that restate the touch's own kind are dropped; duplicates are errors for
        plays (two answers for one touch) and merged for involvement."""
        base = self.original(data)
        players = {p["id"] for p in data["players"]}
        touches = data["touches"]

        def touch_at(index: int, at: str) -> Mapping[str, Any]:
            if index >= len(touches):
                raise FactsError(
                    f"{at}.touch", f"no touch {index}: the situation has {len(touches)}"
                )
            touch: Mapping[str, Any] = touches[index]
            return touch

        def player_known(player: str, at: str) -> None:
            if player not in players:
                raise FactsError(f"{at}.player", f"unknown player {player!r} (not in $.players)")

        plays: dict[int, str] = {}
        for i, play in enumerate(facts.plays):
            at = f"{where}.plays[{i}]"
            touch = touch_at(play.touch, at)
            own = play_kind(touch["action"])
            if touch.get("player") is None or own is None:
                raise FactsError(
                    f"{at}.touch",
                    f"touch {play.touch} is a {touch['action']}: only a player's play, "
                    "deflection or save can be set",
                )
            if play.touch in plays:
                raise FactsError(f"{at}.touch", f"two facts for touch {play.touch}")
            plays[play.touch] = play.kind
            if play.kind == own:
                plays[play.touch] = ""  # restates the situation: no override

        involvement = base["involvement"]
        if facts.involvement is not None:
            involvement = []
            seen = set()
            for i, item in enumerate(facts.involvement):
                at = f"{where}.involvement[{i}]"
                touch_at(item.touch, at)
                player_known(item.player, at)
                key = (item.touch, item.player, item.kind)
                if key not in seen:
                    seen.add(key)
                    involvement.append(
                        {"touch": item.touch, "player": item.player, "kind": item.kind}
                    )

        off_field = base["off_field"]
        if facts.off_field is not None:
            off_field = []
            marked: dict[tuple[int, str], str] = {}
            for i, mark in enumerate(facts.off_field):
                at = f"{where}.off_field[{i}]"
                touch = touch_at(mark.touch, at)
                player_known(mark.player, at)
                if mark.player not in touch["positions"]:
                    raise FactsError(
                        f"{at}.player",
                        f"{mark.player!r} has no position at touch {mark.touch}: "
                        "not on the pitch then",
                    )
                spot = (mark.touch, mark.player)
                if spot in marked and marked[spot] != mark.status:
                    raise FactsError(
                        f"{at}.status", f"two statuses for {mark.player!r} at touch {mark.touch}"
                    )
                if spot not in marked:
                    marked[spot] = mark.status
                    off_field.append(
                        {"touch": mark.touch, "player": mark.player, "status": mark.status}
                    )

        return {
            "plays": [{"touch": t, "kind": k} for t, k in sorted(plays.items()) if k],
            "involvement": sorted(involvement, key=lambda f: (f["touch"], f["player"], f["kind"])),
            "off_field": sorted(off_field, key=lambda f: (f["touch"], f["player"])),
        }

    def apply(self, data: dict[str, Any], facts: Mapping[str, Any]) -> dict[str, Any]:
        touches = data["touches"]
        for play in facts["plays"]:
            touches[play["touch"]]["action"] = play["kind"]
        for touch in touches:
            touch.pop("involvement", None)
            for position in touch["positions"].values():
                position.pop("off_field", None)
        for item in facts["involvement"]:
            touches[item["touch"]].setdefault("involvement", []).append(
                {"player": item["player"], "kind": item["kind"]}
            )
        for item in facts["off_field"]:
            touches[item["touch"]]["positions"][item["player"]]["off_field"] = item["status"]
        return data

    def describe(
        self, data: Mapping[str, Any], facts: Mapping[str, Any], names: Mapping[str, str]
    ) -> list[str]:
        base = self.original(data)
        touches = data["touches"]
        lines = []

        def name(player: str | None) -> str:
            return names.get(player or "", player or "nobody")

        for play in facts["plays"]:
            touch = touches[play["touch"]]
            own = play_kind(touch["action"]) or touch["action"]
            lines.append(
                f"Touch {play['touch'] + 1} ({name(touch.get('player'))}): "
                f"{PLAY_WORDS.get(own, own)} \u2192 {PLAY_WORDS[play['kind']]}"
            )

        def compare(
            part: str, third: str, words: Mapping[str, str], marks: tuple[str, str]
        ) -> None:
            """Lines for the facts of `part` the reviewer added (marks[0]) or took away
            (marks[1])."""
            before = {(f["touch"], f["player"], f[third]) for f in base[part]}
            after = {(f["touch"], f["player"], f[third]) for f in facts[part]}
            for changed, mark in ((after - before, marks[0]), (before - after, marks[1])):
                for touch, player, value in sorted(changed):
                    lines.append(f"Touch {touch + 1}: {name(player)} {words[value]} ({mark})")

        compare("involvement", "kind", INVOLVEMENT_WORDS, ("added", "removed"))
        compare("off_field", "status", OFF_FIELD_WORDS, ("set", "cleared"))
        return lines


@dataclass(frozen=True, slots=True)
class _PenaltyFacts(RoomFacts):
    """A penalty kick's: its `facts` that a reviewer may set, complete."""

    def original(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"penalty": _penalty_facts(_stated(data))}

    def checked(self, data: Mapping[str, Any], facts: Facts, where: str) -> dict[str, Any]:
        if facts.penalty is None:
            return self.original(data)
        players = {p["id"] for p in data["players"]}
        for i, player in enumerate(facts.penalty.encroacher_involved):
            if player not in players:
                raise FactsError(
                    f"{where}.penalty.encroacher_involved[{i}]",
                    f"unknown player {player!r} (not in $.players)",
                )
        return {"penalty": _penalty_facts(facts.penalty.model_dump())}

    def apply(self, data: dict[str, Any], facts: Mapping[str, Any]) -> dict[str, Any]:
        data["facts"] = {**_stated(data), **facts["penalty"]}
        return data

    def describe(
        self, data: Mapping[str, Any], facts: Mapping[str, Any], names: Mapping[str, str]
    ) -> list[str]:
        before, after = self.original(data)["penalty"], facts["penalty"]
        lines = [
            f"{'Yes' if after[flag] else 'No'}: {words} ({'set' if after[flag] else 'cleared'})"
            for flag, words in PENALTY_FLAGS.items()
            if after[flag] != before[flag]
        ]
        was, now = set(before["encroacher_involved"]), set(after["encroacher_involved"])
        lines += [
            f"{names.get(p, p)} encroached, then played or challenged for the ball (added)"
            for p in sorted(now - was)
        ]
        lines += [
            f"{names.get(p, p)} encroached, then played or challenged for the ball (removed)"
            for p in sorted(was - now)
        ]
        return lines


SITUATION_FACTS: RoomFacts = _SituationFacts(
    ("plays", "involvement", "off_field"), "only a penalty kick has penalty facts"
)
PENALTY_FACTS: RoomFacts = _PenaltyFacts(
    ("penalty",), "a penalty kick has no touches: set {where}.penalty instead"
)
NO_FACTS = RoomFacts(
    (), "a ball line has no facts a reviewer sets: the ball's tracked path decides it"
)


def _stated(data: Mapping[str, Any]) -> dict[str, Any]:
    """A penalty kick's own `facts`, or none."""
    stated = data.get("facts")
    return stated if isinstance(stated, dict) else {}


def _penalty_facts(stated: Mapping[str, Any]) -> dict[str, Any]:
    """The settable penalty facts, complete and in a stable order."""
    involved = stated.get("encroacher_involved") or []
    return {
        **{flag: bool(stated.get(flag, False)) for flag in PENALTY_FLAGS},
        "encroacher_involved": sorted(set(involved)),
    }


def facts_of(data: Any) -> RoomFacts:
    """What a reviewer sets on a file of this kind: its registration's `room_facts`."""
    kind = kind_of_file(data)
    assert kind.room_facts is not None, f"a {kind.name} is not reviewed in the room"
    room_facts: RoomFacts = resolve(kind.room_facts)
    return room_facts


def original_facts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The facts as the file states them: no overrides, its own involvement and marks (a
    penalty kick: its own `facts`)."""
    return facts_of(data).original(data)


def normalise(data: Mapping[str, Any], facts: Facts, where: str = "$") -> dict[str, Any]:
    """Check `facts` against the file and return them complete and in a stable order."""
    return facts_of(data).normalise(data, facts, where)


def apply_facts(data: Mapping[str, Any], facts: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the file with the (normalised) facts written into it."""
    return facts_of(data).apply(copy.deepcopy(dict(data)), facts)


def describe_changes(
    data: Mapping[str, Any], facts: Mapping[str, Any], names: Mapping[str, str]
) -> list[str]:
    """Plain words for how the facts differ from the file as it came in."""
    return facts_of(data).describe(data, facts, names)
