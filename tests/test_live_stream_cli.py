"""The frame stream on the wire: written and read back bit for bit, invalid lines reported
and skipped, `varroom replay` into `varroom live` (a pipe, a TCP port that drops and comes
back), and alerts queued in a running review room."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema_rs
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from machine import SHARED_DATA
from matches import cut, match_of
from varroom.audit.run import audit_match
from varroom.cli.main import cli
from varroom.live.feed import follow, tcp_lines
from varroom.live.follower import Alert
from varroom.live.replay import match_lines, paced
from varroom.live.stream import (
    End,
    Frame,
    Header,
    StreamReader,
    frame_line,
    header_line,
    match_items,
)
from varroom.match import load_match
from varroom.match.tracking import (
    MatchEvent,
    MatchTracking,
)
from varroom.schemas import schema
from varroom.synthetic.ball_lines import BallLinePlant
from varroom.synthetic.match import SyntheticConfig, synthetic_match

FILES = Path(__file__).parent / "files"


@pytest.fixture(scope="module")
def first_half() -> MatchTracking:
    """The first period of a short synthetic match with event data and a planted offence."""
    match = synthetic_match(
        SyntheticConfig(seed=5, period_s=240.0, incidents_per_kind=1, with_events=True)
    ).match
    return cut(match, match.period == 1, lambda e: e.period == 1)


@pytest.fixture(scope="module")
def stream_file(first_half: MatchTracking, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stream") / "first-half.jsonl"
    path.write_text("".join(line + "\n" for _, _, line in match_lines(first_half)))
    return path


def offences(match: MatchTracking) -> list[tuple[str | None, float]]:
    return [
        (i.verdict.offender, round(i.verdict.margin_m or 0.0, 3))
        for i in audit_match(match).incidents
    ]


def test_a_match_streamed_and_read_back_is_the_same_to_the_last_bit(
    first_half: MatchTracking,
) -> None:
    reader = StreamReader()
    lines = [line for _, _, line in match_lines(first_half)]
    read = [reader.read(line) for line in lines]
    direct = list(match_items(first_half))
    assert len(read) == len(direct)
    assert isinstance(read[0], Header) and read[0] == direct[0]
    assert isinstance(read[-1], End)
    frames = 0
    for got, want in zip(read[1:-1], direct[1:-1], strict=True):
        if isinstance(want, Frame):
            assert isinstance(got, Frame)
            assert (got.period, got.t_s) == (want.period, want.t_s)
            np.testing.assert_array_equal(got.ball_m, want.ball_m)
            np.testing.assert_array_equal(got.players_m, want.players_m)
            frames += 1
        else:
            assert isinstance(got, MatchEvent) and isinstance(want, MatchEvent)
            assert (got.period, got.t_s, got.kind, got.player) == (
                want.period,
                want.t_s,
                want.kind,
                want.player,
            )
    assert frames == len(first_half.t_s)
    assert any(np.isnan(f.ball_m[0]) for f in read if isinstance(f, Frame))  # dropouts


coordinate = st.floats(-80, 80, allow_nan=False, width=32) | st.just(float("nan"))


@settings(max_examples=60, deadline=None)
@given(
    t_s=st.floats(0, 3000, allow_nan=False),
    period=st.integers(1, 5),
    ball=arrays(np.float64, 3, elements=st.floats(-60, 60, allow_nan=False)),
    ball_seen=st.sampled_from(["xyz", "xy", "none"]),
    players=arrays(np.float32, (4, 2), elements=coordinate),
)
def test_any_frame_reads_back_as_it_was_written(
    t_s: float, period: int, ball: np.ndarray, ball_seen: str, players: np.ndarray
) -> None:
    """Whatever the numbers, a frame written and read back is the same frame: unseen players
    stay unseen, an unseen ball or height stays unseen, every float keeps every bit."""
    players[np.isnan(players).any(axis=1)] = np.nan  # a player is seen whole or not at all
    if ball_seen != "xyz":
        ball[2] = np.nan
    if ball_seen == "none":
        ball[:] = np.nan
    match = match_of(ball[None, :], players[None, :, :], np.array([period]), t_s=np.array([t_s]))
    reader = StreamReader()
    assert isinstance(reader.read(header_line(match)), Header)
    frame = reader.read(frame_line(match, 0, [str(pid) for pid in match.player_ids]))
    assert isinstance(frame, Frame)
    assert (frame.period, frame.t_s) == (period, t_s)
    np.testing.assert_array_equal(frame.ball_m, ball)
    np.testing.assert_array_equal(frame.players_m, players)


HEADER = {
    "kind": "header",
    "match": "A v B",
    "fps": 25,
    "players": [{"id": "a1", "team": "A"}, {"id": "b1", "team": "B", "goalkeeper": True}],
    "attack": {"A": {"1": "+x"}, "B": {"1": "-x"}},
}


def test_invalid_lines_are_reported_with_their_number_and_skipped(runner: CliRunner) -> None:
    good = {"kind": "frame", "period": 1, "t": 0.0, "ball": [0, 0], "players": {"a1": [1, 2]}}
    lines = [
        json.dumps(good),  # 1: before the header
        json.dumps(HEADER),
        "{not json",
        json.dumps({"kind": "frame", "t": 0.04, "players": {}}),  # no period
        json.dumps({**good, "t": 0.08, "players": {"zz": [1, 2]}}),  # nobody of the header
        json.dumps({**good, "t": 0.12, "ball": [1, 2, 3, 4]}),
        json.dumps({"kind": "event", "period": 1, "t": 0.1, "type": "dance"}),
        json.dumps({"kind": "goal"}),
        "[1, 2]",
        '{"kind": "frame", "period": 1, "t": 1' + "0" * 400 + ', "players": {}}',
        '{"kind": "frame", "period": 1, "t": 0.14, "players": {"\\ud800": [1, 2]}}',
        json.dumps({**good, "t": 0.16}),  # fine
        "",
        json.dumps({"kind": "end"}),
    ]
    result = runner.invoke(cli, ["live"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    reported = [line for line in result.stderr.splitlines() if "(skipped)" in line]
    numbers = [int(line.split("line ")[1].split(":")[0]) for line in reported]
    assert numbers == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert "$.period: missing" in reported[2]
    assert "$.players.zz: not a player of the header" in reported[3]
    assert "too large" in reported[8] and "\\ud800" in reported[9]
    assert "skipped 10 invalid lines" in result.stderr
    assert "1 frame," in result.stderr


def test_a_stream_without_a_header_is_an_input_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["live"], input='{"kind": "end"}\n')
    assert result.exit_code == 2
    assert result.stderr.strip() == "varroom: -: no header: nothing to follow"


def test_replay_into_live_gives_the_audits_offences(
    runner: CliRunner, stream_file: Path, first_half: MatchTracking
) -> None:
    replayed = runner.invoke(cli, ["replay", str(stream_file), "--speed", "0"])
    assert replayed.exit_code == 0, replayed.stderr
    assert replayed.stdout == stream_file.read_text()
    result = runner.invoke(cli, ["live", "--json"], input=replayed.stdout)
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    # The match's goal-line moments and ball-outs are alerted too (test_live_laws.py).
    assert {a["decision"] for a in lines} <= {"offside", "goal_line", "ball_out"}
    alerts = [a for a in lines if a["decision"] == "offside"]
    assert [(a["offender"], round(a["margin_m"], 3)) for a in alerts] == offences(first_half)
    assert len(alerts) >= 1
    for alert in lines:
        assert alert["kind"] == "alert"
        assert alert["compute_ms"] > 0 and alert["detected_after_s"] > 0
    check = jsonschema_rs.validator_for(schema("alert"))
    for alert in alerts:
        assert alert["situation"]["touches"][-1]["player"] == alert["offender"]
        assert [e.message for e in check.iter_errors(alert)] == []
    # The closing count is of every alert printed, each kind (issue 27: "4 alerts" after 15).
    noun = "alert" if len(lines) == 1 else "alerts"
    assert f", {len(lines)} {noun};" in result.stderr
    said = runner.invoke(cli, ["live"], input=replayed.stdout)
    offside = [line for line in said.stdout.splitlines() if " offside: " in line]
    assert len(said.stdout.splitlines()) == len(lines)
    assert [line.split(" offside: ")[1].split(",")[0] for line in offside] == [
        alert["offender"] for alert in alerts
    ]


@pytest.mark.shared_data
def test_replay_reads_a_provider(runner: CliRunner, tmp_path: Path) -> None:
    meta = SHARED_DATA / "skillcorner-opendata-2417" / "match_data.json"
    result = runner.invoke(
        cli,
        [
            "replay",
            "skillcorner",
            "--meta-data",
            str(meta),
            "--raw-data",
            str(FILES / "skillcorner_2417_frames.json"),
            "--speed",
            "0",
        ],
    )
    assert result.exit_code == 0, result.stderr
    reader = StreamReader()
    items = [reader.read(line) for line in result.stdout.splitlines()]
    header = items[0]
    assert (
        isinstance(header, Header) and header.fps == 10 and header.provider.value == "skillcorner"
    )
    assert not header.events
    loaded = load_match(
        "skillcorner", meta_data=meta, raw_data=FILES / "skillcorner_2417_frames.json"
    )
    assert sum(isinstance(item, Frame) for item in items) == len(loaded.t_s) > 0
    assert isinstance(items[-1], End)


def test_replay_keeps_the_matchs_own_clock() -> None:
    now = [0.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    lines = [
        (0, 0.0, "h"),
        *((1, k / 25, f"f{k}") for k in range(50)),
        (2, 0.0, "g"),
        (2, 1.0, "k"),
    ]
    assert list(paced(lines, 2.0, clock=lambda: now[0], sleep=sleep))[-1] == "k"
    # 49 frame intervals and a second of the second period, at twice real speed; the
    # half-time break is not waited for.
    assert now[0] == pytest.approx((49 / 25 + 1.0) / 2)


@contextmanager
def feed_server(parts: list[list[str]]) -> Iterator[int]:
    """A TCP feed on loopback sending each part on a connection of its own, then closing it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def run() -> None:
        for part in parts:
            connection, _ = server.accept()
            with connection:
                connection.sendall("".join(line + "\n" for line in part).encode())
            time.sleep(0.3)  # the feed is down a while

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        thread.join(timeout=10)
        server.close()


def test_a_tcp_feed_that_stops_and_resumes(first_half: MatchTracking) -> None:
    lines = [line for _, _, line in match_lines(first_half)]
    header, body = lines[0], lines[1:]
    middle = len(body) // 2
    # The feed drops mid-line and comes back with its header again.
    parts = [[header, *body[:middle], body[middle][:40]], [header, *body[middle + 1 :]]]
    problems: list[str] = []
    with feed_server(parts) as port:
        outcome = follow(
            tcp_lines("127.0.0.1", port, reconnect_s=5.0),
            lambda alert, header: None,
            lambda error: problems.append(str(error)),
        )
    assert len(problems) == 1 and "not JSON" in problems[0]  # the line cut in two
    got = [
        (a.incident.verdict.offender, round(a.incident.verdict.margin_m or 0, 3))
        for a in outcome.alerts
        if isinstance(a, Alert)
    ]
    assert got == offences(first_half)


# -- the review room -------------------------------------------------------------------------

TOKEN = "live-test-token"


@contextmanager
def room(data: Path) -> Iterator[str]:
    """A review room with a token, served in a thread on a free loopback port."""
    pytest.importorskip("uvicorn")
    from serve_in_thread import serve_in_thread

    from varroom.serve import create_app

    with serve_in_thread(create_app(None, TOKEN, data)) as url:
        yield url


def _get(url: str) -> Any:
    import urllib.request

    request = urllib.request.Request(url, headers={"authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def live_into(runner: CliRunner, url: str, token: str, stream_file: Path) -> Any:
    """`varroom live --json --room URL` over a stream file."""
    return runner.invoke(
        cli, ["live", "--json", "--room", url, "--room-token", token], input=stream_file.read_text()
    )


def test_live_queues_every_alert_in_the_review_room(
    runner: CliRunner, stream_file: Path, tmp_path: Path
) -> None:
    with room(tmp_path / "room") as url:
        result = live_into(runner, url, TOKEN, stream_file)
        assert result.exit_code == 0, result.stderr
        assert "review room" not in result.stderr
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        # Every alert is queued: offside offences, penalty kicks and ball lines alike.
        queue = _get(f"{url}/api/situations")
        assert len(queue) == len(lines)
        alerts = [a for a in lines if a["decision"] == "offside"]
        assert len(alerts) >= 1
        verdicts = [_get(f"{url}/api/situations/{item['id']}")["verdict"] for item in queue]
        offside = [v for v in verdicts if v.get("kind") not in ("penalty_kick", "ball_line")]
        assert all(v["offence"] is True for v in offside)
        offenders = sorted(v["offender"] for v in offside)
        assert offenders == sorted(alert["offender"] for alert in alerts)


def test_a_room_that_refuses_is_reported_and_the_run_goes_on(
    runner: CliRunner, stream_file: Path, tmp_path: Path
) -> None:
    with room(tmp_path / "room") as url:
        result = live_into(runner, url, "wrong", stream_file)
    assert result.exit_code == 0
    alerts = [line for line in result.stdout.splitlines() if '"offside"' in line]
    refused = [line for line in result.stderr.splitlines() if "did not take the alert" in line]
    assert len(refused) == len(alerts) >= 1
    assert "HTTP 401" in refused[0]


def _stream_near(match: MatchTracking, period: int, t_s: float) -> str:
    """The frame stream of the 8 seconds either side of `t_s` (and the events in them)."""
    keep = (match.period == period) & (np.abs(match.t_s - t_s) <= 8.0)
    near = cut(match, keep, lambda e: e.period == period and abs(e.t_s - t_s) <= 8)
    return "".join(line + "\n" for _, _, line in match_lines(near))


def _live_into_room(runner: CliRunner, stream: str, url: str, decision: str) -> dict[str, Any]:
    """Run `varroom live --room` on the stream and return its one alert of `decision`. Every
    alert is queued, and the room's verdict on each posted file is the alert's, to the last
    field, under the profile the alert line names."""
    result = runner.invoke(
        cli, ["live", "--json", "--room", url, "--room-token", TOKEN], input=stream
    )
    assert result.exit_code == 0, result.stderr
    assert "review room" not in result.stderr
    alerts = list(map(json.loads, result.stdout.splitlines()))
    queue = _get(f"{url}/api/situations")
    judged = [_get(f"{url}/api/situations/{item['id']}")["verdict"] for item in queue]

    def canonical(verdict: dict[str, Any]) -> str:
        return json.dumps(verdict, sort_keys=True)

    assert sorted(map(canonical, judged)) == sorted(
        canonical({**a["verdict"], "profile": a["profile"]}) for a in alerts
    )
    (chosen,) = [a for a in alerts if a["decision"] == decision]
    return chosen


def test_a_penalty_kick_alert_is_queued_in_the_room_as_a_penalty_kick(
    runner: CliRunner, tmp_path: Path
) -> None:
    """`--room` posts the penalty kick's own file (`kind: penalty_kick`); the room judges it
    to the alert's decision."""
    config = SyntheticConfig(
        seed=5, period_s=600.0, incidents_per_kind=0, with_events=True, penalties_per_kind=1
    )
    planted = synthetic_match(config)
    kick = planted.penalties[0]
    with room(tmp_path / "room") as url:
        stream = _stream_near(planted.match, kick.period, kick.t_s)
        alert = _live_into_room(runner, stream, url, "penalty")
    assert alert["kicker"] == kick.kicker
    assert alert["penalty_kick"]["kind"] == alert["verdict"]["kind"] == "penalty_kick"


def test_a_goal_line_alert_is_queued_in_the_room_as_a_ball_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    """`--room` posts the goal-line moment's own file (`kind: ball_line`); the room judges it
    to the alert's decision and margin."""
    config = SyntheticConfig(seed=5, period_s=600.0, incidents_per_kind=0, ball_lines_per_kind=1)
    planted = synthetic_match(config)
    goal = next(b for b in planted.ball_lines if b.kind is BallLinePlant.GOAL_OVER)
    with room(tmp_path / "room") as url:
        stream = _stream_near(planted.match, goal.period, goal.t_s)
        alert = _live_into_room(runner, stream, url, "goal_line")
    assert alert["ball_line"]["kind"] == alert["verdict"]["kind"] == "ball_line"
    assert alert["verdict"]["decision"] == "goal" and alert["verdict"]["margin_m"] > 0


def test_a_room_token_on_the_command_line_is_warned_about(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As for `varroom serve --token`: a token in the arguments shows in the process list.
    token = "a-long-enough-token-0123456789"
    given = runner.invoke(cli, ["live", "--room-token", token], input="")
    monkeypatch.setenv("VARROOM_TOKEN", token)
    from_env = runner.invoke(cli, ["live"], input="")
    assert "--room-token shows in the process list" in given.stderr
    assert "process list" not in from_env.stderr
    assert given.exit_code == from_env.exit_code
