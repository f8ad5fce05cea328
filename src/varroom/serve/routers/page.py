"""The room's two pages, the review room and a broadcast still: each one's body in the one
shell every page shares (`pages/shell.html`: the head, the icon, its stylesheet and script).
The static files are mounted by `create_app`."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

STATIC = Path(__file__).resolve().parent.parent / "static"
PAGES = Path(__file__).resolve().parent.parent / "pages"

router = APIRouter()


@cache
def page_html(body: str, title: str, assets: str) -> str:
    """The page whose body is `pages/<body>`, titled `title`, with `static/<assets>.css` and
    `.js`."""
    shell = Template((PAGES / "shell.html").read_text(encoding="utf-8"))
    content = (PAGES / body).read_text(encoding="utf-8")
    return shell.substitute(title=title, assets=assets, body=content)


def _page(body: str, title: str, assets: str) -> HTMLResponse:
    return HTMLResponse(page_html(body, title, assets), headers={"cache-control": "no-cache"})


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> HTMLResponse:
    return _page("review-room.html", "review room", "app")


@router.api_route("/still", methods=["GET", "HEAD"], include_in_schema=False)
async def still_page() -> HTMLResponse:
    return _page("still.html", "a still", "still")
