"""A penalty kick's verdict for a person at a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel

from varroom.engine.explain import distance, in_words
from varroom.engine.penalty_verdict import PenaltyVerdict
from varroom.law.penalty import Decision
from varroom.model.penalty import PenaltyKick

_TITLE = {
    Decision.GOAL: ("GOAL", "bold white on green"),
    Decision.NO_GOAL: ("NO GOAL", "bold white on blue"),
    Decision.RETAKE: ("RETAKE", "bold black on yellow"),
    Decision.INDIRECT_FREE_KICK: ("INDIRECT FREE KICK", "bold white on red"),
}


def headline(verdict: PenaltyVerdict) -> str:
    """The call as the verdict's title says it."""
    return _TITLE[verdict.decision][0]


def print_penalty(
    kick: PenaltyKick, verdict: PenaltyVerdict, console: Console | None = None
) -> None:
    console = console or Console()
    title, style = _TITLE[verdict.decision]
    if verdict.restart_team is not None:
        title = f"{title} TO {verdict.restart_team}"
    lines = [verdict.reason, ""]
    keeper = verdict.keeper_measure
    if verdict.keeper is not None and keeper is not None:
        side = "in front of the goal line" if keeper.margin_m > 0 else "behind its front edge"
        lines.append(
            f"Goalkeeper {kick.players[verdict.keeper].label}: nearest foot {distance(keeper.margin_m)} "
            f"{side} (SE {distance(keeper.se_m)}, P(off the line) {keeper.probability:.1%})."
        )
    for offence in verdict.offences:
        margin = "" if offence.measure is None else f" by {distance(offence.measure.margin_m)}"
        zones = ", ".join(f"{distance(m)} {in_words(z)}" for z, m in offence.zones)
        zones = f" ({zones})" if zones else ""
        status = "penalised" if offence.penalised else "not penalised"
        who = kick.players[offence.player].label
        lines.append(f"Offence: {in_words(offence.what)}, {who}{margin}{zones}: {status}.")
    if not verdict.offences:
        lines.append("Offences: none.")
    names = [kick.players[p].label for p in verdict.cautions]
    lines.append(f"Cautions: {', '.join(names) or 'none'}.")
    names = [kick.players[p].label for p in verdict.warnings]
    lines.append(f"Warnings: {', '.join(names) or 'none'}.")
    lines.append(f"Announcement: {verdict.announcement}")
    console.print(Panel("\n".join(lines), title=f"[{style}] {title} [/]", title_align="left"))
