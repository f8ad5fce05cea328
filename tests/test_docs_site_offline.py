"""The documentation site is offline: every page `make docs` builds, loaded in headless
Chromium with the network blocked, asks no host but the site's own for anything (no GitHub API
for the repository's stars, no web fonts, no scripts or styles from a CDN).

The site is built here, as `make docs` builds it (`mkdocs build --strict`, about 15 s), into a
temporary folder, and served on a loopback port; every request to another host is counted and
refused. Skipped where Chromium is absent (CI installs Debian's, and there it fails instead).
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from machine import Need, chromium

pytestmark = pytest.mark.needs(Need.CHROMIUM)
CHROMIUM = chromium()

from playwright import sync_api  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
BATCH = 8  # pages open at once: each waits for its network to be idle, the waits overlap
# What a page asks for before any request is made (a connection warmed, a name looked up).
HINT = re.compile(
    r"<link\b[^>]*\brel=\"?(?:preconnect|dns-prefetch)\b[^>]*>", re.IGNORECASE | re.DOTALL
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `make docs` builds it, in a folder of its own."""
    out = tmp_path_factory.mktemp("site") / "site"
    built = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            thread.join(timeout=10)


def pages(site: Path) -> list[str]:
    """Every page's path on the site: `docs/x.md` is `x/`, the 404 page `404.html`."""
    found = []
    for page in sorted(site.rglob("*.html")):
        path = page.relative_to(site).as_posix()
        found.append(path.removesuffix("index.html"))
    return found


def test_the_built_pages_hint_at_no_other_host(site: Path) -> None:
    hints = {
        f"{page.relative_to(site)}: {hint}"
        for page in site.rglob("*.html")
        for hint in HINT.findall(page.read_text(encoding="utf-8"))
    }
    assert not hints, sorted(hints)[:10]


def test_every_page_asks_only_its_own_host(site: Path, base_url: str) -> None:
    own = urlsplit(base_url).netloc
    every = pages(site)
    assert len(every) >= 30 and "" in every and "api/engine/" in every  # the site is all there
    foreign: list[str] = []
    local: list[str] = []

    def route(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc != own:
            foreign.append(f"{route.request.frame.url if route.request.frame else '?'} -> {url}")
            route.abort("blockedbyclient")
        else:
            local.append(url)
            route.continue_()

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            context = browser.new_context(service_workers="block")
            context.route("**/*", route)
            # Requests no route sees (a worker's, a beacon's) still show as events.
            seen: list[str] = []
            context.on("request", lambda request: seen.append(request.url))
            for start in range(0, len(every), BATCH):
                opened = []
                for path in every[start : start + BATCH]:
                    page = context.new_page()
                    page.goto(f"{base_url}/{path}", wait_until="load", timeout=30_000)
                    opened.append(page)
                for page in opened:
                    page.wait_for_load_state("networkidle", timeout=30_000)
                    page.close()
            context.close()
        finally:
            browser.close()
    others = [url for url in seen if urlsplit(url).scheme in ("http", "https")]
    others = [url for url in others if urlsplit(url).netloc != own]
    assert len(local) >= len(every)  # the pages, their scripts and styles came from the site
    assert foreign == [] and others == [], (foreign + others)[:10]
