"""Pictures that depend on no system font (issue 24, item 4): every text is set from a file
varroom controls (the narrow bold face shipped in the package, DejaVu Sans from matplotlib's
mpl-data), so a machine with fonts-liberation, Roboto or another DejaVu installed draws the
same picture, byte for byte, as one without.

No font file from the system is needed: the "other fonts" are made here, with fontTools (a
dependency of matplotlib), from a DejaVu Serif file renamed to every family a lookup by name
could reach (Liberation Sans Narrow, as the old code used, Roboto Condensed, DejaVu Sans...),
put first in matplotlib's font manager so that they win any lookup by name. Liberation Sans
Narrow Bold itself is added too where the machine has it (or $VARROOM_LIBERATION_NARROW names
it), as on CI, where Chromium pulls fonts-liberation in.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

import varroom
from conftest import EXAMPLES
from varroom.pictures import typeset

KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"
PENALTY = EXAMPLES / "penalty" / "wrong-kicker-indirect-free-kick-caution.json"
BALL_LINE = next(iter(sorted((EXAMPLES / "ball-line").glob("*.json"))))
SHIPPED = Path(typeset.__file__).parent / "fonts"
MPL_DATA = Path(matplotlib.get_data_path())
LIBERATION_NARROW = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf"

# Draws the pictures (the penalty screen with its long headline, Kane's broadcast picture, his
# decision picture and stadium screen), with or without the other fonts, and prints each PNG's
# SHA-256 and the files every text was set from.
SCRIPT = r"""
import hashlib, io, json, sys
from pathlib import Path

def other_fonts(folder):
    import matplotlib
    from fontTools.ttLib import TTFont
    from matplotlib import font_manager
    serif = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    made = []
    families = ["Liberation Sans Narrow", "Roboto Condensed", "DejaVu Sans",
                "DejaVu Sans Condensed", "DejaVu Sans Mono", "Liberation Sans", "Arial"]
    for family in families:
        for style, source in (("Regular", "DejaVuSerif.ttf"), ("Bold", "DejaVuSerif-Bold.ttf")):
            font = TTFont(serif / source)
            for record in font["name"].names:
                if record.nameID in (1, 16):
                    record.string = family
                elif record.nameID in (4, 6):
                    record.string = f"{family} {style}"
            path = Path(folder) / f"{family.replace(' ', '')}-{style}.ttf"
            font.save(path)
            made.append(str(path))
    made += [p for p in sys.argv[3:] if Path(p).is_file()]
    before = list(font_manager.fontManager.ttflist)
    for path in made:
        font_manager.fontManager.addfont(path)
    added = [e for e in font_manager.fontManager.ttflist if e not in before]
    # First in the list: a lookup by name takes them over matplotlib's own files.
    font_manager.fontManager.ttflist = added + before
    font_manager.fontManager._findfont_cached.cache_clear()
    return made

if sys.argv[1] == "other-fonts":
    other_fonts(sys.argv[2])

import varroom
from matplotlib.font_manager import findfont
from matplotlib.text import Text
from varroom.model.camera import look_at
from varroom.pictures import broadcast, decision, penalty, screen

def png(figure):
    buffer = io.BytesIO()
    figure.canvas.print_png(buffer)
    files = sorted({findfont(t.get_fontproperties()) for t in figure.findobj(Text)
                    if t.get_text() and t.get_visible()})
    return hashlib.sha256(buffer.getvalue()).hexdigest(), files
"""


def _run(mode: str, folder: Path, *extra: str) -> dict[str, list[object]]:
    code = SCRIPT + _DRAW
    env = {**os.environ, "MPLCONFIGDIR": str(folder / "mplconfig")}
    done = subprocess.run(
        [sys.executable, "-c", code, mode, str(folder), *extra],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    drawn: dict[str, list[object]] = json.loads(done.stdout.splitlines()[-1])
    return drawn


_DRAW = rf"""
kick = varroom.load_penalty_kick(Path({str(PENALTY)!r}))
kick_verdict = varroom.judge_penalty(kick)
kane = varroom.load_situation(Path({str(KANE)!r}))
kane_verdict = varroom.judge(kane)
camera = look_at((48, -68, 28), (47, -1, 0), 2900.0)
print(json.dumps({{
    "penalty-screen": png(penalty.draw_penalty_screen(kick, kick_verdict)),
    "broadcast": png(broadcast.draw_broadcast(kane, kane_verdict, camera)),
    "decision": png(decision.draw_decision(kane, kane_verdict)),
    "screen": png(screen.draw_screen(kane, kane_verdict)),
}}))
"""


def test_pictures_are_the_same_whatever_fonts_the_machine_has(tmp_path: Path) -> None:
    """The same PNG bytes with and without other fonts of every family a lookup could reach
    (Liberation Sans Narrow among them, the real one too where the machine has it)."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "other").mkdir()
    liberation = os.environ.get("VARROOM_LIBERATION_NARROW", LIBERATION_NARROW)
    plain = _run("plain", tmp_path / "plain")
    other = _run("other-fonts", tmp_path / "other", liberation)
    assert other == plain


def test_every_text_is_set_from_a_file_varroom_controls(tmp_path: Path) -> None:
    """Every text in the pictures is set from the shipped narrow face or matplotlib's own
    DejaVu files, even where other fonts would win a lookup by name."""
    drawn = _run("other-fonts", tmp_path)
    used = {Path(str(f)) for _, files in drawn.values() for f in files}  # type: ignore[attr-defined]
    assert used, "the pictures set no text"
    assert {
        f for f in used if not f.is_relative_to(SHIPPED) and not f.is_relative_to(MPL_DATA)
    } == set()
    assert SHIPPED / "RobotoCondensed-Bold.ttf" in used


def test_every_text_names_its_file() -> None:
    """No text of any picture asks matplotlib for a font by family name: each carries the
    file it is set from (tick labels and the legend included)."""
    from varroom.pictures import ball_line, decision, penalty, screen

    kane = varroom.load_situation(KANE)
    verdict = varroom.judge(kane)
    kick = varroom.load_penalty_kick(PENALTY)
    case = varroom.load_ball_line(BALL_LINE)
    figures: dict[str, Figure] = {
        "decision": decision.draw_decision(kane, verdict),
        "screen": screen.draw_screen(kane, verdict),
        "penalty": penalty.draw_penalty_picture(kick, varroom.judge_penalty(kick)),
        "ball-line": ball_line.draw_ball_line_view(case, varroom.judge_ball_line(case)),
    }
    unnamed = {}
    for name, figure in figures.items():
        FigureCanvasAgg(figure).draw()  # type: ignore[no-untyped-call]
        texts = [t for t in figure.findobj(Text) if t.get_text() and t.get_visible()]
        assert texts, name
        unnamed[name] = [t.get_text() for t in texts if t.get_fontproperties().get_file() is None]
    assert unnamed == {name: [] for name in figures}


def test_the_narrow_face_and_its_licence_ship_in_the_package() -> None:
    assert (SHIPPED / "RobotoCondensed-Bold.ttf").is_file()
    licence = (SHIPPED / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL Open Font License, Version 1.1" in licence
    assert licence.startswith("Copyright 2011 The Roboto Project Authors")
    digest = hashlib.sha256((SHIPPED / "RobotoCondensed-Bold.ttf").read_bytes()).hexdigest()
    assert digest == "b5144f9355fa2a666404583399b7ccffda4c9491a201e9740cd5b00656281611"


@pytest.mark.parametrize("words", ["Yılmaz", "Söyüncü", "Çalhanoğlu", "Inácio", "Immobile"])
def test_the_narrow_face_has_every_letter_of_the_names(words: str) -> None:
    from fontTools.ttLib import TTFont

    cmap = TTFont(SHIPPED / "RobotoCondensed-Bold.ttf").getBestCmap()
    assert [c for c in words.upper() + words if ord(c) not in cmap] == []
