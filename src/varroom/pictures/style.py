"""The palette: every colour any picture uses (the top-down picture, the stadium screen, the
clip, the broadcast picture and the 3D scene), named for what it paints. A hex colour written
anywhere else in `varroom.pictures` is a bug: add it here with a name.

The text styles (typefaces, sizes, halos, boxes) are in `varroom.pictures.typeset`.
"""

from __future__ import annotations

from varroom.engine.verdict import Status

# -- the frame --------------------------------------------------------------------------------
BACKGROUND = "#0b1118"  # the figure behind everything
PANEL = "#141e29"  # banners, cards, strips
PANEL_EDGE = "#243345"  # their edges, the axes' spines
SPINE = "#334155"  # the main view's and the ruler's frame
DEEP = "#0a0f14"  # behind a broadcast frame with no still
INK = "#0b1118"  # dark text on light marks (shirt numbers, touch numbers, badges)
SHADOW = "#05080c"  # halos and drop shadows round text and lines
LABEL_BOX = "#0b1510"  # the dark box behind a label on the grass

# -- the pitch --------------------------------------------------------------------------------
SURROUND = "#16301f"  # beyond the touchlines
SURROUND_NEAR = "#18331f"  # the ground just round the pitch
SURROUND_FAR = "#15291c"  # the ground round the pitch in a broadcast frame
PITCH = "#1d3a2a"
STRIPE = "#214330"  # every other mowing stripe
PITCH_LINES = "#9db5a8"
UNSEEN = "#05080c"  # the part of the pitch out of the camera's view, shaded
UNSEEN_ALPHA = 0.5
UNSEEN_HATCH = "#51665a"  # its hatching

# -- text ---------------------------------------------------------------------------------------
TEXT = "#f1f5f9"
MUTED = "#94a3b8"
FAINT = "#475569"
LIGHT = "#e2e8f0"  # light strokes on the grass: the ball's path, arms, frames
PALE = "#cbd5e1"

# -- players and the ball -------------------------------------------------------------------------
ATTACKERS = "#3b82f6"
ATTACKERS_PALE = "#bfdbfe"  # the attacker where he became involved
DEFENDERS = "#fbbf24"
GOALKEEPER_ATTACKING = "#93c5fd"
GOALKEEPER_DEFENDING = "#fde68a"
GOALKEEPER_KEY = "#64748b"  # a goalkeeper in a key (either team)
DEFENDER_EDGE = "#111827"  # the dark ring round a defender's marker, the ball's seams
BALL = "#ffffff"
BALL_ON_LINE = "#fcd34d"  # the ball in the goal-line view: it must stand out from the white line
BALL_EDGE = "#000000"  # the ball's outline and its centre on the top-down picture
RING = "#ffffff"  # the light ring round an attacker's or a key player's marker, a measured cross
TOUCH = "#f8fafc"  # a numbered touch on the ball's path

# -- the call ---------------------------------------------------------------------------------------
LINE = "#ffffff"  # the offside line
LINE_ON_VIDEO = "#ffd60a"  # the offside line drawn on a broadcast still: TV yellow on any grass
LANDMARK = "#5ac8fa"  # a landmark clicked on a still, and where the fitted camera puts it
WALL = "#bae6fd"  # the offside plane standing up in the broadcast picture
WALL_EDGE = "#e0f2fe"
OFFSIDE_RED = "#ff4d4f"
ONSIDE_GREEN = "#4ade80"
AMBER = "#f59e0b"  # undecidable, a deflection, no margin

STATUS_COLOUR = {
    Status.OFFENCE: OFFSIDE_RED,
    Status.NO_OFFENCE: ONSIDE_GREEN,
    Status.UNDECIDABLE: AMBER,
}


def status_colour(status: Status) -> str:
    """The colour of a call: red for an offence, green for none, amber when undecidable."""
    return STATUS_COLOUR[status]


def margin_colour(margin_m: float | None) -> str:
    """Red beyond the line, green behind or level, amber with no margin."""
    if margin_m is None:
        return AMBER
    return OFFSIDE_RED if margin_m > 0 else ONSIDE_GREEN
