"""Synthetic matches written as a provider's files: a whole season of them, with a manifest.

A match is written as Tracab data: a hierarchical metadata XML (teams, players, periods,
pitch) and a `.dat` raw data file, both read by `varroom.match.load_match` (its fast
reader) and by kloppy's own `tracab.load`. Tracab gives positions in whole
centimetres, so a planted margin is what the files show to within half a centimetre (the
planted margins are 0.3 m or more, or exactly level). An unseen player is left out of his
frame, an unseen ball is written as `nan`.

Tracking files carry no referee's decisions, so the officials' offside calls go into
`official_calls.csv` (period, t_s, team, player), the file the season manifest's
`official_calls` column names. The referees are not equally good: each misses planted
offences and flags planted onside or uninvolved attackers at a rate of his own
(`_REFEREE_ERRORS`), so a season has disagreements to report. The planted truth goes into
`truth.json`.

`OUT/manifest.csv` lists every match: match_id, provider, competition, season, referee, and
the files by kloppy's argument names (`meta_data`, `raw_data`), relative to the manifest.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import BinaryIO
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from varroom.match.tracking import EventKind, MatchTracking
from varroom.output_file import OutputError, write_atomically
from varroom.synthetic.ball_lines import PlantedBallLine
from varroom.synthetic.match import PlantedIncident, SyntheticConfig, synthetic_match
from varroom.synthetic.motion import PLAYERS_PER_TEAM
from varroom.synthetic.penalties import PlantedPenalty

__all__ = [
    "MANIFEST_COLUMNS",
    "SeasonPlan",
    "read_truth",
    "synthetic_season",
    "write_match",
]

MANIFEST_COLUMNS = (
    "match_id",
    "provider",
    "competition",
    "season",
    "referee",
    "meta_data",
    "raw_data",
    "official_calls",
)
_CM = 100.0
_FIRST_FRAME = 100_000  # Tracab counts frames from the start of the recording, not the match
_HALF_TIME_FRAMES = 15 * 60 * 25
_TEAMS_PER_COMPETITION = 6
_REFEREES_PER_COMPETITION = 4
_TOWNS = (
    "Ashford",
    "Bramley",
    "Carlow",
    "Dunmore",
    "Elton",
    "Fairview",
    "Glenrock",
    "Harlow",
    "Inverleigh",
    "Jarrow",
    "Kelso",
    "Lowick",
)
_REFEREE_NAMES = ("A. Moreno", "B. Okafor", "C. Lindqvist", "D. Haddad", "E. Novak", "F. Brennan")
# Each referee's chance of missing a planted offence and of flagging a planted onside or
# uninvolved attacker: the season's referees are not equally good, which the report shows.
_REFEREE_ERRORS = ((0.0, 0.0), (0.1, 0.0), (0.0, 0.3), (0.2, 0.2), (0.05, 0.1), (0.0, 0.0))
_FALSE_FLAG_KINDS = ("level", "not_involved", "own_half")
_SCENE_ROOM_MIN = 5  # minutes of match per planted scene of every kind, at least


@dataclass(frozen=True, slots=True)
class SeasonPlan:
    """Who plays whom, where: match `k` of a synthetic season."""

    match_id: str
    competition: str
    season: str
    referee: str
    home: tuple[str, str]  # (team id, name)
    away: tuple[str, str]
    seed: int


def season_plan(matches: int, seed: int) -> list[SeasonPlan]:
    """Two competitions of six teams, alternate matches in each; a round robin within each,
    referees in turn. Every match has a seed of its own derived from `seed`."""
    competitions = ("North League", "South League")
    plans = []
    for k in range(matches):
        c = k % len(competitions)
        n = k // len(competitions)
        teams = [
            (f"c{c}t{i}", _TOWNS[c * _TEAMS_PER_COMPETITION + i])
            for i in range(_TEAMS_PER_COMPETITION)
        ]
        home = n % _TEAMS_PER_COMPETITION
        away = (home + 1 + (n // _TEAMS_PER_COMPETITION) % (_TEAMS_PER_COMPETITION - 1)) % len(
            teams
        )
        referee = _REFEREE_NAMES[(c * 2 + n) % len(_REFEREE_NAMES)]
        plans.append(
            SeasonPlan(
                match_id=f"m{k:04d}",
                competition=competitions[c],
                season="2026-27",
                referee=referee,
                home=teams[home],
                away=teams[away],
                seed=int(np.random.SeedSequence([seed, k]).generate_state(1)[0]),
            )
        )
    return plans


def synthetic_season(
    out: Path,
    matches: int,
    minutes: float = 90.0,
    seed: int = 0,
    progress: Callable[[], None] = lambda: None,
    *,
    penalties_per_kind: int = 0,
    ball_lines_per_kind: int = 0,
) -> Path:
    """Write `matches` synthetic matches of `minutes` each under `out`, and `out/manifest.csv`
    (written last: a manifest names only whole matches). Returns the manifest's path. With
    `penalties_per_kind` / `ball_lines_per_kind`, every match also has that many penalty kicks
    of each `PenaltyPlant` and ball-line moments of each `BallLinePlant` (found from the
    tracking: the Tracab files carry no events)."""
    period_s = minutes * 60.0 / 2.0
    config = SyntheticConfig(
        period_s=period_s,
        incidents_per_kind=incidents_per_kind(minutes),
        penalties_per_kind=penalties_per_kind,
        ball_lines_per_kind=ball_lines_per_kind,
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {out}: {error.strerror or error}") from None
    rows = []
    for plan in season_plan(matches, seed):
        directory = out / plan.match_id
        write_match(directory, plan, config)
        rows.append(
            {
                "match_id": plan.match_id,
                "provider": "tracab",
                "competition": plan.competition,
                "season": plan.season,
                "referee": plan.referee,
                "meta_data": f"{plan.match_id}/meta.xml",
                "raw_data": f"{plan.match_id}/tracking.dat",
                "official_calls": f"{plan.match_id}/official_calls.csv",
            }
        )
        progress()
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=MANIFEST_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    manifest = out / "manifest.csv"
    write_atomically(manifest, "manifest", _bytes(text.getvalue()))
    return manifest


def incidents_per_kind(minutes: float) -> int:
    """Three scenes of each kind in 90 minutes, fewer in a short match (at least one)."""
    if minutes < 2 * _SCENE_ROOM_MIN:
        raise OutputError(
            f"a synthetic match needs at least {2 * _SCENE_ROOM_MIN} minutes, not {minutes:g}"
        )
    return int(max(1, min(3, minutes // (6 * _SCENE_ROOM_MIN))))


def write_match(directory: Path, plan: SeasonPlan, config: SyntheticConfig) -> None:
    """One match's files: meta.xml, tracking.dat, official_calls.csv and truth.json (what was
    planted: the offside situations, the penalty kicks and the balls over a line)."""
    synthetic = synthetic_match(replace(config, seed=plan.seed))
    match = synthetic.match
    ids = {
        team.id: team_id
        for team, (team_id, _) in zip(match.teams, (plan.home, plan.away), strict=True)
    }
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {directory}: {error.strerror or error}") from None
    periods = _period_frames(match)
    write_atomically(
        directory / "meta.xml", "Tracab metadata", _bytes(_meta_xml(plan, match, periods))
    )
    write_atomically(
        directory / "tracking.dat", "Tracab raw data", lambda s: _write_dat(s, match, periods)
    )
    miss, false_flag = _REFEREE_ERRORS[_REFEREE_NAMES.index(plan.referee)]
    rng = np.random.default_rng([plan.seed, 1])
    calls = [
        (event.period, event.t_s, ids[event.team or ""], _player(ids, event.player))
        for event in match.events
        if event.offside_call and event.kind is EventKind.OFFSIDE and rng.random() >= miss
    ]
    calls += [
        (p.period, p.t_s + 2.0, ids[p.team], _player(ids, p.attacker))
        for p in synthetic.truth
        if p.kind.value in _FALSE_FLAG_KINDS and rng.random() < false_flag
    ]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["period", "t_s", "team", "player"])
    writer.writerows((p, f"{t:.3f}", team, player) for p, t, team, player in sorted(calls))
    write_atomically(directory / "official_calls.csv", "official calls", _bytes(text.getvalue()))
    truth = {
        "offside": [_truth(incident, ids) for incident in synthetic.truth],
        "penalty_kicks": [_truth(kick, ids) for kick in synthetic.penalties],
        "ball_lines": [_truth(moment, ids) for moment in synthetic.ball_lines],
    }
    write_atomically(directory / "truth.json", "truth", _bytes(json.dumps(truth, indent=1)))


def read_truth(manifest: Path) -> dict[str, dict[str, list[dict[str, object]]]]:
    """Every match's planted truth beside a synthetic manifest, by match id."""
    with manifest.open(newline="", encoding="utf-8") as stream:
        ids = [row["match_id"] for row in csv.DictReader(stream)]
    return {
        match_id: json.loads((manifest.parent / match_id / "truth.json").read_text("utf-8"))
        for match_id in ids
    }


def _bytes(text: str) -> Callable[[BinaryIO], None]:
    data = text.encode("utf-8")

    def write(stream: BinaryIO) -> None:
        stream.write(data)

    return write


def _player(ids: dict[str, str], player: str | None) -> str:
    """'home-7' as the season's player id of that team: '<team id>-7'."""
    if player is None:
        return ""
    team, number = player.rsplit("-", 1)
    return f"{ids[team]}-{number}"


# The planted scenes' fields that name a player, written by the season's player ids.
_PLAYER_FIELDS = frozenset({"attacker", "offender", "kicker", "keeper"})


def _truth(
    planted: PlantedIncident | PlantedPenalty | PlantedBallLine, ids: dict[str, str]
) -> dict[str, object]:
    """A planted scene as JSON, every field of it: kinds by their value, the team and the
    players by the season's ids."""
    out: dict[str, object] = {}
    for name in (f.name for f in dataclasses.fields(planted)):
        value = getattr(planted, name)
        if isinstance(value, Enum):
            value = value.value
        elif name == "team":
            value = ids[value]
        elif name in _PLAYER_FIELDS and value is not None:
            value = _player(ids, value)
        out[name] = value
    return out


def _period_frames(match: MatchTracking) -> list[tuple[int, int, int]]:
    """(period, first frame number, frame count): Tracab numbers frames as one recording, with
    the half-time break between the periods."""
    out = []
    first = _FIRST_FRAME
    for period in (1, 2):
        count = int(np.count_nonzero(match.period == period))
        out.append((period, first, count))
        first += count + _HALF_TIME_FRAMES
    return out


def _meta_xml(plan: SeasonPlan, match: MatchTracking, periods: list[tuple[int, int, int]]) -> str:
    rate = round(match.frame_rate_hz or 25.0)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<TracabMetaData sVersion="1.0">',
        f'  <match iId={quoteattr(plan.match_id)} dtDate="2026-08-15 15:00:00" iFrameRateFps="{rate}"'
        f' fPitchXSizeMeters="{match.pitch.length_m:.2f}" fPitchYSizeMeters="{match.pitch.width_m:.2f}"'
        ' fTrackingAreaXSizeMeters="unknown" fTrackingAreaYSizeMeters="unknown">',
        *(
            f'    <period iId="{p}" iStartFrame="{first}" iEndFrame="{first + count - 1}"/>'
            for p, first, count in periods
        ),
        '    <period iId="3" iStartFrame="0" iEndFrame="0"/>',
        '    <period iId="4" iStartFrame="0" iEndFrame="0"/>',
        "  </match>",
    ]
    start = periods[0][1]
    end = periods[-1][1] + periods[-1][2] - 1
    for side, (tag, (team_id, name)) in enumerate(
        (("HomeTeam", plan.home), ("AwayTeam", plan.away))
    ):
        lines += [
            f"  <{tag}>",
            f"    <LongName>{escape(name)} FC</LongName>",
            f"    <ShortName>{escape(name)}</ShortName>",
            f"    <TeamId>{escape(team_id)}</TeamId>",
            "    <Players>",
        ]
        for number in range(1, PLAYERS_PER_TEAM + 1):
            lines += [
                # The goalkeepers' position code as kloppy's Tracab reader takes it (an
                # attribute): penalty kicks are found from the tracking only with them known.
                '      <Player StartingPosition="G">'
                if match.goalkeeper[side * PLAYERS_PER_TEAM + number - 1]
                else "      <Player>",
                f"        <PlayerId>{escape(team_id)}-{number}</PlayerId>",
                f"        <FirstName>{escape(name)}</FirstName>",
                f"        <LastName>No. {number}</LastName>",
                f"        <JerseyNo>{number}</JerseyNo>",
                f"        <StartFrameCount>{start}</StartFrameCount>",
                f"        <EndFrameCount>{end}</EndFrameCount>",
                "      </Player>",
            ]
        lines += ["    </Players>", f"  </{tag}>"]
    lines.append("</TracabMetaData>")
    return "\n".join(lines) + "\n"


def _write_dat(stream: BinaryIO, match: MatchTracking, periods: list[tuple[int, int, int]]) -> None:
    """`frame:players:ball:` lines, formatted with one %-template per pattern of unseen
    players and ball (a handful per match) rather than field by field."""
    number = np.concatenate([first + np.arange(count) for _, first, count in periods])
    players_cm = np.rint(match.players_m.astype(np.float64) * _CM)
    ball_cm = np.rint(match.ball_m * _CM)
    n_players = players_cm.shape[1]
    ball_seen = np.isnan(ball_cm).sum(axis=1) == 0
    seen = np.concatenate([~np.isnan(players_cm).any(axis=2), ball_seen[:, None]], axis=1)
    values = np.concatenate(
        [
            number[:, None],
            np.nan_to_num(players_cm).reshape(len(number), -1),
            np.nan_to_num(ball_cm),
        ],
        axis=1,
    ).astype(np.int64)
    patterns, pattern_of = np.unique(seen, axis=0, return_inverse=True)
    pattern_of = pattern_of.reshape(-1)
    home = [team == match.teams[0].id for team in match.player_teams]
    lines: list[str] = [""] * len(number)
    for p, bits in enumerate(patterns.tolist()):
        shown = [c for c in range(n_players) if bits[c]]
        template = "%d:" + "".join(
            f"{int(home[c])},{c + 1},{match.player_numbers[c]},%d,%d,0.00;" for c in shown
        )
        columns = [0] + [1 + 2 * c + k for c in shown for k in (0, 1)]
        if bits[-1]:
            template += ":%d,%d,%d,0.00,H,Alive;:\n"
            columns += [1 + 2 * n_players + k for k in range(3)]
        else:
            template += ":nan,nan,nan,0.00,H,Dead;:\n"
        rows = np.flatnonzero(pattern_of == p)
        for row, fields in zip(
            rows.tolist(), values[np.ix_(rows, np.array(columns))].tolist(), strict=True
        ):
            lines[row] = template % tuple(fields)
    stream.write("".join(lines).encode("ascii"))
