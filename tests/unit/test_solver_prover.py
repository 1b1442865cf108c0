"""Live verdicts along a game (eightoff.solver.prover.Prover)."""

from __future__ import annotations

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Position
from eightoff.solver.prover import Prover
from tests.sketch import make
from tests.unit.test_solver import exhausted, replay


def test_following_the_solution_needs_no_new_search() -> None:
    """A player who plays the solution's moves (the table adds safe auto-moves) gets
    every later verdict from the rest of that solution, which still wins."""
    for variant in ("eightoff", "freecell"):
        prover = Prover()
        game = Game(deal(variant, 3))
        first = prover.verdict(game.position)
        assert first.verdict == "solved" and first.source == "search"
        answer = first
        while not game.position.is_won():
            previous = game.position
            game.play(answer.moves[0])
            answer = prover.verdict(game.position, previous)
            assert answer.source in ("line", "won"), (variant, answer)
            assert replay(game.position, answer.moves).is_won()


def test_a_reordered_position_gets_the_solution_relabelled() -> None:
    """The same position with its cells and columns in another order (canonically
    equal) is answered from the line, with moves that fit its own places."""
    prover = Prover()
    start = deal("eightoff", 5)
    solved = prover.verdict(start)
    assert solved.verdict == "solved"
    shuffled = Position(
        start.rules,
        tuple(reversed(start.columns)),
        tuple(reversed(start.cells)),
        start.foundations,
    )
    answer = prover.verdict(shuffled)
    assert answer.source == "line"
    assert replay(shuffled, answer.moves).is_won()


def test_lost_is_remembered_and_inherited_along_the_game() -> None:
    """A lost position stays lost after any move (winnability is never regained):
    the verdict after a move from it needs no search."""
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    assert exhausted(start) is True
    prover = Prover()
    assert prover.verdict(start).verdict == "lost"
    again = prover.verdict(start)
    assert (again.verdict, again.source) == ("lost", "memory")
    after = start.apply(start.legal_moves()[0])
    inherited = prover.verdict(after, previous=start)
    assert (inherited.verdict, inherited.source) == ("lost", "inherited")
    assert exhausted(after) is True


def test_a_move_off_the_line_is_solved_again() -> None:
    prover = Prover()
    start = deal("freecell", 7)
    first = prover.verdict(start)
    assert first.verdict == "solved"
    off = next(m for m in start.legal_moves() if m != first.moves[0])
    after = start.apply(off)
    answer = prover.verdict(after, previous=start)
    if answer.source != "memory":
        assert answer.source in ("search", "line")
        assert answer.verdict in ("solved", "lost")
        if answer.verdict == "solved":
            assert replay(after, answer.moves).is_won()
