"""The verdict banner across the top: the call, the first sentence of the reason, the attack
direction, the on-field call and the match. Nothing is cut off: long text is wrapped and
shrunk to the room it has, as the renderer measures it."""

from __future__ import annotations

import math

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from varroom.engine.explain import distance
from varroom.engine.verdict import Status
from varroom.pictures import style
from varroom.pictures.decision.layout import BANNER_RECT, WIDTH_PX
from varroom.pictures.marks import arrow
from varroom.pictures.story import Story
from varroom.pictures.typeset import (
    NOTE,
    TextStyle,
    fit_lines,
    put,
    renderer_of,
    shrink_to_width,
)

TITLE = TextStyle(30, weight="bold")
REASON = TextStyle(11.5, linespacing=1.3)
TEAM = TextStyle(13, colour=style.ATTACKERS, weight="bold", ha="right")
DETAILS = NOTE.but(ha="right", va="top", linespacing=1.35)
DETAILS_LEFT = 0.6  # the details' column starts here (axes fraction)


def title(story: Story) -> str:
    verdict = story.v
    if verdict.status is Status.OFFENCE:
        margin = verdict.margin_m
        size = f", {distance(margin)}" if margin is not None and math.isfinite(margin) else ""
        return f"OFFSIDE \u2014 {story.short(verdict.offender)}{size}"
    if verdict.status is Status.UNDECIDABLE:
        return f"UNDECIDABLE \u2014 {story.undecided()}"
    if story.judgement is None:
        return "NO OFFENCE \u2014 no team-mate played the ball"
    margin = story.margin
    receiver = story.receiver
    onside_receiver = receiver is not None and receiver.margin_m <= 0
    if margin is not None and margin > 0 and not onside_receiver:
        who = story.short(verdict.nearest_attacker)
        return f"NO OFFENCE \u2014 {who} in offside position, not penalised"
    return "ONSIDE \u2014 no offence"


def reason(story: Story) -> str:
    """The reason's first sentence, with the Law it applies; for a call the camera's view left
    open, the sentence on what it did not see (the headline gives the margin)."""
    unseen = story.out_of_view() if story.v.status is Status.UNDECIDABLE else ""
    first = unseen or story.v.reason.strip().split(". ")[0].rstrip(".") + "."
    law = f"Law {story.v.law}"
    return first if law in first else f"{first} ({law})"


def details(story: Story) -> list[str]:
    """The on-field call, the match, and its competition, date and minute."""
    meta = story.s.meta
    get = getattr(meta, "get", None)
    lines = []
    if story.s.on_field_decision:
        lines.append(f"on-field call: {story.s.on_field_decision.replace('_', ' ')}")
    if get is None:
        return lines

    def text(key: str) -> str:
        value = get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return ""
        return str(value).strip()

    if text("match"):
        lines.append(text("match"))
    minute = text("minute")
    rest = [text("competition"), text("date"), f"{minute}\u2032" if minute else ""]
    rest = [part for part in rest if part]
    if rest:
        lines.append(" \u00b7 ".join(rest))
    return lines


def draw_banner(figure: Figure, story: Story) -> None:
    colour = story.colour
    renderer = renderer_of(figure)
    ax = figure.add_axes(BANNER_RECT)
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.add_artist(Rectangle((0, 0), 1, 1, color=style.PANEL, zorder=0))
    ax.add_artist(Rectangle((0, 0), 0.008, 1, color=colour, zorder=1))
    ax.add_artist(Rectangle((0, 0), 1, 0.025, color=colour, alpha=0.8, zorder=1))
    width_px = BANNER_RECT[2] * WIDTH_PX
    head = put(ax, 0.022, 0.66, title(story), TITLE.but(colour=colour), gid="banner-title")
    shrink_to_width(head, renderer, (DETAILS_LEFT - 0.03) * width_px, 18)
    words = put(ax, 0.023, 0.24, reason(story), REASON, gid="banner-reason")
    fit_lines(words, renderer, (DETAILS_LEFT - 0.04) * width_px, 2, (11.5, 10.5, 9.5))
    # The attack direction, top right, then the call being checked and the match.
    put(ax, 0.93, 0.78, f"{story.s.attacking_team} attacking", TEAM, gid="banner-team")
    tail, head_x = (0.938, 0.985) if story.sign > 0 else (0.985, 0.938)
    arrow(ax, (tail, 0.78), (head_x, 0.78), style.ATTACKERS, 22, width=3, gid="attack-arrow")
    lines = details(story)[:3]
    if lines:
        block = put(ax, 0.985, 0.60, "\n".join(lines), DETAILS, gid="banner-details")
        shrink_to_width(block, renderer, (0.985 - DETAILS_LEFT) * width_px, 7.5)
