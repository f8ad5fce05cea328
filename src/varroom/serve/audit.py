"""Match audits for the review room: a pluggable function from match files to incidents.

An audit runner is called in a background thread as

    runner(provider, files, progress) -> iterable of incidents

where `files` maps kloppy's name for each file (`raw_data`, `meta_data`, `event_data`,
`lineup_data`, `three_sixty_data`, ...) to the stored paths, `progress(fraction)` reports
0.0 to 1.0, and each incident is a situation (format version 1) as a dict, or an object
with a `situation` (a dict or a `Situation`). Each incident joins the queue through the
same checks as an uploaded situation.

The default runner imports the match loader and the audit only when an audit runs:
`varroom.match.load_match(provider, **files)`, then `varroom.audit.run.audit_match(match,
progress, files)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from varroom.model.situation import Situation

Progress = Callable[[float], None]
AuditRunner = Callable[[str, Mapping[str, list[Path]], Progress], Iterable[Any]]


def default_audit_runner(
    provider: str, files: Mapping[str, list[Path]], progress: Progress
) -> Iterable[Any]:
    """Load the match (`varroom.match.load_match`) and audit it (`varroom.audit.run.audit_match`):
    every incident the audit finds, offences and undecidable phases, as a situation dict."""
    from varroom.audit.run import audit_match
    from varroom.match import load_match

    # Any: mypy cannot tell that no role is called `fast` (load_match's one other keyword).
    named: dict[str, Any] = {
        role: paths[0] if len(paths) == 1 else list(paths) for role, paths in files.items()
    }
    progress(0.01)
    match = load_match(provider, **named)
    progress(0.1)

    def step(done: int, total: int, _what: str = "") -> None:
        progress(0.1 + 0.9 * (done / total if total else 1.0))

    # The audit reads single files only (StatsBomb's events and 360 frames).
    audit = audit_match(match, step, {r: p[0] for r, p in files.items() if len(p) == 1})
    title = getattr(audit, "match", None)
    for incident in (*audit.incidents, *getattr(audit, "undecidable", ())):
        yield incident_dict(incident, title)


def incident_dict(item: Any, match: str | None = None) -> dict[str, Any]:
    """The situation dict of one incident the audit found."""
    if isinstance(item, dict):
        return item
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict):
        data = to_dict()
        if isinstance(data, dict) and "touches" in data:
            return data
    situation = getattr(item, "situation", None)
    if isinstance(situation, dict):
        return situation
    if isinstance(situation, Situation):
        data = situation_to_dict(situation)
        meta = data["meta"]
        if match and "match" not in meta:
            meta["match"] = match
        period, t_s = getattr(item, "period", None), getattr(item, "t_s", None)
        if period is not None and t_s is not None and "minute" not in meta:
            minutes, seconds = divmod(int(t_s), 60)
            meta["minute"] = f"{period}H {minutes:02d}:{seconds:02d}"
        source = getattr(item, "source", None)
        if source is not None:
            meta.setdefault("source", f"match audit ({getattr(source, 'value', source)})")
        confidence = getattr(item, "chain_confidence", None)
        if confidence is not None:
            meta.setdefault("chain_confidence", float(confidence))
        verdict = getattr(item, "verdict", None)
        if verdict is not None and hasattr(verdict, "status"):
            # The audit may know more than the situation says (what the camera saw):
            # keep its own verdict beside the one the review room reaches from the situation.
            meta.setdefault(
                "audit",
                {
                    "status": verdict.status.value,
                    "offender": verdict.offender,
                    "reason": verdict.reason,
                },
            )
        return data
    raise TypeError(f"an incident must be a situation, got {type(item).__name__}")


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


@cache
def provider_files() -> dict[str, list[str]]:
    """Each provider `varroom.match.load_match` reads (kloppy's name), with the names of the
    files its loaders take, in their order; empty where the match loader is not installed.
    Imports kloppy: called when the page opens the audit form, or when an audit comes in."""
    try:
        from varroom.match.providers import LOADERS
    except Exception:  # the match loader is optional for the review room
        return {}
    return {
        provider.value: list(dict.fromkeys(f.name for loader in loaders for f in loader.files))
        for provider, loaders in LOADERS.items()
    }
