"""The solver: a proven verdict for a position of any variant.

``solve(position, limits) -> Solved | Lost | Unknown``

* ``Solved``: a solution, every move explicit (each card sent home is a move),
  legal from ``position`` in order, ending with every card home.
* ``Lost``: the search space was exhausted: a proof that no sequence of moves wins.
* ``Unknown``: a limit (time, states) stopped the search: no verdict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from eightoff.position import Move, Position

Verdict = Literal["solved", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class Limits:
    """When to give up (→ Unknown). None means no limit."""

    seconds: float | None = 60.0
    states: int | None = 5_000_000
    short: bool = False
    """Spend more effort for a shorter solution."""


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Solved:
    moves: tuple[Move, ...]
    states: int
    seconds: float
    verdict: Verdict = field(default="solved", init=False)


@dataclass(frozen=True, slots=True)
class Lost:
    states: int
    seconds: float
    verdict: Verdict = field(default="lost", init=False)
    moves: tuple[Move, ...] = field(default=(), init=False)


@dataclass(frozen=True, slots=True)
class Unknown:
    states: int
    seconds: float
    reason: str = "limit reached"
    verdict: Verdict = field(default="unknown", init=False)
    moves: tuple[Move, ...] = field(default=(), init=False)


Result = Solved | Lost | Unknown


def solve(position: Position, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Search for a win from ``position``; see the module docstring for the verdicts."""
    return _python_search(position, limits)


def _python_search(position: Position, limits: Limits) -> Result:
    """Reference depth-first search with a transposition table (slow; the compiled core
    replaces it)."""
    t0 = time.perf_counter()
    seen: set[tuple[object, ...]] = set()
    path: list[Move] = []
    states = 0
    deadline = None if limits.seconds is None else t0 + limits.seconds

    def auto(pos: Position) -> tuple[Position, list[Move]]:
        moves: list[Move] = []
        while (m := pos.safe_auto_move()) is not None:
            moves.append(m)
            pos = pos.apply_unchecked(m)
        return pos, moves

    start, first = auto(position)
    path.extend(first)
    stack: list[tuple[Position, list[tuple[Move, Position, list[Move]]], int]] = []

    def children(pos: Position) -> list[tuple[Move, Position, list[Move]]]:
        out = []
        for m in pos.legal_moves():
            if m.source.kind is m.target.kind and m.source.kind.value == "cell":
                continue
            nxt, am = auto(pos.apply_unchecked(m))
            out.append((m, nxt, am))
        out.sort(key=lambda t: -t[1].cards_home)
        return out

    if start.is_won():
        return Solved(tuple(path), 1, time.perf_counter() - t0)
    seen.add(start.key())
    stack.append((start, children(start), len(path)))
    while stack:
        pos, kids, depth = stack[-1]
        if not kids:
            stack.pop()
            continue
        m, nxt, am = kids.pop(0)
        key = nxt.key()
        if key in seen:
            continue
        seen.add(key)
        states += 1
        if limits.states is not None and states >= limits.states:
            return Unknown(states, time.perf_counter() - t0, "state limit reached")
        if deadline is not None and states % 256 == 0 and time.perf_counter() > deadline:
            return Unknown(states, time.perf_counter() - t0, "time limit reached")
        del path[depth:]
        path.append(m)
        path.extend(am)
        if nxt.is_won():
            return Solved(tuple(path), states, time.perf_counter() - t0)
        stack.append((nxt, children(nxt), len(path)))
    return Lost(states, time.perf_counter() - t0)
