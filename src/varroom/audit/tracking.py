"""`audit_tracking`: a match with continuous tracking, judged phase by phase.

1. The moments of play are found over all frames (`varroom.audit.moments`).
2. They are cut into attacking phases, and every attacker's touch is paired with the
   team-mate's play he is judged at (`varroom.audit.phases`).
3. Every attacker's margin at every moment is screened at once (`varroom.audit.screening`);
   only a pair whose touching attacker was past the line of the opponents seen at the
   team-mate's play goes to the engine, as a `Situation` of the touches from that play to
   his touch (what happens between them is all Law 11.2 looks at).
4. `judge()` decides. After an offence the phase is over: play would have stopped.
5. Penalty kicks and the ball over the line are found and judged beside the offside
   incidents (`varroom.audit.match_laws`), from the same moments and ball-out scan.

What an unseen player means depends on the tracking. Optical tracking covers the whole
pitch: an unseen player is not on it, and the engine counts who is there (fewer than two
opponents: undecidable). Broadcast tracking sees what the camera sees: a player out of the
picture may have stood anywhere. There the situation says so as format 1.2 does, with
`team_sizes` and no `view` (every team `FULL_TEAM` strong: a sending-off the data does not
mark leaves one player more unseen, which can only unsettle a verdict), and the engine settles
only what no placement of the unseen changes: an offence needs every opponent in the
picture; an attacker out of it at the play is bounded by his reach of where he next played
the ball (`engine.unseen`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from enum import Enum

import numpy as np

from varroom.audit.ball_out import scan_ball_out
from varroom.audit.calls import audit_with_calls
from varroom.audit.match_laws import with_match_laws
from varroom.audit.model import Audit, Incident, IncidentSource, Progress
from varroom.audit.moments import ActionSource, Moments, find_moments
from varroom.audit.penalties import match_players
from varroom.audit.phases import Pair, Phase, cut_phases, pairs
from varroom.audit.screening import screen
from varroom.engine.explain import counted
from varroom.engine.judge import judge
from varroom.engine.verdict import Status
from varroom.match.tracking import MatchTracking, Provider
from varroom.model.noise import Tracking, TrackingSource
from varroom.model.noise_defaults import NoiseDefaults
from varroom.model.situation import FULL_TEAM, Position, Situation, Touch
from varroom.profiles import Profile

_BROADCAST = frozenset({Provider.SKILLCORNER})


class Unseen(Enum):
    """What a player missing from a frame means."""

    OFF_THE_PITCH = "off_the_pitch"  # the tracking covers the whole pitch
    OUT_OF_PICTURE = "out_of_picture"  # the tracking sees what a broadcast camera sees


def tracking_of(match: MatchTracking, noise_defaults: NoiseDefaults) -> tuple[Tracking, Unseen]:
    """The tracking source of a match, its noise model (the profile's for that source) at the
    match's frame rate, and what an unseen player means there."""
    broadcast = match.provider in _BROADCAST
    source = TrackingSource.BROADCAST if broadcast else TrackingSource.CENTROID_OPTICAL
    noise = noise_defaults.tracking[source]
    if match.frame_rate_hz is not None:
        noise = dataclasses.replace(noise, frame_rate_hz=match.frame_rate_hz)
    unseen = Unseen.OUT_OF_PICTURE if broadcast else Unseen.OFF_THE_PITCH
    return Tracking(source, noise), unseen


def audit_tracking(match: MatchTracking, progress: Progress | None, profile: Profile) -> Audit:
    """Every offside incident of a match with continuous tracking (module docstring), as
    `profile` applies the Laws."""
    settings = profile.law
    moments = find_moments(match, settings)
    scan = scan_ball_out(match, profile)
    phases = cut_phases(match, moments, scan)
    tracking, unseen = tracking_of(match, profile.noise)
    screened = screen(match, moments, settings, out_of_picture=unseen is Unseen.OUT_OF_PICTURE)
    flagged = [
        pair
        for pair in pairs(phases, moments, match)
        if screened.offside_position(
            phases[pair.phase].moments[pair.judged],
            moments.player[phases[pair.phase].moments[pair.involved]],
        )
    ]
    builder = Situations(match, moments, tracking, profile)
    incidents: list[Incident] = []
    undecidable: list[Incident] = []
    over: set[int] = set()  # phases that ended in an offence
    judged = 0
    for done, pair in enumerate(flagged):
        if progress is not None:
            progress(done, len(flagged), "judging phases")
        if pair.phase in over:
            continue
        judged += 1
        incident = builder.incident(phases[pair.phase], pair, unseen)
        if incident.status is Status.OFFENCE:
            incidents.append(incident)
            over.add(pair.phase)
        elif incident.status is Status.UNDECIDABLE:
            undecidable.append(incident)
    if progress is not None:
        progress(len(flagged), len(flagged), "judging phases")
    audit = audit_with_calls(
        match,
        incidents,
        undecidable,
        judged,
        _notes(match, moments, phases, flagged, unseen),
        profile,
    )
    return with_match_laws(audit, match, moments, tracking, scan, profile)


class Situations:
    """Situations and incidents from the moments of one match."""

    def __init__(
        self, match: MatchTracking, moments: Moments, tracking: Tracking, profile: Profile
    ) -> None:
        self.match = match
        self.profile = profile
        self.moments = moments
        self.tracking = tracking
        self.ids = [str(pid) for pid in match.player_ids]
        self.players = match_players(match)

    def incident(self, phase: Phase, pair: Pair, unseen: Unseen) -> Incident:
        chosen = phase.moments[pair.judged : pair.involved + 1]
        situation = self.situation(phase, chosen, unseen)
        verdict = judge(situation, self.profile.law, self.profile.policy)
        judged = chosen[verdict.judged_at if verdict.judged_at is not None else 0]
        moments = self.moments
        confidence = (
            moments.player_confidence[list(chosen)] * moments.action_confidence[list(chosen)]
        )
        event = int(moments.event_index[judged])
        return Incident(
            period=phase.period,
            t_s=float(moments.t_s[judged]),
            team=phase.team,
            situation=situation,
            verdict=verdict,
            source=IncidentSource.TRACKING,
            chain_confidence=float(np.prod(confidence)),
            event_index=None if event < 0 else event,
        )

    def situation(self, phase: Phase, chosen: Sequence[int], unseen: Unseen) -> Situation:
        moments, match = self.moments, self.match
        touches = tuple(self._touch(m) for m in chosen)
        listed = {pid for touch in touches for pid in touch.positions} | {
            touch.player for touch in touches if touch.player is not None
        }
        players = {p.id: p for p in self.players if p.id in listed}
        # A team nobody of whom was seen is listed all the same: not on the pitch (situation.md).
        for team in match.teams:
            if not any(p.team == team.id for p in players.values()):
                players.update({p.id: p for p in self.players if p.team == team.id})
        return Situation(
            pitch=match.pitch,
            attacking_team=phase.team,
            attack_direction=match.attack_of(phase.team, phase.period).direction,
            players=players,
            touches=touches,
            # Out of the picture is anywhere: the rest of each team unseen (format 1.2).
            team_sizes=(
                {team.id: FULL_TEAM for team in match.teams}
                if unseen is Unseen.OUT_OF_PICTURE
                else {}
            ),
            meta={
                "source": IncidentSource.TRACKING.value,
                "provider": match.provider.value,
                "period": phase.period,
                "how_played": [moments.sources[m].value for m in chosen],
            },
            tracking=self.tracking,
        )

    def _touch(self, moment: int) -> Touch:
        moments = self.moments
        where = moments.players_m[moment]
        velocity = np.nan_to_num(moments.players_v_mps[moment])
        seen = np.flatnonzero(~np.isnan(where[:, 0]))
        player = int(moments.player[moment])
        ball = moments.ball_m[moment]
        return Touch(
            t_s=float(moments.t_s[moment]),
            player=self.ids[player],
            action=moments.actions[moment],
            ball_m=(float(ball[0]), float(ball[1]), float(np.nan_to_num(ball[2]))),
            positions={
                self.ids[c]: Position(
                    float(where[c, 0]),
                    float(where[c, 1]),
                    v_mps=(float(velocity[c, 0]), float(velocity[c, 1])),
                )
                for c in seen
            },
            # The ball is at the foot of the player on it: a timing error moves it with him.
            ball_v_mps=(float(velocity[player, 0]), float(velocity[player, 1])),
        )


def _notes(
    match: MatchTracking, moments: Moments, phases: list[Phase], flagged: list[Pair], unseen: Unseen
) -> tuple[str, ...]:
    no_ball = int(np.isnan(match.ball_m[:, 0]).sum())
    sources = list(moments.sources)
    notes = [
        f"{counted(len(moments), 'moment')} of play in {counted(len(match.t_s), 'frame')}: "
        f"{sources.count(ActionSource.EVENT)} named by event data, "
        f"{counted(sources.count(ActionSource.RESTART), 'restart')} of a dead ball, "
        f"{sources.count(ActionSource.INDICATORS)} read from the ball's flight "
        "(IFAB deliberate-play indicators).",
        f"{counted(no_ball, 'frame')} without the ball: no moment of play is taken from them.",
        f"{counted(len(phases), 'attacking phase')}; {counted(len(flagged), 'touch', 'touches')} "
        "by a player past the line of "
        "the opponents seen at his team-mate's play (or out of the broadcast picture at it) "
        "went to the engine.",
    ]
    known = {(attack.team, attack.period) for attack in match.attack}
    for period in np.unique(match.period).tolist():
        if any((team.id, period) not in known for team in match.teams):
            notes.append(f"Period {period}: no attacking direction known, not audited.")
    if unseen is Unseen.OUT_OF_PICTURE:
        notes.append(
            "Broadcast tracking: a player out of the picture may have stood anywhere; a "
            "verdict is settled only where no place he could have stood changes it."
        )
    return tuple(notes)
