"""Names a package re-exports from a module it imports only when one of them is first
asked for (a module ``__getattr__``, PEP 562).

A survey never opens the table's games and never draws a report while it runs; with
their names re-exported this way, ``eightoff survey`` does not import them (about 6 ms
of a process that starts its workers only once its imports are done).  The package
still lists the names under ``TYPE_CHECKING`` for the type checker and in ``__all__``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable


def lazy_names(package: str, module: str, names: Iterable[str]) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: each of ``names`` is ``module``'s own,
    imported with its first use and then kept in the package; any other name is an
    AttributeError, as for a package without it."""
    wanted = frozenset(names)

    def __getattr__(name: str) -> object:
        if name not in wanted:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
