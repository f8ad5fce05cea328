"""mkdocs hooks: pages that show a file kept at the repository's root (BENCHMARKS.md,
CHANGELOG.md) include it with a line `<!-- include: NAME -->`; and the JSON Schemas of the
formats are published at their `$id`s, `schemas/KIND.json` on the site (`varroom.schemas`).

The file is written to be read at the root, so its links are made right for the site:
`docs/X` becomes `X` (a page of the site), any other relative link a link to the file in the
repository. (pymdownx.snippets would include the text but leave those links broken, and a
strict build refuses broken links.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"^<!-- include: (?P<name>[\w.-]+) -->$", re.MULTILINE)
LINK = re.compile(r"\]\((?P<target>[^)#\s][^)\s]*)\)")


def _site_link(target: str, repo_url: str) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return target
    if target.startswith("docs/"):
        return target.removeprefix("docs/")
    return f"{repo_url.rstrip('/')}/blob/main/{target}"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    def include(match: re.Match[str]) -> str:
        text = (ROOT / match["name"]).read_text(encoding="utf-8")
        return LINK.sub(lambda link: f"]({_site_link(link['target'], config['repo_url'])})", text)

    return INCLUDE.sub(include, markdown)


def on_post_build(config: Any) -> None:
    from varroom.schemas import SCHEMAS

    folder = Path(config["site_dir"]) / "schemas"
    folder.mkdir(parents=True, exist_ok=True)
    for kind, build in SCHEMAS.items():
        (folder / f"{kind}.json").write_text(json.dumps(build(), indent=2) + "\n")
