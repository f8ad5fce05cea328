"""Seeded synthetic matches with planted incidents and their truth: test, benchmark and demo
support, never imported on the judging path."""

from varroom.synthetic.match import SyntheticConfig, synthetic_match

__all__ = ["SyntheticConfig", "synthetic_match"]
