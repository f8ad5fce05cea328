"""Writing a situation in the situation format (version 1.1): what the review room queues,
what a live alert carries, and what `varroom.formats.situation_json` reads back."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from varroom.model.situation import Situation

__all__ = ["situation_to_dict"]


def situation_to_dict(situation: Situation) -> dict[str, Any]:
    """A situation written in the situation format (version 1): what `situation_from_dict`
    reads back to an equal situation."""

    def num(value: float) -> float:
        return float(value)

    def part(p: Any) -> Any:
        if p.y_m is None:
            return num(p.x_m)
        xyz = [num(p.x_m), num(p.y_m)]
        if p.z_m is not None:
            xyz.append(num(p.z_m))
        return xyz

    def position(pos: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"x": num(pos.x_m), "y": num(pos.y_m)}
        if pos.parts:
            out["parts"] = {p.part.value: part(p) for p in pos.parts}
        if pos.off_field is not None:
            out["off_field"] = pos.off_field.value
        if any(pos.v_mps):
            out["v"] = [num(v) for v in pos.v_mps]
        return out

    def touch(t: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            "t": num(t.t_s),
            "player": t.player,
            "action": t.action.value,
            "ball": [num(v) for v in t.ball_m],
            "positions": {pid: position(pos) for pid, pos in t.positions.items()},
        }
        if t.involvement:
            out["involvement"] = [{"player": i.player, "kind": i.kind.value} for i in t.involvement]
        if any(t.ball_v_mps):
            out["ball_v"] = [num(v) for v in t.ball_v_mps]
        return out

    players = []
    for p in situation.players.values():
        item: dict[str, Any] = {"id": p.id, "team": p.team, "goalkeeper": p.goalkeeper}
        if p.name:
            item["name"] = p.name
        if p.number is not None:
            item["number"] = int(p.number)
        players.append(item)
    data: dict[str, Any] = {
        "pitch": {"length": num(situation.pitch.length_m), "width": num(situation.pitch.width_m)},
        "attack": {"team": situation.attacking_team, "towards": situation.attack_direction.value},
        "players": players,
        "touches": [touch(t) for t in situation.touches],
        "meta": dict(situation.meta),
    }
    if situation.on_field_decision is not None:
        data["on_field"] = {"decision": situation.on_field_decision}
    tracking = getattr(situation, "tracking", None)
    if tracking is not None:
        noise = {
            name: num(value)
            for name, value in (
                (f.name, getattr(tracking.noise, f.name)) for f in fields(tracking.noise)
            )
            if value is not None
        }
        data["tracking"] = {"source": tracking.source.value, **noise}
    return data
