"""Help from the solver: hints, the status line, solutions.

Hints and solutions are POSTs: one that the solver answers counts as a hint used
(atomically, once). The status is a GET and changes nothing stored (it may start a
background check)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from eightoff.verdict import Verdict
from eightoff.web.deps import Svc
from eightoff.web.errors import ApiError
from eightoff.web.schemas import HintIn, Revisioned
from eightoff.web.serialize import move_json, moves_json, turns_json
from eightoff.web.timing import timed

router = APIRouter()


def no_win_reason(verdict: Verdict, seconds: float) -> str:
    if verdict is Verdict.LOST:
        return "No move leads to a win from here: undo to get back to a winnable position"
    return f"The solver found no win within {seconds:g} seconds"


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
        return {"level": 1, "moves": [move_json(pos, m) for m in useful], "hints": state.hints}
    if pos.is_won():
        raise ApiError(409, "game_over", "The game is won: no hint needed")
    answer = await svc.oracle.hint(pos)
    if answer.verdict is not Verdict.SOLVED or not answer.moves:
        return {
            "level": 2,
            "move": None,
            "verdict": answer.word,
            "reason": no_win_reason(answer.verdict, svc.oracle.hint_seconds),
            "hints": state.hints,
        }
    first = answer.moves[0]
    hints = svc.table.count_hint(game_id, pos, state.revision)
    return {
        "level": 2,
        "move": move_json(pos, first),
        "verdict": answer.word,
        "reason": pos.hint_words(first, len(answer.moves)),
        "hints": hints,
    }


@router.get("/api/games/{game_id}/status", summary="Winnability of the current position")
@timed
async def status(svc: Svc, game_id: int) -> dict[str, Any]:
    state = svc.table.get(game_id)
    st = svc.oracle.status(state.id, state.game.positions())
    return {
        "verdict": st.verdict,
        "undo_to_winnable": st.undo_to_winnable,
        "message": st.message,
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
    out: dict[str, Any] = {
        "verdict": "won" if won else answer.word,
        "moves": moves_json(pos, answer.moves),
        "turns": turns_json(pos, answer.moves),
        "hints": state.hints,
    }
    if answer.verdict is not Verdict.SOLVED:
        out["reason"] = no_win_reason(answer.verdict, svc.oracle.hint_seconds)
    elif answer.moves:
        out["hints"] = svc.table.count_hint(game_id, pos, state.revision)
    return out
