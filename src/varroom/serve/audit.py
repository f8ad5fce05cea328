"""Match audits for the review room: a pluggable function from match files to incidents.

An audit runner is called in a background thread as

    runner(provider, files, progress) -> iterable of incidents

where `files` maps kloppy's name for each file (`raw_data`, `meta_data`, `event_data`,
`lineup_data`, `three_sixty_data`, ...) to the stored paths, `progress(fraction)` reports
0.0 to 1.0, and each incident is a file as a dict (a situation, a penalty kick or a ball
line), or one
of the audit's incidents (`varroom.audit`), written as `varroom audit --situations` writes
it. Each joins the queue through the same checks as an uploaded file, once: an incident
of the same match, kind and moment as one queued before is not added again.

The default runner imports the match loader and the audit only when an audit runs:
`varroom.match.load_match(provider, **files)`, then `varroom.audit.run.audit_match(match,
progress, profile)` under the room's default profile.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from varroom.profiles import Profile

Progress = Callable[[float], None]
AuditRunner = Callable[[str, Mapping[str, list[Path]], Progress], Iterable[Any]]


def default_audit_runner(
    provider: str, files: Mapping[str, list[Path]], progress: Progress, profile: Profile
) -> Iterable[Any]:
    """Load the match (`varroom.match.load_match`) and audit it (`varroom.audit.run.audit_match`):
    every incident the audit finds (offences, undecidable phases, penalty kicks, the ball lines
    it kept the case of) as the file `varroom audit --situations` writes for it."""
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

    audit = audit_match(match, step, profile)
    for incident in (*audit.incidents, *audit.undecidable, *audit.penalties, *audit.ball_lines):
        yield incident_dict(incident, audit.match, profile)


def incident_dict(
    item: Any, match: str | None = None, profile: Profile | None = None
) -> dict[str, Any]:
    """The file of one incident the audit found under `profile` (`ifab` unless given;
    `varroom.audit.incident_files`); a dict is taken as it is (a runner's own file)."""
    if isinstance(item, dict):
        return item
    from varroom.audit.incident_files import incident_file
    from varroom.profiles import ifab

    return incident_file(item, profile or ifab(), match)


def incident_key(data: Mapping[str, Any]) -> str | None:
    """An audit incident's natural key: its match, kind and moment (period, clock to the
    millisecond), hashed; None for a file that does not say them (it is queued as new)."""
    meta = data.get("meta")
    audit = meta.get("audit") if isinstance(meta, dict) else None
    if not isinstance(audit, dict) or not isinstance(meta, dict):
        return None
    moment = [meta.get("match"), audit.get("kind"), audit.get("period"), audit.get("t_s")]
    if None in moment:
        return None
    text = json.dumps(moment, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
