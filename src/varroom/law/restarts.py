"""Law 11.3: no offside offence directly from a throw-in, goal kick or corner kick."""

from __future__ import annotations

from varroom.model.situation import TouchKind


def no_offence_from(kind: TouchKind) -> bool:
    """Law 11.3: no offence when the ball is received directly from a goal kick, throw-in or
    corner kick; free kicks, dropped balls and later plays are judged as usual."""
    return kind is TouchKind.EXEMPT_RESTART
