"""Help from the solver: hints, the status line, solutions.

Hints and solutions are POSTs: one that the solver answers counts as a hint used
(atomically, once). The status is a GET and changes nothing stored (it may start a
background check)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from eightoff.counts import count
from eightoff.i18n import Message, hint_message, translate
from eightoff.position import Position
from eightoff.table import GameState
from eightoff.verdict import Verdict
from eightoff.web.deps import Services, Svc, language
from eightoff.web.errors import ApiError
from eightoff.web.schemas import HintIn, Revisioned
from eightoff.web.serialize import move_json, moves_json, turns_json
from eightoff.web.timing import timed

router = APIRouter()


def no_win_reason(svc: Services, state: GameState, verdict: Verdict) -> str:
    """Why the solver has no move, in the request's language. A lost position says
    whether undo can help: not when the game is at its deal's start ("No play wins this
    deal") or when its start is known to be lost too."""
    if verdict is Verdict.LOST:
        start: Position = state.game.positions()[0]
        if not state.game.turns:
            msg = Message("status.no_play_wins")
        elif svc.oracle.verdict(start) is Verdict.LOST:
            msg = Message("status.not_from_start")
        else:
            msg = Message("hint.not_winnable")
    else:
        msg = Message("hint.no_win_within", seconds=svc.oracle.hint_seconds)
    return translate(msg, language())


@router.post("/api/games/{game_id}/hint", summary="Hint: 1 = legal options, 2 = the solver's move")
@timed
async def hint(
    svc: Svc, game_id: int, body: Annotated[HintIn | None, Body()] = None
) -> dict[str, Any]:
    level = 1 if body is None else body.level
    revision = None if body is None else body.revision
    state = svc.table.hint_options(game_id, revision)
    pos = state.position
    if level == 1:
        useful = pos.useful_moves(svc.table.analyse(pos).legal)
        moves = [move_json(pos, m, lang=language()) for m in useful]
        return {"level": 1, "moves": moves, "hints": state.hints}
    if pos.is_won():
        raise ApiError(409, "game_over", Message("error.won_no_hint"))
    answer = await svc.oracle.hint(pos)
    if answer.verdict is not Verdict.SOLVED or not answer.moves:
        return {
            "level": 2,
            "move": None,
            "verdict": answer.word,
            "reason": no_win_reason(svc, state, answer.verdict),
            "hints": state.hints,
        }
    first = answer.moves[0]
    hints = svc.table.count_hint(game_id, pos, state.revision)
    auto_move = bool(svc.table.settings()["auto_move"])
    length = count(pos, answer.moves, auto_move=auto_move).player
    return {
        "level": 2,
        "move": move_json(pos, first, lang=language()),
        "verdict": answer.word,
        "reason": translate(hint_message(pos, first, length), language()),
        "hints": hints,
    }


@router.get("/api/games/{game_id}/status", summary="Winnability of the current position")
@timed
async def status(svc: Svc, game_id: int) -> dict[str, Any]:
    state = svc.table.get(game_id)
    st = await svc.oracle.settled_status(state.id, state.game.positions())
    return {
        "verdict": st.verdict,
        "undo_to_winnable": st.undo_to_winnable,
        "message": translate(st.message, language()),
        "pending": st.pending,
        "certain": svc.table.analyse(state.position).certain,
        "turns": len(state.game.turns),
        "revision": state.revision,
    }


@router.post("/api/games/{game_id}/solution", summary="The solver's solution from here")
@timed
async def solution(
    svc: Svc, game_id: int, body: Annotated[Revisioned | None, Body()] = None
) -> dict[str, Any]:
    state = svc.table.hint_options(game_id, None if body is None else body.revision)
    pos = state.position
    answer = await svc.oracle.solution(pos)
    won = pos.is_won()
    auto_move = bool(svc.table.settings()["auto_move"])
    out: dict[str, Any] = {
        "verdict": "won" if won else answer.word,
        "moves": moves_json(pos, answer.moves, language()),
        "turns": turns_json(pos, answer.moves, language()),
        # in the table's auto-move setting: what replaying it step by step will count
        **count(pos, answer.moves, auto_move=auto_move).to_json(),
        "hints": state.hints,
    }
    if answer.verdict is not Verdict.SOLVED:
        out["reason"] = no_win_reason(svc, state, answer.verdict)
    elif answer.moves:
        # the whole solution is given: the game is assisted from now on (table.count_hint)
        out["hints"] = svc.table.count_hint(game_id, pos, state.revision, solution=True)
        out["assisted"] = True
    return out
