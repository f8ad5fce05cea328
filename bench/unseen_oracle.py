"""Settled means proven (issue 21): masked moments judged by varroom against the complete truth
and the exact oracle of tests/football11.py, and what judging partial data costs.

Two sources of complete 11 v 11 situations, both masked by football11's masks (a broadcast
camera, a freeze frame, a strip view, dropped tracks): football11's own generator, which
imports nothing from varroom.profiles import ifab
from varroom, and varroom.synthetic's matches (each team-mate's pass a
receiver played directly, from one 90-minute match, renamed into the oracle's terms). A settled masked
verdict contradicts the truth when it differs from the complete one; the undecidable share
is read against the exact oracle's on the same masks.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import varroom  # noqa: E402
from football11 import Case, count, generate, masks, oracle  # noqa: E402
from varroom.audit.ball_out import scan_ball_out  # noqa: E402
from varroom.audit.moments import find_moments  # noqa: E402
from varroom.audit.phases import cut_phases, pairs  # noqa: E402
from varroom.audit.tracking import Situations, tracking_of  # noqa: E402
from varroom.errors import InputError  # noqa: E402
from varroom.formats.situation_json import situation_from_dict, situation_to_dict  # noqa: E402
from varroom.profiles import ifab  # noqa: E402
from varroom.synthetic import SyntheticConfig, synthetic_match  # noqa: E402

SITUATIONS, SEED, MASKS_EACH = 300, 21, 17
SYNTHETIC_SEED = 1  # one 90-minute match gives over a thousand passes; the first 300 are used


def bench_unseen_oracle() -> dict[str, Any]:
    independent = count(SITUATIONS, SEED, MASKS_EACH)
    synthetic = _synthetic_count()
    return {
        **{f"oracle_{key}": value for key, value in independent.items()},
        **{f"oracle_synthetic_{key}": value for key, value in synthetic.items()},
        **_judge_partial(),
    }


def _in_oracle_terms(data: dict[str, Any]) -> dict[str, Any] | None:
    """A synthetic pass and its receipt with the teams named A and D, the passer a0, as
    football11's masks and oracle read them (None: not a direct pass to a team-mate)."""
    play, last = data["touches"][0], data["touches"][-1]
    if len(data["touches"]) != 2 or play["player"] is None or last["player"] == play["player"]:
        return None
    attacking = data["attack"]["team"]
    ids: dict[str, str] = {play["player"]: "a0"}
    for player in data["players"]:
        if player["id"] not in ids:
            prefix = "a" if player["team"] == attacking else "d"
            ids[player["id"]] = f"{prefix}{len(ids)}"
    text = json.dumps(data)
    for old, new in sorted(ids.items(), key=lambda item: -len(item[0])):
        text = text.replace(f'"{old}"', f'"{new}"')
    renamed: dict[str, Any] = json.loads(text)
    for player in renamed["players"]:
        player["team"] = "A" if player["id"].startswith("a") else "D"
    renamed["attack"]["team"] = "A"
    renamed["team_sizes"] = {"A": 11, "D": 11}
    return renamed


def _synthetic_count() -> dict[str, int]:
    tally = dict.fromkeys(
        [
            "situations",
            "moments",
            "settled",
            "contradicting",
            "undecidable",
            "oracle_undecidable",
            "outside_oracle",
        ],
        0,
    )
    rng = random.Random(SEED)
    match = synthetic_match(SyntheticConfig(seed=SYNTHETIC_SEED)).match
    profile = ifab()
    moments = find_moments(match, profile.law)
    phases = cut_phases(match, moments, scan_ball_out(match, profile))
    tracking, unseen = tracking_of(match, profile.noise)
    builder = Situations(match, moments, tracking, profile)
    for pair in pairs(phases, moments, match):
        if tally["situations"] == SITUATIONS:
            break
        phase = phases[pair.phase]
        chosen = phase.moments[pair.judged : pair.involved + 1]
        data = _in_oracle_terms(situation_to_dict(builder.situation(phase, chosen, unseen)))
        if data is None or len(data["touches"][0]["positions"]) < 22:
            continue
        receiver = data["touches"][-1]["player"]
        try:
            complete = varroom.judge(situation_from_dict(data))
        except InputError:
            continue  # a player far off the pitch (the bench): not a situation to mask
        truth = (complete.status.value, complete.offender)
        if truth != oracle(data, receiver, "direct"):
            tally["outside_oracle"] += 1  # a body part, a player off the field: not its terms
            continue
        tally["situations"] += 1
        case = Case(data, receiver, "direct", "synthetic")
        for _kind, masked in masks(case, rng, MASKS_EACH):
            verdict = varroom.judge(situation_from_dict(masked))
            tally["moments"] += 1
            tally["oracle_undecidable"] += oracle(masked, receiver, "direct")[0] == ("undecidable")
            if verdict.status.value == "undecidable":
                tally["undecidable"] += 1
                continue
            tally["settled"] += 1
            tally["contradicting"] += (verdict.status.value, verdict.offender) != truth
    return tally


def _judge_partial() -> dict[str, float]:
    """judge() on a broadcast view with five defenders out of it, against json.loads of the
    same file: the median of 7 interleaved rounds, each the median of 200 calls."""
    text = _partial_text()
    situation = varroom.parse_situation(text)
    for _ in range(100):  # warm up
        varroom.judge(situation)
    judge, loads = [], []
    for _ in range(7):
        judge.append(_median_ms(lambda: varroom.judge(situation), 200))
        loads.append(_median_ms(lambda: json.loads(text), 200))
    return {
        "judge_partial_ms_median": statistics.median(judge),
        "reference_json_loads_partial_ms_median": statistics.median(loads),
    }


def _partial_text() -> str:
    rng = random.Random(SEED)
    while True:
        case = generate(rng)
        for kind, masked in masks(case, rng, 17):
            defenders = [p for p in masked["touches"][0]["positions"] if p.startswith("d")]
            if kind == "broadcast" and len(defenders) == 6:  # 11 - 5 unseen
                return json.dumps(masked)


def _median_ms(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
