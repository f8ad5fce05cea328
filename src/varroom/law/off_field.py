"""Law 11.4: players off the field of play count on the line they crossed."""

from __future__ import annotations

from varroom.law.position import depth_m
from varroom.model.settings import DefenderOffFieldLine, LawSettings, PermittedAbsence
from varroom.model.situation import Direction, OffField, Pitch, Position


def ignored_for_offside(position: Position, settings: LawSettings) -> bool:
    """Law 11.4 is silent on leaving with permission (an injured player being treated):
    by established practice he is ignored, unless the settings say otherwise."""
    return (
        position.off_field is OffField.WITH_PERMISSION
        and settings.permitted_absence is PermittedAbsence.IGNORED
    )


def counts_on_a_line(position: Position) -> bool:
    """Law 11.4: off the field without permission (or stepped off) counts as on a line."""
    return position.off_field in (OffField.WITHOUT_PERMISSION, OffField.STEPPED_OFF)


def attacker_off_field_depth_m(pitch: Pitch) -> float:
    """Law 11.4: an attacker who stepped off and comes back counts as on the goal line."""
    return pitch.half_length_m


def defender_off_field_depth_m(
    position: Position, direction: Direction, pitch: Pitch, settings: LawSettings
) -> float:
    """Law 11.4: a defender who left without permission counts as on the goal line or touchline
    he crossed, at the nearest point (a touchline keeps his depth along the pitch)."""
    depth = float(depth_m(position.x_m, direction))
    goal_line = pitch.half_length_m if depth >= 0 else -pitch.half_length_m
    if settings.defender_off_field_line is DefenderOffFieldLine.GOAL_LINE:
        return pitch.half_length_m
    to_goal_line = pitch.half_length_m - abs(depth)
    to_touchline = pitch.half_width_m - abs(position.y_m)
    # Behind a goal line, or nearer one than a touchline: the goal line; else the touchline,
    # whose nearest point keeps his depth.
    if to_goal_line <= 0 or (to_touchline > 0 and to_goal_line <= to_touchline):
        return goal_line
    return depth
