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


def test_no_module_of_eightoff_is_part_of_an_import_circle() -> None:
    graph = grimp.build_graph("eightoff", cache_dir=None)
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _circles(graph) == [["p.a", "p.b", "p.c"]]


def test_the_import_contract_of_pyproject_holds() -> None:
    # the same check as `uv run lint-imports` (no cache: a test run leaves no files)
    assert lint_imports(str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
