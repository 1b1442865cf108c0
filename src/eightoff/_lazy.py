"""Names a package re-exports from a module it imports only when one of them is first
asked for (a module ``__getattr__``, PEP 562).

A survey never opens the table's games and never draws a report while it runs; with
their names re-exported this way, ``eightoff survey`` does not import them (about 6 ms
of a process that starts its workers only once its imports are done).  The package
lists the names in ``__all__`` (those it does not define are the lazy ones) and imports
them under ``TYPE_CHECKING`` for the type checker.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_names(package: str, module: str) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: a name of the package's ``__all__`` that it
    does not define itself is ``module``'s own, imported with its first use and then
    kept in the package; any other name is an AttributeError, as for a package without
    it."""

    def __getattr__(name: str) -> object:
        home = sys.modules[package]
        if name not in getattr(home, "__all__", ()):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(home, name, value)
        return value

    return __getattr__
