"""The live follower's window of recent frames, and the match the audit's functions read
from a stretch of it."""

from __future__ import annotations

import numpy as np

from varroom.live.stream import Frame, Header
from varroom.match.tracking import MatchEvent, MatchTracking, PitchSource


class Window:
    """The last frames, as columns; rows are shifted down when full (no copy per frame)."""

    def __init__(self, keep: int, n_players: int) -> None:
        size = 2 * keep
        self.keep = keep
        self.t_s = np.zeros(size)
        self.period = np.zeros(size, dtype=np.int8)
        self.ball_m = np.zeros((size, 3))
        self.players_m = np.zeros((size, n_players, 2), dtype=np.float32)
        self.broken = np.zeros(size, dtype=np.int64)  # breaks of play up to each frame, counted
        self.first = 0  # the global index of row 0
        self.n = 0

    @property
    def last(self) -> int:
        """The global index of the newest frame."""
        return self.first + self.n - 1

    def append(self, frame: Frame, broken: int) -> None:
        if self.n == len(self.t_s):
            drop = self.n - self.keep
            for column in (self.t_s, self.period, self.ball_m, self.players_m, self.broken):
                column[: self.keep] = column[drop:]
            self.first += drop
            self.n = self.keep
        row = self.n
        self.t_s[row] = frame.t_s
        self.period[row] = frame.period
        self.ball_m[row] = frame.ball_m
        self.players_m[row] = frame.players_m
        self.broken[row] = broken
        self.n += 1

    def row(self, index: int) -> int:
        return index - self.first


class Template:
    """The fixed parts of the `MatchTracking` the audit's functions read, from the header."""

    def __init__(self, header: Header) -> None:
        players = header.players
        self.header = header
        self.ids = np.array([p.id for p in players], dtype=np.str_)
        self.player_teams = np.array([p.team for p in players], dtype=np.str_)
        self.teams = [p.team for p in players]
        self.goalkeeper = np.array([p.goalkeeper for p in players], dtype=bool)
        self.names = tuple(p.name for p in players)
        self.numbers = tuple(p.number for p in players)
        self.short_names = tuple(p.short_name for p in players)

    def match(
        self, window: Window, lo: int, hi: int, events: tuple[MatchEvent, ...] = ()
    ) -> MatchTracking:
        """Frames [lo, hi) of the window (global indices) as a match."""
        rows = slice(window.row(lo), window.row(hi))
        header = self.header
        return MatchTracking(
            provider=header.provider,
            pitch=header.pitch,
            pitch_source=PitchSource.METADATA,
            teams=header.teams,
            attack=header.attack,
            frame_rate_hz=header.fps,
            t_s=window.t_s[rows],
            period=window.period[rows],
            ball_m=window.ball_m[rows],
            players_m=window.players_m[rows],
            player_ids=self.ids,
            player_names=self.names,
            player_numbers=self.numbers,
            player_short_names=self.short_names,
            player_teams=self.player_teams,
            goalkeeper=self.goalkeeper,
            events=events,
        )
