"""What StatsBomb's files say beyond what kloppy reads (`varroom.match.statsbomb_facts`)."""

from __future__ import annotations

from varroom.match.statsbomb_facts import FrameView
from varroom.model.situation import Pitch

PITCH = Pitch(120.0, 80.0)
# An L-shaped view: the camera saw the left half, and the bottom of the right half.
L_SHAPE = FrameView(
    area_m=((-60.0, -40.0), (60.0, -40.0), (60.0, 0.0), (0.0, 0.0), (0.0, 40.0), (-60.0, 40.0))
)


def test_a_view_covers_what_lies_inside_its_polygon_and_nothing_else() -> None:
    assert L_SHAPE.covers((-30.0, 30.0), PITCH)
    assert L_SHAPE.covers((30.0, -20.0), PITCH)
    assert not L_SHAPE.covers((30.0, 20.0), PITCH)  # the notch of the L


def test_a_point_on_the_touchline_or_beyond_counts_where_the_view_meets_the_pitch() -> None:
    assert L_SHAPE.covers((-30.0, 40.0), PITCH)
    assert L_SHAPE.covers((-61.0, -45.0), PITCH)
    assert not L_SHAPE.covers((30.0, 41.0), PITCH)


def test_a_view_of_fewer_than_three_corners_covers_nothing() -> None:
    line = FrameView(area_m=((0.0, 0.0), (10.0, 0.0)))
    assert not line.covers((5.0, 0.0), PITCH)


def test_a_player_is_called_as_his_people_call_him_with_the_accents_of_his_name() -> None:
    """Issue 27: "Luiz Frello Filho" for Jorginho. StatsBomb's nickname where it is one, the
    full name's own words where the nickname is them without their accents."""
    import json
    from pathlib import Path

    from varroom.match.files import Contents
    from varroom.match.statsbomb_360 import nicknames

    lineup = [
        {
            "team_id": 1,
            "lineup": [
                {"player_id": 1, "player_name": "Jorge Luiz Frello Filho", "player_nickname": "Jorginho"},
                {"player_id": 2, "player_name": "Mehmet Zeki Çelik", "player_nickname": "Zeki Celik"},
                {"player_id": 3, "player_name": "Cengiz Umut Meraş", "player_nickname": "Umut Meras"},
                {"player_id": 4, "player_name": "Kaan Ayhan", "player_nickname": None},
                {"player_id": 5, "player_name": "İrfan Can Kahveci", "player_nickname": "Irfan Can Kahveci"},
            ],
        }
    ]  # fmt: skip
    called = nicknames(Contents(Path("lineup.json"), json.dumps(lineup).encode()))
    assert called == {
        "1": "Jorginho",
        "2": "Zeki Çelik",
        "3": "Umut Meraş",
        "5": "İrfan Can Kahveci",
    }


def test_the_sample_audit_names_jorginho_and_says_no_chance_it_has_not_measured(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from click.testing import CliRunner

    from varroom.cli.main import cli

    sample = Path(__file__).resolve().parent.parent / "samples" / "statsbomb-euro2020-turkey-italy"
    report = Path(str(tmp_path)) / "audit.html"
    result = CliRunner().invoke(cli, [
        "audit", "statsbomb", "--quiet", "--html", str(report),
        "--event-data", str(sample / "statsbomb_3788741_event.json"),
        "--lineup-data", str(sample / "statsbomb_3788741_lineup.json"),
        "--three-sixty-data", str(sample / "statsbomb_3788741_360.json"),
    ])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    page = report.read_text()
    assert "Jorginho" in page and "Luiz Frello Filho" not in page
    assert "chance 50%" not in page
    assert "(match data: StatsBomb)" not in page
