"""Reading a penalty kick (format version 1, `shared/spec/penalty.md`) from JSON, and telling
a penalty-kick file from a situation by its `kind`.

Every fault is an `InputError` naming the file and the JSON path, as for situations; pitch,
players, attack, positions and tracking are read exactly as a situation's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from varroom.formats.json_text import FileReader, TextReader, file_reader, text_reader
from varroom.formats.situation_json import (
    SituationReader,
    player_dict,
    position_dict,
    tracking_dict,
)
from varroom.model.noise_defaults import STATED_NOISE, NoiseDefaults
from varroom.model.penalty import DoubleTouch, KickResult, PenaltyCall, PenaltyFacts, PenaltyKick
from varroom.model.situation import Player

KIND = "penalty_kick"
# The keys the format names (docs/formats/penalty-kick.md); a slip of one is an error.
ROOT_KEYS = (
    "kind",
    "pitch",
    "players",
    "attack",
    "kick",
    "positions",
    "result",
    "ball_after",
    "facts",
    "on_field",
    "meta",
    "tracking",
)
FACT_KEYS = tuple(field.name for field in dataclasses.fields(PenaltyFacts))


def penalty_kick_from_dict(
    data: Any, source: str = "<penalty kick>", noise: NoiseDefaults = STATED_NOISE
) -> PenaltyKick:
    """Build a penalty kick from already-parsed JSON, checking every field; `noise` is taken
    where the file does not state its tracking's."""
    return _PenaltyReader(source, noise).penalty_kick(data)


load_penalty_kick: FileReader[PenaltyKick] = file_reader(penalty_kick_from_dict, "penalty kick")
"""`load_penalty_kick(path)`: read and check a penalty-kick file."""
parse_penalty_kick: TextReader[PenaltyKick] = text_reader(penalty_kick_from_dict, "penalty kick")
"""`parse_penalty_kick(text, source="<penalty kick>")`: the penalty kick JSON text describes,
checked."""


class _PenaltyReader(SituationReader):
    def penalty_kick(self, data: Any) -> PenaltyKick:
        root = self.object(data, "$")
        self.check_kind(root, KIND, required=True)
        self.known_keys(root, "$", ROOT_KEYS)
        pitch = self.pitch(root.get("pitch"))
        line_width = self.positive(
            self.object(root.get("pitch", {}), "$.pitch").get("line_width", 0.12),
            "$.pitch.line_width",
        )
        players = self.players(self.required(root, "players", "$"))
        teams = self.two_teams(players)
        attacking_team, direction = self.attack(root.get("attack"), teams)
        kick = self.object(self.required(root, "kick", "$"), "$.kick")
        self.known_keys(kick, "$.kick", ("t", "kicker", "identified_kicker", "ball"))
        kicker = self.kicker(
            self.required(kick, "kicker", "$.kick"), "$.kick.kicker", players, attacking_team
        )
        identified = self.kicker(
            kick.get("identified_kicker", kicker),
            "$.kick.identified_kicker",
            players,
            attacking_team,
        )
        ball = self.point(self.required(kick, "ball", "$.kick"), "$.kick.ball", (2, 3))
        self.on_the_pitch(ball[0], ball[1], pitch, "$.kick.ball", "the ball")
        positions_obj = self.object(self.required(root, "positions", "$"), "$.positions")
        positions = {
            self.player_ref(pid, "$.positions", players): self.position(
                pos, f"$.positions.{pid}", pitch
            )
            for pid, pos in positions_obj.items()
        }
        self.keeper_placed(players, positions, attacking_team)
        after = root.get("ball_after")
        ball_after = None if after is None else self.point(after, "$.ball_after", (2, 3))
        return PenaltyKick(
            pitch=pitch,
            attacking_team=attacking_team,
            attack_direction=direction,
            players=players,
            t_s=self.number(self.required(kick, "t", "$.kick"), "$.kick.t"),
            kicker=kicker,
            identified_kicker=identified,
            ball_m=(ball[0], ball[1], ball[2] if len(ball) == 3 else 0.0),
            positions=positions,
            result=self.choice(KickResult, self.required(root, "result", "$"), "$.result"),
            ball_after_m=None if ball_after is None else (ball_after[0], ball_after[1]),
            facts=self.facts(root.get("facts"), players),
            line_width_m=line_width,
            on_field_decision=self.on_field(root.get("on_field"), PenaltyCall),
            meta=dict(self.object(root.get("meta", {}), "$.meta")),
            tracking=self.tracking(
                root.get("tracking"), any(pos.parts for pos in positions.values())
            ),
        )

    def keeper_placed(
        self, players: Mapping[str, Player], positions: Mapping[str, object], attacking_team: str
    ) -> None:
        """Law 14 judges the defending goalkeeper's feet against his line: a kick without him
        is a fact missing, never "the penalty was taken correctly" (issue 28)."""
        keepers = [p.id for p in players.values() if p.goalkeeper and p.team != attacking_team]
        if not keepers:
            raise self.fail(
                "$.players",
                'no player of the defending team is the goalkeeper ("goalkeeper": true)',
            )
        if not any(pid in positions for pid in keepers):
            raise self.fail(
                "$.positions", f"no position for the defending goalkeeper {keepers[0]!r}"
            )

    def kicker(
        self, value: Any, where: str, players: Mapping[str, Player], attacking_team: str
    ) -> str:
        player_id = self.player_ref(value, where, players)
        if players[player_id].team != attacking_team:
            raise self.fail(where, f"{player_id!r} is not of the kicking team {attacking_team!r}")
        return player_id

    def facts(self, value: Any, players: Mapping[str, Player]) -> PenaltyFacts:
        obj = self.object({} if value is None else value, "$.facts")
        self.known_keys(obj, "$.facts", FACT_KEYS)

        def flag(name: str, default: bool = False) -> bool:
            return self.boolean(obj.get(name, default), f"$.facts.{name}")

        double = obj.get("double_touch")
        involved = self.array(obj.get("encroacher_involved", []), "$.facts.encroacher_involved")
        return PenaltyFacts(
            feint_after_run_up=flag("feint_after_run_up"),
            keeper_touching_frame=flag("keeper_touching_frame"),
            keeper_facing_kicker=flag("keeper_facing_kicker", True),
            clearly_affected_kicker=flag("clearly_affected_kicker"),
            clearly_affected_keeper=flag("clearly_affected_keeper"),
            keeper_warned_before=flag("keeper_warned_before"),
            shootout=flag("shootout"),
            double_touch=None
            if double is None
            else self.choice(DoubleTouch, double, "$.facts.double_touch"),
            encroacher_involved=frozenset(
                self.player_ref(pid, f"$.facts.encroacher_involved[{i}]", players)
                for i, pid in enumerate(involved)
            ),
        )


def penalty_kick_to_dict(kick: PenaltyKick) -> dict[str, Any]:
    """A penalty kick in the format: what `penalty_kick_from_dict` reads back to an equal kick
    (the audit's kicks, queued in the review room). Players, positions and tracking are
    written as a situation's."""
    facts = kick.facts
    data: dict[str, Any] = {
        "kind": KIND,
        "pitch": {
            "length": kick.pitch.length_m,
            "width": kick.pitch.width_m,
            "line_width": kick.line_width_m,
        },
        "attack": {"team": kick.attacking_team, "towards": kick.attack_direction.value},
        "players": [player_dict(p) for p in kick.players.values()],
        "kick": {
            "t": kick.t_s,
            "kicker": kick.kicker,
            "identified_kicker": kick.identified_kicker,
            "ball": list(kick.ball_m),
        },
        "positions": {pid: position_dict(pos) for pid, pos in kick.positions.items()},
        "result": kick.result.value,
        "facts": {
            "feint_after_run_up": facts.feint_after_run_up,
            "keeper_touching_frame": facts.keeper_touching_frame,
            "keeper_facing_kicker": facts.keeper_facing_kicker,
            "clearly_affected_kicker": facts.clearly_affected_kicker,
            "clearly_affected_keeper": facts.clearly_affected_keeper,
            "keeper_warned_before": facts.keeper_warned_before,
            "shootout": facts.shootout,
            "double_touch": None if facts.double_touch is None else facts.double_touch.value,
            "encroacher_involved": sorted(facts.encroacher_involved),
        },
        "tracking": tracking_dict(kick.tracking),
        "meta": dict(kick.meta),
    }
    if kick.ball_after_m is not None:
        data["ball_after"] = list(kick.ball_after_m)
    if kick.on_field_decision is not None:
        data["on_field"] = {"decision": kick.on_field_decision}
    return data
