"""Loading the shared matches (`shared/data/*/README.md` describes each) into MatchTracking.

Every big file is loaded once per session: the 52 MB SkillCorner match once by kloppy and
once by varroom's own reader.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from varroom.match import (
    DirectionSource,
    EventKind,
    MatchTracking,
    PitchSource,
    Provider,
    load_match,
)
from varroom.model.situation import Direction, Pitch

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = pytest.mark.shared_data
STATSBOMB = DATA / "statsbomb-360-euro2020-3788741"
SKILLCORNER = DATA / "skillcorner-opendata-2417"
METRICA = DATA / "metrica-sample-data"
SPORTEC = DATA / "sportec-dfl-kloppy-samples"


@pytest.fixture(scope="module")
def statsbomb() -> MatchTracking:
    return load_match(
        "statsbomb",
        event_data=STATSBOMB / "statsbomb_3788741_event.json",
        lineup_data=STATSBOMB / "statsbomb_3788741_lineup.json",
        three_sixty_data=STATSBOMB / "statsbomb_3788741_360.json",
    )


@pytest.fixture(scope="module")
def skillcorner_fast() -> MatchTracking:
    return load_match(
        "skillcorner",
        meta_data=SKILLCORNER / "match_data.json",
        raw_data=SKILLCORNER / "structured_data.json",
    )


@pytest.fixture(scope="module")
def skillcorner_kloppy() -> MatchTracking:
    return load_match(
        "skillcorner",
        meta_data=SKILLCORNER / "match_data.json",
        raw_data=SKILLCORNER / "structured_data.json",
        fast=False,
    )


@pytest.fixture(scope="module")
def metrica_game_3() -> MatchTracking:
    return load_match(
        "metrica",
        event_data=METRICA / "Sample_Game_3_events.json",
        meta_data=METRICA / "Sample_Game_3_metadata.xml",
    )


@pytest.fixture(scope="module")
def metrica_epts() -> MatchTracking:
    return load_match(
        "metrica",
        meta_data=METRICA / "kloppy-test-snippets" / "epts_metrica_metadata.xml",
        raw_data=METRICA / "kloppy-test-snippets" / "epts_metrica_tracking.txt",
    )


@pytest.fixture(scope="module")
def sportec() -> MatchTracking:
    return load_match(
        "sportec",
        meta_data=SPORTEC / "sportec_meta.xml",
        event_data=SPORTEC / "sportec_events.xml",
        raw_data=SPORTEC / "sportec_positional.xml",
    )


def directions(match: MatchTracking) -> dict[tuple[str, int], tuple[Direction, DirectionSource]]:
    return {(a.team, a.period): (a.direction, a.source) for a in match.attack}


def offside_calls(match: MatchTracking) -> list[tuple[int, float, str | None, str | None]]:
    return [(e.period, e.t_s, e.team, e.player) for e in match.events if e.offside_call]


def assert_unseen_is_nan(match: MatchTracking) -> None:
    """An unseen player is NaN in x and y together, never a made-up (0, 0)."""
    x, y = match.players_m[..., 0], match.players_m[..., 1]
    assert np.array_equal(np.isnan(x), np.isnan(y))
    assert not np.any((x == 0) & (y == 0))


# StatsBomb: events, lineups and 360 freeze frames


def test_statsbomb_has_one_frame_per_freeze_frame(statsbomb: MatchTracking) -> None:
    framed = {e.frame for e in statsbomb.events if e.frame is not None}
    assert framed == set(range(len(statsbomb.t_s)))
    assert 3470 <= len(statsbomb.t_s) < 3500  # 3,470 from the 360 file, plus shots' own
    assert statsbomb.players_m.shape == (len(statsbomb.t_s), len(statsbomb.player_ids), 2)
    assert statsbomb.frame_rate_hz is None
    assert statsbomb.provider is Provider.STATSBOMB
    assert_unseen_is_nan(statsbomb)
    # A 360 frame shows only the players the camera saw, at most 22.
    seen = np.count_nonzero(~np.isnan(statsbomb.players_m[..., 0]), axis=1)
    assert seen.max() <= 22 and seen.min() >= 1


def test_statsbomb_pitch_is_the_nominal_one_its_units_map_to(statsbomb: MatchTracking) -> None:
    assert statsbomb.pitch == Pitch(105.0, 68.0)
    assert statsbomb.pitch_source is PitchSource.NOMINAL


def test_statsbomb_players_are_the_lineups_then_unidentified_slots(
    statsbomb: MatchTracking,
) -> None:
    turkey, italy = statsbomb.teams
    assert (turkey.name, italy.name) == ("Turkey", "Italy")
    ids = statsbomb.player_ids.tolist()
    assert "6954" in ids  # Giorgio Chiellini
    assert statsbomb.player_names[ids.index("6954")] == "Giorgio Chiellini"
    assert statsbomb.player_numbers[ids.index("6954")] == 3
    keepers = statsbomb.player_ids[statsbomb.goalkeeper].tolist()
    assert sorted(keepers) == ["30357", "7036"]  # Cakir, Donnarumma
    assert all(
        "-unidentified-" in player_id
        for player_id, name in zip(ids, statsbomb.player_names, strict=True)
        if name is None
    )


def test_statsbomb_home_team_attacks_plus_x_by_convention(statsbomb: MatchTracking) -> None:
    turkey, italy = (team.id for team in statsbomb.teams)
    normalised = DirectionSource.NORMALISED
    assert directions(statsbomb) == {
        (turkey, 1): (Direction.PLUS_X, normalised),
        (italy, 1): (Direction.MINUS_X, normalised),
        (turkey, 2): (Direction.PLUS_X, normalised),
        (italy, 2): (Direction.MINUS_X, normalised),
    }
    # The mirrored freeze frames agree: each goalkeeper stands at the end his team defends.
    for team in statsbomb.teams:
        keeper = (statsbomb.player_teams == team.id) & statsbomb.goalkeeper
        keeper_x = np.nanmean(statsbomb.players_m[:, keeper, 0])
        assert keeper_x * statsbomb.attack_of(team.id, 1).direction.sign < -30


def test_statsbomb_has_its_six_offside_calls(statsbomb: MatchTracking) -> None:
    calls = [e for e in statsbomb.events if e.offside_call]
    turkey, italy = (team.id for team in statsbomb.teams)
    assert [(e.period, e.t_s, e.team, e.receiver) for e in calls] == [
        (1, pytest.approx(22 * 60 + 5.402), italy, None),
        (1, pytest.approx(25 * 60 + 36.073), turkey, "11086"),  # to Burak Yilmaz
        (1, pytest.approx(30 * 60 + 7.481), turkey, "11086"),
        (2, pytest.approx(1 * 60 + 13.802), italy, "7131"),  # to Domenico Berardi
        (2, pytest.approx(16 * 60 + 56.816), italy, "7788"),  # to Ciro Immobile
        (2, pytest.approx(32 * 60 + 40.488), italy, "6993"),  # to Bryan Cristante
    ]
    offside_event, *passes = calls
    assert (offside_event.kind, offside_event.player, offside_event.raw_type) == (
        EventKind.OFFSIDE,
        "6954",
        "Offside",
    )
    assert [e.kind for e in passes] == [
        EventKind.PASS,
        EventKind.PASS,
        EventKind.CORNER_KICK,
        EventKind.PASS,
        EventKind.PASS,
    ]
    assert all(e.raw_type == "Pass" and e.frame is not None for e in passes)
    # The Offside event's location is the offender's, in the half Italy attacks (-x).
    assert statsbomb.ball_m[offside_event.frame, 0] < -40


# SkillCorner: a whole broadcast-tracked match


def test_skillcorner_frames(skillcorner_fast: MatchTracking) -> None:
    match = skillcorner_fast
    assert len(match.t_s) == 34_783  # the frames with a period and a sighting, as kloppy keeps
    assert match.frame_rate_hz == 10.0
    assert set(np.unique(match.period)) == {1, 2}
    # Seconds since each period's start: the second half's clock starts again from 45:00.
    assert match.t_s[match.period == 2].min() == pytest.approx(0.7)
    assert match.t_s.max() < 50 * 60
    assert match.pitch == Pitch(105.0, 68.0)
    assert match.pitch_source is PitchSource.METADATA
    assert [team.name for team in match.teams] == ["FC Bayern Munchen", "Borussia Dortmund"]
    assert match.events == ()


def test_skillcorner_sees_about_13_players_a_frame(skillcorner_fast: MatchTracking) -> None:
    seen = np.count_nonzero(~np.isnan(skillcorner_fast.players_m[..., 0]), axis=1)
    assert 12 < seen.mean() < 15
    assert_unseen_is_nan(skillcorner_fast)
    # 38 players in the match data, then every anonymous track.
    assert skillcorner_fast.player_ids[38:].tolist()[:2] == ["home_anon_75", "home_anon_113"]


def test_skillcorner_ball_height_is_nan_where_not_given(skillcorner_fast: MatchTracking) -> None:
    ball = skillcorner_fast.ball_m
    seen = ~np.isnan(ball[:, 0])
    assert 0 < np.count_nonzero(seen) < len(ball)
    # 15,329 ball sightings have a z; 4 of them are in frames without a period.
    assert np.count_nonzero(~np.isnan(ball[:, 2])) == 15_325


def test_skillcorner_keeps_players_behind_the_goal_line(skillcorner_fast: MatchTracking) -> None:
    x = np.abs(skillcorner_fast.players_m[..., 0])
    assert np.count_nonzero(x > skillcorner_fast.pitch.half_length_m) == 410
    assert np.nanmax(x) == pytest.approx(55.9245, abs=1e-4)  # as in the file, not clipped


def test_skillcorner_directions_come_from_the_goalkeepers(skillcorner_fast: MatchTracking) -> None:
    bayern, dortmund = (team.id for team in skillcorner_fast.teams)
    keeper = DirectionSource.INFERRED_FROM_GOALKEEPER
    # kloppy's own guess for this match is the same: Dortmund left to right first.
    assert directions(skillcorner_fast) == {
        (bayern, 1): (Direction.MINUS_X, keeper),
        (dortmund, 1): (Direction.PLUS_X, keeper),
        (bayern, 2): (Direction.PLUS_X, keeper),
        (dortmund, 2): (Direction.MINUS_X, keeper),
    }


def test_skillcorner_fast_reader_equals_kloppy(
    skillcorner_fast: MatchTracking, skillcorner_kloppy: MatchTracking
) -> None:
    fast, kloppy = skillcorner_fast, skillcorner_kloppy
    np.testing.assert_array_equal(np.isnan(fast.players_m), np.isnan(kloppy.players_m))
    np.testing.assert_allclose(fast.players_m, kloppy.players_m, rtol=0, atol=0)
    np.testing.assert_array_equal(np.isnan(fast.ball_m), np.isnan(kloppy.ball_m))
    np.testing.assert_allclose(fast.ball_m, kloppy.ball_m, rtol=0, atol=0)
    np.testing.assert_array_equal(fast.t_s, kloppy.t_s)
    np.testing.assert_array_equal(fast.period, kloppy.period)
    np.testing.assert_array_equal(fast.player_ids, kloppy.player_ids)
    np.testing.assert_array_equal(fast.player_teams, kloppy.player_teams)
    np.testing.assert_array_equal(fast.goalkeeper, kloppy.goalkeeper)
    assert fast.player_names == kloppy.player_names
    assert fast.player_numbers == kloppy.player_numbers
    assert (fast.teams, fast.pitch, fast.pitch_source, fast.attack, fast.frame_rate_hz) == (
        kloppy.teams,
        kloppy.pitch,
        kloppy.pitch_source,
        kloppy.attack,
        kloppy.frame_rate_hz,
    )


# Metrica: Game 3 events with their metadata, and the EPTS tracking snippet


def test_metrica_game_3_has_its_four_offside_calls(metrica_game_3: MatchTracking) -> None:
    team_a, team_b = (team.id for team in metrica_game_3.teams)
    assert offside_calls(metrica_game_3) == [
        (1, pytest.approx(451.48), team_a, "P3577"),  # BALL LOST, OFFSIDE
        (1, pytest.approx(749.56), team_b, "P3594"),  # BALL LOST, OFFSIDE
        (1, pytest.approx(2384.24), team_b, "P3588"),  # PASS, OFFSIDE to P3594
        (2, pytest.approx(2702.88), team_a, "P3579"),  # PASS, DEEP BALL, OFFSIDE to P3577
    ]
    passes = [e for e in metrica_game_3.events if e.offside_call and e.raw_type.startswith("PASS")]
    assert [(e.raw_type, e.receiver) for e in passes] == [
        ("PASS/OFFSIDE", "P3594"),
        ("PASS/DEEP BALL/OFFSIDE", "P3577"),
    ]


def test_metrica_game_3_is_events_only(metrica_game_3: MatchTracking) -> None:
    assert len(metrica_game_3.events) == 3594
    assert metrica_game_3.players_m.shape == (0, len(metrica_game_3.player_ids), 2)
    assert metrica_game_3.pitch_source is PitchSource.METADATA
    assert metrica_game_3.goalkeeper.sum() == 2
    team_a, team_b = (team.id for team in metrica_game_3.teams)
    stated = DirectionSource.METADATA
    assert directions(metrica_game_3) == {
        (team_a, 1): (Direction.MINUS_X, stated),
        (team_b, 1): (Direction.PLUS_X, stated),
        (team_a, 2): (Direction.PLUS_X, stated),
        (team_b, 2): (Direction.MINUS_X, stated),
    }


def test_metrica_epts_tracking(metrica_epts: MatchTracking) -> None:
    match = metrica_epts
    assert match.players_m.shape == (100, 22, 2)
    assert match.frame_rate_hz == 25.0
    np.testing.assert_allclose(np.diff(match.t_s[match.period == 1]), 0.04)
    assert match.pitch == Pitch(105.0, 68.0)
    assert_unseen_is_nan(match)
    assert np.isnan(match.players_m).any()  # the snippet has NaN tracks
    assert np.all(np.isnan(match.ball_m[:, 2]))  # no ball height in this format
    home, away = (team.id for team in match.teams)
    assert match.attack_of(home, 1).direction is Direction.PLUS_X
    assert match.attack_of(home, 1).source is DirectionSource.METADATA
    assert match.attack_of(away, 2).direction is Direction.PLUS_X


# Sportec (DFL): events, metadata and positions together


def test_sportec_loads_events_and_tracking_together(sportec: MatchTracking) -> None:
    assert sportec.players_m.shape == (202, 40, 2)
    assert sportec.frame_rate_hz == 25.0
    assert sportec.pitch == Pitch(100.0, 68.0)  # the PitchSize these files give
    assert len(sportec.events) == 29
    assert_unseen_is_nan(sportec)
    assert offside_calls(sportec) == [
        (1, pytest.approx(25 * 60 + 48.15), "DFL-CLU-000004", "DFL-OBJ-002706")
    ]
    freiburg, gladbach = (team.id for team in sportec.teams)
    # The kick-off event says which team starts on the left.
    assert sportec.attack_of(freiburg, 1).direction is Direction.PLUS_X
    assert sportec.attack_of(freiburg, 1).source is DirectionSource.METADATA
    assert sportec.attack_of(gladbach, 2).direction is Direction.PLUS_X


def test_sportec_tracking_alone_infers_directions_from_the_players() -> None:
    match = load_match(
        "sportec",
        meta_data=SPORTEC / "sportec_meta.xml",
        raw_data=SPORTEC / "sportec_positional.xml",
    )
    assert match.events == ()
    freiburg = match.teams[0].id
    # This excerpt shows no goalkeeper: the players' mean positions have to do.
    assert match.attack_of(freiburg, 1).source is DirectionSource.INFERRED_FROM_PLAYERS
    assert match.attack_of(freiburg, 1).direction is Direction.PLUS_X
