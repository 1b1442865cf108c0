"""The search plans: one record per family of variants, crossing into the core by name."""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, fields, is_dataclass, replace
from typing import Any

import pytest

from eightoff.deals import deal
from eightoff.rules import PRESETS
from eightoff.solver import _MOVES, Limits, Verdict, _core, core_rules, plans, solve


def names(record: Any) -> dict[str, Any]:
    """A record's field names, nested records as dicts (tuples of them left out)."""
    out: dict[str, Any] = {}
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, tuple):
            continue
        out[f.name] = names(value) if is_dataclass(value) else None
    return out


def core_names(template: dict[str, Any]) -> dict[str, Any]:
    return {k: core_names(v) if isinstance(v, dict) else None for k, v in template.items()}


def test_every_record_has_the_cores_field_names() -> None:
    """Search, Weights, DiveRules and Member name exactly the fields of plan.h's
    structs, and core_rules those of core.h's eo_rules: a field added on one side only
    would be caught here before a search ran without it."""
    core = _core.fields()
    search = plans.PLANS[plans.Family.FREECELL].main
    assert names(search) == core_names(core["search"])
    assert set(asdict(search)) - set(core["search"]) == {"portfolio"}
    assert names(search.portfolio[0]) == core_names(core["member"])
    assert names(plans.SUIT_WEIGHTS) == core_names(core["weights"])
    assert set(core_rules(PRESETS["eightoff"])) == set(core["rules"])


@pytest.mark.parametrize(
    ("variant", "family"),
    [
        ("eightoff", plans.Family.EIGHT_OFF),
        ("seahaven-towers", plans.Family.SEAHAVEN_TOWERS),
        ("eightoff-easy", plans.Family.EIGHT_OFF_EASY),
        ("bakers-game", plans.Family.BAKERS_GAME),
        ("freecell", plans.Family.FREECELL),
        ("supermove-freecell", plans.Family.FREECELL),
        ("double-freecell", plans.Family.DOUBLE_FREECELL),
    ],
)
def test_each_variant_is_searched_by_its_familys_plan(variant: str, family: plans.Family) -> None:
    rules = PRESETS[variant]
    assert plans.family(rules) is family
    assert plans.plan_for(rules) is plans.PLANS[family]
    _core.Setup(core_rules(rules), asdict(plans.plan_for(rules).main))


def test_a_house_rule_moves_a_variant_to_the_plan_it_then_resembles() -> None:
    """Baker's Game with eight cells is searched as Eight Off Easy is."""
    roomy = dataclasses.replace(PRESETS["bakers-game"], cells=8)
    assert plans.plan_for(roomy) is plans.PLANS[plans.Family.EIGHT_OFF_EASY]


def test_every_plan_ends_with_a_search_that_can_prove_a_loss() -> None:
    """Only the complete search can say "lost"; each main search runs it last."""
    for plan in plans.PLANS.values():
        assert plans.Stage.COMPLETE in plan.main.stages
        assert plan.short.stages == plans.Stage.BEST_FIRST and plan.short.shorten


def test_the_core_refuses_a_record_whose_fields_differ() -> None:
    rules = core_rules(PRESETS["freecell"])
    search = asdict(plans.PLANS[plans.Family.FREECELL].main)
    with pytest.raises(ValueError, match=r"unknown \['speed'\]"):
        _core.Setup(rules, {**search, "speed": 1})
    with pytest.raises(ValueError, match=r"search.dive: .*missing \['home_moves_first'\]"):
        dive = {k: v for k, v in search["dive"].items() if k != "home_moves_first"}
        _core.Setup(rules, {**search, "dive": dive})
    with pytest.raises(ValueError, match="portfolio member"):
        member = {**search["portfolio"][0], "greed": 3}
        _core.Setup(rules, {**search, "portfolio": (member,)})
    with pytest.raises(TypeError, match="by field name"):
        _core.Setup(tuple(rules.values()), search)  # type: ignore[arg-type]


def test_the_complete_search_cannot_be_told_to_skip_moves() -> None:
    """Purposeful steps leave moves out: a complete search over them would claim losses
    it has not proven, so the core refuses that plan."""
    rules = core_rules(PRESETS["eightoff"])
    search = asdict(plans.PLANS[plans.Family.EIGHT_OFF].main)
    with pytest.raises(ValueError, match="complete search"):
        _core.Setup(rules, {**search, "complete_steps": 2})
    _core.Setup(
        rules,
        asdict(replace(plans.PLANS[plans.Family.EIGHT_OFF].main, complete_steps=plans.Steps.DIGS)),
    )


FEW = plans.Family.FREECELL_FEW_CELLS


@pytest.mark.parametrize(
    ("variant", "cells", "family"),
    [
        ("freecell", 0, plans.Family.FREECELL_NO_CELLS),
        ("freecell", 1, FEW),
        ("freecell", 3, FEW),
        ("supermove-freecell", 2, FEW),
        ("freecell", 4, plans.Family.FREECELL),
        ("freecell", 6, plans.Family.FREECELL),
        ("double-freecell", 3, plans.Family.DOUBLE_FREECELL),
        ("bakers-game", 2, plans.Family.BAKERS_GAME),
    ],
)
def test_fewer_than_four_cells_take_the_plan_for_fewer_cells(
    variant: str, cells: int, family: plans.Family
) -> None:
    """One-pack games in alternate colours with 0-3 cells are searched by plans of their
    own (meta steps, a depth-first complete search); other cell counts and the other
    families keep theirs."""
    rules = PRESETS[variant].with_options(cells=cells)
    assert plans.family(rules) is family
    _core.Setup(core_rules(rules), asdict(plans.plan_for(rules).main))


def test_meta_orders_pack_their_kinds_and_groups() -> None:
    order = plans.meta_order(plans.Meta.TOP_HOME, (plans.Meta.HOME, plans.Meta.REPARENT))
    kinds = [(order >> (4 * i) & 15) + plans.Meta.HOME - 1 for i in range(3)]
    assert kinds == [plans.Meta.TOP_HOME, plans.Meta.HOME, plans.Meta.REPARENT]
    assert [order >> (48 + i) & 1 for i in range(3)] == [0, 0, 1]  # REPARENT joins HOME
    with pytest.raises(ValueError, match="at most 12"):
        plans.meta_order(*([plans.Meta.HOME] * 13))


@pytest.mark.parametrize(
    ("variant", "cells", "number"),
    [
        ("eightoff", None, 644),
        ("seahaven-towers", None, 21),
        ("bakers-game", None, 22),
        ("eightoff", 6, 187),
    ],
)
def test_a_depth_first_plan_proves_the_losses_the_best_first_search_proves(
    variant: str, cells: int | None, number: int
) -> None:
    """Where a plan's complete search runs depth-first, the deal is still lost, and the
    complete search, either order, its children scored or not (Search.complete_scored,
    unscored in Eight Off's plan), exhausts the very same states."""
    rules = PRESETS[variant] if cells is None else PRESETS[variant].with_options(cells=cells)
    position = deal(rules, number)
    assert solve(position, Limits()).verdict is Verdict.LOST
    entered = []
    first = plans.Order.DEPTH_FIRST
    for order, scored in ((plans.Order.BEST_FIRST, True), (first, True), (first, False)):
        search = replace(plans.plan_for(rules).main, stages=plans.Stage.COMPLETE,
                         complete_order=order, complete_scored=scored)  # fmt: skip
        status, states, _ = _core.solve(
            _core.Setup(core_rules(rules), asdict(search)),
            position.columns, position.cells, position.foundations,
            0, 0.0, 1 << 30, _MOVES, 0, None,
        )  # fmt: skip
        assert status == _core.LOST
        entered.append(states)
    assert entered[0] == entered[1] == entered[2] > 100


def test_a_member_that_begins_in_the_second_round_costs_nothing_where_another_wins_first() -> None:
    """``Member.first_round``: a best-first member that takes its first turn in round 1
    adds nothing to a deal the dive wins in round 0, and by the end of round 1 has
    searched as far as if it had begun in round 0, so no deal takes more states and
    every deal ends the same."""
    from eightoff.solver import deal_layout

    rules = PRESETS["freecell"]
    base = plans.PLANS[plans.Family.FREECELL].main
    dive = replace(base.portfolio[1], first_round=0)
    best_first = replace(base.portfolio[3], first_round=0)
    runs = {}
    for first_round in (0, 1):
        search = replace(
            base,
            portfolio=(dive, replace(best_first, first_round=first_round)),
            port_quota=50,
            stages=plans.Stage.DIVE,
        )
        setup = _core.Setup(core_rules(rules), asdict(search))
        status, visited, *_ = _core.solve_range(setup, deal_layout(rules), 1, 60, 0, 0.0, 0)
        runs[first_round] = (list(status), list(visited))
    (status_now, now), (status_later, later) = runs[0], runs[1]
    assert status_later == status_now and status_now.count(1) > 40
    assert all(b <= a for a, b in zip(now, later, strict=True))
    assert sum(later) < sum(now)  # the deals the dive won in its first turn


def test_a_member_beginning_after_round_20_is_refused_in_one_line() -> None:
    base = plans.PLANS[plans.Family.FREECELL].main
    late = replace(base, portfolio=(replace(base.portfolio[0], first_round=21),))
    with pytest.raises(ValueError, match="begins in round 0 to 20"):
        _core.Setup(core_rules(PRESETS["freecell"]), asdict(late))


def test_dives_that_share_their_states_do_not_search_again_where_another_has_been() -> None:
    """``Search.port_shared``: the portfolio's depth-first members enter their states into
    one set. Two identical dives in turns: apart, the second repeats every state of the
    first's turn before it goes further; sharing, it skips them, so the deals take fewer
    states, and each is still won, its solution replayed by the core."""
    from eightoff.solver import deal_layout

    rules = PRESETS["freecell"]
    base = plans.PLANS[plans.Family.FREECELL].main
    dive = base.portfolio[1]
    states = {}
    for shared in (False, True):
        search = replace(
            base, portfolio=(dive, dive), port_quota=50, port_shared=shared, stages=plans.Stage.DIVE
        )
        setup = _core.Setup(core_rules(rules), asdict(search))
        status, visited, *_ = _core.solve_range(setup, deal_layout(rules), 1, 60, 0, 0.0, 0)
        assert set(status) <= {1, 3}  # won (the solution replayed), or the dives gave up
        states[shared] = (list(status).count(1), sum(visited))
    (won_apart, apart), (won_shared, shared_states) = states[False], states[True]
    assert won_shared >= won_apart
    assert shared_states < 0.8 * apart


def test_a_surveys_solver_version_changes_with_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A survey stores its solver version with every row: a plan changed without the
    compiled core (here one rule of FreeCell's dive) is another version, since its
    states, times and solutions differ; the same plans give the same version."""
    from eightoff.survey import solver_version

    version = solver_version.__wrapped__  # worked out afresh (a survey's is kept)
    before = version()
    assert before == version() == solver_version()
    assert f"plans {plans.plans_id()}" in before
    freecell = plans.PLANS[plans.Family.FREECELL]
    changed = replace(freecell.main, dive=replace(freecell.main.dive, cell_to_parent_first=False))
    monkeypatch.setitem(plans.PLANS, plans.Family.FREECELL, replace(freecell, main=changed))
    assert version() != before
