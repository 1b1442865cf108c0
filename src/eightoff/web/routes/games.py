"""Games: start one, read one, and the actions that change one (move, undo, redo,
restart, auto). Each action is one transaction in the table service; a ``revision``
in the body that is no longer the stored one gets 409 ``stale`` with the current game."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Body

from eightoff.boards import BoardError, from_json, parse_board
from eightoff.deals import (
    MAX_DEAL,
    MIN_DEAL,
    DealNumberError,
    check_deal_number,
    deal,
    random_deal_number,
)
from eightoff.i18n import Message, grouped
from eightoff.lessons import lesson
from eightoff.position import Kind, Move, Place, Position
from eightoff.rules import Rules, preset
from eightoff.table import NoGame
from eightoff.web.deps import Services, Svc
from eightoff.web.errors import ApiError
from eightoff.web.schemas import AutoIn, MoveIn, NewGame, PlaceIn, Revisioned
from eightoff.web.timing import off_loop, timed

router = APIRouter()


@router.post("/api/games", summary="Start a game: a deal, a random deal, or a lesson")
@timed
async def new_game(svc: Svc, body: Annotated[NewGame, Body()]) -> dict[str, Any]:
    table = svc.table
    if body.lesson is not None:
        les = lesson(body.lesson)
        if body.deal is not None:
            raise ApiError(400, "bad_request", Message("error.lesson_or_deal"))
        if "variant" in body.model_fields_set and body.variant != les.variant:
            raise ApiError(
                400, "bad_request", Message("error.lesson_rules", n=les.id, variant=les.variant)
            )
        return await off_loop(lambda: svc.game(table.start_lesson(les.id)))
    if body.board is not None:
        if body.deal is not None:
            raise ApiError(400, "bad_request", Message("error.board_or_deal"))
        start = _board(body)
        return await off_loop(lambda: svc.game(table.start(start)))
    rules = preset(body.variant).with_options(**Rules.parse_options(body.model_dump()))
    if body.daily or body.difficulty is not None:
        if body.deal is not None:
            raise ApiError(400, "bad_request", Message("error.deal_or_difficulty"))
        if body.daily and body.difficulty is not None:
            raise ApiError(400, "bad_request", Message("error.daily_difficulty"))
        level = None if body.difficulty is None else table.level(body.difficulty)
        return await off_loop(
            lambda: svc.game(table.start_deal(rules, difficulty=level, daily=bool(body.daily)))
        )
    if body.deal is not None:
        number = _deal_number(body.deal)
        return await off_loop(lambda: svc.game(table.start_dealt(deal(rules, number), number)))
    winnable_only = body.winnable_only
    if winnable_only is None:
        winnable_only = bool((await off_loop(table.settings))["winnable_only"])
    extra: dict[str, Any] = {}
    if winnable_only:
        number, start = await _winnable_deal(svc, rules, extra)
    else:
        number = random_deal_number(table.rng)
        start = deal(rules, number)
    return await off_loop(lambda: svc.game(table.start_dealt(start, number), extra=extra))


async def _winnable_deal(
    svc: Services, rules: Rules, extra: dict[str, Any]
) -> tuple[int, Position]:
    oracle = svc.oracle

    def draw() -> tuple[int, Position]:
        n = random_deal_number(svc.table.rng)
        return n, svc.table.dealt(deal(rules, n))  # the start the game will have

    number, start, verdict, tried = await oracle.run_deal_search(
        lambda: oracle.find_winnable(draw, svc.winnable_tries, svc.winnable_budget)
    )
    extra["deal_check"] = {"verdict": verdict.word, "deals_tried": tried}
    return number, start


@router.get("/api/games/current", summary="The game in progress (the newest not finished)")
@timed
async def current_game(svc: Svc, optional: bool = False) -> dict[str, Any] | None:
    """404 ``no_game`` when no game is in progress; ``?optional=true``: null instead (the
    page asks so on a first visit, where a 404 would be logged in the browser's console)."""

    def current() -> dict[str, Any] | None:
        try:
            return svc.game(svc.table.current())
        except NoGame:
            if optional:
                return None
            raise

    return await off_loop(current)


@router.get("/api/games/{game_id}", summary="A game")
@timed
async def get_game(svc: Svc, game_id: int) -> dict[str, Any]:
    return await off_loop(lambda: svc.game(svc.table.get(game_id)))


@router.post("/api/games/{game_id}/move", summary="Make a move (then any safe auto-moves)")
@timed
async def move(svc: Svc, game_id: int, body: Annotated[MoveIn, Body()]) -> dict[str, Any]:
    chosen = _move_from(body)

    def run() -> dict[str, Any]:
        state, turn = svc.table.move(game_id, chosen, auto_move=body.auto, revision=body.revision)
        return svc.game(state, last_turn=turn)

    return await off_loop(run)


@router.post("/api/games/{game_id}/undo", summary="Take back the last turn")
@timed
async def undo(
    svc: Svc, game_id: int, body: Annotated[Revisioned | None, Body()] = None
) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        state, turn = svc.table.undo(game_id, revision=None if body is None else body.revision)
        return svc.game(state, undone=turn)

    return await off_loop(run)


@router.post("/api/games/{game_id}/redo", summary="Play again the last undone turn")
@timed
async def redo(
    svc: Svc, game_id: int, body: Annotated[Revisioned | None, Body()] = None
) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        state, turn = svc.table.redo(game_id, revision=None if body is None else body.revision)
        return svc.game(state, last_turn=turn)

    return await off_loop(run)


@router.post("/api/games/{game_id}/restart", summary="Back to the start (moves kept for redo)")
@timed
async def restart(
    svc: Svc, game_id: int, body: Annotated[Revisioned | None, Body()] = None
) -> dict[str, Any]:
    revision = None if body is None else body.revision
    return await off_loop(lambda: svc.game(svc.table.restart(game_id, revision=revision)))


@router.post("/api/games/{game_id}/auto", summary="Send safe cards home, or finish a certain win")
@timed
async def auto(
    svc: Svc, game_id: int, body: Annotated[AutoIn | None, Body()] = None
) -> dict[str, Any]:
    complete = True if body is None else body.complete

    def run() -> dict[str, Any]:
        state, turn = svc.table.finish(
            game_id, complete=complete, revision=None if body is None else body.revision
        )
        return svc.game(state, last_turn=turn)

    return await off_loop(run)


# ----- parsing ---------------------------------------------------------------------------------
# digits of any length (the field takes 32 characters): too many is out of range
_DIGITS = re.compile(r"[0-9]+")


def _deal_number(value: int | str) -> int:
    if isinstance(value, str):
        text = value.strip().lstrip("#")
        if not _DIGITS.fullmatch(text):
            raise ApiError(
                400, "bad_deal", Message("error.deal_not_a_number", value=repr(value[:40]))
            )
        value = int(text)
    try:
        return check_deal_number(value)
    except DealNumberError:
        # the rule is the engine's (check_deal_number); the words are the player's
        if isinstance(value, bool) or not isinstance(value, int):
            raise
        high = grouped(MAX_DEAL)
        said = Message("error.deal_out_of_range", n=value, low=MIN_DEAL, high=high)
        raise ApiError(400, "bad_deal", said) from None


def _board(body: NewGame) -> Position:
    """The starting position of a custom board (JSON board or Freecell Solver text)."""
    if "variant" in body.model_fields_set or isinstance(body.board, str):
        rules = preset(body.variant)
    else:
        assert isinstance(body.board, dict)
        rules = preset(str(body.board.get("variant", "eightoff"))[:64])
    rules = rules.with_options(**Rules.parse_options(body.model_dump()))
    try:
        if isinstance(body.board, dict):
            position = from_json(body.board, rules, typed=True)
        else:
            assert body.board is not None
            position = parse_board(body.board, rules)
    except BoardError as e:
        said = e.args[0] if e.args and isinstance(e.args[0], Message) else str(e)
        raise ApiError(400, "bad_board", Message("error.board", error=said)) from None
    if position.is_won():
        raise ApiError(400, "bad_board", Message("error.board_won"))
    return position


def _place(p: PlaceIn, role: str) -> Place:
    kind = Kind(p.kind)
    if p.index is None:
        if kind is Kind.FOUNDATION and role == "target":
            return Place(Kind.FOUNDATION, None)
        raise ApiError(400, "bad_move", Message("error.place_needs_index", role=role, kind=p.kind))
    return Place(kind, p.index)


def _move_from(body: MoveIn) -> Move | str:
    structured = body.source is not None or body.target is not None
    if body.move is not None:
        if structured:
            raise ApiError(400, "bad_move", Message("error.move_both"))
        return body.move
    if body.source is None or body.target is None:
        raise ApiError(
            400,
            "bad_move",
            Message(
                "error.move_shape",
                notation='{"move": "37"}',
                structured='{"source": {...}, "target": {...}, "count": n}',
            ),
        )
    return Move(_place(body.source, "source"), _place(body.target, "target"), body.count)
