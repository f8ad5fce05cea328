"""One match, the unit of work: its files loaded, audited and written as rows.

`run_match` runs in a worker (a process of the local pool, or a Dask worker) and writes the
match's parts itself, so a result is kept as soon as it exists; it never raises for a bad
match: any error becomes the match's state `failed` and its one-line message. `warm` imports
what every match needs, once per worker.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
import socket
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from varroom.errors import DataError, VarroomError
from varroom.profiles import Profile
from varroom.season import store
from varroom.season.manifest import MatchEntry

if TYPE_CHECKING:
    from varroom.audit.ball_lines import BallLineIncident
    from varroom.audit.model import Audit, Incident
    from varroom.audit.penalties import PenaltyIncident
    from varroom.match import MatchTracking

_HASH_BLOCK = 1 << 20


class MatchState(StrEnum):
    OK = "ok"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the driver learns of a match (the rows are in its parts)."""

    match_id: str
    state: MatchState
    error: str
    seconds: float
    n_incidents: int


def warm() -> None:
    """Import the loading and auditing code (about a second) once per worker, not per match."""
    import varroom.audit.run  # noqa: F401
    import varroom.audit.tracking  # noqa: F401
    import varroom.match  # noqa: F401


def settings_json(profile: Profile) -> str:
    """The settings a match is audited with, as recorded beside its results: its profile's
    every value, and the standard policies each verdict also records the outcome of."""
    from varroom.engine.policy import STANDARD_POLICIES

    return json.dumps(
        {
            "profile": profile.to_dict(),
            "policies": [str(policy) for policy in STANDARD_POLICIES],
        },
        sort_keys=True,
    )


@cache
def varroom_version() -> str:
    return version("varroom")


def inputs_hash(entry: MatchEntry) -> str:
    """A hash of the provider, every file's role and content (a missing file hashes as
    missing: it fails when audited)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(entry.provider.encode())
    for role, path in entry.all_files():
        digest.update(f"\0{role}\0".encode())
        try:
            with path.open("rb") as stream:
                while block := stream.read(_HASH_BLOCK):
                    digest.update(block)
        except OSError as error:
            digest.update(f"\0unreadable {error.errno}".encode())
    return digest.hexdigest()


def match_key(inputs: str, profile: Profile) -> str:
    """What decides whether a stored result is still good: inputs, settings (the profile) and
    version."""
    text = f"{inputs}\0{settings_json(profile)}\0{varroom_version()}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def run_match(entry: MatchEntry, out: Path, inputs: str) -> Outcome:
    """Load, audit and store one match; a failure is stored as the match's state."""
    start = time.perf_counter()
    key = match_key(inputs, entry.profile)
    try:
        incidents = audit_rows(entry, key)
        state, error = MatchState.OK, ""
    except VarroomError as failure:
        incidents, state, error = [], MatchState.FAILED, str(failure)
    except Exception as failure:  # a bug or a library's error: this match alone fails
        incidents, state = [], MatchState.FAILED
        error = " ".join(f"{type(failure).__name__}: {failure}".split())
    seconds = time.perf_counter() - start
    store.write_match(
        out, entry.match_id, match_row(entry, inputs, state, error, seconds, incidents), incidents
    )
    return Outcome(entry.match_id, state, error, seconds, len(incidents))


def match_row(
    entry: MatchEntry,
    inputs: str,
    state: MatchState,
    error: str,
    seconds: float,
    incidents: list[dict[str, Any]],
) -> dict[str, Any]:
    """The match's row of matches.parquet."""
    return {
        "match_id": entry.match_id,
        "competition": entry.competition,
        "season": entry.season,
        "referee": entry.referee,
        "provider": entry.provider,
        "profile": entry.profile.name,
        "profile_sha256": entry.profile.sha256,
        "state": state.value,
        "error": error,
        "seconds": seconds,
        "n_incidents": sum(1 for row in incidents if row["status"] is not None),
        "n_official_calls": sum(1 for row in incidents if row["official_call"]),
        "varroom_version": varroom_version(),
        "settings": settings_json(entry.profile),
        "inputs": inputs,
        "key": match_key(inputs, entry.profile),
        "worker": f"{socket.gethostname()}:{os.getpid()}",
        "worker_peak_mb": peak_memory_mb(),
    }


def peak_memory_mb() -> float:
    """This process's peak resident memory (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def audit_rows(entry: MatchEntry, key: str) -> list[dict[str, Any]]:
    """The match's incident rows: every engine incident, every undecidable phase and every
    official call the engine did not make, in time order."""
    from varroom.audit.run import audit_match
    from varroom.match import load_match

    match = load_match(entry.provider, fast=True, **entry.file_arguments())
    if entry.official_calls is not None:
        match = dataclasses.replace(
            match, events=(*match.events, *read_official_calls(entry.official_calls))
        )
    audit = audit_match(match, profile=entry.profile)
    return incident_rows(entry, key, match, audit)


def read_official_calls(path: Path) -> tuple[Any, ...]:
    """varroom's CSV of the officials' offside calls (period, t_s, team, player), as offside
    events."""
    from varroom.match import EventKind, MatchEvent

    try:
        with path.open(newline="", encoding="utf-8") as stream:
            table = list(csv.DictReader(stream))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise DataError(path, f"cannot read the official calls: {error}") from None
    calls = []
    for number, row in enumerate(table, start=2):
        try:
            period, t_s = int(row["period"]), float(row["t_s"])
        except (KeyError, TypeError, ValueError):
            raise DataError(path, "period and t_s must be numbers", f"row {number}") from None
        calls.append(
            MatchEvent(
                t_s,
                period,
                row.get("team") or None,
                row.get("player") or None,
                EventKind.OFFSIDE,
                True,
                "official offside call",
            )
        )
    return tuple(calls)


def incident_rows(
    entry: MatchEntry, key: str, match: MatchTracking, audit: Audit
) -> list[dict[str, Any]]:
    """One row per decision, as the match audit scores it (`Agreeing`): every offside incident
    and undecidable phase, every official call the engine did not make; then every penalty
    kick and ball-line moment the audit judged, with the Law's decision."""
    from varroom.audit.model import Agreeing, IncidentKind

    team_name = {team.id: team.name for team in match.teams}
    paired = dict(audit.agreement.both)
    base = {
        "match_id": entry.match_id,
        "competition": entry.competition,
        "season": entry.season,
        "referee": entry.referee or None,
        "kind": IncidentKind.OFFSIDE.value,
        "decision": None,
        "profile": entry.profile.name,
        "profile_sha256": entry.profile.sha256,
        "key": key,
    } | dict.fromkeys(
        ("offender", "team", "team_id", "margin_m", "probability", "class", "reason", "policies")
    )

    def judged(incident: Incident, agreeing: Agreeing, called: bool) -> dict[str, Any]:
        verdict = incident.verdict
        spread = verdict.uncertainty
        return base | {
            "status": verdict.status.value,
            "offender": verdict.offender,
            "team": team_name.get(incident.team, incident.team),
            "team_id": incident.team,
            "margin_m": verdict.margin_m,
            "probability": None if spread is None else spread.probability,
            "class": None if spread is None else spread.confidence_class.value,
            "period": incident.period,
            "t_s": incident.t_s,
            "official_call": called,
            "agreement": agreeing.value,
            "reason": verdict.reason,
            "policies": _policies(verdict.policy_outcomes),
        }

    def called(index: int, agreeing: Agreeing, why: str | None) -> dict[str, Any]:
        call = audit.official_calls[index]
        return base | {
            "status": None,
            "offender": call.player,
            "team": None if call.team is None else team_name.get(call.team, call.team),
            "team_id": call.team,
            "period": call.period,
            "t_s": call.t_s,
            "official_call": True,
            "agreement": agreeing.value,
            "reason": why,
        }

    rows = [
        judged(i, Agreeing.AGREED if k in paired else Agreeing.ENGINE_ONLY, k in paired)
        for k, i in enumerate(audit.incidents)
    ]
    rows += [judged(i, Agreeing.UNDECIDABLE, False) for i in audit.undecidable]
    rows += [called(c, Agreeing.OFFICIALS_ONLY, None) for c in audit.agreement.official_only]
    rows += [called(c, Agreeing.DATA_INCONSISTENT, why) for c, why in audit.agreement.inconsistent]
    rows += [_penalty_row(base, team_name, p) for p in audit.penalties]
    rows += [_ball_line_row(base, b) for b in audit.ball_lines]
    # Reports name the offender as the lineup does, never by a provider's id.
    names = {str(pid): name for pid, name in zip(match.player_ids, match.player_names, strict=True)}
    for row in rows:
        row["offender_name"] = names.get(row["offender"]) if row["offender"] else None
    return sorted(rows, key=lambda row: (row["period"], row["t_s"]))


def _policies(outcomes: Mapping[str, Enum]) -> str:
    return json.dumps({name: outcome.value for name, outcome in outcomes.items()})


def _law_row(base: dict[str, Any], found: PenaltyIncident | BallLineIncident) -> dict[str, Any]:
    """What a penalty kick's or a ball line's row says: when, the Law's decision and why. No
    official decision is known for either: the data does not carry one."""
    verdict = found.verdict
    return base | {
        "kind": found.kind.value,
        "decision": verdict.decision.value,
        "period": found.period,
        "t_s": found.t_s,
        "official_call": None,
        "agreement": None,
        "reason": verdict.reason,
        "policies": _policies(verdict.policy_outcomes),
    }


def _penalty_row(
    base: dict[str, Any], team_name: Mapping[str, str], found: PenaltyIncident
) -> dict[str, Any]:
    """A penalty kick: `status` offence when the Law penalises someone; the margin is the
    goalkeeper's nearest foot against his line."""
    keeper = found.verdict.keeper_measure
    penalised = found.verdict.penalised
    return _law_row(base, found) | {
        "status": "offence" if penalised else "no_offence",
        "offender": penalised[0].player if penalised else None,
        "team": team_name.get(found.team, found.team),
        "team_id": found.team,
        "margin_m": None if keeper is None else keeper.margin_m,
        "probability": None if keeper is None else keeper.probability,
        "class": None if keeper is None else keeper.confidence_class.value,
    }


def _ball_line_row(base: dict[str, Any], found: BallLineIncident) -> dict[str, Any]:
    """A ball-line moment: `status` says what the audit found (a missed ball-out, a goal-line
    moment), the margin how far the ball was wholly over."""
    from varroom.engine.uncertainty import confidence_class

    verdict = found.verdict
    return _law_row(base, found) | {
        "status": found.what.value,
        "margin_m": verdict.margin_m,
        "probability": verdict.probability,
        "class": confidence_class(verdict.probability).value,
    }
