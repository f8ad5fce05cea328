"""`varroom profiles list|show`: the competition profiles every command can judge under."""

from __future__ import annotations

import click

from varroom.profiles import builtin_names, builtin_profile, load_profile
from varroom.profiles.toml_text import profile_to_toml


@click.group()
def profiles() -> None:
    """The competition profiles: how a competition applies the Laws (docs/formats/profile.md)."""


@profiles.command("list")
def list_profiles() -> None:
    """The built-in profiles: name, version, hash and where their choices come from."""
    for name in builtin_names():
        profile = builtin_profile(name)
        click.echo(f"{profile.name}\t{profile.version}\t{profile.sha256[:12]}\t{profile.source}")


@profiles.command()
@click.argument("profile", metavar="NAME|FILE")
def show(profile: str) -> None:
    """Print a profile as TOML, every setting stated: a starting point for a competition's own
    file (`--profile FILE`)."""
    click.echo(profile_to_toml(load_profile(profile)), nl=False)
