"""Building penalty kicks for tests: the JSON format written in depths towards +x, a mirror for
attack towards -x, and a judge that takes the dict."""

from __future__ import annotations

import copy
from typing import Any

from varroom.engine.penalty import judge_penalty
from varroom.engine.penalty_verdict import PenaltyVerdict
from varroom.formats.penalty_json import penalty_kick_from_dict
from varroom.model.penalty import PenaltySettings

HALF = 52.5
FRONT_EDGE = HALF - 0.12  # the goal line's front edge, lines 12 cm wide inside the field
MARK = HALF - 11.0

# Everyone but the kicker and the goalkeeper, legally placed: outside the area and the arc,
# behind the mark, on the pitch.
ATTACK, DEFENCE = "Rovers", "Athletic"
LEGAL_OTHERS: dict[str, tuple[str, tuple[float, float]]] = {
    "reyes": (ATTACK, (31.0, -6.0)),
    "okafor": (ATTACK, (31.0, 6.0)),
    "lindqvist": (DEFENCE, (31.5, -3.0)),
    "moreau": (DEFENCE, (31.5, 3.0)),
}
NAMES = {
    "hale": ("Tom Hale", 9),
    "brandt": ("Marco Brandt", 1),
    "reyes": ("Luis Reyes", 7),
    "okafor": ("Sam Okafor", 11),
    "lindqvist": ("Erik Lindqvist", 4),
    "moreau": ("Jules Moreau", 5),
}


def keeper_feet(
    left_heel: float,
    right_heel: float,
    left_toe: float | None = None,
    right_toe: float | None = None,
) -> dict[str, list[float]]:
    """The goalkeeper's feet as x of each heel (toes 25 cm further out unless given)."""
    return {
        "left_heel": [left_heel, -0.15, 0.0],
        "left_toe": [left_heel - 0.25 if left_toe is None else left_toe, -0.15, 0.0],
        "right_heel": [right_heel, 0.15, 0.0],
        "right_toe": [right_heel - 0.25 if right_toe is None else right_toe, 0.15, 0.0],
    }


def penalty(
    result: str = "saved",
    keeper: dict[str, Any] | None = None,
    others: dict[str, tuple[str, tuple[float, float]]] | None = None,
    facts: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A penalty kick towards +x: Hale (Rovers) against the goalkeeper Brandt (Athletic).
    `keeper` is Brandt's position (default: both heels on the line); `others` maps
    id -> (team, (x, y))."""
    others = LEGAL_OTHERS if others is None else others
    keeper = keeper or {"x": HALF - 0.1, "y": 0.0, "parts": keeper_feet(HALF - 0.05, HALF - 0.05)}
    teams = {"hale": ATTACK, "brandt": DEFENCE} | {pid: team for pid, (team, _) in others.items()}
    players = [
        {
            "id": pid,
            "team": team,
            **_named(pid),
            **({"goalkeeper": True} if pid == "brandt" else {}),
        }
        for pid, team in teams.items()
    ]
    data: dict[str, Any] = {
        "kind": "penalty_kick",
        "attack": {"team": ATTACK, "towards": "+x"},
        "players": players,
        "kick": {"t": 0.0, "kicker": "hale", "ball": [MARK, 0.0, 0.11]},
        "positions": {
            "hale": {"x": MARK - 0.9, "y": -0.6},
            "brandt": keeper,
            **{pid: {"x": x, "y": y} for pid, (_, (x, y)) in others.items()},
        },
        "result": result,
        "facts": facts or {},
    }
    data.update(extra)
    return data


def mirrored(data: dict[str, Any]) -> dict[str, Any]:
    """The same kick with the attack towards -x: every x negated."""
    out = copy.deepcopy(data)
    out["attack"]["towards"] = "-x" if data["attack"]["towards"] == "+x" else "+x"
    out["kick"]["ball"][0] = -out["kick"]["ball"][0]
    if "ball_after" in out:
        out["ball_after"][0] = -out["ball_after"][0]
    for position in out["positions"].values():
        position["x"] = -position["x"]
        for part in position.get("parts", {}).values():
            if isinstance(part, list):
                part[0] = -part[0]
            else:
                raise AssertionError("parts as bare x are not mirrored here")
        if "v" in position:
            position["v"][0] = -position["v"][0]
    return out


def judged(
    data: dict[str, Any], settings: PenaltySettings | None = None, **kwargs: Any
) -> PenaltyVerdict:
    kick = penalty_kick_from_dict(data)
    return judge_penalty(kick, settings or PenaltySettings(), **kwargs)


def _named(player_id: str) -> dict[str, Any]:
    if player_id not in NAMES:
        return {}
    name, number = NAMES[player_id]
    return {"name": name, "number": number}
