"""Every provider kloppy reads, on the sample files kloppy ships with its tests."""

from __future__ import annotations

import warnings
from pathlib import Path

import kloppy
import numpy as np
import pytest

from varroom.match import DataError, DirectionSource, PitchSource, Provider, load_match
from varroom.match.providers import LOADERS

FILES = Path(kloppy.__file__).parent / "tests" / "files"


SAMPLES: dict[str, tuple[Provider, dict[str, Path | list[Path]]]] = {
    "datafactory": (Provider.DATAFACTORY, {"event_data": FILES / "datafactory_events.json"}),
    "hawkeye": (
        Provider.HAWKEYE,
        {
            "meta_data": FILES / "hawkeye_meta.json",
            "ball_feeds": [FILES / "hawkeye_1_1.football.samples.ball"],
            "player_centroid_feeds": [FILES / "hawkeye_1_1.football.samples.centroids"],
        },
    ),
    "impect": (
        Provider.IMPECT,
        {"event_data": FILES / "impect_events.json", "lineup_data": FILES / "impect_lineups.json"},
    ),
    "opta": (Provider.OPTA, {"f7_data": FILES / "opta_f7.xml", "f24_data": FILES / "opta_f24.xml"}),
    "pff": (
        Provider.PFF,
        {
            "meta_data": FILES / "pff_metadata_10517.json",
            "roster_meta_data": FILES / "pff_rosters_10517.json",
            "raw_data": FILES / "pff_10517.jsonl",
        },
    ),
    "secondspectrum": (
        Provider.SECONDSPECTRUM,
        {
            "meta_data": FILES / "second_spectrum_fake_metadata.xml",
            "raw_data": FILES / "second_spectrum_fake_data.jsonl",
        },
    ),
    "signality": (
        Provider.SIGNALITY,
        {
            "meta_data": FILES / "signality_meta_data.json",
            "venue_information": FILES / "signality_venue_information.json",
            "raw_data_feeds": [
                FILES / "signality_p1_raw_data_subset.json",
                FILES / "signality_p2_raw_data_subset.json",
            ],
        },
    ),
    # JSON lines ("V3"): varroom's own reader leaves them to kloppy.
    "skillcorner-v3": (
        Provider.SKILLCORNER,
        {
            "meta_data": FILES / "skillcorner_meta_data.json",
            "raw_data": FILES / "skillcorner_v3_raw_data.jsonl",
        },
    ),
    "statsperform-events": (
        Provider.STATSPERFORM,
        {
            "ma1_data": FILES / "statsperform_event_ma1.json",
            "ma3_data": FILES / "statsperform_event_ma3.json",
        },
    ),
    "tracab": (
        Provider.TRACAB,
        {"meta_data": FILES / "tracab_meta.xml", "raw_data": FILES / "tracab_raw.dat"},
    ),
    "wyscout": (Provider.WYSCOUT, {"event_data": FILES / "wyscout_events_v3.json"}),
}


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_provider_loads(sample: str) -> None:
    provider, files = SAMPLES[sample]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # kloppy's own notes on the samples
        match = load_match(provider.value, **files)
    assert match.provider is provider
    assert match.players_m.shape == (len(match.t_s), len(match.player_ids), 2)
    assert set(np.unique(match.player_teams)) <= {team.id for team in match.teams}
    if match.frame_rate_hz is None:  # events: positions in fixed units, directions by convention
        assert match.pitch_source is PitchSource.NOMINAL
        assert match.events
        assert {attack.source for attack in match.attack} == {DirectionSource.NORMALISED}
    else:
        assert match.pitch_source is PitchSource.METADATA
        assert 90 <= match.pitch.length_m <= 120 and 45 <= match.pitch.width_m <= 90
        # Every period with players of both teams seen gets directions.
        assert {attack.period for attack in match.attack}
        assert all(attack.source is not DirectionSource.NORMALISED for attack in match.attack)


def test_every_provider_has_a_sample_or_a_reason() -> None:
    covered = {provider for provider, _ in SAMPLES.values()}
    # Covered by the shared data sets (test_match_load): StatsBomb, Metrica, Sportec, SkillCorner.
    assert set(LOADERS) - covered == {Provider.METRICA, Provider.SPORTEC, Provider.STATSBOMB}


@pytest.mark.parametrize(
    ("provider", "files", "blamed"),
    [
        # Metrica's CSV tracking gives no pitch size; kloppy would assume 105 x 68.
        (
            "metrica",
            {"home_data": FILES / "metrica_home.csv", "away_data": FILES / "metrica_away.csv"},
            "home_data",
        ),
        # Stats Perform's MA1 gives no pitch size either.
        (
            "statsperform",
            {
                "ma1_data": FILES / "statsperform_tracking_ma1.json",
                "ma25_data": FILES / "statsperform_tracking_ma25.txt",
            },
            "ma1_data",
        ),
    ],
)
def test_tracking_without_pitch_dimensions_is_an_error(
    provider: str, files: dict[str, Path], blamed: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(DataError, match="no pitch dimensions") as caught:
            load_match(provider, **files)
    assert caught.value.path == files[blamed]
