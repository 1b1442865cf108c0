"""The code's layers: no import circle anywhere in eightoff, and the import contract of
pyproject.toml (i18n -> cards -> rules -> position -> core -> words -> solver -> store ->
services -> entry points) kept, every import counted: at the top of a module, inside a
function and under ``TYPE_CHECKING``."""

from __future__ import annotations

from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import graph's strongly connected groups of more than one module (Tarjan's
    algorithm, without recursion): each is an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        circles.append(sorted(group))
    return circles


COMPILED = ("eightoff._deals", "eightoff._join", "eightoff.solver._core")
"""The compiled extensions (Cython): grimp reads Python files only, so it takes
``from . import _core`` for an import of the package itself. They import nothing of
eightoff, so an import of one of them is an import of a leaf."""


def _with_compiled(graph: grimp.ImportGraph) -> grimp.ImportGraph:
    """The graph with each import of a compiled extension pointed at the extension
    instead of its package (when every import of the package on record names it)."""
    for ext in COMPILED:
        parent, _, name = ext.rpartition(".")
        if parent not in graph.modules:
            continue
        graph.add_module(ext)
        for importer in sorted(graph.find_modules_that_directly_import(parent)):
            details = graph.get_import_details(importer=importer, imported=parent)
            if details and all(name in d["line_contents"] for d in details):
                graph.remove_import(importer=importer, imported=parent)
                graph.add_import(importer=importer, imported=ext)
    return graph


def test_no_module_of_eightoff_is_part_of_an_import_circle() -> None:
    graph = _with_compiled(grimp.build_graph("eightoff", cache_dir=None))
    assert _circles(graph) == []


def test_an_import_of_the_package_itself_still_counts() -> None:
    """Only the imports that name a compiled extension are moved to it: a module that
    imports its own package otherwise is still in a circle."""
    graph = grimp.ImportGraph()
    graph.add_import(importer="eightoff", imported="eightoff.deals")
    graph.add_import(
        importer="eightoff.deals",
        imported="eightoff",
        line_number=1,
        line_contents="import eightoff",
    )
    assert _circles(_with_compiled(graph)) == [["eightoff", "eightoff.deals"]]


def test_the_circle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _circles(graph) == [["p.a", "p.b", "p.c"]]


def test_the_import_contract_of_pyproject_holds() -> None:
    # the same check as `uv run lint-imports` (no cache: a test run leaves no files)
    assert lint_imports(str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
