"""A 22-player, 3-touch situation for timing the engine: pass, deflection, shot."""

from __future__ import annotations

import json
import random


def situation_22x3(seed: int = 7) -> str:
    rng = random.Random(seed)
    players = [
        {
            "id": f"{team}{k}",
            "team": team,
            "goalkeeper": k == 1,
            "name": f"{team} Player {k}",
            "number": k,
        }
        for team in ("H", "A")
        for k in range(1, 12)
    ]

    def place() -> dict[str, dict[str, object]]:
        out: dict[str, dict[str, object]] = {}
        for p in players:
            x = rng.uniform(10, 50) if p["team"] == "A" else rng.uniform(0, 45)
            y = rng.uniform(-30, 30)
            out[p["id"]] = {
                "x": round(x, 2),
                "y": round(y, 2),
                "parts": {
                    "head": round(x + 0.1, 2),
                    "left_foot": round(x + 0.3, 2),
                    "right_hand": x + 0.6,
                },
            }
        return out

    touches = [
        {"t": 0.0, "player": "H7", "action": "pass", "ball": [20.0, 5.0], "positions": place()},
        {
            "t": 0.8,
            "player": "A4",
            "action": "deflection",
            "ball": [35.0, 3.0, 0.5],
            "positions": place(),
        },
        {"t": 1.4, "player": "H9", "action": "shot", "ball": [41.0, 2.0], "positions": place()},
    ]
    return json.dumps(
        {"players": players, "attack": {"team": "H", "towards": "+x"}, "touches": touches}
    )
