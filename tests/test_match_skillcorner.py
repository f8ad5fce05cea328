"""varroom's SkillCorner reader against kloppy's on a few frames of match 2417.

`files/skillcorner_2417_frames.json` holds 8 records of SkillCorner's open data (MIT,
Copyright (c) 2020 SkillCorner), trimmed to a few sightings each: a record without a
period, one without sightings, anonymous tracks of both teams, the referee, ball heights
and a player behind the goal line.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from varroom.match import MatchTracking, load_match

FRAMES = Path(__file__).parent / "files" / "skillcorner_2417_frames.json"
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = pytest.mark.shared_data
MATCH_DATA = DATA / "skillcorner-opendata-2417" / "match_data.json"
COLUMNS = ("t_s", "period", "ball_m", "players_m", "player_ids", "player_teams", "goalkeeper")


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "kloppy"])
def match(request: pytest.FixtureRequest) -> MatchTracking:
    return load_match("skillcorner", meta_data=MATCH_DATA, raw_data=FRAMES, fast=request.param)


def test_frames_need_a_period_and_a_sighting(match: MatchTracking) -> None:
    records = json.loads(FRAMES.read_text())
    assert len(records) == 8
    assert len(match.t_s) == 6
    np.testing.assert_array_equal(match.period, [1, 1, 1, 2, 2, 2])


def test_clock_restarts_every_period(match: MatchTracking) -> None:
    np.testing.assert_allclose(match.t_s, [15.0, 19.0, 53.9, 6.2, 63.2, 364.2])


def test_referee_is_nobody_and_anonymous_tracks_are_players(match: MatchTracking) -> None:
    assert "22396" not in match.player_ids  # the referee's trackable object
    assert "246" not in match.player_ids  # nor his id
    home, away = (team.id for team in match.teams)
    anonymous = {
        player_id: team
        for player_id, team in zip(match.player_ids, match.player_teams, strict=True)
        if "_anon_" in player_id
    }
    assert {player_id.split("_")[0] for player_id in anonymous} == {"home", "away"}
    assert all(
        team == (home if player_id.startswith("home") else away)
        for player_id, team in anonymous.items()
    )


def test_ball_height_is_nan_where_the_file_has_none(match: MatchTracking) -> None:
    assert np.isnan(match.ball_m[0, 2]) and not np.isnan(match.ball_m[0, 0])  # no z given
    assert not np.isnan(match.ball_m[1:, 2]).any()


def test_player_behind_the_goal_line_keeps_his_x(match: MatchTracking) -> None:
    records = [r for r in json.loads(FRAMES.read_text()) if r["period"] and r["data"]]
    beyond = [
        (index, sighting["x"])
        for index, record in enumerate(records)
        for sighting in record["data"]
        if abs(sighting["x"]) > 52.5 and sighting.get("trackable_object") != 55
    ]
    assert beyond
    for index, raw_x in beyond:
        assert np.float32(raw_x) in match.players_m[index, :, 0]


def test_fast_reader_equals_kloppy() -> None:
    fast, kloppy = (
        load_match("skillcorner", meta_data=MATCH_DATA, raw_data=FRAMES, fast=fast)
        for fast in (True, False)
    )
    for name in COLUMNS:
        np.testing.assert_array_equal(getattr(fast, name), getattr(kloppy, name), err_msg=name)
    assert (fast.player_names, fast.player_numbers, fast.attack) == (
        kloppy.player_names,
        kloppy.player_numbers,
        kloppy.attack,
    )


def test_a_player_is_called_by_his_last_name_as_the_metadata_gives_it(
    match: MatchTracking,
) -> None:
    """The short name is the data's own (issue 22): never cut from the full name."""
    players = json.loads(MATCH_DATA.read_text())["players"]
    last = {str(p["id"]): p["last_name"] for p in players}
    short = dict(zip(match.player_ids.tolist(), match.player_short_names, strict=True))
    listed = [pid for pid in short if pid in last]
    assert len(listed) >= 22
    assert all(short[pid] == last[pid] for pid in listed)
    assert all(short[pid] is None for pid in short if "_anon_" in pid)
