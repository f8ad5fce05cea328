"""Every incident an audit finds, written as a file (`varroom audit --situations`), is judged
by `varroom check` exactly as the audit judged it: offside phases, penalty kicks and ball lines."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from click.testing import CliRunner

from varroom.audit.incident_files import incident_file_name
from varroom.audit.model import Audit
from varroom.audit.run import audit_match
from varroom.cli.audit import write_incident_files
from varroom.cli.main import cli
from varroom.synthetic.match import SyntheticConfig, synthetic_match


@cache
def audited() -> Audit:
    config = SyntheticConfig(
        seed=5, period_s=600.0, incidents_per_kind=1, penalties_per_kind=1, ball_lines_per_kind=1
    )
    return audit_match(synthetic_match(config).match)


def test_check_gives_every_incident_file_the_audits_verdict(tmp_path: Path) -> None:
    audit = audited()
    items = [*audit.incidents, *audit.undecidable, *audit.penalties, *audit.ball_lines]
    assert audit.incidents and audit.penalties and audit.ball_lines
    write_incident_files(tmp_path, audit.match, audit.profile, items)
    written = sorted(tmp_path.iterdir())
    assert [p.name for p in written] == sorted({incident_file_name(i) for i in items})
    kinds = set()
    for path in written:
        data = json.loads(path.read_text(encoding="utf-8"))
        audited_as = data["meta"]["audit"]
        assert (
            data["meta"]["match"] == audit.match and data["meta"]["minute"] == audited_as["clock"]
        )
        checked = CliRunner().invoke(cli, ["check", str(path), "--json"])
        assert checked.exit_code == 0, checked.stderr
        verdict = json.loads(checked.stdout)
        kinds.add(audited_as["kind"])
        if audited_as["kind"] == "offside":
            assert verdict["status"] == audited_as["status"]
            assert verdict["offender"] == audited_as["offender"]
        else:  # a penalty kick or a ball line: the whole verdict, as the audit wrote it
            assert verdict == {**audited_as["verdict"], "profile": audited_as["profile"]}
        assert verdict["profile"] == audit.profile.stamp()
    assert kinds == {"offside", "penalty", "ball_line"}


def test_writing_the_same_audit_again_replaces_every_file(tmp_path: Path) -> None:
    audit = audited()
    items = [*audit.penalties, *audit.ball_lines]
    write_incident_files(tmp_path, audit.match, audit.profile, items)
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    write_incident_files(tmp_path, audit.match, audit.profile, items)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == first
    assert len(first) == len(items)  # one name per moment: none overwrote another
