"""`varroom live [--source -|tcp://host:port] [--room URL] [--json]`: alerts as a match is played."""

from __future__ import annotations

import json

import click

from varroom.cli.options import json_option, profile_option, token_option
from varroom.engine.explain import counted
from varroom.errors import InputError
from varroom.live.feed import follow, source_lines
from varroom.live.follower import Alert
from varroom.live.laws import LawAlert
from varroom.live.room import RoomError, post_situation
from varroom.live.stream import Header, LineError
from varroom.profiles import Profile


@click.command("live")
@click.option(
    "--source",
    default="-",
    show_default=True,
    help="The frame stream: - for standard input, or tcp://host:port.",
)
@click.option(
    "--room",
    metavar="URL",
    help="Queue every alert in the review room running at URL (varroom serve).",
)
@token_option("--room-token", "The review room's token, if it has one.")
@json_option("One JSON line per alert (the spec's).")
@profile_option
def live(
    source: str, room: str | None, room_token: str | None, as_json: bool, profile: Profile
) -> None:
    """Follow a live frame stream (docs/formats/frames.md) and alert on every offside offence
    the moment it is decidable, and on every penalty kick and ball over a line, as the
    competition's profile applies the Laws."""

    def on_alert(alert: Alert | LawAlert, header: Header) -> None:
        upload = alert.upload(header)
        line = alert.to_dict(upload)
        line["profile"] = profile.stamp()  # what every verdict records
        if as_json:
            click.echo(json.dumps(line, ensure_ascii=False, allow_nan=False))
        else:
            click.echo(alert.said())
        if room is not None:
            try:
                post_situation(room, upload, room_token, profile.name)
            except RoomError as error:
                click.echo(
                    f"varroom live: the review room did not take the alert: {error}", err=True
                )

    def on_invalid(error: LineError) -> None:
        click.echo(f"varroom live: {source}: {error} (skipped)", err=True)

    outcome = follow(source_lines(source), on_alert, on_invalid, source, profile)
    counts = outcome.counts
    if counts is None:
        raise InputError(source, "", "no header: nothing to follow")
    click.echo(
        f"varroom live: {outcome.match}: {counted(counts.frames, 'frame')}, "
        f"{counted(counts.moments, 'moment')} of play, {counted(len(outcome.alerts), 'alert')}; "
        f"dropped {counted(counts.duplicates, 'duplicate frame')} and "
        f"{counted(counts.late, 'late frame')}, skipped {counted(outcome.invalid_lines, 'invalid line')}.",
        err=True,
    )
