"""The verdict banner across the top: the call, the first sentence of the reason, the attack
direction, the on-field call and the match."""

from __future__ import annotations

import math
import textwrap

from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle

from varroom.engine.explain import distance
from varroom.engine.verdict import Status
from varroom.render.scene import Scene
from varroom.render.style import ATTACKERS, BANNER_RECT, MUTED, PANEL, STATUS_COLOUR, TEXT


class Banner:
    def __init__(self, figure: Figure, scene: Scene) -> None:
        self.figure = figure
        self.scene = scene

    def title(self) -> str:
        scene, verdict = self.scene, self.scene.v
        if verdict.status is Status.OFFENCE:
            margin = verdict.margin_m
            size = f", {distance(margin)}" if margin is not None and math.isfinite(margin) else ""
            return f"OFFSIDE \u2014 {scene.short(verdict.offender)}{size}"
        if verdict.status is Status.UNDECIDABLE:
            return "UNDECIDABLE \u2014 the offside line cannot be drawn"
        if scene.judgement is None:
            return "NO OFFENCE \u2014 no team-mate played the ball"
        margin = verdict.margin_m
        receiver = scene.receiver
        onside_receiver = receiver is not None and receiver.margin_m <= 0
        if margin is not None and math.isfinite(margin) and margin > 0 and not onside_receiver:
            who = scene.short(verdict.nearest_attacker)
            return f"NO OFFENCE \u2014 {who} in offside position, not penalised"
        return "ONSIDE \u2014 no offence"

    def reason(self) -> str:
        reason = self.scene.v.reason.strip()
        first = reason.split(". ")[0].rstrip(".") + "."
        law = f"Law {self.scene.v.law}"
        if law not in first:
            first = f"{first} ({law})"
        lines = textwrap.wrap(first, width=98, max_lines=2, placeholder=" \u2026")
        return "\n".join(lines)

    def draw(self) -> None:
        scene = self.scene
        colour = STATUS_COLOUR[scene.v.status]
        ax = self.figure.add_axes(BANNER_RECT)
        ax.set_axis_off()
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.add_artist(Rectangle((0, 0), 1, 1, color=PANEL, zorder=0))
        ax.add_artist(Rectangle((0, 0), 0.008, 1, color=colour, zorder=1))
        ax.add_artist(Rectangle((0, 0), 1, 0.025, color=colour, alpha=0.8, zorder=1))
        ax.text(
            0.022,
            0.66,
            self.title(),
            color=colour,
            fontsize=30 if len(self.title()) <= 40 else 24,
            fontweight="bold",
            va="center",
            ha="left",
            gid="banner-title",
        )
        ax.text(
            0.023,
            0.24,
            self.reason(),
            color=TEXT,
            fontsize=11.5,
            va="center",
            ha="left",
            linespacing=1.3,
            gid="banner-reason",
        )
        # The attack direction, top right, then the call being checked and the match.
        team = scene.s.attacking_team
        ax.text(
            0.93,
            0.78,
            f"{team} attacking",
            color=ATTACKERS,
            fontsize=13,
            fontweight="bold",
            ha="right",
            va="center",
        )
        tail, head = (0.938, 0.985) if scene.sign > 0 else (0.985, 0.938)
        ax.add_artist(
            FancyArrowPatch(
                (tail, 0.78),
                (head, 0.78),
                arrowstyle="-|>",
                mutation_scale=22,
                color=ATTACKERS,
                linewidth=3,
                gid="attack-arrow",
            )
        )
        details = _meta_lines(scene.s.meta)
        if scene.s.on_field_decision:
            details.insert(0, f"on-field call: {scene.s.on_field_decision.replace('_', ' ')}")
        if details:
            ax.text(
                0.985,
                0.60,
                "\n".join(details[:3]),
                color=MUTED,
                fontsize=10,
                ha="right",
                va="top",
                linespacing=1.35,
            )


def _meta_lines(meta: object) -> list[str]:
    """'Tottenham Hotspur 1-1 Sporting CP' and 'UEFA Champions League … · 2022-10-26 · 90+5''"""
    get = getattr(meta, "get", None)
    if get is None:
        return []

    def text(key: str) -> str:
        value = get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return ""
        return str(value).strip()

    lines = []
    if text("match"):
        lines.append(textwrap.shorten(text("match"), width=62, placeholder=" \u2026"))
    minute = text("minute")
    rest = [text("competition"), text("date"), f"{minute}\u2032" if minute else ""]
    rest = [part for part in rest if part]
    if rest:
        lines.append(textwrap.shorten(" \u00b7 ".join(rest), width=62, placeholder=" \u2026"))
    return lines
