"""Write tests/data/perft.json: positions reachable from deal 1 of each variant.

For depth d = 1, 2, 3: ``paths`` is the number of legal move sequences of length d
(no auto-moves), ``positions`` the number of distinct positions they reach.
Run it only when a rule change is intended, then review the diff:

    uv run python scripts/golden_perft.py
"""

from __future__ import annotations

import json
from pathlib import Path

from eightoff.deals import deal
from eightoff.position import Position
from eightoff.rules import PRESETS

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"


def perft(start: Position, depth: int) -> list[dict[str, int]]:
    """Paths and distinct positions at each depth 1..depth."""
    frontier: dict[Position, int] = {start: 1}  # position -> number of paths reaching it
    out = []
    for _ in range(depth):
        nxt: dict[Position, int] = {}
        for pos, ways in frontier.items():
            for m in pos.legal_moves():
                child = pos.apply_unchecked(m)
                nxt[child] = nxt.get(child, 0) + ways
        frontier = nxt
        out.append({"paths": sum(frontier.values()), "positions": len(frontier)})
    return out


def main() -> None:
    data = {variant: perft(deal(variant, 1), 3) for variant in PRESETS}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
