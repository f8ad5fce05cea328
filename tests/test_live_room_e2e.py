"""`varroom live --room` into an open review room, in real headless Chromium: the alert shows
in the page the moment it is queued (server-sent events, the page's 5 s poll switched off),
and a reviewer decides it.

Skipped only where Chromium is absent (CI installs Debian's).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from machine import Need, chromium

pytestmark = pytest.mark.needs(Need.CHROMIUM)
CHROMIUM = chromium()

import httpx  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from playwright import sync_api  # noqa: E402
from serve_in_thread import serve_in_thread  # noqa: E402

from varroom.cli.main import cli  # noqa: E402
from varroom.live.replay import match_lines  # noqa: E402
from varroom.serve import create_app  # noqa: E402
from varroom.synthetic.match import SyntheticConfig, synthetic_match  # noqa: E402

# No polling: an item that appears came by the room's event stream.
NO_POLL = "window.setInterval = ((set) => (fn, ms) => (ms >= 5000 ? 0 : set(fn, ms)))(window.setInterval);"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield browser
        browser.close()


def test_a_live_alert_shows_in_the_open_room_at_once_and_is_decided(
    browser: Any, tmp_path: Path
) -> None:
    match = synthetic_match(
        SyntheticConfig(seed=5, period_s=240.0, incidents_per_kind=1, with_events=False)
    ).match
    stream = "".join(line + "\n" for _, _, line in match_lines(match))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(None, None, tmp_path / "data", prewarm_render=True)
    with serve_in_thread(app) as url:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.set_default_timeout(20_000)
        page.add_init_script(NO_POLL)
        page.goto(url)
        page.wait_for_selector("#conn.ok")
        page.fill("#reviewer", "A. Referee")
        page.locator("#reviewer").blur()
        sync_api.expect(page.locator(".queue-item")).to_have_count(0)

        result = CliRunner().invoke(cli, ["live", "--json", "--room", url], input=stream)
        assert result.exit_code == 0, result.stderr
        alerts = result.stdout.splitlines()  # every alert is queued, whatever its kind
        assert sum('"decision": "offside"' in line for line in alerts) >= 2

        sync_api.expect(page.locator(".queue-item")).to_have_count(len(alerts), timeout=3_000)
        page.locator(".queue-item").first.click()
        sync_api.expect(page.locator("#verdict-call")).to_have_text("OFFSIDE")
        page.keyboard.press("c")
        page.keyboard.press("Enter")
        sync_api.expect(page.locator("#incident-log tr").first).to_contain_text("A. Referee")
        entries = httpx.get(f"{url}/api/decisions.json").json()
        assert [(e["reviewer"], e["decision"], e["outcome"]) for e in entries] == [
            ("A. Referee", "confirm", "offside")
        ]
        page.close()
