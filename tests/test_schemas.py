"""The JSON Schemas (issue 28) against the readers: every example, every bundled sample file
varroom reads and every file varroom writes validates against its kind's schema (draft
2020-12, checked by jsonschema-rs, which the lock holds for schemathesis); a slip in any key
of any example is refused by the schema as by the reader; `varroom schema KIND` prints them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from click.testing import CliRunner
from hypothesis import given, settings

from test_strict_formats import EXAMPLE_FILES, Slip, slips
from varroom.cli.main import cli
from varroom.errors import InputError
from varroom.formats.ball_line_json import ball_line_from_dict, ball_line_to_dict
from varroom.formats.load import case_from_dict, file_kind
from varroom.formats.penalty_json import penalty_kick_from_dict, penalty_kick_to_dict
from varroom.formats.situation_json import situation_from_dict, situation_to_dict
from varroom.schemas import SCHEMAS, schema

ROOT = Path(__file__).resolve().parent.parent


def validator(kind: str) -> Any:
    return jsonschema_rs.validator_for(schema(kind))


def kind_of_file(data: dict[str, Any]) -> str:
    return "still_marks" if data.get("kind") == "still_marks" else file_kind(data)


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_each_schema_is_a_valid_draft_2020_12_schema(kind: str) -> None:
    document = schema(kind)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"].endswith(f"/{kind}.json")
    assert isinstance(document["version"], str) and document["version"]
    jsonschema_rs.Draft202012Validator(document)  # raises on an invalid schema


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_validates(path: Path) -> None:
    data = json.loads(path.read_text())
    errors = [e.message for e in validator(kind_of_file(data)).iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_what_varroom_writes_validates(path: Path) -> None:
    """The writers' output (audits' incident files, the review room's queue) is a file of its
    kind too."""
    data = json.loads(path.read_text())
    kind = kind_of_file(data)
    if kind == "still_marks":
        return  # varroom writes no still marks
    write = {
        "situation": lambda d: situation_to_dict(situation_from_dict(d)),
        "penalty_kick": lambda d: penalty_kick_to_dict(penalty_kick_from_dict(d)),
        "ball_line": lambda d: ball_line_to_dict(ball_line_from_dict(d)),
    }[kind]
    written = json.loads(json.dumps(write(data)))
    assert [e.message for e in validator(kind).iter_errors(written)] == []


def test_the_audits_situations_validate(tmp_path: Path) -> None:
    """The files `varroom audit --situations` writes from the bundled StatsBomb sample."""
    sample = ROOT / "samples" / "statsbomb-euro2020-turkey-italy"
    result = CliRunner().invoke(
        cli,
        [
            "audit", "statsbomb",
            "--event-data", str(sample / "statsbomb_3788741_event.json"),
            "--lineup-data", str(sample / "statsbomb_3788741_lineup.json"),
            "--three-sixty-data", str(sample / "statsbomb_3788741_360.json"),
            "--situations", str(tmp_path), "--quiet", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text())
        assert [e.message for e in validator(kind_of_file(data)).iter_errors(data)] == [], path


@settings(max_examples=80, deadline=None)
@given(slips())
def test_a_slip_in_any_key_is_refused_by_the_schema_as_by_the_reader(slip: Slip | None) -> None:
    if slip is None:
        return
    mangled, path = slip.mangled, slip.path
    kind = kind_of_file(slip.data)
    by_schema = not validator(kind).is_valid(mangled)
    if kind == "still_marks":
        from varroom.still.marks import marks_from_dict

        read = lambda: marks_from_dict(mangled, (1920, 1080), "marks.json")  # noqa: E731
    else:
        read = lambda: case_from_dict(mangled, "x.json")  # noqa: E731
    try:
        read()
        by_reader = False
    except InputError:
        by_reader = True
    # A slip of a player's id or a team's (keys that are data, not names) the schema cannot
    # know; the reader refuses it as an unknown player or team.
    data_key = len(path) > 1 and path[-2] in ("positions", "team_sizes", "marks", "parts")
    assert by_reader
    assert by_schema or data_key


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_varroom_schema_prints_the_schema(kind: str) -> None:
    result = CliRunner().invoke(cli, ["schema", kind])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == schema(kind)


def test_an_unknown_kind_is_one_line_with_the_kinds() -> None:
    result = CliRunner().invoke(cli, ["schema", "situaton"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "varroom: KIND situaton: no such kind (did you mean 'situation'?); "
        "the kinds are situation, penalty_kick, ball_line, still_marks, frames, alert, profile, verdict"
    )


def test_every_line_varroom_replay_writes_validates() -> None:
    """A synthetic minute streamed as `varroom replay` writes it: the header, frames with
    unseen players and balls, events, the end."""
    from itertools import islice

    from varroom.live.stream import header_line, stream_lines
    from varroom.synthetic.match import SyntheticConfig, synthetic_match

    match = synthetic_match(
        SyntheticConfig(seed=5, period_s=240.0, incidents_per_kind=1, with_events=True)
    ).match
    check = validator("frames")
    lines = [header_line(match)] + [line for _, _, line in islice(stream_lines(match), 1500)]
    lines.append(json.dumps({"kind": "end"}))
    kinds = [json.loads(line)["kind"] for line in lines]
    assert kinds.count("frame") > 100 and "event" in kinds
    for line in lines:
        assert check.is_valid(json.loads(line)), line


@pytest.mark.parametrize(
    "path",
    [p for p in EXAMPLE_FILES if p.parent.name != "still"],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_what_check_json_prints_validates(path: Path) -> None:
    """Each example's verdict as `varroom check --json` prints it, under every policy's
    outcome: the verdict schema holds its keys and closed lists."""
    result = CliRunner().invoke(cli, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    check = validator("verdict")
    assert [e.message for e in check.iter_errors(printed)] == []
    # And it says no to what is not a verdict: a key renamed, a closed list broken.
    renamed = {("statu" if k == "status" else "decisio" if k == "decision" else k): v
               for k, v in printed.items()}  # fmt: skip
    assert not check.is_valid(renamed)
    assert not check.is_valid({**printed, "law": 11})
    # Nested records too: the settings it was judged under, the profile.
    if "settings" in printed:
        first = next(iter(printed["settings"]))
        slipped = {k + "x" if k == first else k: v for k, v in printed["settings"].items()}
        assert not check.is_valid({**printed, "settings": slipped})
    assert not check.is_valid({**printed, "profile": {"name": "ifab", "sha256": "beef"}})


def _format_kind(path: Path) -> str | None:
    """The varroom format a fixture is a file of; None for a provider's own file."""
    from varroom.formats.json_fields import looks_like

    data = json.loads(path.read_text())
    return (data.get("kind") or looks_like(data)) if isinstance(data, dict) else None


# The test suite's own files of varroom's formats (a provider's files are the provider's).
FIXTURES = [
    (path, kind)
    for path in sorted((ROOT / "tests" / "files").rglob("*.json"))
    if (kind := _format_kind(path)) is not None
]


@pytest.mark.parametrize(("path", "kind"), FIXTURES, ids=lambda item: getattr(item, "name", item))
def test_every_fixture_of_a_varroom_format_validates(path: Path, kind: str) -> None:
    data = json.loads(path.read_text())
    assert [e.message for e in validator(kind).iter_errors(data)] == [], path
