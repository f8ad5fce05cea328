"""The verdict for a person at a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel

from varroom.engine.explain import distance, in_words, signed_distance
from varroom.engine.policy import Policy
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


def too_close_to_call(verdict: Verdict) -> str | None:
    """The line that says a call is too close to call, when it is: the 95% interval of the
    margin holds level (or P says so), and the competition's rule, not the measurement,
    decided it."""
    spread = verdict.uncertainty
    if spread is None:
        return None
    if not spread.too_close_to_call:
        return None
    low_m, high_m = spread.margin_ci_m
    return (
        f"Too close to call: the 95% interval, {signed_distance(low_m)} to {signed_distance(high_m)}, holds "
        f"level (P(offside position) {spread.probability:.0%}); decided by the {verdict.policy} "
        f"rule: {Policy.parse(verdict.policy).rule}."
    )


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
    if (close := too_close_to_call(verdict)) is not None:
        lines.append(close)
    if situation.on_field_decision:
        lines.append(f"On-field decision: {in_words(situation.on_field_decision)}.")
    console.print(Panel("\n".join(lines), title=f"[{style}] {title} [/]", title_align="left"))
