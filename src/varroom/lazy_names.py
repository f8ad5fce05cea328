"""Names a package resolves on first use (PEP 562): importing the package does not import the
modules its names live in, so that each command pays only for the parts it uses (`varroom
check` on a situation loads neither the penalty engine nor matplotlib)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(
    package: str, where: Mapping[str, str], *, moved: bool = False
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`: each name of `where` (-> "module", or
    "module:name" where it is called otherwise there) is imported on first use and kept.
    With `moved` every use warns that the name now lives there (DeprecationWarning)."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        target = where.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = target.partition(":")
        value = getattr(import_module(module), attribute or name)
        if moved:
            warnings.warn(
                f"{package}.{name} is deprecated: use {module}.{attribute or name}",
                DeprecationWarning,
                stacklevel=2,
            )
        else:
            namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__
