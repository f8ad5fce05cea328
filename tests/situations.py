"""Building situations for tests: a compact writer of the JSON format, and hypothesis strategies."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

import varroom
from varroom.formats.situation_json import situation_from_dict
from varroom.model.situation import Action, BodyPart, Situation

ATTACKERS = "A"
DEFENDERS = "D"


def situation(
    touches: list[dict[str, Any]],
    players: dict[str, str] | None = None,
    towards: str = "+x",
    **extra: Any,
) -> dict[str, Any]:
    """A situation dict. `players` maps id -> team; by default every id seen in the touches,
    with ids starting 'a' attacking and the rest defending."""
    if players is None:
        ids = dict.fromkeys(pid for t in touches for pid in t["positions"])
        players = {pid: ATTACKERS if pid.startswith("a") else DEFENDERS for pid in ids}
    return {
        "players": [{"id": pid, "team": team} for pid, team in players.items()],
        "attack": {"team": ATTACKERS, "towards": towards},
        "touches": touches,
        **extra,
    }


def touch(
    player: str | None,
    action: str,
    ball: tuple[float, ...],
    t: float = 0.0,
    involvement: list[dict[str, str]] | None = None,
    **positions: Any,
) -> dict[str, Any]:
    """A touch; each position is (x, y) or a full position dict."""
    out: dict[str, Any] = {
        "t": t,
        "player": player,
        "action": action,
        "ball": list(ball),
        "positions": {
            pid: pos if isinstance(pos, dict) else {"x": pos[0], "y": pos[1]}
            for pid, pos in positions.items()
        },
    }
    if involvement:
        out["involvement"] = involvement
    return out


def judged(data: dict[str, Any], **settings: Any) -> varroom.Verdict:
    return varroom.judge(situation_from_dict(data), varroom.LawSettings(**settings))


def through_ball(
    attacker_x: float, defender_x: float = 30.0, ball_x: float = 10.0
) -> dict[str, Any]:
    """a1 passes from ball_x; a2 at attacker_x receives; d1 is the second-last, gk deeper."""
    return situation(
        [
            touch(
                "a1",
                "pass",
                (ball_x, 0),
                0.0,
                a1=(ball_x, 0),
                a2=(attacker_x, 5),
                d1=(defender_x, 3),
                gk=(50, 0),
            ),
            touch(
                "a2",
                "shot",
                (attacker_x + 2, 5),
                1.5,
                a1=(ball_x + 2, 0),
                a2=(attacker_x + 2, 5),
                d1=(defender_x + 1, 3),
                gk=(50, 0),
            ),
        ]
    )


# -- hypothesis ----------------------------------------------------------------------------

COUNTING = [p.value for p in BodyPart if p.counts_for_offside]
ARMS = [p.value for p in BodyPart if not p.counts_for_offside]
PLAYER_ACTIONS = [a.value for a in Action if a not in (Action.WOODWORK, Action.OFFICIAL)]
INVOLVEMENT_KINDS = [
    "obstructs_line_of_vision",
    "challenges_opponent",
    "attempts_to_play_close",
    "obvious_action_impacting_opponent",
]

coordinate_x = st.floats(-60, 60, allow_nan=False).map(lambda v: round(v, 2))
coordinate_y = st.floats(-38, 38, allow_nan=False).map(lambda v: round(v, 2))


@st.composite
def positions(draw: st.DrawFn, ids: list[str], arms: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pid in ids:
        if not draw(st.integers(0, 9)):  # now and then a player is off the pitch
            continue
        pos: dict[str, Any] = {"x": draw(coordinate_x), "y": draw(coordinate_y)}
        names = draw(
            st.lists(st.sampled_from(COUNTING + (ARMS if arms else [])), max_size=3, unique=True)
        )
        if names:
            pos["parts"] = {n: round(pos["x"] + draw(st.floats(-0.6, 0.6)), 2) for n in names}
        out[pid] = pos
    return out


@st.composite
def situations(draw: st.DrawFn) -> dict[str, Any]:
    """Random but valid situations: 2 to 6 players a side, 1 to 4 touches."""
    attackers = [f"a{i}" for i in range(draw(st.integers(2, 6)))]
    defenders = [f"d{i}" for i in range(draw(st.integers(2, 6)))]
    ids = attackers + defenders
    touches = []
    for k in range(draw(st.integers(1, 4))):
        who = draw(st.sampled_from(ids + [None]))
        if k == 0:
            who = attackers[0]
        action = draw(st.sampled_from(["woodwork", "official"] if who is None else PLAYER_ACTIONS))
        place = draw(positions(ids))
        involvement = draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "player": st.sampled_from(attackers),
                        "kind": st.sampled_from(INVOLVEMENT_KINDS),
                    }
                ),
                max_size=1,
            )
        )
        touches.append(
            touch(
                who,
                action,
                (draw(coordinate_x), draw(coordinate_y)),
                float(k),
                involvement,
                **place,
            )
        )
    data = situation(
        touches, players={**{a: ATTACKERS for a in attackers}, **{d: DEFENDERS for d in defenders}}
    )
    data["attack"]["towards"] = draw(st.sampled_from(["+x", "-x"]))
    return data


def mirrored(data: dict[str, Any], axis: str) -> dict[str, Any]:
    """The same play seen from the other side: x -> -x (attack flipped) or y -> -y."""
    out = copy.deepcopy(data)
    if axis == "x":
        out["attack"]["towards"] = "-x" if out["attack"]["towards"] == "+x" else "+x"
    index = 0 if axis == "x" else 1
    for t in out["touches"]:
        t["ball"][index] = -t["ball"][index]
        for pos in t["positions"].values():
            pos[axis] = -pos[axis]
            if axis == "x":
                pos["parts"] = {n: -v for n, v in pos.get("parts", {}).items()}
    return out


def load(data: dict[str, Any]) -> Situation:
    return situation_from_dict(data)
