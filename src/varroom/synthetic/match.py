"""Synthetic full matches with known truth: a seeded generator of plausible 25 Hz tracking
with planted offside situations of every kind in laws.md.

A match is two periods (the teams swap ends at half-time) of 22 players and a ball:

- the players move by the motion model of `varroom.synthetic.motion` (a 4-4-2 shape
  that shifts with the play, damped random walks around it, anchors where a script needs a
  player exactly);
- the ball is passed between them by the background play of `varroom.synthetic.play`
  (spells of possession, passes, interceptions, throw-ins, goal kicks, free kicks), which
  never commits an offside offence;
- planted incidents (`varroom.synthetic.incidents`) put each `IncidentKind` at known times,
  `incidents_per_kind` of each, evenly spread over the match;
- nobody stands within `SEPARATION_M` of the ball at a touch but the player touching it, so
  who played it is never a guess;
- with `dropouts`, the ball is lost for a fraction of a second once a minute and a
  midfielder or forward vanishes (NaN) for a few seconds once a minute, never near a
  touch of his or a planted incident; the ball is always unseen while it is fetched for a
  restart;
- with `noise_m`, every position of every frame is off by Gaussian noise (none by default:
  then a planted margin is exactly what the tracking shows);
- with `with_events`, event records come with the touches event data would have (passes,
  shots, interceptions, blocks, saves, clearances, restarts; not receipts), their clocks
  off by up to 0.2 s, and the referee's offside calls of the planted offences;
- with `penalties_per_kind` and `ball_lines_per_kind` (none by default), penalty kicks
  (`varroom.synthetic.penalties`) and ball-line moments (`varroom.synthetic.ball_lines`)
  are planted over the generated play afterwards, from a random stream of their own: the
  events inside their windows are dropped, and a planted kick has its penalty-kick event
  unless `penalty_events` is off (then only tracking shows it).

Everything over frames is vectorised; the loops run over spells, touches and anchors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.match.columns import assemble
from varroom.match.direction import DirectionSource, Team, team_attacks
from varroom.match.tracking import EventKind, MatchEvent, MatchTracking, PitchSource, Provider
from varroom.model.situation import Direction, Pitch, Player
from varroom.synthetic.ball import render_ball
from varroom.synthetic.ball_lines import (
    BALL_LINE_S,
    BallLinePlant,
    PlantedBallLine,
    plant_ball_line,
)
from varroom.synthetic.incidents import INCIDENT_S, IncidentSetup, play_incident
from varroom.synthetic.motion import (
    PLAYERS_PER_TEAM,
    ROLES,
    Anchor,
    Role,
    anchored,
    centre_of_play,
    free_positions,
)
from varroom.synthetic.penalties import (
    PENALTY_S,
    PenaltyPlant,
    PlantedPenalty,
    plant_penalty,
)
from varroom.synthetic.planting import NoRoomError, dead_ball_spans, scene_starts
from varroom.synthetic.play import (
    SPELL_S,
    Holding,
    Restart,
    Spell,
    background_spells,
    kick_off,
    play_spell,
)
from varroom.synthetic.script import IncidentKind, PlantedIncident, Script, Stage

Floats = npt.NDArray[np.float64]

__all__ = [
    "IncidentKind",
    "PlantedIncident",
    "SyntheticConfig",
    "SyntheticMatch",
    "synthetic_match",
]

SEPARATION_M = 2.0
PUSHED_TO_M = 2.5
SCRIPTED_NEAR_S = 0.3  # a player anchored this near a touch is where a script wants him
ONSIDE_FIX_M = 1.5
EVENT_CLOCK_SD_S, EVENT_CLOCK_MAX_S = 0.08, 0.2
FIRST_INCIDENT_S = 20.0
LAST_INCIDENT_GAP_S = 10.0
TEAMS = (Team("home", "Home"), Team("away", "Away"))
_NOISE_STREAM = 1
_SCENE_STREAM = 2


@dataclass(frozen=True, slots=True)
class SyntheticConfig:
    seed: int = 0
    period_s: float = 2700.0
    frame_rate_hz: float = 25.0
    with_events: bool = True
    incidents_per_kind: int = 3
    dropouts: bool = True
    noise_m: float = 0.0  # measurement noise: Gaussian, on every position of every frame
    penalties_per_kind: int = 0  # planted penalty kicks of each `PenaltyPlant`
    ball_lines_per_kind: int = 0  # planted ball-line moments of each `BallLinePlant`
    penalty_events: bool = True  # a planted kick comes with its event (with `with_events`)


@dataclass(frozen=True, eq=False)
class SyntheticMatch:
    match: MatchTracking
    truth: tuple[PlantedIncident, ...]
    penalties: tuple[PlantedPenalty, ...] = ()
    ball_lines: tuple[PlantedBallLine, ...] = ()


@dataclass(frozen=True, eq=False)
class _Period:
    t_s: Floats
    players_m: npt.NDArray[np.float32]
    ball_m: Floats
    script: Script


def synthetic_match(config: SyntheticConfig = SyntheticConfig()) -> SyntheticMatch:
    """A seeded synthetic match and the truth about its planted situations."""
    rng = np.random.default_rng(config.seed)
    player_ids = tuple(f"{team.id}-{k + 1}" for team in TEAMS for k in range(PLAYERS_PER_TEAM))
    setups = _incident_setups(config, rng)
    periods = [_period(config, period, setups[period - 1], player_ids, rng) for period in (1, 2)]
    events = _events(periods, player_ids, rng) if config.with_events else ()
    penalties: list[PlantedPenalty] = []
    ball_lines: list[PlantedBallLine] = []
    if config.penalties_per_kind or config.ball_lines_per_kind:
        events = _plant_scenes(config, periods, player_ids, events, penalties, ball_lines)
    ball_m = np.concatenate([p.ball_m for p in periods])
    players_m = np.concatenate([p.players_m for p in periods])
    if config.noise_m > 0:
        # A stream of its own: the same seed gives the same match, with or without noise.
        noise = np.random.default_rng([config.seed, _NOISE_STREAM])
        ball_m[:, :2] += noise.normal(0.0, config.noise_m, ball_m[:, :2].shape)
        players_m += noise.normal(0.0, config.noise_m, players_m.shape).astype(np.float32)
    players = [
        Player(
            id=player_id,
            team=TEAMS[c // PLAYERS_PER_TEAM].id,
            goalkeeper=ROLES[c % PLAYERS_PER_TEAM] is Role.GOALKEEPER,
            name=f"{TEAMS[c // PLAYERS_PER_TEAM].name} {c % PLAYERS_PER_TEAM + 1}",
            number=c % PLAYERS_PER_TEAM + 1,
        )
        for c, player_id in enumerate(player_ids)
    ]
    match = assemble(
        provider=Provider.SYNTHETIC,
        pitch=Pitch(),
        pitch_source=PitchSource.METADATA,
        teams=TEAMS,
        stated_attack=tuple(
            attack
            for period in (1, 2)
            for attack in team_attacks(
                TEAMS, period, _direction(_signs(period)[0]), DirectionSource.METADATA
            )
        ),
        frame_rate_hz=config.frame_rate_hz,
        t_s=np.concatenate([p.t_s for p in periods]),
        period=np.concatenate(
            [np.full(len(p.t_s), k + 1, dtype=np.int8) for k, p in enumerate(periods)]
        ),
        ball_m=ball_m,
        players=players,
        players_m=players_m,
        events=events,
    )
    truth = tuple(incident for p in periods for incident in p.script.truth)
    return SyntheticMatch(match, truth, tuple(penalties), tuple(ball_lines))


def _plant_scenes(
    config: SyntheticConfig,
    periods: list[_Period],
    player_ids: tuple[str, ...],
    events: tuple[MatchEvent, ...],
    penalties: list[PlantedPenalty],
    ball_lines: list[PlantedBallLine],
) -> tuple[MatchEvent, ...]:
    """Penalty kicks and ball-line moments written over the periods' frames (module
    docstring); the events kept, and a penalty-kick event per planted kick."""
    rng = np.random.default_rng([config.seed, _SCENE_STREAM])
    kinds: list[PenaltyPlant | BallLinePlant] = [
        *(list(PenaltyPlant) * config.penalties_per_kind),
        *(list(BallLinePlant) * config.ball_lines_per_kind),
    ]
    rng.shuffle(kinds)
    first_half = (len(kinds) + 1) // 2
    windows: list[tuple[int, float, float]] = []
    for number, share in ((1, kinds[:first_half]), (2, kinds[first_half:])):
        period = periods[number - 1]
        lengths = [PENALTY_S if isinstance(k, PenaltyPlant) else BALL_LINE_S for k in share]
        pitch = Pitch()
        busy = period.script.incident_spans + dead_ball_spans(
            period.t_s, period.ball_m, pitch.half_length_m, pitch.half_width_m
        )
        starts = scene_starts(config.period_s, lengths, busy, rng)
        signs = _signs(number)
        for kind, start, length in zip(share, starts, lengths, strict=True):
            windows.append((number, start, start + length))
            if isinstance(kind, PenaltyPlant):
                penalties.append(
                    plant_penalty(
                        kind,
                        number,
                        start,
                        period.t_s,
                        period.ball_m,
                        period.players_m,
                        signs,
                        player_ids,
                        (TEAMS[0].id, TEAMS[1].id),
                        rng,
                    )
                )
            else:
                ball_lines.append(
                    plant_ball_line(kind, number, start, period.t_s, period.ball_m, rng)
                )
    kept = [
        event
        for event in events
        if not any(p == event.period and a <= event.t_s <= b for p, a, b in windows)
    ]
    if config.with_events and config.penalty_events:
        kept += [
            MatchEvent(
                kick.t_s,
                kick.period,
                kick.team,
                kick.kicker,
                EventKind.PENALTY_KICK,
                False,
                EventKind.PENALTY_KICK.value,
            )
            for kick in penalties
        ]
    return tuple(sorted(kept, key=lambda event: (event.period, event.t_s)))


def _signs(period: int) -> tuple[float, float]:
    """Home attacks +x in the first period; the teams swap ends at half-time."""
    return (1.0, -1.0) if period % 2 == 1 else (-1.0, 1.0)


def _direction(sign: float) -> Direction:
    return Direction.PLUS_X if sign > 0 else Direction.MINUS_X


def _incident_setups(
    config: SyntheticConfig, rng: np.random.Generator
) -> tuple[list[IncidentSetup], list[IncidentSetup]]:
    """Every kind `incidents_per_kind` times, shuffled, spread evenly over both periods with at
    least one background spell between two incidents."""
    kinds = list(IncidentKind) * config.incidents_per_kind
    rng.shuffle(kinds)
    first_half = (len(kinds) + 1) // 2
    out: tuple[list[IncidentSetup], list[IncidentSetup]] = ([], [])
    for period, share in ((1, kinds[:first_half]), (2, kinds[first_half:])):
        if not share:
            continue
        slot = (config.period_s - FIRST_INCIDENT_S - LAST_INCIDENT_GAP_S) / len(share)
        room = slot - INCIDENT_S - SPELL_S[0]
        if room < 0:
            raise NoRoomError(
                f"{len(share)} incidents do not fit in a {config.period_s:g} s period"
            )
        for k, kind in enumerate(share):
            start = FIRST_INCIDENT_S + k * slot + float(rng.uniform(0.0, room))
            side = float(rng.choice([-1.0, 1.0]))
            out[period - 1].append(IncidentSetup(kind, k % 2, start, side))
    return out


def _period(
    config: SyntheticConfig,
    period: int,
    setups: list[IncidentSetup],
    player_ids: tuple[str, ...],
    rng: np.random.Generator,
) -> _Period:
    signs = _signs(period)
    rate = config.frame_rate_hz
    t_s = np.arange(round(config.period_s * rate)) / rate
    kick_off_team = (period - 1) % 2
    items = _timeline(config.period_s, kick_off_team, setups, signs, rng)
    centre = centre_of_play(t_s, *_waypoints(items, signs), rate)
    possession = _possession(t_s, items)
    stage = Stage(
        period,
        t_s,
        free_positions(centre, possession, signs, rng, rate),
        signs,
        Pitch(),
        player_ids,
        (TEAMS[0].id, TEAMS[1].id),
    )
    script = Script(stage)
    entry: Holding | Restart = kick_off(kick_off_team, stage)
    for item in items:
        entry = (
            play_incident(script, item, rng)
            if isinstance(item, IncidentSetup)
            else play_spell(script, item, entry, rng)
        )
    script.hide(items[-1].end_s, config.period_s + 1.0)
    players = _final_positions(script)
    ball = render_ball(sorted(script.legs, key=lambda leg: leg.start_s), t_s, players)
    if config.dropouts:
        _drop_out(script, ball, players, rng)
    return _Period(t_s, players.astype(np.float32), ball, script)


def _timeline(
    period_s: float,
    team: int,
    setups: list[IncidentSetup],
    signs: tuple[float, float],
    rng: np.random.Generator,
) -> list[Spell | IncidentSetup]:
    items: list[Spell | IncidentSetup] = []
    t, centre = 0.0, (0.0, 0.0)
    for setup in setups:
        spells = background_spells(t, setup.start_s, team, centre, signs, rng)
        items += spells
        items.append(setup)
        t, team, centre = setup.end_s, 1 - setup.team, setup.centre_m(signs)
    items += background_spells(t, period_s - 0.5, team, centre, signs, rng)
    return items


def _waypoints(
    items: list[Spell | IncidentSetup], signs: tuple[float, float]
) -> tuple[Floats, Floats]:
    """The centre of play's waypoints: each spell's end, each incident's centre held through it
    (the spell before an incident leads to it)."""
    times, points = [0.0], [(0.0, 0.0)]
    for k, item in enumerate(items):
        if isinstance(item, IncidentSetup):
            times += [item.start_s, item.end_s]
            points += [item.centre_m(signs)] * 2
        elif not (k + 1 < len(items) and isinstance(items[k + 1], IncidentSetup)):
            times.append(item.end_s)
            points.append(item.centre_m)
    return np.array(times), np.array(points)


def _possession(t_s: Floats, items: list[Spell | IncidentSetup]) -> npt.NDArray[np.intp]:
    starts = np.array([item.start_s for item in items])
    teams = np.array([item.team for item in items])
    return teams[np.clip(np.searchsorted(starts, t_s, side="right") - 1, 0, len(items) - 1)]


def _final_positions(script: Script) -> Floats:
    """Free motion with every anchor; then nobody crowding a touch, every background
    receiver onside, and pinned players level."""
    stage = script.stage
    anchors = list(script.anchors)
    positions = anchored(stage.free_m, stage.t_s, anchors)
    anchors += _pushes(script, positions)
    positions = anchored(stage.free_m, stage.t_s, anchors)
    fixes = _onside_fixes(script, positions)
    if fixes:
        positions = anchored(stage.free_m, stage.t_s, anchors + fixes)
    for pin in script.pins:
        frames = (stage.t_s >= pin.start_s) & (stage.t_s <= pin.end_s)
        positions[frames, pin.player, 0] = positions[frames, pin.like, 0]
    return positions


def _interpolated(stage: Stage, positions: Floats, times: Floats) -> Floats:
    """(K, 22, 2) positions at K instants."""
    k = np.clip(np.searchsorted(stage.t_s, times) - 1, 0, len(stage.t_s) - 2)
    w = ((times - stage.t_s[k]) / (stage.t_s[k + 1] - stage.t_s[k]))[:, None, None]
    return positions[k] + (positions[k + 1] - positions[k]) * w


def _pushes(script: Script, positions: Floats) -> list[Anchor]:
    """Anchors moving unscripted players out of `SEPARATION_M` of the ball at every touch."""
    touches = script.touches
    times = np.array([touch.t_s for touch in touches])
    ball = np.array([touch.ball_m for touch in touches])
    toward = _interpolated(script.stage, positions, times) - ball[:, None, :]
    distance = np.hypot(*toward.transpose(2, 0, 1))
    crowding = distance < SEPARATION_M
    crowding[np.arange(len(touches)), [touch.player for touch in touches]] = False
    for player, anchor_times in _anchor_times(script.anchors).items():
        gap = np.abs(times[:, None] - anchor_times[None, :]).min(axis=1)
        crowding[gap <= SCRIPTED_NEAR_S, player] = False
    pushes = []
    for k, player in zip(*np.nonzero(crowding), strict=True):
        away = toward[k, player] / max(distance[k, player], 1e-6)
        if distance[k, player] < 1e-6:
            away = np.array([0.0, 1.0])
        at = ball[k] + PUSHED_TO_M * away
        pushes.append(Anchor(int(player), float(times[k]), (float(at[0]), float(at[1]))))
    return pushes


def _anchor_times(anchors: list[Anchor]) -> dict[int, Floats]:
    by_player: dict[int, list[float]] = {}
    for anchor in anchors:
        by_player.setdefault(anchor.player, []).append(anchor.t_s)
    return {player: np.array(times) for player, times in by_player.items()}


def _onside_fixes(script: Script, positions: Floats) -> list[Anchor]:
    """Anchors taking any background receiver who ended up near or past the line back."""
    stage = script.stage
    if not script.checks:
        return []
    at = _interpolated(stage, positions, np.array([check.t_s for check in script.checks]))
    fixes = []
    for check, where in zip(script.checks, at, strict=True):
        team = stage.team_of(check.player)
        margin = stage.margins(where, team, check.ball_x_m)[check.player]
        if margin > -ONSIDE_FIX_M / 3:
            depth = stage.u(team, float(where[check.player][0])) - margin - ONSIDE_FIX_M
            fixes.append(
                Anchor(
                    check.player, check.t_s, stage.xy(team, depth, float(where[check.player][1]))
                )
            )
    return fixes


def _drop_out(script: Script, ball: Floats, players: Floats, rng: np.random.Generator) -> None:
    """Bad data, away from every touch and planted incident (module docstring)."""
    stage = script.stage
    minutes = int(stage.t_s[-1] // 60)
    touch_s = np.array(sorted(touch.t_s for touch in script.touches))
    spans = np.array(script.incident_spans).reshape(-1, 2)

    def clear(start: float, end: float, margin_s: float, times: Floats) -> bool:
        near_touch = np.any((times >= start - margin_s) & (times <= end + margin_s))
        in_incident = np.any((spans[:, 0] <= end + margin_s) & (spans[:, 1] >= start - margin_s))
        return not (near_touch or in_incident)

    for _ in range(minutes):
        start = float(rng.uniform(0.0, stage.t_s[-1] - 1.0))
        end = start + float(rng.uniform(0.2, 0.8))
        if clear(start, end, 0.8, touch_s):
            ball[(stage.t_s >= start) & (stage.t_s <= end)] = np.nan
    wanderers = [c for team in (0, 1) for c in stage.columns(team, Role.MIDFIELDER, Role.FORWARD)]
    for _ in range(minutes):
        player = int(rng.choice(wanderers))
        start = float(rng.uniform(0.0, stage.t_s[-1] - 6.0))
        end = start + float(rng.uniform(1.0, 6.0))
        own = np.array([touch.t_s for touch in script.touches if touch.player == player])
        if clear(start, end, 1.0, own) and clear(start, end, 3.0, np.array([])):
            players[(stage.t_s >= start) & (stage.t_s <= end), player] = np.nan


def _events(
    periods: list[_Period], player_ids: tuple[str, ...], rng: np.random.Generator
) -> tuple[MatchEvent, ...]:
    events = []
    for number, period in enumerate(periods, start=1):
        for touch in period.script.touches:
            if touch.event is None:
                continue
            jitter = float(
                np.clip(rng.normal(0.0, EVENT_CLOCK_SD_S), -EVENT_CLOCK_MAX_S, EVENT_CLOCK_MAX_S)
            )
            team = TEAMS[touch.player // PLAYERS_PER_TEAM].id
            events.append(
                MatchEvent(
                    touch.t_s + jitter,
                    number,
                    team,
                    player_ids[touch.player],
                    touch.event,
                    False,
                    touch.event.value,
                )
            )
        for t_s, offender in period.script.calls:
            team = TEAMS[offender // PLAYERS_PER_TEAM].id
            events.append(
                MatchEvent(
                    t_s,
                    number,
                    team,
                    player_ids[offender],
                    EventKind.OFFSIDE,
                    True,
                    EventKind.OFFSIDE.value,
                )
            )
    return tuple(sorted(events, key=lambda event: (event.period, event.t_s)))
