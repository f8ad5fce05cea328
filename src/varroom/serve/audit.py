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
from functools import cache
from pathlib import Path
from typing import Any

from varroom.formats.situation_json import situation_to_dict
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
