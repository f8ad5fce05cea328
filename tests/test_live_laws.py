"""Penalty kicks and the ball over the line, followed live: the audit's incidents, verdict for
verdict, on synthetic matches with planted penalty kicks and ball-line moments, each alerted
once what follows it can no longer change it."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from test_live_follow import assert_same_laws
from varroom.audit.model import Audit
from varroom.audit.penalties import RESULT_S
from varroom.audit.run import audit_match
from varroom.engine.ball_line import judge_ball_line
from varroom.engine.penalty import judge_penalty
from varroom.formats.ball_line_json import ball_line_from_dict
from varroom.formats.penalty_json import penalty_kick_from_dict
from varroom.live.follower import LiveFollower
from varroom.live.laws import RESUME_S, LawAlert
from varroom.live.stream import Header, match_items
from varroom.schemas import schema
from varroom.synthetic.match import SyntheticConfig, synthetic_match

PERIOD_S = 600.0  # room for one penalty kick and one ball-line scene of each kind


@pytest.fixture(scope="module", params=[True, False], ids=["events", "tracking_only"])
def followed(request: pytest.FixtureRequest) -> tuple[Audit, list[LawAlert], LiveFollower]:
    events = bool(request.param)
    config = SyntheticConfig(
        seed=5 if events else 8,
        period_s=PERIOD_S,
        incidents_per_kind=0,
        with_events=events,
        penalty_events=events,
        penalties_per_kind=1,
        ball_lines_per_kind=1,
    )
    match = synthetic_match(config).match
    items = match_items(match)
    header = next(items)
    assert isinstance(header, Header)
    follower = LiveFollower(header)
    alerts: list[LawAlert] = []
    for item in items:
        alerts += [a for a in follower.feed(item) if isinstance(a, LawAlert)]
    return audit_match(match), alerts, follower


def test_every_penalty_kick_and_ball_line_as_the_audit_judges_it(
    followed: tuple[Audit, list[LawAlert], LiveFollower],
) -> None:
    audit, alerts, _ = followed
    assert len(audit.penalties) == 5  # one of each planted kind
    assert len(audit.ball_lines) >= 6  # the planted scenes, and the play's own
    assert any(b.goal_after_ball_out for b in audit.ball_lines)
    assert_same_laws(alerts, audit)


def test_alerts_come_when_decidable_and_once(
    followed: tuple[Audit, list[LawAlert], LiveFollower],
) -> None:
    """A kick once what became of it is known (`RESULT_S`, then the frames and touches that
    tell it); a ball-out once play has gone on `RESUME_S` with no stoppage."""
    _, alerts, follower = followed
    frame_s = 1 / follower.header.fps
    for alert in alerts:
        assert alert.detected_after_s > 0
        if alert.decision == "penalty":
            assert RESULT_S < alert.detected_after_s <= RESULT_S + 0.6
        elif alert.decision == "ball_out":
            assert RESUME_S < alert.detected_after_s <= 2 * RESUME_S + 0.5
        else:
            assert alert.detected_after_s <= 2 * RESUME_S + 10 * frame_s
    keys = [(a.decision, a.incident.period, a.incident.t_s) for a in alerts]
    assert len(keys) == len(set(keys))


def test_an_alert_carries_the_kick_or_ball_line_the_room_judges(
    followed: tuple[Audit, list[LawAlert], LiveFollower],
) -> None:
    _, alerts, follower = followed
    check = jsonschema_rs.validator_for(schema("alert"))
    for alert in alerts:
        line = json.loads(json.dumps(alert.to_dict(alert.upload(follower.header)), allow_nan=False))
        assert line["kind"] == "alert" and line["decision"] == alert.decision
        assert [e.message for e in check.iter_errors(line)] == []
        assert not check.is_valid({**line, "verdikt": line["verdict"]})
        if alert.decision != "penalty":
            assert line["verdict"]["kind"] == "ball_line"
            assert (
                judge_ball_line(ball_line_from_dict(line["ball_line"])).to_dict() == line["verdict"]
            )
            continue
        kick = penalty_kick_from_dict(line["penalty_kick"])
        assert judge_penalty(kick).to_dict() == line["verdict"]
