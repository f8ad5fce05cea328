"""Strict formats (issue 28): a typo is an error, never a different verdict. Each case the
issue found accepted with exit 0 is refused with exit 2, one line naming the file and the
field; and any single-character slip in any key of any example is refused or changes nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import varroom
from varroom.cli.main import cli
from varroom.engine.ball_line import judge_ball_line
from varroom.engine.penalty import judge_penalty
from varroom.errors import InputError
from varroom.formats.load import case_from_dict
from varroom.model.ball_line import BallLineCase
from varroom.model.penalty import PenaltyKick
from varroom.still.judge import judge_still
from varroom.still.marks import marks_from_dict

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"
PENALTY = EXAMPLES / "penalty" / "legal-penalty-saved.json"
BALL_LINE = EXAMPLES / "ball-line" / "goal-by-millimetres.json"
STILL = EXAMPLES / "still" / "offside-by-20cm"


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def varroom_cli(*args: str | Path) -> Ran:
    """The command line, as `varroom` runs it (an uncaught exception fails the test)."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def written(tmp_path: Path, data: dict[str, Any], name: str = "case.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def refused(result: Ran, where: str, says: str) -> None:
    """Exit 2, one line naming the field, no traceback."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f": {where}: " in lines[0] or f"{where} " in lines[0], lines[0]
    assert says in lines[0], lines[0]


def kane() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(KANE.read_text())
    return data


@pytest.mark.parametrize(("typed", "meant"), [("ofside", "offside"), ("gaol", "goal")])
def test_a_misspelt_on_field_call_is_refused_not_read_as_another(
    tmp_path: Path, typed: str, meant: str
) -> None:
    """ "ofside" under --policy confidence:0.95 turned OFFSIDE into NO OFFSIDE OFFENCE."""
    data = kane()
    data["on_field"]["decision"] = typed
    result = varroom_cli("check", written(tmp_path, data), "--policy", "confidence:0.95")
    refused(result, "$.on_field.decision", f"did you mean {meant!r}?")


def _renamed(data: dict[str, Any], path: tuple[str | int, ...], new: str) -> dict[str, Any]:
    out = copy.deepcopy(data)
    parent: Any = out
    for step in path[:-1]:
        parent = parent[step]
    parent[new] = parent.pop(path[-1])
    return out


@pytest.mark.parametrize(
    ("path", "typed", "where", "meant"),
    [
        (("on_field",), "onfield", "$.onfield", "on_field"),
        (("players", 0, "goalkeeper"), "goalkeper", "$.players[0].goalkeper", "goalkeeper"),
        (("pitch", "length"), "lenght", "$.pitch.lenght", "length"),
        (("touches", 0, "positions", "kane", "x"), "xx", "$.touches[0].positions.kane.xx", "x"),
    ],
)
def test_a_misspelt_key_is_refused_with_the_key_it_means(
    tmp_path: Path, path: tuple[str | int, ...], typed: str, where: str, meant: str
) -> None:
    data = kane()
    if path == ("pitch", "length"):
        data["pitch"] = {"length": 105.0, "width": 68.0}
    if path[:2] == ("players", 0):
        data["players"][0]["goalkeeper"] = data["players"][0].get("goalkeeper", False)
    result = varroom_cli("check", written(tmp_path, _renamed(data, path, typed)))
    refused(result, where, f"did you mean {meant!r}?")


@pytest.mark.parametrize(
    ("source", "kind", "says"),
    [
        (KANE, "situaton", "did you mean 'situation'?"),
        (BALL_LINE, "ball-line", "did you mean 'ball_line'?"),
        (PENALTY, "penalty", "did you mean 'penalty_kick'?"),
        (KANE, "offside", "the kinds are situation, penalty_kick, ball_line, still_marks"),
    ],
)
def test_an_unknown_kind_names_the_kinds_there_are(
    tmp_path: Path, source: Path, kind: str, says: str
) -> None:
    """A ball line with "kind": "ball-line" was read as a situation: "$.players: missing"."""
    data = json.loads(source.read_text())
    data["kind"] = kind
    refused(varroom_cli("check", written(tmp_path, data)), "$.kind", says)


def test_a_file_of_another_kind_says_which_command_reads_it(tmp_path: Path) -> None:
    marks = STILL.with_suffix(".marks.json")
    refused(varroom_cli("check", marks), "$.kind", "`varroom still IMAGE --marks FILE` reads")
    # A situation given to `varroom still`: told by its touches.
    refused(
        varroom_cli("still", STILL.with_suffix(".png"), "--marks", KANE),
        "$.kind",
        "reads as a situation file, which `varroom check FILE` reads",
    )


def test_a_format_1_1_file_without_attack_is_read_by_its_default_said_aloud(
    tmp_path: Path,
) -> None:
    data = kane()
    data.pop("attack")
    data["version"] = "1.1"
    result = varroom_cli("check", written(tmp_path, data), "--json")
    assert result.returncode == 0, result.stderr
    (warning,) = result.stderr.strip().splitlines()
    assert warning.startswith("varroom: warning: ") and "$.attack: missing" in warning
    assert "towards +x" in warning
    data["version"] = "1.2"
    refused(varroom_cli("check", written(tmp_path, data)), "$.attack", "missing")


def test_a_key_of_a_files_own_is_ignored_as_the_spec_says_but_said_aloud(
    tmp_path: Path,
) -> None:
    """shared/spec/situation.md: "extra keys are ignored, not errors"; issue 28: nothing is
    ignored silently. A key far from every name the format has: read, the verdict unchanged,
    one warning naming the file and the key."""
    before = json.loads(varroom_cli("check", KANE, "--json").stdout)
    data = kane()
    data["commentary"] = "a note of the file's own"
    data["touches"][0]["camera_angle"] = "high"
    path = written(tmp_path, data)
    result = varroom_cli("check", path, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == before
    assert result.stderr.strip().splitlines() == [
        f"varroom: warning: {path}: $.commentary: not a key of the format, ignored "
        "(a file's own notes belong in $.meta)",
        f"varroom: warning: {path}: $.touches[0].camera_angle: not a key of the format, "
        "ignored (a file's own notes belong in $.meta)",
    ]
    data.pop("commentary")
    data["touches"][0].pop("camera_angle")
    data["meta"] = {**data.get("meta", {}), "commentary": "in its place"}
    quiet = varroom_cli("check", written(tmp_path, data), "--json")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_an_attacker_missing_at_the_play_he_later_plays_is_undecidable_not_onside() -> None:
    """Kane dropped from the header's positions, though he shoots 0.65 s later: was "no
    attacker was in an offside position"."""
    data = kane()
    header = next(i for i, t in enumerate(data["touches"]) if t["action"] == "header")
    del data["touches"][header]["positions"]["kane"]
    verdict = varroom.judge(case_from_dict(data, "kane.json"))  # type: ignore[arg-type]
    assert verdict.status.value == "undecidable"
    assert "Kane was not in the data" in verdict.reason
    assert "no attacker was in an offside position" not in verdict.reason


def test_a_penalty_kick_needs_the_goalkeeper(tmp_path: Path) -> None:
    """Without his position the verdict was "the penalty was taken correctly. No goal."."""
    data = json.loads(PENALTY.read_text())
    keeper = next(p["id"] for p in data["players"] if p.get("goalkeeper"))
    del data["positions"][keeper]
    refused(varroom_cli("check", written(tmp_path, data)), "$.positions", repr(keeper))
    for player in data["players"]:
        player.pop("goalkeeper", None)
    refused(varroom_cli("check", written(tmp_path, data)), "$.players", "goalkeeper")


def test_a_picture_is_written_as_its_name_says_or_refused(tmp_path: Path) -> None:
    """`--image x.jpg` wrote PNG bytes into x.jpg, while `--screen x.gif` was refused."""
    jpeg, svg = tmp_path / "x.jpg", tmp_path / "x.svg"
    result = varroom_cli("check", KANE, "--image", jpeg, "--screen", svg)
    assert result.returncode == 0, result.stderr
    with Image.open(jpeg) as image:
        assert image.format == "JPEG"
    assert svg.read_text().lstrip().startswith("<?xml")
    for option, name in (("--screen", "x.gif"), ("--clip", "x.png"), ("--scene", "x.json")):
        result = varroom_cli("check", KANE, option, tmp_path / name)
        refused(result, option, "written as")
        assert not (tmp_path / name).exists()
    refused(
        varroom_cli(
            "still",
            STILL.with_suffix(".png"),
            "--marks",
            STILL.with_suffix(".marks.json"),
            "--image",
            tmp_path / "x.gif",
        ),
        "--image",
        "written as",
    )


def test_an_unknown_provider_is_named_not_the_file(tmp_path: Path) -> None:
    raw = written(tmp_path, {}, "x.json")
    result = varroom_cli("audit", "foo", "--raw-data", raw)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("varroom: provider 'foo': unknown")
    assert "skillcorner" in line and str(raw) not in line


# -- any slip of any key ----------------------------------------------------------------------

EXAMPLE_FILES = sorted(
    p
    for p in EXAMPLES.rglob("*.json")
    if p.parent.name in ("examples", "penalty", "ball-line", "still")
)


def _key_paths(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every key of every object in a file, but those inside `meta` (free-form)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            if key != "meta":
                yield from _key_paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _key_paths(value, (*path, i))


def _verdict(data: Any, source: Path) -> dict[str, Any]:
    if data.get("kind") == "still_marks":
        with Image.open(source.with_name(source.name.replace(".marks.json", ".png"))) as image:
            size = image.size
        return judge_still(marks_from_dict(data, size, str(source))).to_dict()
    case = case_from_dict(data, str(source))
    if isinstance(case, PenaltyKick):
        return judge_penalty(case).to_dict()
    if isinstance(case, BallLineCase):
        return judge_ball_line(case).to_dict()
    return varroom.judge(case).to_dict()


def _slip(word: str, at: int, letter: str, how: str) -> str:
    at = at % (len(word) + 1)
    if how == "insert":
        return word[:at] + letter + word[at:]
    at = min(at, len(word) - 1)
    if how == "delete":
        return word[:at] + word[at + 1 :]
    if how == "change":
        return word[:at] + letter + word[at + 1 :]
    at = min(at, len(word) - 2)  # swap two neighbours
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :] if len(word) > 1 else word


@dataclass(frozen=True)
class Slip:
    """An example with one key slipped: a letter put in, taken out, changed, or two swapped."""

    source: Path
    data: dict[str, Any]
    mangled: dict[str, Any]
    path: tuple[str | int, ...]
    slipped: str


def one_slip(
    data: dict[str, Any],
) -> st.SearchStrategy[tuple[dict[str, Any], tuple[str, ...]] | None]:
    """A copy of `data` with one key slipped, and the slipped key's path (None where the edit
    leaves the key as it was, or names a key its object already has)."""

    @st.composite
    def slipped(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, ...]] | None:
        paths = list(_key_paths(data))
        path = paths[draw(st.integers(0, len(paths) - 1))]
        key = str(path[-1])
        new = _slip(
            key,
            draw(st.integers(0, 40)),
            draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz_")),
            draw(st.sampled_from(["insert", "delete", "change", "swap"])),
        )
        mangled = copy.deepcopy(data)
        target: Any = mangled
        for step in path[:-1]:
            target = target[step]
        if new == key or new in target or not new:
            return None
        target[new] = target.pop(key)
        return mangled, tuple(str(step) for step in (*path[:-1], new))

    return slipped()


@st.composite
def slips(draw: st.DrawFn) -> Slip | None:
    """A slip of any key of any example (`one_slip`)."""
    source = draw(st.sampled_from(EXAMPLE_FILES))
    data = json.loads(source.read_text())
    slip = draw(one_slip(data))
    if slip is None:
        return None
    mangled, path = slip
    return Slip(source, data, mangled, path, path[-1])


@settings(max_examples=120, deadline=None)
@given(slips())
def test_a_slip_in_any_key_of_any_example_is_refused_or_changes_nothing(
    slip: Slip | None,
) -> None:
    if slip is None:
        return
    before = _verdict(slip.data, slip.source)
    try:
        after = _verdict(slip.mangled, slip.source)
    except InputError:
        return
    assert after == before, (slip.path, slip.slipped)
