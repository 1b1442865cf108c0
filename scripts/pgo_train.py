"""The training solve of setup.py's profile-guided build (run by setup.py, not by hand).

Imports the instrumented compiled core beside the package's Python (the directory on
sys.path that setup.py prepared) and runs the searches whose loops matter: every
variant's main search through the batch path (deal, search, compiled replay), the short
search, and A* with its bound and the beam on a few deals. Deterministic and on one
thread, so the same sources build the same core. About 3 s of CPU on a plain build.
"""

from __future__ import annotations

from dataclasses import asdict

from eightoff.deals import deal
from eightoff.rules import preset
from eightoff.solver import _core, core_rules, deal_layout, plan_for

# (variant, deals for the main search, deals for the short one)
WORK = (
    ("freecell", 1500, 60),
    ("eightoff", 1500, 60),
    ("eightoff-easy", 300, 20),
    ("bakers-game", 150, 20),
    ("seahaven-towers", 100, 20),
    ("double-freecell", 3, 1),
)


def main() -> None:
    for variant, main_deals, short_deals in WORK:
        rules = preset(variant)
        plan = plan_for(rules)
        for search, count in ((plan.main, main_deals), (plan.short, short_deals)):
            setup = _core.Setup(core_rules(rules), asdict(search))
            _core.solve_range(setup, deal_layout(rules), 1, count, 2_000_000, 0.0, 0)
    for variant, number, upper in (("freecell", 21, 34), ("eightoff", 3, 0)):
        p = deal(variant, number)
        table = core_rules(p.rules)
        for count, known in ((_core.COUNT_PLAYER, upper), (_core.COUNT_SINGLE, 0)):
            where = (p.columns, p.cells, p.foundations)
            _core.optimal(table, *where, count, known, 300_000, 0.0, 0)
            _core.optimal(table, *where, count, 0, 100_000, 0.0, 0, beam=400)


if __name__ == "__main__":
    main()
