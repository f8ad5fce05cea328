"""A match audit as people read it: one row per decision, and a self-contained HTML report.

The HTML file carries everything it shows (pictures as base64 PNG, the style inline): it
opens offline, from an e-mail, years later. Every file is written whole or not at all.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from varroom.audit.model import Agreeing, Audit, Incident, IncidentSource, OfficialCall, clock
from varroom.audit.report_laws import laws_html
from varroom.engine.explain import counted, distance
from varroom.engine.verdict import Status
from varroom.match.tracking import MatchTracking, Provider
from varroom.output_file import OutputError, write_atomically


@dataclass(frozen=True, slots=True)
class Row:
    """One offside decision: an official call, an engine incident, or both."""

    period: int
    t_s: float
    team: str  # the attacking team's name
    player: str | None  # the player penalised (the call's, else the engine's)
    agreeing: Agreeing
    call: OfficialCall | None
    # The engine's verdict: its incident, or for a call with none, its verdict on the call's
    # play when the audit can give one.
    engine: Incident | None
    why: str = ""  # the reason for the score

    @property
    def reason(self) -> str:
        """Why it scores as it does, in a sentence or two."""
        if self.why:
            return self.why
        if self.engine is not None:
            return self.engine.verdict.reason
        return "The engine has no positions at the call's play (no freeze frame before it)."

    @property
    def clock(self) -> str:
        return clock(self.period, self.t_s)

    @property
    def engine_says(self) -> str:
        """'offside, 1.74 m', 'onside by 7 cm', 'undecidable', or 'no incident'."""
        if self.engine is None:
            # A call at a play with no positions: nothing can settle it.
            return "no incident" if self.call is None else "undecidable: no positions"
        verdict, judgement = self.engine.verdict, self.engine.verdict.judgement
        margin = verdict.margin_m
        if judgement is not None and judgement.exempt_restart:
            restart = self.engine.situation.touches[judgement.index].action.value
            return f"no offence from a {restart.replace('_', ' ')}"
        if verdict.status is Status.OFFENCE:
            return "offside" if margin is None else f"offside, {distance(margin)}"
        if verdict.status is Status.UNDECIDABLE:
            return "undecidable"
        if margin is None or margin != margin:
            return "no offence"
        return f"onside by {distance(margin)}" if margin <= 0 else "no offence"


def rows(
    audit: Audit, match: MatchTracking, call_phases: Sequence[Incident | None] = ()
) -> tuple[Row, ...]:
    """The audit's decisions in time order; `call_phases` (one per official call, as
    `run.call_phases` gives them) shows what the engine saw at a call it did not make."""
    team_name = {team.id: team.name for team in match.teams}
    player_name = {
        str(pid): name for pid, name in zip(match.player_ids, match.player_names, strict=True)
    }

    def named(player: str | None) -> str | None:
        return None if player is None else player_name.get(player) or player

    paired = dict(audit.agreement.both)  # incident index -> call index
    found: list[Row] = []
    for i_index, incident in enumerate(audit.incidents):
        call = audit.official_calls[paired[i_index]] if i_index in paired else None
        found.append(
            Row(
                period=incident.period,
                t_s=incident.t_s,
                team=team_name.get(incident.team, incident.team),
                player=named(incident.verdict.offender),
                agreeing=Agreeing.AGREED if call is not None else Agreeing.ENGINE_ONLY,
                call=call,
                engine=incident,
            )
        )
    phases = list(call_phases) or [None] * len(audit.official_calls)
    scored = [(c, Agreeing.OFFICIALS_ONLY, "") for c in audit.agreement.official_only] + [
        (c, Agreeing.DATA_INCONSISTENT, why) for c, why in audit.agreement.inconsistent
    ]
    for c_index, agreeing, why in scored:
        call = audit.official_calls[c_index]
        found.append(
            Row(
                period=call.period,
                t_s=call.t_s,
                team=team_name.get(call.team or "", call.team or "?"),
                player=named(call.player),
                agreeing=agreeing,
                call=call,
                engine=phases[c_index],
                why=why,
            )
        )
    return tuple(sorted(found, key=lambda row: (row.period, row.t_s)))


def png(incident: Incident) -> bytes:
    """The picture of an incident's decision, as PNG bytes."""
    # matplotlib is slow to import: only when drawing.
    from varroom.pictures.decision import DPI, draw_decision

    figure = draw_decision(incident.situation, incident.verdict)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, facecolor=figure.get_facecolor())
    return buffer.getvalue()


def write_file(path: Path, data: bytes) -> None:
    """Write `path` whole, or leave it as it was (`varroom.output_file`); its directory is made
    when missing. A failure is an `OutputError`: 'cannot write PATH: why'."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    write_atomically(path, "", lambda stream: stream.write(data))


def html_report(
    audit: Audit,
    match: MatchTracking,
    decisions: Sequence[Row],
    picture: Callable[[Incident], bytes] = png,
) -> str:
    """The whole report as one HTML document."""
    source = "StatsBomb open data" if match.provider is Provider.STATSBOMB else match.provider.value
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>varroom audit: {_text(audit.match)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Offside audit: {_text(audit.match)}</h1>",
        f'<p class="source">Data: {_text(source)}. Judged by varroom under IFAB Law 11, as the '
        f"{_text(audit.profile.label)} profile applies it.</p>",
        '<ul class="summary">'
        + "".join(f"<li>{_text(line)}</li>" for line in summary(audit))
        + "</ul>",
        "".join(f'<p class="note">{_text(note)}</p>' for note in audit.notes),
        _table(decisions),
        *(_decision(number, row, picture) for number, row in enumerate(decisions, start=1)),
        _undecidable(audit, match),
        laws_html(audit, match),
        "</body></html>",
    ]
    return "\n".join(parts)


def summary(audit: Audit) -> list[str]:
    """The audit in five lines."""
    agreement = audit.agreement
    return [
        counted(audit.phases_judged, "play") + " judged",
        counted(len(audit.incidents), "offside offence") + " found by the engine",
        counted(len(audit.official_calls), "offside call") + " by the officials",
        f"agreed on {len(agreement.both)}; engine only {len(agreement.engine_only)}; "
        f"officials only {len(agreement.official_only)}; "
        f"data inconsistent {len(agreement.inconsistent)}",
        counted(len(audit.undecidable), "play") + " the data cannot settle",
    ]


def write_html(path: Path, report: str) -> None:
    write_file(path, report.encode("utf-8"))


def _table(decisions: Sequence[Row]) -> str:
    head = "<tr><th>#</th><th>When</th><th>Team</th><th>Player</th><th>Officials</th><th>Engine</th><th>Agreement</th></tr>"
    body = "".join(
        f'<tr class="{row.agreeing.value}"><td><a href="#decision-{n}">{n}</a></td>'
        f"<td>{row.clock}</td><td>{_text(row.team)}</td><td>{_text(row.player or '?')}</td>"
        f"<td>{'offside' if row.call else '&mdash;'}</td><td>{_text(row.engine_says)}</td>"
        f"<td>{row.agreeing.label}</td></tr>"
        for n, row in enumerate(decisions, start=1)
    )
    return f"<h2>Decisions</h2><table>{head}{body}</table>"


def _decision(number: int, row: Row, picture: Callable[[Incident], bytes]) -> str:
    title = f"{number}. {row.clock} · {row.team} · {row.player or '?'}"
    officials = "offside called" if row.call else "no offside called"
    lines = [
        f'<section id="decision-{number}"><h2>{_text(title)}</h2>',
        f'<p class="verdicts">Officials: {officials}. Engine: {_text(row.engine_says)}. '
        f'<span class="{row.agreeing.value}">{row.agreeing.label}</span></p>',
    ]
    if row.engine is None:
        lines.append("<p>The engine has no picture of this play: no positions at the call.</p>")
    else:
        encoded = base64.b64encode(picture(row.engine)).decode("ascii")
        lines.append(
            f'<img alt="{_text(title)}" src="data:image/png;base64,{encoded}">'
            f"<p>{_text(row.engine.verdict.reason)}</p>"
        )
        if row.why:
            lines.append(f'<p class="note">{_text(row.why)}</p>')
        lines.append(_in_view(row.engine))
    lines.append("</section>")
    return "\n".join(lines)


def _in_view(incident: Incident) -> str:
    """How much of the defence the picture shows, for positions from a freeze frame."""
    if incident.source is not IncidentSource.FREEZE_FRAME:
        return ""
    situation = incident.situation
    positions = situation.touches[incident.verdict.judged_at or 0].positions
    defenders = [p for p in positions if not situation.is_attacker(p)]
    keeper = any(situation.players[p].goalkeeper for p in defenders)
    return (
        f'<p class="note">In the freeze frame: {len(defenders)} players of '
        f"{_text(situation.defending_team)}, goalkeeper {'in' if keeper else 'not in'} view.</p>"
    )


def _undecidable(audit: Audit, match: MatchTracking) -> str:
    if not audit.undecidable:
        return ""
    team_name = {team.id: team.name for team in match.teams}
    body = "".join(
        f"<tr><td>{clock(i.period, i.t_s)}</td><td>{_text(team_name.get(i.team, i.team))}</td>"
        f"<td>{_text(i.verdict.reason)}</td></tr>"
        for i in audit.undecidable
    )
    return (
        "<h2>Plays the data cannot settle</h2>"
        "<p>An offence was possible, but the positions cannot show whether there was one.</p>"
        f"<table><tr><th>When</th><th>Team</th><th>Why</th></tr>{body}</table>"
    )


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
background:#0f1720;color:#f1f5f9;line-height:1.45}
a{color:#93c5fd}h1,h2{font-weight:600}h2{margin-top:2em}
table{border-collapse:collapse;width:100%;font-size:.95em}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #334155;vertical-align:top}
img{width:100%;height:auto;border-radius:4px}
.source,.note{color:#94a3b8}.summary li{margin:.15em 0}
.agreed{color:#4ade80}.engine_only{color:#ff4d4f}.officials_only{color:#f59e0b}
.data_inconsistent{color:#a78bfa}
"""
