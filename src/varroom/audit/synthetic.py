"""Deprecated location of the synthetic matches: use `varroom.synthetic` (removed in 0.3)."""

from __future__ import annotations

import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    from varroom.synthetic import match

    value = getattr(match, name)
    warnings.warn(
        f"varroom.audit.synthetic.{name} moved to varroom.synthetic.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return value
