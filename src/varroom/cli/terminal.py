"""The verdict for a person at a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel

from varroom.engine.explain import distance
from varroom.engine.verdict import Status, Verdict
from varroom.model.situation import Situation

_TITLE = {
    Status.OFFENCE: ("OFFSIDE", "bold white on red"),
    Status.NO_OFFENCE: ("NO OFFSIDE OFFENCE", "bold white on green"),
    Status.UNDECIDABLE: ("UNDECIDABLE", "bold black on yellow"),
}


def headline(verdict: Verdict) -> str:
    """The call as the verdict's title says it."""
    return _TITLE[verdict.status][0]


def print_verdict(situation: Situation, verdict: Verdict, console: Console | None = None) -> None:
    console = console or Console()
    title, style = _TITLE[verdict.status]
    lines = [verdict.reason]
    if verdict.margin_m is not None and verdict.margin_m == verdict.margin_m:
        who = verdict.offender or verdict.nearest_attacker
        side = (
            "beyond" if verdict.margin_m > 0 else "behind" if verdict.margin_m < 0 else "level with"
        )
        label = situation.players[who].label if who else "?"
        lines.append(f"Margin: {label} {distance(verdict.margin_m)} {side} the line.")
    if situation.on_field_decision:
        lines.append(f"On-field decision: {situation.on_field_decision}.")
    console.print(Panel("\n".join(lines), title=f"[{style}] {title} [/]", title_align="left"))
