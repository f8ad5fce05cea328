"""Law 11.3: no offside offence directly from a throw-in, goal kick or corner kick."""

from __future__ import annotations

from varroom.model.settings import LawSettings, RestartTouched
from varroom.model.situation import TouchKind


def no_offence_from(kind: TouchKind) -> bool:
    """Law 11.3: no offence when the ball is received directly from a goal kick, throw-in or
    corner kick; free kicks, dropped balls and later plays are judged as usual."""
    return kind is TouchKind.EXEMPT_RESTART


def still_directly(settings: LawSettings) -> bool:
    """Law 11.3 'directly': whether a ball from an exempt restart that then takes a touch that
    does not reset offside (a deflection, a save, a rebound) still comes directly from the
    restart. The Law leaves it open: `settings.restart_touched`."""
    return settings.restart_touched is RestartTouched.KEEPS_EXEMPTION
