"""Build the unseen-opponent prior (`src/varroom/engine/unseen_prior.npz`) from whole teams.

Where do defenders stand? Every frame of the SkillCorner open match 2417 (Bayern v Dortmund,
broadcast tracking) in which all eleven players of a team are in the picture (no frame shows
all 22) is kept as one sample of a whole team's shape: each player's distance from his own
goal line and across the pitch, which of them is the goalkeeper, and where the ball was.
`varroom.engine.unseen` reads these samples as the joint distribution of a team's eleven
places. A whole team in the picture is a compact team or a wide shot: the samples lean
towards teams standing close together. Run from the repository root:

    PYTHONPATH=src python bench/unseen_prior.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from varroom.match import load_match
from varroom.model.situation import FULL_TEAM

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "skillcorner-opendata-2417"
OUT = ROOT / "src" / "varroom" / "engine" / "unseen_prior.npz"


def main() -> None:
    match = load_match(
        "skillcorner", meta_data=DATA / "match_data.json", raw_data=DATA / "structured_data.json"
    )
    seen = ~np.isnan(match.players_m[:, :, 0])
    half = match.pitch.length_m / 2
    from_goal, across, keeper, ball_from_goal, ball_across = [], [], [], [], []
    for frame in range(len(match.t_s)):
        ball_x, ball_y = (float(v) for v in match.ball_m[frame, :2])
        if np.isnan(ball_x):
            continue
        for team in match.teams:
            columns = np.flatnonzero((match.player_teams == team.id) & seen[frame])
            if columns.size != FULL_TEAM:
                continue
            # The goal line this team defends, in the match's x.
            own = -match.attack_of(team.id, int(match.period[frame])).direction.sign * half
            x_m = match.players_m[frame, columns, 0].astype(float)
            from_goal.append(np.abs(x_m - own))
            across.append(match.players_m[frame, columns, 1].astype(float))
            keeper.append(match.goalkeeper[columns])
            ball_from_goal.append(abs(ball_x - own))
            ball_across.append(ball_y)
    np.savez_compressed(
        OUT,
        from_goal_m=np.round(np.array(from_goal), 2).astype(np.float32),
        across_m=np.round(np.array(across), 2).astype(np.float32),
        goalkeeper=np.array(keeper, dtype=bool),
        ball_from_goal_m=np.round(np.array(ball_from_goal), 2).astype(np.float32),
        ball_across_m=np.round(np.array(ball_across), 2).astype(np.float32),
    )
    print(f"{len(from_goal)} whole-team frames written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
