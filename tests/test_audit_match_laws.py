"""The whole-match audit of penalty kicks (Law 14) and the ball over the line (Laws 9 and 10),
against synthetic 90-minute matches with planted penalties, ball-outs and goal-line moments.

Precision counts what the audit lists beyond what it lists in the same match without the
planted scenes (the background play has its own goal-line moments and ball-outs, with no
truth to score them by) and beyond the goal-line moments of a planted kick's own flight."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from varroom.audit.ball_lines import BallLineIncident, BallLineWhat
from varroom.audit.ball_out import scan_ball_out
from varroom.audit.model import Audit, IncidentKind
from varroom.audit.moments import find_moments
from varroom.audit.phases import cut_phases
from varroom.audit.report_laws import laws_html
from varroom.audit.run import audit_match
from varroom.cli.main import cli
from varroom.model.ball_line import BallLineDecision
from varroom.profiles import ifab
from varroom.synthetic.ball_lines import BallLinePlant, PlantedBallLine
from varroom.synthetic.match import SyntheticConfig, SyntheticMatch, synthetic_match
from varroom.synthetic.penalties import PenaltyPlant, PlantedPenalty

PLANTED = {"penalties_per_kind": 2, "ball_lines_per_kind": 3}
SEEDS = (5, 8)
MM = 0.001


@dataclass(frozen=True)
class Audited:
    planted: SyntheticMatch
    audit: Audit
    background: Audit


@pytest.fixture(scope="module", params=[True, False], ids=["with_events", "tracking_only"])
def audited(request: pytest.FixtureRequest) -> Audited:
    """With penalty-kick events, and (another seed) from tracking alone."""
    events = bool(request.param)
    seed = SEEDS[0] if events else SEEDS[1]
    planted = synthetic_match(SyntheticConfig(seed=seed, penalty_events=events, **PLANTED))
    background = synthetic_match(SyntheticConfig(seed=seed))
    return Audited(planted, audit_match(planted.match), audit_match(background.match))


def _kick_matches(found_t_s: float, truth: PlantedPenalty, period: int) -> bool:
    return period == truth.period and abs(found_t_s - truth.t_s) <= 0.05


def _penalty_right(audited: Audited, truth: PlantedPenalty) -> bool:
    for found in audited.audit.penalties:
        if not _kick_matches(found.t_s, truth, found.period):
            continue
        verdict = found.verdict
        offences = {(o.what, o.player) for o in verdict.offences}
        expected = set() if truth.offence is None else {(truth.offence, truth.offender)}
        margins_right = all(
            truth.margin_m is None
            or o.measure is None
            or abs(o.measure.margin_m - truth.margin_m) < 0.01
            for o in verdict.offences
        )
        return (
            verdict.result is truth.result
            and offences == expected
            and margins_right
            and found.kick.kicker == truth.kicker
        )
    return False


def test_every_planted_penalty_is_found_and_judged(audited: Audited) -> None:
    truth = audited.planted.penalties
    assert {p.kind for p in truth} == set(PenaltyPlant)
    for kind in PenaltyPlant:
        of_kind = [p for p in truth if p.kind is kind]
        right = [p for p in of_kind if _penalty_right(audited, p)]
        assert len(right) / len(of_kind) >= 0.95, kind
    found = audited.audit.penalties
    matched = [f for f in found if any(_kick_matches(f.t_s, p, f.period) for p in truth)]
    assert len(matched) / len(found) >= 0.95
    assert all(f.kind is IncidentKind.PENALTY for f in found)


def _new(audited: Audited, what: BallLineWhat) -> list[BallLineIncident]:
    """The audit's ball-line incidents of one kind that the background match does not have
    and that are no planted kick's own flight."""
    old = {(b.period, b.start_frame) for b in audited.background.ball_lines if b.what is what}
    kicks = [(p.period, p.t_s) for p in audited.planted.penalties]
    return [
        b
        for b in audited.audit.ball_lines
        if b.what is what
        and (b.period, b.start_frame) not in old
        and not any(p == b.period and 0 < b.t_s - t < 3.0 for p, t in kicks)
    ]


def _near(found: BallLineIncident, truth: PlantedBallLine) -> bool:
    """The incident is the planted moment: its judged path peaks at the planted peak."""
    return found.period == truth.period and abs(found.verdict.peak_t_s - truth.t_s) <= 0.01


def _out_right(found: BallLineIncident, truth: PlantedBallLine) -> bool:
    verdict = found.verdict
    return (
        verdict.line is truth.line
        and abs(verdict.margin_m - truth.margin_m) < MM
        and found.between_frames is (truth.kind is BallLinePlant.CURL_OUT)
    )


def test_every_planted_ball_out_is_found_and_judged(audited: Audited) -> None:
    truth = audited.planted.ball_lines
    found = _new(audited, BallLineWhat.MISSED_BALL_OUT)
    for kind in (k for k in BallLinePlant if k.out):
        of_kind = [t for t in truth if t.kind is kind]
        right = [t for t in of_kind if any(_near(f, t) and _out_right(f, t) for f in found)]
        assert len(right) / len(of_kind) >= 0.95, kind
    # Nothing else: a ball 1-30 mm short of a line is never called out.
    matched = [f for f in found if any(_near(f, t) and t.kind.out for t in truth)]
    assert len(matched) / len(found) >= 0.95
    short = [t for t in truth if t.kind is BallLinePlant.OUT_SHORT]
    assert not any(_near(f, t) for f in found for t in short)


def test_every_planted_goal_line_moment_is_found_and_judged(audited: Audited) -> None:
    truth = audited.planted.ball_lines
    found = _new(audited, BallLineWhat.GOAL_LINE)
    expected = {
        BallLinePlant.GOAL_OVER: BallLineDecision.GOAL,
        BallLinePlant.GOAL_SHORT: BallLineDecision.IN_PLAY,
    }
    for kind, decision in expected.items():
        of_kind = [t for t in truth if t.kind is kind]
        right = [
            t
            for t in of_kind
            if any(
                _near(f, t)
                and f.verdict.decision is decision
                and abs(f.verdict.margin_m - t.margin_m) < MM
                for f in found
            )
        ]
        assert len(right) / len(of_kind) >= 0.95, kind
    goals = [t for t in truth if t.goal_t_s is not None]
    matched = [
        f
        for f in found
        if any(_near(f, t) for t in truth if t.kind.goal_mouth)
        or any(
            f.period == t.period
            and f.verdict.crossed_at_t_s is not None
            and abs(f.verdict.crossed_at_t_s - (t.goal_t_s or 0.0)) < 0.05
            for t in goals
        )
    ]
    assert len(matched) / len(found) >= 0.95


def test_a_goal_after_a_ball_out_of_play_is_flagged(audited: Audited) -> None:
    truth = [t for t in audited.planted.ball_lines if t.kind is BallLinePlant.OUT_THEN_GOAL]
    flagged = [b for b in audited.audit.ball_lines if b.goal_after_ball_out]
    assert len(truth) == len(flagged) == PLANTED["ball_lines_per_kind"]
    for goal, planted in zip(flagged, sorted(truth, key=lambda t: (t.period, t.t_s)), strict=True):
        assert goal.verdict.decision is BallLineDecision.GOAL
        assert goal.period == planted.period
        assert goal.out_before_goal_t_s == pytest.approx(planted.t_s, abs=0.1)
    # A goal by the goal line itself (the ball back out of the net) is no goal after an out.
    assert not any(b.goal_after_ball_out for b in audited.background.ball_lines)


def test_a_missed_ball_out_ends_the_attacking_phase(audited: Audited) -> None:
    match = audited.planted.match
    moments = find_moments(match)
    phases = cut_phases(match, moments, scan_ball_out(match, ifab()))
    outs = [b for b in audited.audit.ball_lines if b.what is BallLineWhat.MISSED_BALL_OUT]
    assert outs
    for phase in phases:
        frames = moments.frame[list(phase.moments)]
        for out in outs:
            assert not (frames.min() < out.start_frame and frames.max() >= out.end_frame)


def test_the_planted_scenes_leave_the_rest_of_the_match_alone() -> None:
    config = SyntheticConfig(seed=SEEDS[0], period_s=600.0, incidents_per_kind=1)
    plain = synthetic_match(config).match
    planted = synthetic_match(
        SyntheticConfig(seed=SEEDS[0], period_s=600.0, incidents_per_kind=1, penalties_per_kind=1)
    )
    before, after = plain.players_m, planted.match.players_m
    same = (before == after) | (np.isnan(before) & np.isnan(after))
    changed = ~same.all(axis=(1, 2))
    kicks = [(p.period, p.t_s) for p in planted.penalties]
    near = np.zeros(len(changed), dtype=bool)
    for period, t_s in kicks:
        near |= (plain.period == period) & (np.abs(plain.t_s - t_s) < 12.0)
    assert changed.any() and not changed[~near].any()
    assert planted.truth == synthetic_match(config).truth


def test_the_json_and_the_report_list_them_by_kind(audited: Audited) -> None:
    printed = audited.audit.to_dict()
    assert {p["kind"] for p in printed["penalties"]} == {"penalty"}
    assert {b["kind"] for b in printed["ball_lines"]} == {"ball_line"}
    assert all(i["kind"] == "offside" for i in printed["incidents"])
    assert len(printed["penalties"]) == len(audited.audit.penalties)
    assert any(b["goal_after_ball_out"] for b in printed["ball_lines"])
    report = laws_html(audited.audit, audited.planted.match)
    assert "Penalty kicks (Law 14)" in report and "Laws 9 and 10" in report
    assert report.count("a ball out of play earlier in this play") == PLANTED["ball_lines_per_kind"]


def test_varroom_audit_prints_and_reports_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    planted = synthetic_match(
        SyntheticConfig(
            seed=SEEDS[0],
            period_s=900.0,
            incidents_per_kind=0,
            penalties_per_kind=1,
            ball_lines_per_kind=1,
        )
    )
    monkeypatch.setattr("varroom.cli.audit.load_match", lambda *_, **__: planted.match)
    report = tmp_path / "report.html"
    result = CliRunner().invoke(
        cli, ["audit", "metrica", "--json", "--html", str(report), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    kicks = sorted((p.period, round(p.t_s, 3)) for p in planted.penalties)
    assert [(p["period"], p["t_s"]) for p in printed["penalties"]] == kicks
    goals = [b for b in printed["ball_lines"] if b["goal_after_ball_out"]]
    assert len(goals) == 1 and goals[0]["verdict"]["decision"] == "goal"
    html = report.read_text(encoding="utf-8")
    assert html.count("<tr><td>") >= len(kicks) + len(printed["ball_lines"])
    assert "a ball out of play earlier in this play" in html


def test_a_season_has_a_row_for_every_penalty_and_ball_line(audited: Audited) -> None:
    from varroom.season.manifest import MatchEntry
    from varroom.season.report import season_html
    from varroom.season.work import incident_rows, settings_json

    entry = MatchEntry("m1", "tracab", (), None, competition="Test League")
    rows = incident_rows(entry, "key", audited.planted.match, audited.audit)
    kicks = [r for r in rows if r["kind"] == "penalty"]
    lines = [r for r in rows if r["kind"] == "ball_line"]
    assert len(kicks) == len(audited.audit.penalties) > 0
    assert len(lines) == len(audited.audit.ball_lines) > 0
    for row, found in zip(
        kicks, sorted(audited.audit.penalties, key=lambda p: (p.period, p.t_s)), strict=True
    ):
        assert (row["period"], row["t_s"]) == (found.period, found.t_s)
        assert row["decision"] == found.verdict.decision.value
        assert (row["status"] == "offence") == bool(found.verdict.penalised)
        assert row["agreement"] is None and row["official_call"] is None
    for row, line in zip(lines, audited.audit.ball_lines, strict=True):
        assert (row["status"], row["decision"]) == (line.what.value, line.verdict.decision.value)
        assert row["margin_m"] == line.verdict.margin_m
    profile = ifab()
    matches = [
        {"match_id": "m1", "state": "ok", "competition": "Test League", "referee": "R",
         "profile": profile.name, "profile_sha256": profile.sha256,
         "settings": settings_json(profile)}
    ]  # fmt: skip
    page = season_html(matches, rows)
    counts = (
        len(kicks),
        sum(r["status"] == "offence" for r in kicks),
        sum(r["margin_m"] is not None and r["margin_m"] > 0 for r in kicks),
        sum(r["decision"] == "retake" for r in kicks),
        sum(r["decision"] == "indirect_free_kick" for r in kicks),
    )
    assert counts[1] > 0  # the planted kinds include offences
    assert "<td>Test League</td>" + "".join(f"<td>{n}</td>" for n in counts) in page
    outs = sum(r["status"] == "missed_ball_out" for r in lines)
    assert f"<td>Test League</td><td>{outs}</td>" in page
