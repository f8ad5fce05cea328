"""Law 11.4: the sanction for an offside offence."""

from __future__ import annotations

from enum import Enum


class Restart(Enum):
    INDIRECT_FREE_KICK = "indirect_free_kick"


def sanction(where_m: tuple[float, float]) -> tuple[Restart, tuple[float, float]]:
    """Law 11.4: an indirect free kick where the offence happened, even in the offender's own half."""
    return Restart.INDIRECT_FREE_KICK, where_m
