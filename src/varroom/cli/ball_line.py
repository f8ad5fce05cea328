"""`varroom check` on a ball line (kind `ball_line`): judged, printed, drawn on request."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import click
from rich.console import Console
from rich.panel import Panel

from varroom.engine.ball_line import judge_ball_line
from varroom.engine.ball_line_explain import chance, millimetres
from varroom.engine.ball_line_verdict import BallLineVerdict
from varroom.engine.policy import Policy
from varroom.model.ball_line import BallLineCase, BallLineDecision

_TITLE = {
    BallLineDecision.GOAL: ("GOAL", "bold white on green"),
    BallLineDecision.OUT_OF_PLAY: ("OUT OF PLAY", "bold white on red"),
    BallLineDecision.IN_PLAY: ("IN PLAY", "bold white on blue"),
}

# The pictures a ball line has; the situation's other pictures do not apply to it.
_PICTURES = {"image": "write_ball_line_view", "screen": "write_ball_line_screen"}


def check_ball_line(
    case: BallLineCase, policy: Policy, as_json: bool, pictures: Mapping[str, Path]
) -> None:
    """Judge a ball line under Laws 9 and 10, print the verdict, then draw what is asked
    (`--image`, `--screen`; `varroom check` refuses the others)."""
    verdict = judge_ball_line(case, policy=policy)
    if as_json:
        click.echo(json.dumps(verdict.to_dict(), ensure_ascii=False))
    else:
        print_ball_line_verdict(verdict)
    # The verdict comes first: a picture that cannot be written must not hide it.
    for name, path in pictures.items():
        from varroom.pictures import ball_line as drawing

        getattr(drawing, _PICTURES[name])(case, verdict, path)


def print_ball_line_verdict(verdict: BallLineVerdict, console: Console | None = None) -> None:
    title, style = _TITLE[verdict.decision]
    v = verdict
    crossed = "never wholly over" if v.crossed_at_t_s is None else f"{v.crossed_at_t_s:.3f} s"
    lines = [
        v.reason,
        "",
        f"Line: {v.nearest_line.value}",
        f"Margin: {'+' if v.margin_m >= 0 else '-'}{millimetres(v.margin_m)}",
        f"Crossed at: {crossed}",
        f"P(wholly over): {chance(v.probability)}",
    ]
    if v.on_field_decision:
        lines.append(f"On-field decision: {v.on_field_decision}.")
    (console or Console()).print(
        Panel("\n".join(lines), title=f"[{style}] {title} [/]", title_align="left")
    )
