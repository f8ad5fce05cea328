"""Every Python name of varroom the README and docs/ give exists: each dotted `varroom.x.y`
and each `from varroom.x import a, b` resolves, as a reader would type it (the package's lazy
names included). CHANGELOG.md is not read: it names what was, too."""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from docs_blocks import documents  # noqa: E402

# Not part of a path, a URL or a file name (varroom.github.io, docs/varroom.md).
DOTTED = re.compile(r"(?<![\w./-])varroom(?:\.[A-Za-z_]\w*)+(?![\w-]*/)")
FROM_IMPORT = re.compile(r"\bfrom (varroom(?:\.\w+)*) import ([\w, ]+)")
NOT_NAMES = {"varroom.github.io"}


def named() -> dict[str, str]:
    """Each name the documents give, with the first place that gives it."""
    found: dict[str, str] = {}
    for path in documents():
        where = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            names = [m.group(0) for m in DOTTED.finditer(line)]
            for m in FROM_IMPORT.finditer(line):
                names += [f"{m[1]}.{n.strip()}" for n in m[2].split(",") if n.strip()]
            for name in names:
                if name not in NOT_NAMES:
                    found.setdefault(name, f"{where}:{number}")
    return found


NAMES = named()


def resolve(dotted: str) -> object:
    """The object at `dotted`: the longest module prefix imported, the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found: object = importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name is not None and not module.startswith(error.name):
                raise  # the module exists but needs something missing: not this test's say
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(dotted)


def test_the_documents_name_python_names() -> None:
    # A regression that loses the extraction must fail here, not pass on nothing.
    assert len(NAMES) >= 40
    assert "varroom.formats.camera_json.camera_from_json" in NAMES


@pytest.mark.parametrize("name", sorted(NAMES), ids=sorted(NAMES))
def test_every_name_the_docs_give_exists(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the one-release shims
        try:
            resolve(name)
        except (ImportError, AttributeError) as error:
            pytest.fail(f"{NAMES[name]}: {name} does not exist ({error})", pytrace=False)
