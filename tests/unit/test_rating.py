"""Deal ratings: the levels a player sees, on constructed positions and real deals."""

from __future__ import annotations

import datetime as dt
import doctest
import random
from typing import Any

import pytest

import eightoff.rating
from eightoff.deals import check_deal_number, deal
from eightoff.i18n import translate
from eightoff.position import Position
from eightoff.rating import (
    PLAYABLE_LEVELS,
    PLAYERS,
    THRESHOLDS,
    Level,
    daily_deal,
    deal_of_level,
    formula_version,
    level_of,
    player_games,
    players_of,
    rate,
    score_of,
)
from eightoff.rules import PRESETS
from eightoff.solver import _core, core_rules, solve
from tests.sketch import make

LOST_FREECELL = 11982
LOST_EIGHTOFF = 465  # one of the 16 unwinnable Eight Off deals of 1-10000 (see test_solver)


@pytest.mark.parametrize("variant", ["eightoff", "freecell", "seahaven-towers"])
def test_a_deal_won_by_sending_cards_home_is_easy(variant: str) -> None:
    # each suit in its own column, King at the bottom, Ace on top: only home moves
    suits = [" ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "CSHD"]
    columns = suits + [""] * (PRESETS[variant].columns - 4)
    start = make(variant, columns, cells=[None] * PRESETS[variant].cells)
    rating = rate(start)
    assert rating.level is Level.EASY
    assert rating.score == 1.0
    assert rating.wins == rating.runs == tuple(spec.runs for spec in PLAYERS)
    assert rating.verdict == "solved"


def test_a_position_with_no_way_out_is_not_winnable() -> None:
    # cells full of Kings and Queens, Aces at the bottom of columns built upwards
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    rating = rate(start)
    assert rating.level is Level.NOT_WINNABLE
    assert rating.verdict == "lost"
    assert "no sequence of moves wins" in str(rating.describe())
    assert "keine Zugfolge gewinnt" in translate(rating.describe(), "de")


@pytest.mark.parametrize(
    ("variant", "number"), [("freecell", LOST_FREECELL), ("eightoff", LOST_EIGHTOFF)]
)
def test_an_unwinnable_deal_is_not_winnable(variant: str, number: int) -> None:
    rating = rate(number, variant)
    assert rating.level is Level.NOT_WINNABLE
    assert rating.to_json()["level"] == "Not winnable"


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_variant_rates_its_deals(variant: str) -> None:
    rating = rate(2, variant)
    assert rating.level in Level
    assert rating.variant == variant
    assert 0.0 <= rating.score <= 1.0
    assert rating.formula == formula_version(variant)
    assert rating.to_json()["formula"] == rating.formula
    assert sum(rating.runs) == sum(spec.runs for spec in players_of(variant))


def test_bakers_game_is_also_rated_by_players_who_take_moves_back() -> None:
    rating = rate(2, "bakers-game")
    undo = [p for p in rating.to_json()["players"] if p.get("undo")]
    assert undo and all(p["played"] > 0 for p in undo)
    assert "undo" in str(rating.describe())
    assert "Zurücknehmen 300" in translate(rating.describe(), "de")
    assert not [p for p in rate(2, "eightoff").to_json()["players"] if p.get("undo")]


def test_the_formula_version_follows_the_thresholds_a_variant_uses() -> None:
    # Variants with the same thresholds give comparable ratings: the same version.
    assert THRESHOLDS["supermove-freecell"] == THRESHOLDS["freecell"]
    assert formula_version("supermove-freecell") == formula_version("freecell")
    # A variant id without thresholds of its own is rated with Eight Off's.
    assert formula_version("no-such-variant") == formula_version("eightoff")
    assert level_of(0.5, "no-such-variant") is level_of(0.5, "eightoff")
    # Every variant's version starts with the players' and score's version.
    for variant in PRESETS:
        assert formula_version(variant).split(".")[0] == eightoff.rating.FORMULA_VERSION


def test_double_freecell_scores_the_solvers_effort_too() -> None:
    """Its players never win: of two deals they get as far in, the one the solver
    needs far more states for is the harder; elsewhere only the players count."""
    easy, hard = score_of(0.1, 1_000, "double-freecell"), score_of(0.1, 200_000, "double-freecell")
    assert hard < easy
    assert level_of(hard, "double-freecell").rank > level_of(easy, "double-freecell").rank
    assert score_of(0.3, 1_000, "freecell") == score_of(0.3, 200_000, "freecell") == 0.3
    assert score_of(0.0, 300_000, "double-freecell") == 0.0  # the score stays within 0 … 1
    assert score_of(1.0, 0, "double-freecell") == 1.0
    position = deal("double-freecell", 3)
    rating = rate(position)  # rate() scores with it
    games = player_games(position)
    progress = sum(1.0 if won else home / 104 for _, won, home in games) / len(games)
    assert rating.score == pytest.approx(
        score_of(progress, rating.solver_states, "double-freecell")
    )
    assert rating.score != pytest.approx(progress)
    assert rating.level is level_of(rating.score, "double-freecell")


def test_docstring_examples() -> None:
    result = doctest.testmod(eightoff.rating, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_a_deal_has_one_rating_whoever_asks() -> None:
    by_number = rate(7, "freecell")
    by_position = rate(deal("freecell", 7))
    again = rate(7, "freecell")
    for other in (by_position, again):
        assert (other.level, other.score, other.wins) == (
            by_number.level,
            by_number.score,
            by_number.wins,
        )


def test_rating_a_position_as_another_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="is a Eight Off position, not FreeCell"):
        rate(deal("eightoff", 3), "freecell")


def test_deals_the_players_win_more_often_rate_easier() -> None:
    # ratings of a few deals: a higher score never gets a harder level
    ratings = [rate(n, "eightoff") for n in range(1, 13)]
    ordered = sorted(
        (r for r in ratings if r.level is not Level.NOT_WINNABLE), key=lambda r: -r.score
    )
    ranks = [r.level.rank for r in ordered]
    assert ranks == sorted(ranks)
    assert len({r.level for r in ratings}) >= 2  # twelve deals are not all one level


@pytest.mark.parametrize("variant", list(THRESHOLDS))
def test_thresholds_split_scores_into_the_five_levels_in_order(variant: str) -> None:
    t = THRESHOLDS[variant]
    assert list(t) == sorted(t, reverse=True)
    assert level_of(1.0, variant) is Level.EASY
    assert level_of(0.0, variant) is Level.GRANDMASTER
    levels = [level_of(s / 1000, variant) for s in range(1000, -1, -1)]
    assert [lv.rank for lv in levels] == sorted(lv.rank for lv in levels)
    assert set(levels) == set(PLAYABLE_LEVELS)


def test_every_variant_has_thresholds() -> None:
    assert set(THRESHOLDS) == set(PRESETS)


def test_level_names_parse_in_any_case() -> None:
    assert Level.parse("easy") is Level.EASY
    assert Level.parse("Grandmaster") is Level.GRANDMASTER
    assert Level.parse("not-winnable") is Level.NOT_WINNABLE
    with pytest.raises(ValueError, match="unknown difficulty 'legendary'; choose one of: Easy"):
        Level.parse("legendary")


@pytest.mark.parametrize("level", [Level.EASY, Level.GRANDMASTER])
def test_a_new_game_of_a_chosen_difficulty_has_that_rating(level: Level) -> None:
    number, rating = deal_of_level("eightoff", level, random.Random(12))
    assert rating.level is level
    assert rate(number, "eightoff").level is level


def test_a_new_game_cannot_be_asked_to_be_unwinnable() -> None:
    with pytest.raises(ValueError, match="a new game can be Easy, Medium"):
        deal_of_level("eightoff", Level.NOT_WINNABLE)


def test_daily_deal_is_the_same_for_everyone_on_a_date() -> None:
    day = dt.date(2026, 11, 30)
    number = daily_deal("eightoff", day)
    assert daily_deal("eightoff", day) == number
    assert check_deal_number(number) == number
    assert daily_deal("eightoff", day + dt.timedelta(days=1)) != number
    assert daily_deal("freecell", day) != number
    week = {daily_deal("eightoff", day + dt.timedelta(days=i)) for i in range(7)}
    assert len(week) == 7


def test_daily_deal_of_an_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown variant 'spider'"):
        daily_deal("spider", dt.date(2026, 1, 1))


def test_the_held_out_player_wins_a_deal_that_only_needs_cards_sent_home() -> None:
    suits = [" ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "CSHD"]
    start = make("freecell", [*suits, "", "", "", ""], cells=[None] * 4)
    ((won, home, _moves),) = _core.play(
        core_rules(start.rules),
        start.columns,
        start.cells,
        start.foundations,
        [(_core.PLAYER_SENSIBLE, 0, 0, 0, 400, 1)],
    )
    assert won and home == 52


def test_a_stuck_player_stops_and_reports_its_cards_home() -> None:
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    results = _core.play(
        core_rules(start.rules),
        start.columns,
        start.cells,
        start.foundations,
        [(_core.PLAYER_LOOKAHEAD, 1, 6, 20, 400, 1), (_core.PLAYER_SENSIBLE, 0, 0, 0, 400, 1)],
    )
    for won, home, moves in results:
        assert not won and home == 0
        assert moves <= 8  # a few tens onto jacks, then nothing new


def _play(position: Position, *players: tuple[int, int, int, int, int, int]) -> list[Any]:
    return _core.play(
        core_rules(position.rules),
        position.columns,
        position.cells,
        position.foundations,
        list(players),
    )


def test_the_patient_player_undoes_its_way_to_wins_the_sensible_player_misses() -> None:
    deals = [deal("bakers-game", n) for n in range(1, 31)]
    lost = {n for n, p in enumerate(deals, 1) if solve(p).verdict == "lost"}
    sensible: set[int] = set()
    short: set[int] = set()
    long: set[int] = set()
    for n, position in enumerate(deals, 1):
        one, few, many = _play(
            position,
            (_core.PLAYER_SENSIBLE, 0, 0, 0, 400, n),
            (_core.PLAYER_PATIENT, 0, 0, 0, 200, n),
            (_core.PLAYER_PATIENT, 0, 0, 0, 5000, n),
        )
        assert few[2] <= 200 and many[2] <= 5000  # its patience: moves made, undone or not
        for wins, (won, home, _) in ((sensible, one), (short, few), (long, many)):
            if won:
                assert home == 52
                wins.add(n)
    assert not long & lost  # it wins only deals that can be won
    assert short <= long  # more patience loses no win: the same lines, tried further
    assert len(long) > len(sensible) + 5


def test_a_stuck_patient_player_tries_every_line_and_stops() -> None:
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    ((won, home, moves),) = _play(start, (_core.PLAYER_PATIENT, 0, 0, 0, 100_000, 1))
    assert not won and home == 0
    assert moves < 100  # every line tried long before its patience ran out
