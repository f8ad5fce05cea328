"""`varroom live` over a replayed match: the same offences as the audit, how soon, and at what
cost per frame.

- A synthetic 90-minute 25 Hz match (135,000 frames, no event feed: the case the 0.5 s goal
  is for) is written as a frame stream, then followed in this process line by line, as
  `varroom live` reads it (`StreamReader`, then `LiveFollower`). The follower's offences
  must equal `audit_match`'s (offender, passer, margin within 1 mm).
- Detection latency: each alert's `detected_after_s` (stream time from the involvement to
  the frame after which it was decided), median and worst, as ratios to the frame interval.
- The same match with its event feed (the officials' calls and the events of touches the
  synthetic match plants), followed in this process: its offences against the audit's, and
  its latency (a touch waits until no event still to come can change what names it).
- Compute per frame: CPU time (this process) over the frames, reading the JSON lines and
  following; as a fraction of the frame interval it is the share of one core a live 25 Hz
  stream takes. The follower alone is timed apart.
- Keeping up: `varroom replay FILE --speed 50 | varroom live --json` as two processes: its
  wall time against the match's length / 50 (1.0: it kept up; more: it fell behind).
- Penalty kicks and the ball over the line: the alerts of the 90-minute match (its play's
  own ball-outs and goal-line moments) and of one with planted penalty kicks and ball-line
  scenes against the audit's, verdict for verdict, and their latency by kind.
- SkillCorner 2417 (10 Hz broadcast tracking, 451 tracks) when the shared data is there:
  the whole match followed, its offences, judged phases and ball-line moments against the
  audit's.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from varroom.audit.ball_lines import BallLineIncident
from varroom.audit.model import Audit
from varroom.audit.penalties import PenaltyIncident
from varroom.audit.run import audit_match
from varroom.live.follower import Alert, LiveFollower
from varroom.live.laws import LawAlert
from varroom.live.replay import match_lines
from varroom.live.stream import End, Frame, Header, StreamReader, match_items
from varroom.match import MatchTracking, load_match
from varroom.match.tracking import MatchEvent
from varroom.synthetic.match import SyntheticConfig, synthetic_match

ROOT = Path(__file__).resolve().parent.parent
SKILLCORNER = ROOT.parent / "shared" / "data" / "skillcorner-opendata-2417"
SPEED = 50.0


def same(every: list[Alert | LawAlert], audit: Audit) -> bool:
    alerts = [alert for alert in every if isinstance(alert, Alert)]
    if len(alerts) != len(audit.incidents):
        return False
    return all(
        (a.incident.period, a.incident.verdict.offender, a.incident.passer)
        == (i.period, i.verdict.offender, i.passer)
        and abs((a.incident.verdict.margin_m or 0.0) - (i.verdict.margin_m or 0.0)) <= 1e-3
        for a, i in zip(alerts, audit.incidents, strict=True)
    )


def same_laws(every: list[Alert | LawAlert], audit: Audit) -> bool:
    """The audit's penalty kicks and ball-line moments, verdict for verdict."""
    live = sorted((a.incident for a in every if isinstance(a, LawAlert)), key=_law_key)
    incidents: list[PenaltyIncident | BallLineIncident] = [*audit.penalties, *audit.ball_lines]
    offline = sorted(incidents, key=_law_key)
    return [_law_key(i) for i in live] == [_law_key(i) for i in offline] and [
        i.verdict.to_dict() for i in live
    ] == [i.verdict.to_dict() for i in offline]


def _law_key(incident: PenaltyIncident | BallLineIncident) -> tuple[int, float, str]:
    what = incident.what.value if isinstance(incident, BallLineIncident) else "penalty"
    return incident.period, incident.t_s, what


def law_latency(every: list[Alert | LawAlert]) -> dict[str, float]:
    """Median and worst latency of each kind of penalty and ball-line alert."""
    results: dict[str, float] = {}
    for decision in ("penalty", "ball_out", "goal_line"):
        seen = [
            a.detected_after_s for a in every if isinstance(a, LawAlert) and a.decision == decision
        ]
        if seen:
            results[f"live_{decision}_latency_s_median"] = statistics.median(seen)
            results[f"live_{decision}_latency_s_worst"] = max(seen)
    return results


def follow_lines(path: Path) -> tuple[list[Alert | LawAlert], LiveFollower, float, float]:
    """Alerts, the follower, CPU seconds reading and following, CPU seconds following."""
    reader = StreamReader(str(path))
    follower: LiveFollower | None = None
    alerts: list[Alert | LawAlert] = []
    following = 0.0
    start = time.process_time()
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            item = reader.read(line)
            if isinstance(item, Header):
                follower = LiveFollower(item)
                continue
            assert follower is not None and isinstance(item, Frame | MatchEvent | End)
            before = time.process_time()
            alerts += follower.feed(item)
            following += time.process_time() - before
    total = time.process_time() - start
    assert follower is not None
    return alerts, follower, total, following


def follow_items(match: MatchTracking) -> tuple[list[Alert | LawAlert], LiveFollower, float]:
    items = match_items(match)
    header = next(items)
    assert isinstance(header, Header)
    follower = LiveFollower(header)
    alerts: list[Alert | LawAlert] = []
    start = time.process_time()
    for item in items:
        alerts += follower.feed(item)
    return alerts, follower, time.process_time() - start


def keeping_up(path: Path, duration_s: float) -> dict[str, float]:
    varroom_bin = str(Path(sys.executable).with_name("varroom"))
    start = time.perf_counter()
    replay = subprocess.Popen(
        [varroom_bin, "replay", str(path), "--speed", str(SPEED)], stdout=subprocess.PIPE
    )
    live = subprocess.run(
        [varroom_bin, "live", "--json"], stdin=replay.stdout, capture_output=True, check=True
    )
    replay.wait()
    wall = time.perf_counter() - start
    return {
        "live_speed50_wall_s": wall,
        "reference_live_speed50_match_s": duration_s / SPEED,
        "live_speed50_alerts": float(len(live.stdout.splitlines())),
    }


def bench_live() -> dict[str, Any]:
    synthetic = synthetic_match(SyntheticConfig(seed=0, with_events=False))
    match = synthetic.match
    assert match.frame_rate_hz is not None
    frame_s = 1 / match.frame_rate_hz
    audit = audit_match(match)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for _, _, line in match_lines(match):
                out.write(line + "\n")
        alerts, follower, total_s, following_s = follow_lines(path)
        frames = follower.counts.frames
        latency = [alert.detected_after_s for alert in alerts if isinstance(alert, Alert)]
        duration_s = frames * frame_s
        results |= {
            "live_equals_audit_90min": same(alerts, audit),
            "live_alerts_90min": len(latency),
            "live_laws_equal_audit_90min": same_laws(alerts, audit),
            "live_law_alerts_90min": len(alerts) - len(latency),
            "audit_offences_90min": len(audit.incidents),
            "live_latency_s_median": statistics.median(latency),
            "live_latency_s_worst": max(latency),
            "reference_frame_interval_s": frame_s,
            "live_compute_ms_per_frame": 1000 * total_s / frames,
            "live_follower_ms_per_frame": 1000 * following_s / frames,
            "reference_frame_interval_ms": 1000 * frame_s,
            "live_alert_compute_ms_worst": max(alert.compute_ms for alert in alerts),
            **law_latency(alerts),
            "live_held_at_end": follower.held(),
        }
        results |= keeping_up(path, duration_s)
    featured = synthetic_match(SyntheticConfig(seed=0, with_events=True)).match
    event_alerts, _, _ = follow_items(featured)
    event_latency = [a.detected_after_s for a in event_alerts if isinstance(a, Alert)]
    results |= {
        "live_equals_audit_90min_events": same(event_alerts, audit_match(featured)),
        "live_events_latency_s_median": statistics.median(event_latency),
        "live_events_latency_s_worst": max(event_latency),
        "live_events_alerts_within_0_5_s": sum(s <= 0.5 for s in event_latency),
        "live_events_alerts_90min": len(event_latency),
    }
    planted = synthetic_match(
        SyntheticConfig(seed=5, with_events=True, penalties_per_kind=2, ball_lines_per_kind=3)
    ).match
    planted_alerts, _, _ = follow_items(planted)
    results |= {
        "live_laws_equal_audit_90min_planted": same_laws(planted_alerts, audit_match(planted)),
        "live_planted_penalty_alerts": sum(
            isinstance(a, LawAlert) and a.decision == "penalty" for a in planted_alerts
        ),
    }
    results |= {f"{k}_planted": v for k, v in law_latency(planted_alerts).items()}
    if SKILLCORNER.is_dir():
        real = load_match(
            "skillcorner",
            meta_data=SKILLCORNER / "match_data.json",
            raw_data=SKILLCORNER / "structured_data.json",
        )
        real_audit = audit_match(real)
        real_alerts, real_follower, real_s = follow_items(real)
        results |= {
            "live_equals_audit_skillcorner": same(real_alerts, real_audit)
            and same_laws(real_alerts, real_audit)
            and real_follower.counts.judged == real_audit.phases_judged
            and real_follower.counts.undecidable == len(real_audit.undecidable),
            "live_skillcorner_judged": real_follower.counts.judged,
            "live_skillcorner_follower_ms_per_frame": 1000 * real_s / real_follower.counts.frames,
            "reference_skillcorner_frame_interval_ms": 100.0,
        }
    return results


if __name__ == "__main__":
    for key, value in bench_live().items():
        print(f"{key}: {value}")
