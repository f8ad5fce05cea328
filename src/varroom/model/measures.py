"""The measures the Laws fix, in metres, stated once: Law 1 (the field of play: the goal, the
areas, the penalty mark, the 9.15 m) and Law 2 (the ball). Every part that judges, finds or
draws against a marking takes them from here; a pitch's length and width vary
(`situation.Pitch`)."""

from __future__ import annotations

# Law 2: a circumference of 68 to 70 cm.
BALL_RADIUS_M = 0.11

GOAL_WIDTH_M = 7.32  # between the inside edges of the posts
GOAL_HALF_WIDTH_M = 3.66
GOAL_HEIGHT_M = 2.44  # the lower edge of the crossbar above the ground

# The areas reach this far from the goal line, and this far to each side of the goal's centre
# (5.5 m, respectively 16.5 m, beyond each post's inside edge).
GOAL_AREA_DEPTH_M = 5.5
GOAL_AREA_HALF_WIDTH_M = 9.16
PENALTY_AREA_DEPTH_M = 16.5
PENALTY_AREA_HALF_WIDTH_M = 20.16

PENALTY_MARK_M = 11.0  # from the goal line
# The centre circle's radius, the penalty arc's, and how far opponents stand at a free kick.
DISTANCE_M = 9.15
