"""The HTML report's sections for penalty kicks and the ball over the line: a row per
incident with the decision, the margin and the engine's reason."""

from __future__ import annotations

import html

from varroom.audit.model import Audit, clock
from varroom.match.tracking import MatchTracking


def laws_html(audit: Audit, match: MatchTracking) -> str:
    """The penalty-kick and ball-line sections ("" when the audit found neither)."""
    team_name = {team.id: team.name for team in match.teams}
    parts = []
    if audit.penalties:
        body = "".join(
            f"<tr><td>{clock(p.period, p.t_s)}</td><td>{_text(team_name.get(p.team, p.team))}"
            f"</td><td>{_text(p.kick.kicker)}</td><td>{p.verdict.result.value}</td>"
            f"<td>{p.verdict.decision.value}</td><td>{_text(p.verdict.reason)}</td></tr>"
            for p in audit.penalties
        )
        parts.append(
            "<h2>Penalty kicks (Law 14)</h2><table><tr><th>When</th><th>Team</th><th>Kicker"
            f"</th><th>Result</th><th>Decision</th><th>Why</th></tr>{body}</table>"
        )
    if audit.ball_lines:
        body = "".join(
            f"<tr><td>{clock(b.period, b.t_s)}</td><td>{b.what.value.replace('_', ' ')}</td>"
            f"<td>{b.verdict.decision.value.replace('_', ' ')}</td>"
            f"<td>{b.verdict.margin_m * 1000:+.1f} mm</td>"
            f"<td>{'a ball out of play earlier in this play' if b.goal_after_ball_out else ''}"
            f"</td><td>{_text(b.verdict.reason)}</td></tr>"
            for b in audit.ball_lines
        )
        parts.append(
            "<h2>The ball over the line (Laws 9 and 10)</h2><table><tr><th>When</th><th>What"
            "</th><th>Decision</th><th>Margin</th><th>Flag</th><th>Why</th></tr>"
            f"{body}</table>"
        )
    return "\n".join(parts)


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)
