"""A ball line's verdict (kind `ball_line`) for a person at a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel

from varroom.engine.ball_line_explain import chance, millimetres
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.engine.explain import in_words
from varroom.model.ball_line import BallLineCase, BallLineDecision

_TITLE = {
    BallLineDecision.GOAL: ("GOAL", "bold white on green"),
    BallLineDecision.OUT_OF_PLAY: ("OUT OF PLAY", "bold white on red"),
    BallLineDecision.IN_PLAY: ("IN PLAY", "bold white on blue"),
}


def headline(verdict: BallLineVerdict) -> str:
    """The call as the verdict's title says it."""
    return _TITLE[verdict.decision][0]


def print_ball_line_verdict(
    case: BallLineCase, verdict: BallLineVerdict, console: Console | None = None
) -> None:
    title, style = _TITLE[verdict.decision]
    v = verdict
    crossed = "never wholly over" if v.crossed_at_t_s is None else f"{v.crossed_at_t_s:.3f} s"
    lines = [
        v.reason,
        "",
        f"Line: {v.nearest_line.words}",
        f"Margin: {'+' if v.margin_m >= 0 else '-'}{millimetres(v.margin_m)}",
        f"Crossed at: {crossed}",
        f"P(wholly over): {chance(v.probability)}",
    ]
    if v.on_field_decision:
        lines.append(f"On-field decision: {in_words(v.on_field_decision)}.")
    (console or Console()).print(
        Panel("\n".join(lines), title=f"[{style}] {title} [/]", title_align="left")
    )
