"""Golden counts: positions reachable from deal 1 of each variant at depths 1–3.

The counts were produced by scripts/golden_perft.py and reviewed by hand at depth 1
(e.g. Eight Off deal 1: 32 column-to-cell moves, 16 cell-to-cell moves and 9♣ onto
the 10♣). Any change to the rules engine that changes them must be deliberate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eightoff.deals import deal
from scripts.golden_perft import perft

GOLDEN = json.loads((Path(__file__).parent.parent / "data" / "perft.json").read_text())


@pytest.mark.parametrize("variant", sorted(GOLDEN))
def test_reachable_positions_match_the_golden_counts(variant: str) -> None:
    assert perft(deal(variant, 1), 3) == GOLDEN[variant]
