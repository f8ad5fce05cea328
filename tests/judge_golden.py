"""Random situations (format 1.2) and the decisive fields of their verdicts, for the golden
file `tests/files/judge-golden.json.gz` that `test_judge_golden.py` compares the judge to.

The generator is this module's own (not `varroom.synthetic`): seeded, with every kind of
touch, body parts (arms among them), players off the field, velocities, both directions,
short teams (`team_sizes`) and broadcast views, so that every branch of the judge is met.

Regenerate (only where a verdict is meant to change): `.venv/bin/python tests/judge_golden.py`.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "files" / "judge-golden.json.gz"
EXAMPLES = ROOT / "examples"
SEED = 26
COUNT = 10_000

_ACTIONS = ["pass", "shot", "header", "cross", "dribble", "receive", "throw_in", "free_kick"]
_LATER = ["pass", "shot", "receive", "deflection", "save", "woodwork", "clearance", "header"]
_PARTS = ["head", "torso", "left_foot", "right_foot", "left_knee", "right_arm", "left_hand"]
_OFF = ["without_permission", "with_permission", "stepped_off"]


def random_situation(rng: random.Random) -> dict[str, Any]:
    """One situation as the JSON object of the format: attackers pushed up near the line."""
    towards = rng.choice(["+x", "-x"])
    sign = 1.0 if towards == "+x" else -1.0
    sizes = {"H": rng.choice([11, 11, 11, 10, 9]), "A": rng.choice([11, 11, 11, 10])}
    players = [
        {"id": f"{team}{k}", "team": team, "goalkeeper": k == 1}
        for team in ("H", "A")
        for k in range(1, sizes[team] + 1)
    ]
    line = rng.uniform(-5.0, 45.0)  # where the defence stands, along the attack
    listed_short = rng.random() < 0.15  # a defender or two missing: team_sizes counts them

    def position(depth: float) -> dict[str, Any]:
        spot: dict[str, Any] = {"x": round(sign * depth, 3), "y": round(rng.uniform(-33, 33), 2)}
        if rng.random() < 0.5:
            spot["parts"] = {
                part: round(sign * (depth + rng.uniform(-0.4, 0.6)), 3)
                for part in rng.sample(_PARTS, rng.randint(1, 4))
            }
        if rng.random() < 0.03:
            spot["off_field"] = rng.choice(_OFF)
        if rng.random() < 0.5:
            spot["v"] = [round(rng.uniform(-8, 8), 2), round(rng.uniform(-3, 3), 2)]
        return spot

    def positions() -> dict[str, Any]:
        out = {}
        for p in players:
            if p["team"] == "A":
                depth = 51.0 if p["goalkeeper"] else line + rng.uniform(-12.0, 1.5)
                if listed_short and not p["goalkeeper"] and rng.random() < 0.15:
                    continue
            else:
                depth = -40.0 if p["goalkeeper"] else line + rng.uniform(-25.0, 2.5)
            out[p["id"]] = position(min(depth, 56.0))
        return out

    attackers = [p["id"] for p in players if p["team"] == "H" and not p["goalkeeper"]]
    defenders = [p["id"] for p in players if p["team"] == "A"]
    t = 0.0
    touches = [
        {
            "t": t,
            "player": rng.choice(attackers),
            "action": rng.choice(_ACTIONS),
            "ball": [round(sign * (line - rng.uniform(0, 25)), 2), round(rng.uniform(-30, 30), 2)],
            "positions": positions(),
        }
    ]
    if rng.random() < 0.5:
        touches[0]["ball_v"] = [round(rng.uniform(-20, 20), 1), 0.0]
    for _ in range(rng.randint(1, 3)):
        t += round(rng.uniform(0.3, 1.5), 2)
        action = rng.choice(_LATER)
        if action == "woodwork":
            player = None
        elif action in ("deflection", "save", "clearance"):
            player = rng.choice(defenders)
        else:
            player = rng.choice(attackers)
        touch: dict[str, Any] = {
            "t": t,
            "player": player,
            "action": action,
            "ball": [round(sign * (line + rng.uniform(-5, 8)), 2), round(rng.uniform(-20, 20), 2)],
            "positions": positions(),
        }
        if rng.random() < 0.1:
            touch["involvement"] = [
                {"player": rng.choice(attackers), "kind": "challenges_opponent"}
            ]
        touches.append(touch)
    if rng.random() < 0.1:
        # A broadcast view of the attacking half's near part: the deepest defenders unseen.
        edge = sign * (line - rng.uniform(-3.0, 8.0))
        far = sign * -60.0
        touches[0]["view"] = {"area": [[far, -40], [edge, -40], [edge, 40], [far, 40]]}
    situation: dict[str, Any] = {
        "version": "1.2",
        "attack": {"team": "H", "towards": towards},
        "players": players,
        "touches": touches,
    }
    if sizes != {"H": 11, "A": 11} or listed_short:
        situation["team_sizes"] = sizes
    if rng.random() < 0.3:
        situation["on_field"] = {"decision": rng.choice(["offside", "goal"])}
    return situation


def random_situations(count: int = COUNT, seed: int = SEED) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps(random_situation(rng)) for _ in range(count)]


def _mm(value: float | None) -> int | None:
    return None if value is None else round(value * 1000)


def decisive(verdict: Any) -> dict[str, Any]:
    """What a verdict decides: the call, the margin to the mm, P, its interval, each policy's."""
    spread = verdict.uncertainty
    return {
        "status": verdict.status.value,
        "offender": verdict.offender,
        "nearest": verdict.nearest_attacker,
        "judged_at": verdict.judged_at,
        "cause": verdict.cause.value,
        "margin_mm": _mm(verdict.margin_m),
        "p": None if spread is None else spread.probability,
        "ci_mm": None if spread is None else [_mm(v) for v in spread.margin_ci_m],
        "class": None if spread is None else spread.confidence_class.value,
        "outcomes": {k: v.value for k, v in verdict.policy_outcomes.items()},
    }


def judged(text: str) -> dict[str, Any]:
    import varroom

    try:
        situation = varroom.parse_situation(text)
    except Exception as error:  # the generator may write what the reader refuses
        return {"refused": type(error).__name__}
    return decisive(varroom.judge(situation))


def examples() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(EXAMPLES.glob("*.json"))}


def main() -> None:
    revision = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    golden = {
        "revision": revision,
        "seed": SEED,
        "examples": {name: judged(text) for name, text in examples().items()},
        "random": [judged(text) for text in random_situations()],
    }
    with gzip.open(GOLDEN, "wt") as stream:
        json.dump(golden, stream, separators=(",", ":"))
    refused = sum(1 for v in golden["random"] if "refused" in v)
    print(f"wrote {GOLDEN} at {revision[:7]}: {refused} of {COUNT} refused", file=sys.stderr)


if __name__ == "__main__":
    main()
