"""The `varroom` command line (`varroom.cli:main`)."""

from varroom.cli.main import main

__all__ = ["main"]
