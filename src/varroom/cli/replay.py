"""`varroom replay SOURCE [--speed N] [--port P]`: a recorded match as a live frame stream.

SOURCE is a provider (kloppy's name, with its files as `varroom audit` takes them) or a
frame stream file (`.jsonl`, as `varroom replay` writes one).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from varroom.cli.match_files import match_file_options
from varroom.errors import InputError
from varroom.live.replay import (
    Timed,
    file_lines,
    listening,
    match_lines,
    paced,
    serve_lines,
    write_lines,
)
from varroom.match.load import load_match


@click.command("replay")
@click.argument("source")
@match_file_options
@click.option(
    "--speed",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Times real speed; 0 writes as fast as the reader reads.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    help="Stream to the first reader of this TCP port on 127.0.0.1, not standard output.",
)
def replay(
    source: str, speed: float, port: int | None, **files: Path | tuple[Path, ...] | None
) -> None:
    """Stream a recorded match as the live frame stream (docs/formats/frames.md): SOURCE is
    a provider with its files (--raw-data, --meta-data, ...) or a frame stream file."""
    lines = paced(_lines(source, {name: value for name, value in files.items() if value}), speed)
    if port is None:
        try:
            write_lines(lines, sys.stdout)
        except BrokenPipeError:
            # The reader stopped reading: nothing more to say, and nothing to flush at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    with listening(port) as server:
        click.echo(f"varroom replay: streaming on tcp://127.0.0.1:{port}", err=True)
        serve_lines(server, lines)


def _lines(source: str, files: dict[str, Path | tuple[Path, ...]]) -> Iterator[Timed]:
    path = Path(source)
    if not files and path.suffix in (".jsonl", ".json") and path.is_file():
        return file_lines(path)
    match = load_match(source, fast=True, **files)
    if match.frame_rate_hz is None:
        raise InputError(source, "", "freeze frames are not a frame stream: no frame rate")
    return match_lines(match)
