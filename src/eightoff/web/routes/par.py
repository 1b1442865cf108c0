"""Par at the table: the proven fewest moves of a game's deal (player moves), and a
replay of a par solution.

``GET /api/games/{id}/par`` answers from the store when the deal's par was searched
before; otherwise it starts the search in the background (the oracle's par lane, within
the table's limits) and waits up to ``wait`` seconds for it: "pending" means ask again.
A search the limits stop answers with bounds ("par is 31 to 33"), a failed one "par
unknown": never a 500; ``?retry=true`` searches again a par that is unknown (the player's
"Try again"), never one proven or bounded; ``?longer=true`` searches bounds the table's
time left (not its memory) once more, :data:`eightoff.oracle.LONGER` times as long (the
player's "Search longer"), and the bounds kept join what it finds.
``POST /api/games/{id}/par/replay`` starts a game on the deal to step through its par
solution (assisted, never counted)."""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import CancelledError
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query

from eightoff.counts import count
from eightoff.explain import par_message, par_short, par_unknown
from eightoff.i18n import Message, translate
from eightoff.oracle import DroppedWork, Oracle
from eightoff.position import Position
from eightoff.solver.optimal import Par, ParLimits, stopped_by_memory
from eightoff.store import StoredPar
from eightoff.table import GameState, par_record
from eightoff.web.deps import Services, Svc, language
from eightoff.web.schemas import Revisioned
from eightoff.web.serialize import moves_json, turns_json
from eightoff.web.timing import off_loop, timed

router = APIRouter()
log = logging.getLogger("eightoff.web")

MAX_WAIT = 10.0
"""The longest a par request waits for the search before answering "pending"."""


def par_json(
    state: GameState, par: StoredPar | None, oracle: Oracle, searching: ParLimits | None = None
) -> dict[str, Any]:
    """A game's par as the page shows it (see API.md): ``state`` is "pending" (ask
    again), "proven", "bounds" (not proven within the limits), "lost" or "unknown"; with
    a won game (not a par replay) its player moves (the counter's), the same as par
    counts them (safe auto-move on: fewer when it was off) and their moves over par.
    ``text`` says it all ("Par 14 — you took 20"), ``short`` fits a status line ("Par
    14"). The words name the oracle's limits (or, pending, ``searching``: those of the
    search under way), or those of a search asked to go on longer where it found the
    bounds; ``longer_seconds`` offers such a search where it may still narrow them (None:
    not offered)."""
    won = state.status == "won" and not state.replay
    shown = state.game.player_moves if won else None
    took = state.game.player_moves_as_par if won else None
    out: dict[str, Any] = {
        "count": "player",
        "player_moves": shown,
        "player_moves_as_par": took,
        "solution": False,
        "longer_seconds": None,
    }
    if par is None:
        limits = searching or oracle.par_limits
        said = Message("par.searching", seconds=limits.seconds or 0)
        text = translate(said, language())
        return {**out, "state": "pending", "text": text, "short": text}
    if par.lost:
        kind = "lost"
    elif par.optimal:
        kind = "proven"
    elif _learnt_nothing(par):
        kind = "unknown"
    else:
        kind = "bounds"
    offer = kind == "bounds" and oracle.may_search_longer(par)
    limits = oracle.par_limits_of(par)  # the words name the search that found the bounds
    said = par_message(
        optimal=par.optimal,
        lower=par.lower,
        upper=par.upper,
        lost=par.lost,
        took=took,
        counter=shown,
        seconds=limits.seconds,
        memory_mb=limits.memory_mb if stopped_by_memory(par.reason) else None,
    )
    short = (
        Message("par.unknown_short")
        if kind == "unknown"
        else Message("par.lost_short")
        if kind == "lost"
        else par_short(optimal=par.optimal, lower=par.lower, upper=par.upper)
    )
    return {
        **out,
        "state": kind,
        "short": translate(short, language()),
        "par": par.par,
        "lower_bound": par.lower,
        "upper_bound": par.upper,
        "over_par": None if took is None or par.par is None else took - par.par,
        "solution": bool(par.moves) and par.optimal,
        "longer_seconds": oracle.par_longer_limits.seconds if offer else None,
        "text": translate(said, language()),
    }


def _learnt_nothing(par: StoredPar) -> bool:
    return par_unknown(lost=par.lost, lower=par.lower, upper=par.upper)


_UNKNOWN = StoredPar(count="player", optimal=False, lower=0, upper=None)


@router.get("/api/games/{game_id}/par", summary="The par of the game's deal (player moves)")
@timed
async def par(
    svc: Svc,
    game_id: int,
    wait: Annotated[float, Query(ge=0, le=MAX_WAIT, allow_inf_nan=False)] = 1.0,
    retry: bool = False,
    longer: bool = False,
) -> dict[str, Any]:
    """``retry``: search again when the deal's par is unknown (the search before failed
    or learnt nothing); ``longer``: search bounds longer where the answer offered it
    (``longer_seconds``), and ask again with or without it until it ends; otherwise a
    proven par, bounds or a lost deal are answered as kept."""
    table, oracle = svc.table, svc.oracle
    limits, longest = oracle.par_limits, oracle.par_longer_limits
    state, stored = await off_loop(table.par, game_id)
    start = state.game.start
    running = oracle.par_longer_running(start)
    keep = functools.partial(_keep, svc, start)
    if longer and running is None and stored is not None and oracle.may_search_longer(stored):
        running = oracle.par_search(start, keep, longer=True)
    if running is not None:
        future, searching = running, longest
    elif stored is not None and not (retry and _learnt_nothing(stored)):
        return par_json(state, stored, oracle)
    else:
        future, searching = oracle.par_search(start, keep, again=retry), limits
    try:
        found = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), wait)
    except TimeoutError:
        return par_json(state, None, oracle, searching)
    except asyncio.CancelledError:
        if not future.cancelled():
            raise  # this request was cancelled (the client went away)
        return par_json(state, stored or _UNKNOWN, oracle)  # the table is stopping
    except (CancelledError, DroppedWork):
        return par_json(state, stored or _UNKNOWN, oracle)  # the table is stopping
    except Exception:  # a bug in the search: what was kept, or par unknown; not a 500
        log.exception("par search of game %s failed", game_id)
        return par_json(state, stored or _UNKNOWN, oracle)
    state, stored = await off_loop(table.par, game_id)
    return par_json(state, stored if stored is not None else par_record(found), oracle)


def _keep(svc: Services, start: Position, found: Par) -> None:
    svc.table.keep_par(start, found)


@router.post(
    "/api/games/{game_id}/par/replay", summary="A new game on the deal to replay its par solution"
)
@timed
async def par_replay(
    svc: Svc, game_id: int, body: Annotated[Revisioned | None, Body()] = None
) -> dict[str, Any]:
    """409 ``no_par_solution`` until the deal's par solution is known (ask for par first)."""

    def run() -> dict[str, Any]:
        state, record = svc.table.start_par_replay(game_id)
        start = state.position
        auto_move = bool(svc.table.settings()["auto_move"])
        replay = {
            "moves": moves_json(start, record.moves, language()),
            "turns": turns_json(start, record.moves, language()),
            # in the table's auto-move setting: what replaying it step by step will count
            **count(start, record.moves, auto_move=auto_move).to_json(),
            "par": record.par,
            "lower_bound": record.lower,
            "upper_bound": record.upper,
        }
        return svc.game(state, extra={"par_replay": replay})

    return await off_loop(run)
