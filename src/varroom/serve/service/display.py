"""What the queue and the log show of a situation and its verdict: titles, names, margins."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from varroom.engine.ball_line_explain import millimetres
from varroom.engine.explain import distance
from varroom.serve.schemas import HIDDEN

CALLS = {
    "offence": "OFFSIDE",
    "no_offence": "NO OFFENCE",
    "undecidable": "UNDECIDABLE",
    # A penalty kick's decisions (Law 14).
    "goal": "GOAL",
    "no_goal": "NO GOAL",
    "retake": "RETAKE",
    "indirect_free_kick": "INDIRECT FREE KICK",
    # A ball line's (Laws 9 and 10; its goal is a penalty kick's GOAL).
    "out_of_play": "OUT OF PLAY",
    "in_play": "IN PLAY",
}
# What a reader cannot see as sent (controls, bidi, invisible characters), and lone
# surrogates (a multipart file name can carry them): shown as spaces.
_NOT_SHOWN = re.compile(f"{HIDDEN.pattern[:-1]}\ud800-\udfff]")


def clean(text: str, limit: int) -> str:
    """Text for display: what cannot be seen as spaces, trimmed, at most `limit` characters."""
    return _NOT_SHOWN.sub(" ", text).strip()[:limit]


def names_of(situation: Mapping[str, Any]) -> dict[str, str]:
    out = {}
    for player in situation.get("players", ()):  # a ball line has none
        name = player.get("name")
        number = player.get("number")
        shown = clean(name, 80) if isinstance(name, str) else ""
        out[player["id"]] = shown or (f"number {number}" if number is not None else player["id"])
    return out


def margin_text(margin_m: float | None, words: Callable[[float], str] = distance) -> str:
    """A margin with its sign (+ beyond the line), in the engine's words: `explain.distance`,
    or a ball line's `ball_line_explain.millimetres`."""
    if margin_m is None:
        return ""
    text = words(margin_m)
    if text in ("0 cm", "0.0 mm"):
        return "\u00b1" + text
    return ("+" if margin_m > 0 else "\u2212") + text


def summary(verdict: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """What the queue and the log show of a verdict, and the profile it was judged under
    (`{name, sha256}`). A penalty kick's player and margin
    are those of the first offence penalised (else the goalkeeper's against his line); a
    ball line's are the ball's against the line, in millimetres."""
    status = verdict["status"]
    player = verdict.get("offender") or verdict.get("nearest_attacker")
    margin = verdict.get("margin_m")
    words = distance
    who = None
    if verdict.get("kind") == "ball_line":
        words, who = millimetres, "ball"
    elif verdict.get("kind") == "penalty_kick":
        penalised = [o for o in verdict["offences"] if o["penalised"]]
        first = penalised[0] if penalised else None
        player = first["player"] if first else verdict.get("goalkeeper")
        margin = first.get("margin_m") if first else verdict.get("keeper_margin_m")
    if player is not None:
        who = names.get(player, player)
    label = CALLS[status]
    if who is not None and margin is not None:
        label += f" \u00b7 {who} {margin_text(margin, words)}"
    return {
        "status": status,
        "call": CALLS[status],
        "offender": verdict.get("offender"),
        "player": player,
        "player_name": names.get(player, player) if player else None,
        "who": who,  # whose margin it is: the player's name, or the ball
        "margin_m": margin,
        "margin_text": margin_text(margin, words),
        "label": label,
        "profile": verdict.get("profile"),  # none in a verdict judged before profiles
    }


def title_of(situation: Mapping[str, Any], source_name: str | None) -> str:
    meta = situation.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    for key in ("title", "match"):
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            minute = meta.get("minute")
            if key == "match" and isinstance(minute, str | int) and str(minute).strip():
                minute = str(minute).strip()
                mark = "'" if re.fullmatch(r"\d+(\+\d+)?", minute) else ""
                return clean(f"{value} \u00b7 {minute}{mark}", 300)
            return clean(value, 300)
    if source_name:
        return source_name
    description = meta.get("description")
    if isinstance(description, str) and description.strip():
        return clean(description, 120)
    return "Situation"


def safe_name(filename: str | None) -> str | None:
    """A file name for display only: never a path, never used to open anything."""
    if not filename:
        return None
    name = re.split(r"[\\/]", filename)[-1]
    name = clean(name, 200)
    return name or None


def attacking_team(data: Mapping[str, Any]) -> str:
    attack = data.get("attack")
    if isinstance(attack, dict) and isinstance(attack.get("team"), str):
        return str(attack["team"])
    players = data.get("players") or ()  # a ball line has none
    return str(players[0]["team"]) if players else ""
