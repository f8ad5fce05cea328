"""`varroom examples [--copy DIR]`: the situations and the match sample shipped with varroom.

Where they are found: a wheel carries them inside the package, in `varroom/_data/examples/`
and `varroom/_data/samples/` (pyproject's `force-include`), read through importlib.resources
so that an installed varroom needs no checkout. An editable install (a checkout) has no
`_data`: it reads the repository's own `examples/` and `samples/` folders, two levels above
`src/varroom/`, so that editing an example needs no rebuild.

`--copy DIR` writes `DIR/examples/` and `DIR/samples/` with the repository's layout, so that
every command the documentation writes (`varroom check examples/...`) works the same in a
checkout and in a folder the examples were copied to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath

import click

from varroom.cli.options import FOLDER
from varroom.errors import VarroomError
from varroom.output_file import write_atomically

FOLDERS = ("examples", "samples")


@dataclass(frozen=True, slots=True)
class Shipped:
    """One shipped file: where it goes under the copy folder and where to read it."""

    relative: PurePosixPath  # e.g. examples/only-arm-beyond-onside.json
    source: Traversable


def data_root() -> Traversable:
    """The folder holding `examples/` and `samples/`: the wheel's `varroom/_data`, else the
    checkout's root (editable install)."""
    packaged = files("varroom") / "_data"
    if packaged.is_dir():
        return packaged
    checkout = Path(str(files("varroom"))).resolve().parents[1]
    if all((checkout / folder).is_dir() for folder in FOLDERS):
        return checkout
    raise VarroomError(
        "the shipped examples are missing: neither varroom/_data (a wheel) nor "
        f"examples/ and samples/ beside src/ (a checkout) under {checkout}"
    )


def shipped_files(root: Traversable | None = None) -> list[Shipped]:
    """Every shipped file, examples first, in name order."""
    root = data_root() if root is None else root
    found: list[Shipped] = []

    def walk(folder: Traversable, relative: PurePosixPath) -> None:
        for entry in sorted(folder.iterdir(), key=lambda item: item.name):
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            if entry.is_dir():
                walk(entry, relative / entry.name)
            else:
                found.append(Shipped(relative / entry.name, entry))

    for folder in FOLDERS:
        walk(root / folder, PurePosixPath(folder))
    return found


# What each kind of example file is for, when its `meta` names no Law paragraph.
_KIND_LABEL = {
    "penalty_kick": "Law 14, a penalty kick",
    "ball_line": "Laws 9 and 10, the ball over the line",
    "still_marks": "marks on a broadcast still, for varroom still",
}


def _label(source: Traversable) -> str:
    """What an example shows: its `meta.law`, else what its kind is for."""
    document = json.loads(source.read_text(encoding="utf-8"))
    meta = document.get("meta", {}) if isinstance(document, dict) else {}
    law = meta.get("law") if isinstance(meta, dict) else None
    if isinstance(law, str) and law:
        return f"Law {law}"
    kind = document.get("kind") if isinstance(document, dict) else None
    return _KIND_LABEL.get(kind, "") if isinstance(kind, str) else ""


def copy_examples(target: Path, items: list[Shipped]) -> list[Path]:
    """Copy `items` under `target`; a file already there with other content is an error and
    nothing is written (identical files are left as they are, so copying twice is fine)."""
    plan: list[tuple[Path, bytes]] = []
    for item in items:
        destination = target.joinpath(*item.relative.parts)
        content = item.source.read_bytes()
        if destination.exists():
            if destination.is_file() and destination.read_bytes() == content:
                continue
            raise VarroomError(f"cannot copy the examples: {destination} exists and differs")
        plan.append((destination, content))
    for destination, content in plan:
        try:
            destination.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VarroomError(
                f"cannot copy the examples: {destination.parent}: {exc.strerror or exc}"
            ) from None
        write_atomically(destination, "example", lambda stream, data=content: stream.write(data))
    return [destination for destination, _ in plan]


@click.command()
@click.option(
    "--copy",
    "copy_to",
    type=FOLDER,
    metavar="DIR",
    help="Copy them into DIR/examples/ and DIR/samples/ (DIR is created).",
)
def examples(copy_to: Path | None) -> None:
    """The example situations and the match sample shipped with varroom."""
    root = data_root()
    items = shipped_files(root)
    if copy_to is not None:
        written = copy_examples(copy_to, items)
        click.echo(
            f"Copied {len(written)} files into {copy_to / 'examples'} and "
            f"{copy_to / 'samples'} ({len(items) - len(written)} already there)."
        )
        return
    situations = [
        i for i in items if i.relative.parts[0] == "examples" and i.relative.suffix == ".json"
    ]
    click.echo(f"Examples, for varroom check and varroom still (in {root / 'examples'}):")
    for item in situations:
        click.echo(f"  {item.relative}  [{_label(item.source)}]")
    samples = sorted({i.relative.parts[1] for i in items if i.relative.parts[0] == "samples"})
    click.echo(f"Match samples, for varroom audit (in {root / 'samples'}; each with its licence):")
    for sample in samples:
        names = [i.relative.name for i in items if i.relative.parts[:2] == ("samples", sample)]
        click.echo(f"  samples/{sample}/  {', '.join(names)}")
    click.echo("Copy them to a folder of your own: varroom examples --copy DIR")
