"""The still page end to end, in headless Chromium: upload a still, mark it with the page's own
controls (clicks at the example's known pixels, one mark dragged into place), judge it, save
the marks with the incident and record a decision.

Needs Chromium, as `test_serve_e2e`; VARROOM_SCREENSHOTS keeps the
screenshots (docs/images for docs/review-room-still.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright import sync_api
from serve_in_thread import serve_in_thread

from machine import Need
from test_serve_e2e import PICTURE_S, _app, _page, browser, shots  # noqa: F401 (fixtures)

pytestmark = pytest.mark.needs(Need.CHROMIUM)

ROOT = Path(__file__).resolve().parent.parent
STILL = ROOT / "examples" / "still" / "offside-by-20cm.png"
MARKS = json.loads((ROOT / "examples" / "still" / "offside-by-20cm.marks.json").read_text())


def _click_at(page: Any, pixel: list[float], width: int) -> None:
    """Click the still at one of its own pixels, wherever the page shows it."""
    overlay = page.locator("#overlay")
    box = overlay.bounding_box()
    scale = box["width"] / width
    overlay.click(position={"x": pixel[0] * scale, "y": pixel[1] * scale})


def _drag(page: Any, start: list[float], end: list[float], width: int) -> None:
    box = page.locator("#overlay").bounding_box()
    scale = box["width"] / width
    page.mouse.move(box["x"] + start[0] * scale, box["y"] + start[1] * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + end[0] * scale, box["y"] + end[1] * scale, steps=6)
    page.mouse.up()


def test_mark_a_still_judge_it_and_record_a_decision(
    browser: Any,  # noqa: F811
    shots: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    app = _app(None, None, tmp_path / "data")
    with serve_in_thread(app) as url:
        page, errors = _page(browser)
        page.goto(url)
        page.click("#open-still")
        page.wait_for_selector("body[data-ready=true]")
        page.fill("#reviewer", "A. Referee")
        page.set_input_files("#still-file", str(STILL))
        page.wait_for_selector("#stage:not([hidden])")
        width = 1920

        # The suggestion first (OpenCV), as a reviewer would start; then cleared, and every
        # mark placed by hand.
        page.click("#suggest")
        note = page.locator("#suggest-note")
        sync_api.expect(note).to_contain_text(
            re.compile("landmarks and .* players suggested|OpenCV is not installed"),
            timeout=PICTURE_S,
        )
        page.screenshot(path=str(shots / "review-room-still-suggested.png"))
        page.click("#clear-landmarks")
        page.check("input[name=tool][value=player]")
        teams = {p["id"]: p for p in MARKS["players"]}
        for pid, mark in MARKS["marks"].items():
            page.fill("#player-id", pid)
            page.select_option("#player-team", "att" if teams[pid]["team"] == "ATT" else "def")
            page.set_checked("#player-gk", bool(teams[pid].get("goalkeeper")))
            pixel = mark["pixel"]
            if pid == "a9":  # clicked 30 px off, then dragged onto the player
                _click_at(page, [pixel[0] + 30, pixel[1] + 20], width)
                _drag(page, [pixel[0] + 30, pixel[1] + 20], pixel, width)
            else:
                _click_at(page, pixel, width)
        page.check("input[name=tool][value=ball]")
        _click_at(page, MARKS["ball"]["pixel"], width)

        page.fill("#passer", MARKS["touch"]["player"])
        page.select_option("#action", MARKS["touch"]["action"])
        page.select_option("#involved", MARKS["involved"])

        page.check("input[name=tool][value=landmark]")
        points = httpx.get(f"{url}/api/stills/pitch-points").json()
        index = {tuple(p["pitch"]): k for k, p in enumerate(points)}
        for k, landmark in enumerate(MARKS["landmarks"]):
            page.select_option("#landmark-point", str(index[tuple(landmark["pitch"])]))
            _click_at(page, landmark["pixel"], width)
            if k == 2:  # three landmarks cannot fit a camera: the fault, with its path
                page.click("#judge")
                sync_api.expect(page.locator("#error")).to_contain_text("$.landmarks")
        sync_api.expect(page.locator("#landmark-list li")).to_have_count(len(MARKS["landmarks"]))

        page.click("#judge")
        sync_api.expect(page.locator("#verdict-call")).to_have_text("OFFSIDE")
        sync_api.expect(page.locator("#verdict-reason")).to_contain_text("a9")
        page.wait_for_selector("#result:not([hidden])", timeout=PICTURE_S)
        assert page.locator("#result-img").evaluate("img => img.naturalWidth") == width
        page.locator("#result-img").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "review-room-still-judged.png"), full_page=True)

        page.click("#save")
        sync_api.expect(page.locator("#incident")).to_contain_text("Saved with incident 1")
        page.click("#decide-confirm")
        sync_api.expect(page.locator("#decision-list li")).to_contain_text(
            "A. Referee: confirm \u2192 offside"
        )
        page.locator("#decision-list").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "review-room-still-decision.png"))

        (entry,) = httpx.get(f"{url}/api/stills/1/decisions").json()
        assert (entry["decision"], entry["outcome"]) == ("confirm", "offside")
        assert entry["margin_m"] is not None and abs(entry["margin_m"] - 0.2) < 0.05
        marks = entry["marks"]
        assert len(marks["landmarks"]) == len(MARKS["landmarks"])
        a9 = marks["marks"]["a9"]["pixel"]  # where the drag left it, within a pixel or two
        assert abs(a9[0] - MARKS["marks"]["a9"]["pixel"][0]) < 2.5
        assert abs(a9[1] - MARKS["marks"]["a9"]["pixel"][1]) < 2.5
        (logged,) = httpx.get(f"{url}/api/decisions.json").json()
        assert logged["id"] == entry["id"] and logged["outcome"] == "offside"
        assert errors == [], errors
        page.close()
