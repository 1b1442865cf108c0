"""The four lessons: in order, each completable in a few moves, each needing its rule."""

from __future__ import annotations

import pytest

from eightoff.cards import Card
from eightoff.explain import lesson_text
from eightoff.game import Game
from eightoff.lessons import LESSONS, Lesson, LessonError, lesson, next_lesson
from eightoff.position import IllegalMoveError, Kind, Move, Position
from eightoff.solver import Limits, solve


def useful(pos: Position) -> list[Move]:
    return [
        m
        for m in pos.legal_moves()
        if not (m.source.kind is Kind.CELL and m.target.kind is Kind.CELL)
    ]


def test_four_lessons_in_the_order_of_the_issue() -> None:
    assert [les.id for les in LESSONS] == [1, 2, 3, 4]
    titles = [lesson_text(les).title.lower() for les in LESSONS]
    assert "suit" in titles[0]
    assert "cell" in titles[1]
    assert "free cells + one" in titles[2]
    assert "king" in titles[3] and "empty column" in titles[3]
    for les in LESSONS:
        text = lesson_text(les)
        assert text.goal and 2 <= len(text.guidance) <= 5
        assert les.variant == "eightoff"


def test_lesson_numbers() -> None:
    assert lesson(2) is LESSONS[1]
    assert [next_lesson(n) for n in (1, 2, 3, 4)] == [2, 3, 4, None]
    for bad in (0, 5, -1, True):
        with pytest.raises(LessonError, match="lessons are 1 to 4"):
            lesson(bad)


@pytest.mark.parametrize("les", LESSONS, ids=lambda les: f"lesson{les.id}")
def test_walkthrough_completes_the_lesson_in_a_few_moves(les: Lesson) -> None:
    game = Game(les.start())
    assert not les.is_complete(game.position)
    assert len(les.walkthrough) <= 4
    for text in les.walkthrough:
        assert not les.is_complete(game.position)
        game.play(text)
    assert les.is_complete(game.position)


@pytest.mark.parametrize("les", LESSONS, ids=lambda les: f"lesson{les.id}")
def test_the_solver_agrees_each_lesson_is_winnable(les: Lesson) -> None:
    assert solve(les.start(), Limits(seconds=30)).verdict == "solved"


@pytest.mark.parametrize("les", LESSONS, ids=lambda les: f"lesson{les.id}")
def test_nothing_goes_home_before_the_first_move(les: Lesson) -> None:
    assert les.start().safe_auto_move() is None


def test_lesson1_cells_are_full_so_only_building_helps() -> None:
    pos = LESSONS[0].start()
    assert pos.empty_cells == 0
    for m in useful(pos):
        assert m.target.kind is Kind.COLUMN
        onto = pos.columns[m.target.index or 0]
        card = pos.moving_card(m)
        if onto:  # a build: same suit, one lower
            assert card.suit == onto[-1].suit and card.rank == onto[-1].rank - 1
    with pytest.raises(IllegalMoveError, match="needs the"):
        pos.check(Move.parse("14"))  # 10♥ onto the Q♥: not one lower


def test_lesson2_the_cards_on_the_nine_must_go_to_cells() -> None:
    """Without moves into cells the 9♠ never gets home (exhaustive search)."""
    start = LESSONS[1].start()
    nine = Card.parse("9S")
    seen = {start}
    stack = [start]
    while stack:
        pos = stack.pop()
        assert pos.foundations[nine.suit] < nine.rank
        for m in useful(pos):
            if m.target.kind is Kind.CELL:
                continue
            nxt = pos.apply(m)
            while (a := nxt.safe_auto_move()) is not None:
                nxt = nxt.apply(a)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # the walkthrough parks the J♠ and the 10♠ in cells
    into_cells = [t for t in LESSONS[1].walkthrough if Move.parse(t).target.kind is Kind.CELL]
    assert len(into_cells) == 2


def test_lesson3_the_run_is_one_card_too_many_until_a_cell_is_freed() -> None:
    les = LESSONS[2]
    game = Game(les.start())
    run = Move.parse("12x4")
    with pytest.raises(IllegalMoveError, match=r"Only 3 cards can move: 2 empty cells \+ 1"):
        game.position.check(run)
    game.play("a3")  # the J♣ leaves its cell for the Q♣
    assert game.position.group_limit() == 4
    game.position.check(run)


def test_lesson4_only_kings_can_move_at_first_and_only_to_empty_columns() -> None:
    pos = LESSONS[3].start()
    assert pos.empty_cells == 0
    moves = useful(pos)
    assert moves
    for m in moves:
        assert pos.moving_card(m).rank == 13
        assert m.target.kind is Kind.COLUMN and not pos.columns[m.target.index or 0]
    with pytest.raises(IllegalMoveError, match="Only a King may fill an empty column"):
        pos.check(Move.parse("24"))  # the Q♦
