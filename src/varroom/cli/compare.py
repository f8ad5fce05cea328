"""`varroom check FILE --compare ifab,PROFILE...`: one play judged as each competition would,
a line per profile (its decision, margin and reason), the settings that make them differ, and
on request one picture of them all."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import click

from varroom.engine.explain import signed_distance
from varroom.errors import InputError
from varroom.formats.json_text import read_json
from varroom.formats.load import kind_of_file
from varroom.kinds import DecisionKind, JudgedVerdict
from varroom.profiles import Profile
from varroom.profiles.compare import differing_settings


def compare(file: Path, profiles: list[Profile], as_json: bool, asked: dict[str, Path]) -> None:
    data = read_json(file)
    kind = kind_of_file(data, str(file))
    refused = [name for name in asked if name != "image"]
    if refused:
        raise InputError(file, "$.kind", f"--compare draws only --image, not --{refused[0]}")
    judged = []
    for profile in profiles:
        case = kind.read(data, str(file), profile.noise)
        judged.append((profile, case, kind.judged(case, profile)))
    differ = differing_settings(profiles)
    if as_json:
        click.echo(json.dumps(_as_json(judged, differ), ensure_ascii=False))
    else:
        _print(kind, judged, differ)
    if "image" in asked:
        _draw(kind, judged, asked["image"])


def _as_json(
    judged: list[tuple[Profile, Any, JudgedVerdict]], differ: dict[str, list[object]]
) -> dict[str, Any]:
    calls = {verdict.status for _, _, verdict in judged}
    return {
        "same_call": len(calls) == 1,
        "settings_that_differ": differ,
        "verdicts": [
            {"profile": profile.stamp(), **verdict.to_dict()} for profile, _, verdict in judged
        ],
    }


def _print(
    kind: DecisionKind,
    judged: list[tuple[Profile, Any, JudgedVerdict]],
    differ: dict[str, list[object]],
) -> None:
    width = max(len(profile.name) for profile, _, _ in judged)
    for profile, _, verdict in judged:
        record = verdict.to_dict()
        margin = record.get("margin_m")
        shown = "" if margin is None else f" {signed_distance(margin)}"
        said = record.get("announcement") or record["reason"]
        click.echo(f"{profile.name:<{width}}  {kind.headline_of(verdict)}{shown}. {said}")
    calls = {verdict.status for _, _, verdict in judged}
    if len(calls) == 1:
        click.echo("The same call under every profile.")
    where = "; ".join(
        f"{key}: {' / '.join(str(value) for value in values)}" for key, values in differ.items()
    )
    click.echo(
        f"The profiles differ in {where}." if where else "The profiles state the same settings."
    )


def _draw(
    kind: DecisionKind, judged: list[tuple[Profile, Any, JudgedVerdict]], target: Path
) -> None:
    """Each profile's own picture, one above the other under its name (the pictures are drawn
    by the kind's own writer, so the comparison shows what each would show)."""
    from varroom.pictures.compare import write_compared

    writer = kind.picture_writer("image")
    with tempfile.TemporaryDirectory() as folder:
        drawn = []
        for i, (profile, case, verdict) in enumerate(judged):
            path = Path(folder) / f"{i}.png"
            writer(case, verdict, path)
            drawn.append((profile.name, kind.headline_of(verdict), path))
        write_compared(drawn, target)
