"""The season's consistency report: one self-contained HTML page from a results folder.

Per competition, team and referee: the offside calls agreed, made by the engine only, by the
officials only, and the phases the data could not settle; the margins of the calls; the
tight calls and what each standard policy would have decided on them; and penalty kicks
(goalkeeper offences found against retakes given) once the audit reports them. Charts are
matplotlib figures (no pyplot) embedded as base64 PNG: the page opens offline.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from varroom.audit.model import Agreeing
from varroom.engine.explain import counted
from varroom.output_file import write_atomically
from varroom.season import store
from varroom.season.work import MatchState

Row = dict[str, Any]
CATEGORIES = tuple(
    (kind, kind.label, colour)
    for kind, colour in (
        (Agreeing.AGREED, "#2e7d32"),
        (Agreeing.ENGINE_ONLY, "#c62828"),
        (Agreeing.OFFICIALS_ONLY, "#f9a825"),
        (Agreeing.DATA_INCONSISTENT, "#6a1b9a"),
        (Agreeing.UNDECIDABLE, "#9e9e9e"),
    )
)
TIGHT_CLASSES = ("tight", "too_close_to_call")
_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{padding:3px 9px;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f3f3f3}td{white-space:nowrap}
.offence{color:#c62828}.no_offence{color:#2e7d32}.undecidable{color:#757575}
img{max-width:100%}.note{color:#555}.warn{color:#8a4b00;background:#fff4e0;padding:4px 8px}
"""


def write_report(results: Path, target: Path) -> None:
    """Read `results` (an `audit-many --out` folder) and write the report to `target`."""
    matches, incidents = store.read(results)
    page = season_html(matches.to_pylist(), incidents.to_pylist())
    write_atomically(target, "season report", lambda stream: stream.write(page.encode()) and None)


def season_html(matches: Sequence[Row], incidents: Sequence[Row]) -> str:
    offside = [row for row in incidents if row["kind"] == "offside"]
    penalties = [row for row in incidents if row["kind"] == "penalty"]
    ball_lines = [row for row in incidents if row["kind"] == "ball_line"]
    ok = sum(1 for m in matches if m["state"] == MatchState.OK)
    failed = [m for m in matches if m["state"] != MatchState.OK]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Season consistency</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Season consistency report</h1>",
        f"<p>{counted(len(matches), 'match', 'matches')} ({ok} audited, {len(failed)} failed), "
        f"{counted(len(offside), 'offside decision')}.</p>",
        _profile_groups(matches, incidents),
        "<h2>Offside: engine and officials</h2>",
        _image(_agreement_chart(offside, "competition")),
        _breakdown("Per competition", offside, matches, ("competition",)),
        _breakdown("Per referee", offside, matches, ("competition", "referee")),
        _breakdown("Per team (attacking)", offside, matches, ("competition", "team")),
        "<h2>Margins of the calls</h2>",
        "<p class='note'>Engine offences: how far beyond the line the offender was (metres; "
        "the line drawn by the IFAB policy).</p>",
        _image(_margin_chart(offside)),
        _tight_calls(offside),
        _policies(offside),
        _would_differ(matches, offside),
        _penalties(penalties),
        _ball_lines(ball_lines),
        _failures(failed),
        "</body></html>",
    ]
    return "\n".join(parts)


def _counts(rows: Iterable[Row]) -> Counter[str]:
    return Counter(row["agreement"] for row in rows)


def _breakdown(
    title: str, rows: Sequence[Row], matches: Sequence[Row], keys: tuple[str, ...]
) -> str:
    groups: dict[tuple[str, ...], list[Row]] = defaultdict(list)
    for row in rows:
        groups[tuple(row[key] or "-" for key in keys)].append(row)
    games: Counter[tuple[str, ...]] = Counter()
    if "team" not in keys:
        for match in matches:
            games[tuple(match[key] or "-" for key in keys)] += 1
    head = "".join(f"<th>{html.escape(key)}</th>" for key in keys)
    head += "<th>matches</th>" if "team" not in keys else ""
    head += "".join(f"<th>{label}</th>" for _, label, _ in CATEGORIES)
    head += "<th>agreement</th><th>median margin</th><th>tight</th>"
    body = []
    for group in sorted(groups):
        members = groups[group]
        counts = _counts(members)
        judged = (
            counts[Agreeing.AGREED] + counts[Agreeing.ENGINE_ONLY] + counts[Agreeing.OFFICIALS_ONLY]
        )
        rate = f"{counts[Agreeing.AGREED] / judged:.0%}" if judged else "-"
        margins = sorted(
            r["margin_m"] for r in members if r["status"] == "offence" and r["margin_m"] is not None
        )
        median = f"{margins[len(margins) // 2]:.2f} m" if margins else "-"
        tight = sum(1 for r in members if r["class"] in TIGHT_CLASSES)
        cells = "".join(f"<td>{html.escape(value)}</td>" for value in group)
        cells += f"<td>{games[group]}</td>" if "team" not in keys else ""
        cells += "".join(f"<td>{counts[kind]}</td>" for kind, _, _ in CATEGORIES)
        cells += f"<td>{rate}</td><td>{median}</td><td>{tight}</td>"
        body.append(f"<tr>{cells}</tr>")
    return f"<h3>{title}</h3><table><tr>{head}</tr>{''.join(body)}</table>"


def _close_call(row: Row) -> bool:
    """A call the measurement does not settle by itself: too close to call, or one another
    standard rule would decide otherwise (a 'tight' call every rule agrees on is settled)."""
    outcomes = json.loads(row["policies"] or "{}").values()
    return row["class"] == "too_close_to_call" or any(o != row["status"] for o in outcomes)


def _tight_calls(rows: Sequence[Row]) -> str:
    tight = [r for r in rows if r["status"] is not None and _close_call(r)]
    if not tight:
        return (
            "<h2>Close calls</h2><p>None: every judged position was beyond its measuring "
            "error, and every rule agreed.</p>"
        )
    policies = sorted({name for r in tight for name in json.loads(r["policies"] or "{}")})
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "match",
            "when",
            "team",
            "offender",
            "margin",
            "P(offside)",
            "officials",
            *policies,
        )
    )
    body = []
    for r in sorted(tight, key=lambda r: (r["match_id"], r["period"], r["t_s"])):
        outcome = json.loads(r["policies"] or "{}")
        minutes, seconds = divmod(int(r["t_s"]), 60)
        cells = [
            html.escape(r["match_id"]),
            f"{r['period']}H {minutes:02d}:{seconds:02d}",
            html.escape(r["team"] or "-"),
            html.escape(r["offender_name"] or r["offender"] or "-"),
            "-" if r["margin_m"] is None else f"{r['margin_m'] * 100:+.0f} cm",
            "-" if r["probability"] is None else f"{r['probability']:.3f}",
            "offside" if r["official_call"] else "-",
        ]
        row = "".join(f"<td>{c}</td>" for c in cells)
        row += "".join(
            f"<td class='{outcome.get(p, '')}'>{outcome.get(p, '-').replace('_', ' ')}</td>"
            for p in policies
        )
        body.append(f"<tr>{row}</tr>")
    return (
        f"<h2>Close calls ({len(tight)})</h2><p class='note'>Positions too close to call (level "
        "lies inside the margin's 95% interval) or that another standard rule would decide "
        "otherwise, and what each rule decides.</p>"
        f"<table><tr>{head}</tr>{''.join(body)}</table>"
    )


def _policies(rows: Sequence[Row]) -> str:
    """Offences each policy would have given, per competition."""
    judged = [r for r in rows if r["policies"]]
    names = sorted({name for r in judged for name in json.loads(r["policies"])})
    if not names:
        return ""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in judged:
        for name, status in json.loads(r["policies"]).items():
            table[r["competition"] or "-"][name] += status == "offence"
    head = "<th>competition</th>" + "".join(f"<th>{html.escape(n)}</th>" for n in names)
    body = "".join(
        f"<tr><td>{html.escape(c)}</td>"
        + "".join(f"<td>{table[c][n]}</td>" for n in names)
        + "</tr>"
        for c in sorted(table)
    )
    return f"<h3>Offences under each policy</h3><table><tr>{head}</tr>{body}</table>"


def _profile_groups(matches: Sequence[Row], incidents: Sequence[Row]) -> str:
    """The profiles the matches were judged under, and every competition whose matches were
    judged under more than one: its calls are then not comparable with each other."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for match in matches:
        groups[(match["profile"] or "-", match["profile_sha256"] or "")].append(match)
    decisions = Counter(
        (row["profile"] or "-", row["profile_sha256"] or "")
        for row in incidents
        if row["kind"] == "offside" and row["status"] is not None
    )
    body = "".join(
        f"<tr><td>{html.escape(name)}</td><td><code>{sha[:12]}</code></td>"
        f"<td>{len(members)}</td><td>{decisions[(name, sha)]}</td></tr>"
        for (name, sha), members in sorted(groups.items())
    )
    mixed = []
    by_competition: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for (name, sha), members in groups.items():
        for match in members:
            by_competition[match["competition"] or "-"][(name, sha)] += 1
    for competition, used in sorted(by_competition.items()):
        if len(used) > 1:
            under = ", ".join(
                f"{html.escape(name)} ({sha[:12]}) in {counted(count, 'match', 'matches')}"
                for (name, sha), count in sorted(used.items())
            )
            mixed.append(
                f"<p class='warn'>{html.escape(competition)}: judged under different profiles, "
                f"{under}: its calls are not comparable with each other.</p>"
            )
    return (
        "<h2>Profiles</h2><p class='note'>How each match's Laws were applied "
        "(docs/formats/profile.md).</p><table><tr><th>profile</th><th>sha256</th>"
        f"<th>matches</th><th>offside decisions</th></tr>{body}</table>{''.join(mixed)}"
    )


def _would_differ(matches: Sequence[Row], rows: Sequence[Row]) -> str:
    """For each built-in profile that differs from the one a match was judged under only in
    how tight calls are settled, the plays whose call it would change: every verdict records
    each standard policy's outcome, so no play is judged again. A profile that differs in
    the Laws' open points needs the matches audited under it (`audit-many --profile`)."""
    from varroom.profiles import builtin_names, builtin_profile

    judged_under = {
        match["match_id"]: json.loads(match["settings"]).get("profile") for match in matches
    }
    sections = []
    for name in builtin_names():
        other = builtin_profile(name)
        policy = str(other.policy)
        differ = []
        for row in rows:
            under = judged_under.get(row["match_id"])
            outcome = json.loads(row["policies"] or "{}").get(policy)
            if under is None or outcome is None or row["status"] == outcome:
                continue
            if row["profile"] != name and _same_but_policy(under, other.to_dict()):
                differ.append((row, outcome))
        if differ:
            sections.append(_differ_table(name, differ))
    if not sections:
        return ""
    return (
        "<h2>Calls that would differ</h2><p class='note'>Under each built-in profile that "
        "settles tight calls another way (the Laws' other points the same), the plays whose "
        "call would change.</p>" + "".join(sections)
    )


def _same_but_policy(content: dict[str, Any], other: dict[str, Any]) -> bool:
    about = ("name", "version", "source", "offside")
    return all(content.get(key) == value for key, value in other.items() if key not in about)


def _differ_table(name: str, differ: list[tuple[Row, str]]) -> str:
    body = []
    for row, outcome in sorted(
        differ, key=lambda d: (d[0]["match_id"], d[0]["period"], d[0]["t_s"])
    ):
        minutes, seconds = divmod(int(row["t_s"]), 60)
        cells = [
            html.escape(row["match_id"]),
            f"{row['period']}H {minutes:02d}:{seconds:02d}",
            html.escape(row["offender_name"] or row["offender"] or "-"),
            "-" if row["margin_m"] is None else f"{row['margin_m'] * 100:+.0f} cm",
            "-" if row["probability"] is None else f"{row['probability']:.2f}",
            f"<span class='{row['status']}'>{row['status'].replace('_', ' ')}</span> "
            f"({html.escape(row['profile'] or '-')})",
            f"<span class='{outcome}'>{outcome.replace('_', ' ')}</span>",
        ]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(
        f"<th>{h}</th>"
        for h in ("match", "when", "offender", "margin", "P(offside)", "as judged", f"under {name}")
    )
    return (
        f"<h3 id='differ-{html.escape(name)}'>Under {html.escape(name)}: "
        f"{counted(len(differ), 'call')} would differ</h3><table><tr>{head}</tr>{''.join(body)}</table>"
    )


def _penalties(rows: Sequence[Row]) -> str:
    """Penalty kicks per competition: the offences the Law penalises and what it decides."""
    return _per_competition(
        "Penalty kicks",
        "No penalty kicks in these results.",
        rows,
        (
            ("kicks", lambda r: True),
            ("an offence penalised", lambda r: r["status"] == "offence"),
            ("goalkeeper off his line", _keeper_off_line),
            ("retakes", lambda r: r["decision"] == "retake"),
            ("indirect free kicks", lambda r: r["decision"] == "indirect_free_kick"),
        ),
    )


def _keeper_off_line(row: Row) -> bool:
    return row["margin_m"] is not None and row["margin_m"] > 0


def _ball_lines(rows: Sequence[Row]) -> str:
    """Balls over the line per competition: ball-outs play went on after, and goal-line
    moments with what Law 10 decides."""
    return _per_competition(
        "Ball over the line",
        "No missed ball-outs or goal-line moments in these results.",
        rows,
        (
            ("missed ball-outs", lambda r: r["status"] == "missed_ball_out"),
            ("goal-line moments", lambda r: r["status"] == "goal_line"),
            ("goals", lambda r: r["status"] == "goal_line" and r["decision"] == "goal"),
            ("no goals", lambda r: r["status"] == "goal_line" and r["decision"] != "goal"),
            ("tight or too close to call", lambda r: r["class"] in TIGHT_CLASSES),
        ),
    )


def _per_competition(
    title: str,
    empty: str,
    rows: Sequence[Row],
    columns: Sequence[tuple[str, Callable[[Row], bool]]],
) -> str:
    """A table of counts, one row per competition, one column per test a row may pass."""
    if not rows:
        return f"<h2>{title}</h2><p class='note'>{empty}</p>"
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        counts = table[row["competition"] or "-"]
        for name, test in columns:
            counts[name] += test(row)
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in columns)
    body = "".join(
        f"<tr><td>{html.escape(competition)}</td>"
        + "".join(f"<td>{counts[name]}</td>" for name, _ in columns)
        + "</tr>"
        for competition, counts in sorted(table.items())
    )
    return f"<h2>{title}</h2><table><tr><th>competition</th>{head}</tr>{body}</table>"


def _failures(failed: Sequence[Row]) -> str:
    if not failed:
        return ""
    items = "".join(
        f"<li>{html.escape(m['match_id'])}: {html.escape(m['error'] or '')}</li>" for m in failed
    )
    return f"<h2>Matches that failed ({len(failed)})</h2><ul>{items}</ul>"


def _agreement_chart(rows: Sequence[Row], key: str) -> Figure:
    groups = sorted({row[key] or "-" for row in rows}) or ["-"]
    figure = Figure(figsize=(8, 1.3 + 0.5 * len(groups)), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    left = [0] * len(groups)
    for kind, label, colour in CATEGORIES:
        counts = [
            sum(1 for r in rows if (r[key] or "-") == g and r["agreement"] == kind) for g in groups
        ]
        axes.barh(groups, counts, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, counts, strict=True)]
    axes.set_xlabel("offside decisions")
    figure.legend(loc="outside upper center", fontsize="small", ncols=len(CATEGORIES))
    axes.invert_yaxis()
    return figure


def _margin_chart(rows: Sequence[Row]) -> Figure:
    figure = Figure(figsize=(8, 3), dpi=100)
    axes = figure.add_subplot()
    by: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["status"] == "offence" and r["margin_m"] is not None:
            by[r["competition"] or "-"].append(r["margin_m"])
    if by:
        axes.hist(list(by.values()), bins=20, label=list(by), stacked=False)
        axes.legend(fontsize="small")
    axes.set_xlabel("margin beyond the line (m)")
    axes.set_ylabel("offences")
    figure.tight_layout()
    return figure


def _image(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img alt='chart' src='data:image/png;base64,{data}'>"


__all__: Sequence[str] = ("season_html", "write_report")
