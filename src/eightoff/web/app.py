"""The FastAPI app: parse the request, call the core, serialise. API.md documents it.

Every error a client can cause is a 4xx JSON ``{"error": "<sentence>", "code": "<code>"}``
and changes nothing; a 500 means a bug (it is logged).
"""

from __future__ import annotations

import functools
import html
import json
import logging
import random
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, ParamSpec

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from eightoff.boards import BoardError, from_json, parse_board
from eightoff.cards import SUIT_LETTERS, Card
from eightoff.deals import DealNumberError, check_deal_number, deal, random_deal_number
from eightoff.game import Game, Turn
from eightoff.lessons import LESSONS, Lesson, LessonError, lesson, next_lesson
from eightoff.position import (
    IllegalMoveError,
    Kind,
    Move,
    MoveSyntaxError,
    Place,
    Position,
)
from eightoff.rules import PRESETS, Rules, UnknownVariantError, preset
from eightoff.store import SavedGame, Store, StoreError, rule_options
from eightoff.web.oracle import Oracle, Solver

log = logging.getLogger("eightoff.web")

STATIC_DIR = Path(__file__).parent / "static"
DEFAULT_SETTINGS: dict[str, Any] = {"auto_move": True, "winnable_only": False}
_SESSION_CACHE = 256
_POSITION_CACHE = 4096


# ----- errors ------------------------------------------------------------------------------
class ApiError(Exception):
    """An error the client caused: its HTTP status, a short code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


_DOMAIN_CODES: list[tuple[type[ValueError], str]] = [
    (IllegalMoveError, "illegal_move"),
    (MoveSyntaxError, "bad_move"),
    (DealNumberError, "bad_deal"),
    (UnknownVariantError, "unknown_variant"),
    (LessonError, "bad_lesson"),
]


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        kind = err.get("type", "")
        if kind == "json_invalid":
            ctx = err.get("ctx") or {}
            return f"The request body is not valid JSON ({ctx.get('error', 'syntax error')})"
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "path", "query")]
        where = ".".join(loc)
        msg = str(err.get("msg", "invalid"))
        if kind == "missing":
            parts.append(f"{where or 'the body'} is required")
        elif kind == "extra_forbidden":
            parts.append(f"{where} is not a field of this request")
        elif kind == "model_attributes_type":
            parts.append(f"{where or 'the body'} must be a JSON object")
        else:
            parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "The request is not valid"


# ----- timing -------------------------------------------------------------------------------
_timing: ContextVar[dict[str, float] | None] = ContextVar("eightoff_timing", default=None)
P = ParamSpec("P")


def timed(fn: Callable[P, Awaitable[Any]]) -> Callable[P, Awaitable[Response]]:
    """Render the endpoint's answer as JSON inside the endpoint (no second encoding pass)
    and note its time for the Server-Timing header: ``handler`` (wall) and ``cpu`` (this
    thread's CPU time). Endpoints that do not await (all but the solver's) run without
    interruption, so these are the request's own costs, free of event-loop queueing."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Response:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            result = await fn(*args, **kwargs)
            return result if isinstance(result, Response) else JSONResponse(result)
        finally:
            rec = _timing.get()
            if rec is not None:
                rec["handler"] = (time.perf_counter() - t0) * 1000
                rec["cpu"] = (time.thread_time() - c0) * 1000

    return wrapper


# ----- request bodies ----------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class NewGame(_Strict):
    variant: Annotated[str, Field(max_length=64)] = "eightoff"
    deal: int | Annotated[str, Field(max_length=32)] | None = None
    winnable_only: bool | None = None
    lesson: int | None = None
    board: dict[str, Any] | Annotated[str, Field(max_length=20_000)] | None = None
    foundation_retrieval: bool | None = None
    strict_single: bool | None = None


class PlaceIn(_Strict):
    kind: Literal["column", "cell", "foundation"]
    index: int | None = None


class MoveIn(_Strict):
    move: Annotated[str, Field(max_length=32)] | None = None
    source: PlaceIn | None = None
    target: PlaceIn | None = None
    count: int = 1
    auto: bool | None = None


class AutoIn(_Strict):
    complete: bool = True


class SettingsIn(_Strict):
    auto_move: bool | None = None
    winnable_only: bool | None = None
    variant: Annotated[str, Field(max_length=64)] | None = None


# ----- serialisation -------------------------------------------------------------------------
def place_json(place: Place) -> dict[str, Any]:
    return {"kind": place.kind.value, "index": place.index}


def move_json(pos: Position, move: Move, *, auto: bool | None = None) -> dict[str, Any]:
    """A move, described in the position it is made from."""
    out: dict[str, Any] = {
        "notation": str(move),
        "card": str(pos.moving_card(move)),
        "count": move.count,
        "source": place_json(move.source),
        "target": place_json(pos.resolve_target(move)),
        "text": pos.describe(move),
    }
    if auto is not None:
        out["auto"] = auto
    return out


def moves_json(pos: Position, moves: tuple[Move, ...] | list[Move]) -> list[dict[str, Any]]:
    """Moves played one after the other from ``pos``."""
    out = []
    for m in moves:
        out.append(move_json(pos, m))
        pos = pos.apply_unchecked(m)
    return out


def win_is_certain(pos: Position) -> bool:
    """Every column runs down in rank from bottom to top: then the lowest card not home
    is always exposed, so every card can go home in turn."""
    return all(
        all(col[i].rank >= col[i + 1].rank for i in range(len(col) - 1)) for col in pos.columns
    )


def variant_json(r: Rules) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "summary": r.summary,
        "rules": r.describe(),
        "cells": r.cells,
        "columns": r.columns,
        "foundations": r.foundations,
        "decks": r.decks,
        "build": r.build.value,
        "empty_column": r.empty_column.value,
        "formula": r.formula_words(),
        "announce_group_limit": r.announce_group_limit,
    }


def lesson_json(les: Lesson) -> dict[str, Any]:
    return {
        "id": les.id,
        "title": les.title,
        "goal": les.goal,
        "guidance": list(les.guidance),
        "variant": les.variant,
        "next": next_lesson(les.id),
    }


@dataclass
class Session:
    """A game held in memory (the store has every move; this avoids replaying them)."""

    id: int
    game: Game
    deal: int | None
    lesson: Lesson | None
    status: str
    hints: int
    created: str
    finished: str | None
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_saved(cls, saved: SavedGame) -> Session:
        return cls(
            id=saved.id,
            game=saved.game,
            deal=saved.deal,
            lesson=None if saved.lesson is None else lesson(saved.lesson),
            status=saved.status,
            hints=saved.hints,
            created=saved.created,
            finished=saved.finished,
            options=saved.options,
        )

    def is_complete(self) -> bool:
        pos = self.game.position
        return self.lesson.is_complete(pos) if self.lesson is not None else pos.is_won()


class Table:
    """The app's state: the store, the sessions in memory, the oracle, position caches."""

    def __init__(self, store: Store, oracle: Oracle) -> None:
        self.store = store
        self.oracle = oracle
        self._sessions: OrderedDict[int, Session] = OrderedDict()
        self._legal: OrderedDict[Position, tuple[list[Move], bool]] = OrderedDict()
        self.rng = random.SystemRandom()
        self._settings: dict[str, Any] | None = None

    # sessions
    def session(self, game_id: int) -> Session:
        s = self._sessions.get(game_id)
        if s is None:
            saved = self.store.load(game_id)
            if saved is None:
                raise ApiError(404, "no_game", f"There is no game {game_id}")
            s = Session.from_saved(saved)
            self._sessions[game_id] = s
            while len(self._sessions) > _SESSION_CACHE:
                self._sessions.popitem(last=False)
        else:
            self._sessions.move_to_end(game_id)
        return s

    def forget(self, game_id: int) -> None:
        """Drop a session from memory (after a failed write: the store is the truth)."""
        self._sessions.pop(game_id, None)

    def forget_playing(self) -> None:
        for gid in [g for g, s in self._sessions.items() if s.status == "playing"]:
            self._sessions.pop(gid)

    def settings(self) -> dict[str, Any]:
        if self._settings is None:
            self._settings = {**DEFAULT_SETTINGS, **self.store.settings()}
        return dict(self._settings)

    def put_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        self._settings = None
        self.store.put_settings(values)
        return self.settings()

    # positions
    def legal(self, pos: Position) -> tuple[list[Move], bool]:
        """(legal moves, lost) of a position, cached."""
        hit = self._legal.get(pos)
        if hit is None:
            moves = pos.legal_moves()
            # is_lost() lists the legal moves again: ask it only when no move changes
            # anything (a position with a column or home move is certainly not lost)
            useful = any(
                not (m.source.kind is Kind.CELL and m.target.kind is Kind.CELL) for m in moves
            )
            hit = (moves, not useful and pos.is_lost())
            self._legal[pos] = hit
            while len(self._legal) > _POSITION_CACHE:
                self._legal.popitem(last=False)
        return hit

    def game_json(
        self,
        s: Session,
        *,
        last_turn: Turn | None = None,
        undone: Turn | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        game = s.game
        pos = game.position
        rules = pos.rules
        legal, lost = self.legal(pos)
        won = pos.is_won()
        positions = game.positions()
        out: dict[str, Any] = {
            "id": s.id,
            "variant": rules.id,
            "variant_name": rules.name,
            "rules": rules.describe(),
            "options": {
                "foundation_retrieval": rules.foundation_retrieval,
                "strict_single": rules.strict_single,
            },
            "deal": s.deal,
            "lesson": None if s.lesson is None else s.lesson.id,
            "lesson_info": None if s.lesson is None else lesson_json(s.lesson),
            "lesson_done": s.lesson is not None and s.lesson.is_complete(pos),
            "columns": [[str(c) for c in col] for col in pos.columns],
            "cells": [None if c is None else str(c) for c in pos.cells],
            "foundations": [
                {
                    "suit": SUIT_LETTERS[f % 4],
                    "top": top,
                    "card": str(Card.of(top, f % 4)) if top else None,
                }
                for f, top in enumerate(pos.foundations)
            ],
            "moves_made": game.moves_made,
            "turns": len(game.turns),
            "can_undo": game.can_undo,
            "can_redo": game.can_redo,
            "won": won,
            "lost": lost,
            "status": s.status,
            "finished": s.status != "playing",
            "group_limit": {
                "cards": pos.group_limit(),
                "words": pos.group_limit_words(),
                "formula": rules.formula_words(),
                "to_empty_column": pos.group_limit(to_empty_column=True),
                "to_empty_column_words": pos.group_limit_words(to_empty_column=True),
            },
            "legal_moves": [move_json(pos, m) for m in legal],
            "last_turn": None if last_turn is None else moves_json(positions[-2], last_turn.moves),
            "undone_turn": None if undone is None else moves_json(pos, undone.moves),
            "auto_move": bool(self.settings()["auto_move"]),
            "can_auto_complete": not won and win_is_certain(pos),
            "hints": s.hints,
            "created": s.created,
            "finished_at": s.finished,
        }
        if extra:
            out.update(extra)
        return out


# ----- the app ---------------------------------------------------------------------------------
def create_app(
    db_path: str | Path,
    *,
    status_seconds: float = 3.0,
    hint_seconds: float = 10.0,
    deal_seconds: float = 1.0,
    winnable_tries: int = 30,
    winnable_budget: float = 20.0,
    solver: Solver | None = None,
) -> FastAPI:
    """The web table's app on the database ``db_path`` (created if missing).

    The ``*_seconds`` limits bound each solver call: the status line, hints and
    solutions, and each deal tried for a winnable-only game."""
    store = Store(db_path)
    oracle = Oracle(
        status_seconds=status_seconds,
        hint_seconds=hint_seconds,
        deal_seconds=deal_seconds,
        **({} if solver is None else {"solver": solver}),
    )
    table = Table(store, oracle)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        oracle.close()
        store.close()

    app = FastAPI(
        title="eightoff",
        summary="The local Eight Off table: games, moves, hints, winnability, lessons, stats.",
        version="1",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.table = table

    # ----- error handlers ------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, "bad_request", _describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        message = exc.detail if isinstance(exc.detail, str) else "Request failed"
        if exc.status_code == 400 and message == "There was an error parsing the body":
            return _error(422, "bad_request", "The request body could not be read as JSON")
        if exc.status_code == 404 and message == "Not Found":
            message = f"Nothing at {request.url.path}"
        return _error(exc.status_code, codes.get(exc.status_code, "http_error"), message)

    @app.exception_handler(ValueError)
    async def domain_error(request: Request, exc: ValueError) -> JSONResponse:
        for cls, code in _DOMAIN_CODES:
            if isinstance(exc, cls):
                return _error(400, code, str(exc))
        return _error(400, "bad_request", str(exc))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("bug while answering %s %s", request.method, request.url.path)
        return _error(500, "internal", "Internal error (a bug in eightoff; see the server log)")

    # ----- server timing (pure ASGI: adds little) ------------------------------------------
    app.add_middleware(ServerTiming)

    # ----- helpers ---------------------------------------------------------------------
    def playing(game_id: int) -> Session:
        s = table.session(game_id)
        if s.status == "won":
            raise ApiError(409, "game_over", "This game is over: start a new one")
        return s  # an abandoned game may be resumed (it stays out of /api/games/current)

    def after_change(s: Session, write: Callable[[bool], None]) -> None:
        """Store the change (``write(won)``); on failure forget the in-memory game."""
        won = s.is_complete()
        try:
            write(won)
        except Exception:
            table.forget(s.id)
            raise
        if won and s.status != "won":
            fresh = table.store.load(s.id)
            s.status = fresh.status if fresh else "won"
            s.finished = fresh.finished if fresh else None

    def new_session(start: Position, deal_number: int | None, les: Lesson | None) -> Session:
        lesson_id = None if les is None else les.id
        gid = table.store.create_game(start, deal=deal_number, lesson=lesson_id)
        table.forget_playing()
        return table.session(gid)

    # ----- pages -------------------------------------------------------------------------
    def page(name: str) -> Response:
        path = STATIC_DIR / name
        if not path.is_file():
            return _error(404, "not_found", f"The page {name} is not built (expected {path})")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> Response:
        return page("rules.html")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(_docs_page(app.openapi()))

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # ----- reference data ------------------------------------------------------------------
    @app.get("/api/variants", summary="The variants and their rules")
    @timed
    async def variants() -> list[dict[str, Any]]:
        return [variant_json(r) for r in PRESETS.values()]

    @app.get("/api/lessons", summary="The four lessons, in order")
    @timed
    async def lessons() -> list[dict[str, Any]]:
        return [lesson_json(les) for les in LESSONS]

    # ----- games -----------------------------------------------------------------------------
    @app.post("/api/games", summary="Start a game: a deal, a random deal, or a lesson")
    @timed
    async def new_game(body: Annotated[NewGame, Body()]) -> dict[str, Any]:
        settings = table.settings()
        extra: dict[str, Any] = {}
        if body.lesson is not None:
            les = lesson(body.lesson)
            if body.deal is not None:
                raise ApiError(400, "bad_request", "Choose a lesson or a deal, not both")
            if "variant" in body.model_fields_set and body.variant != les.variant:
                raise ApiError(
                    400, "bad_request", f"Lesson {les.id} is played with {les.variant} rules"
                )
            s = new_session(les.start(), None, les)
            return table.game_json(s)
        if body.board is not None:
            if body.deal is not None:
                raise ApiError(400, "bad_request", "Choose a board or a deal, not both")
            s = new_session(_board(body), None, None)
            return table.game_json(s)
        rules = preset(body.variant).with_options(
            foundation_retrieval=body.foundation_retrieval, strict_single=body.strict_single
        )
        if body.deal is not None:
            number = _deal_number(body.deal)
            s = new_session(deal(rules, number), number, None)
            return table.game_json(s)
        winnable_only = (
            settings["winnable_only"] if body.winnable_only is None else body.winnable_only
        )
        if winnable_only:

            def draw() -> tuple[int, Position]:
                n = random_deal_number(table.rng)
                return n, deal(rules, n)

            number, start, verdict, tried = await oracle.run(
                lambda: oracle.find_winnable(draw, winnable_tries, winnable_budget)
            )
            extra["deal_check"] = {"verdict": verdict, "deals_tried": tried}
        else:
            number = random_deal_number(table.rng)
            start = deal(rules, number)
        s = new_session(start, number, None)
        return table.game_json(s, extra=extra)

    @app.get("/api/games/current", summary="The game in progress (the newest not finished)")
    @timed
    async def current_game() -> dict[str, Any]:
        gid = table.store.current_game_id()
        if gid is None:
            raise ApiError(404, "no_game", "No game in progress")
        return table.game_json(table.session(gid))

    @app.get("/api/games/{game_id}", summary="A game")
    @timed
    async def get_game(game_id: int) -> dict[str, Any]:
        return table.game_json(table.session(game_id))

    @app.post("/api/games/{game_id}/move", summary="Make a move (then any safe auto-moves)")
    @timed
    async def move(game_id: int, body: Annotated[MoveIn, Body()]) -> dict[str, Any]:
        s = playing(game_id)
        game = s.game
        the_move: Move | str = _move_from(body)
        turns_before = len(game.turns)
        game.auto_move = bool(table.settings()["auto_move"]) if body.auto is None else body.auto
        turn = game.play(the_move)  # raises and changes nothing when illegal
        after_change(
            s,
            lambda won: table.store.record_turn(
                s.id, turns_before, turn, won=won, moves_made=game.moves_made
            ),
        )
        return table.game_json(s, last_turn=turn)

    def cursor_change(s: Session) -> None:
        after_change(
            s,
            lambda won: table.store.record_cursor(
                s.id, len(s.game.turns), won=won, moves_made=s.game.moves_made
            ),
        )

    @app.post("/api/games/{game_id}/undo", summary="Take back the last turn")
    @timed
    async def undo(game_id: int) -> dict[str, Any]:
        s = playing(game_id)
        turn = s.game.undo()
        if turn is None:
            raise ApiError(409, "nothing_to_undo", "Nothing to undo: this is the deal's start")
        cursor_change(s)
        return table.game_json(s, undone=turn)

    @app.post("/api/games/{game_id}/redo", summary="Play again the last undone turn")
    @timed
    async def redo(game_id: int) -> dict[str, Any]:
        s = playing(game_id)
        turn = s.game.redo()
        if turn is None:
            raise ApiError(409, "nothing_to_redo", "Nothing to redo")
        cursor_change(s)
        return table.game_json(s, last_turn=turn)

    @app.post("/api/games/{game_id}/restart", summary="Back to the start (moves kept for redo)")
    @timed
    async def restart(game_id: int) -> dict[str, Any]:
        s = playing(game_id)
        s.game.restart()
        cursor_change(s)
        return table.game_json(s)

    @app.post("/api/games/{game_id}/auto", summary="Send safe cards home, or finish a certain win")
    @timed
    async def auto(game_id: int, body: Annotated[AutoIn | None, Body()] = None) -> dict[str, Any]:
        s = playing(game_id)
        complete = True if body is None else body.complete
        game = s.game
        pos = game.position
        turns_before = len(game.turns)
        if complete and not pos.is_won() and win_is_certain(pos):
            moves: list[Move] = []
            p = pos
            while not p.is_won():
                home = next(m for m in table.legal(p)[0] if m.target.kind is Kind.FOUNDATION)
                moves.append(home)
                p = p.apply(home)
            turn = Turn(moves[0], tuple(moves[1:]))
            s.game = Game.from_turns(game.start, [*game.turns, turn], deal_number=game.deal_number)
        else:
            maybe = game.auto_home()
            if maybe is None:
                raise ApiError(409, "nothing_to_do", "No card can go home safely now")
            turn = maybe
        after_change(
            s,
            lambda won: table.store.record_turn(
                s.id, turns_before, turn, won=won, moves_made=s.game.moves_made
            ),
        )
        return table.game_json(s, last_turn=turn)

    # ----- help: hints, status, solution ------------------------------------------------------
    @app.get("/api/games/{game_id}/hint", summary="Hint: 1 = legal options, 2 = the solver's move")
    @timed
    async def hint(game_id: int, level: int = 1) -> dict[str, Any]:
        s = table.session(game_id)
        pos = s.game.position
        if level == 1:
            legal, _ = table.legal(pos)
            useful = [
                m for m in legal if not (m.source.kind is Kind.CELL and m.target.kind is Kind.CELL)
            ]
            return {"level": 1, "moves": [move_json(pos, m) for m in useful]}
        if level != 2:
            raise ApiError(400, "bad_request", f"level must be 1 or 2, not {level}")
        if pos.is_won():
            raise ApiError(409, "game_over", "The game is won: no hint needed")
        answer = await oracle.solution(pos)
        if s.game.position != pos:  # moved meanwhile
            raise ApiError(409, "moved", "The game moved on while the solver worked: ask again")
        if answer.verdict != "winnable" or not answer.moves:
            return {
                "level": 2,
                "move": None,
                "verdict": answer.verdict,
                "reason": _no_win_reason(answer.verdict, oracle.hint_seconds),
            }
        first = answer.moves[0]
        if s.status == "playing":
            table.store.add_hint(s.id)
            s.hints += 1
        return {
            "level": 2,
            "move": move_json(pos, first),
            "verdict": "winnable",
            "reason": _hint_reason(pos, first, len(answer.moves)),
        }

    @app.get("/api/games/{game_id}/status", summary="Winnability of the current position")
    @timed
    async def status(game_id: int) -> dict[str, Any]:
        s = table.session(game_id)
        st = oracle.status(s.id, s.game.positions())
        return {
            "verdict": st.verdict,
            "undo_to_winnable": st.undo_to_winnable,
            "message": st.message,
            "pending": st.pending,
            "certain": not s.game.position.is_won() and win_is_certain(s.game.position),
            "turns": len(s.game.turns),
        }

    @app.get("/api/games/{game_id}/solution", summary="The solver's solution from here")
    @timed
    async def solution(game_id: int) -> dict[str, Any]:
        s = table.session(game_id)
        pos = s.game.position
        answer = await oracle.solution(pos)
        if s.game.position != pos:
            raise ApiError(409, "moved", "The game moved on while the solver worked: ask again")
        out: dict[str, Any] = {
            "verdict": "won" if pos.is_won() else answer.verdict,
            "moves": moves_json(pos, answer.moves),
            "turns": _turns_json(pos, answer.moves),
        }
        if answer.verdict != "winnable":
            out["reason"] = _no_win_reason(answer.verdict, oracle.hint_seconds)
        elif answer.moves and s.status == "playing":
            table.store.add_hint(s.id)
            s.hints += 1
        return out

    # ----- settings and stats ------------------------------------------------------------------
    @app.get("/api/settings", summary="The player's settings")
    @timed
    async def get_settings() -> dict[str, Any]:
        return table.settings()

    @app.put("/api/settings", summary="Change some settings")
    @timed
    async def put_settings(body: Annotated[SettingsIn, Body()]) -> dict[str, Any]:
        values = body.model_dump(exclude_none=True)
        if "variant" in values:
            preset(values["variant"])
        return table.put_settings(values)

    @app.get("/api/stats", summary="Statistics per variant")
    @timed
    async def stats() -> dict[str, Any]:
        saved = table.store.stats()
        out: dict[str, Any] = {}
        for vid, r in PRESETS.items():
            st = saved.get(vid)
            played = st.played if st else 0
            won = st.won if st else 0
            out[vid] = {
                "name": r.name,
                "played": played,
                "won": won,
                "win_rate": round(won / played, 4) if played else 0.0,
                "streak": st.streak if st else 0,
                "best_streak": st.best_streak if st else 0,
                "fewest_moves": st.fewest_moves if st else None,
                "hints": st.hints if st else 0,
            }
        return out

    return app


# ----- helpers ------------------------------------------------------------------------------
_DIGITS = re.compile(r"[0-9]{1,25}")


def _deal_number(value: int | str) -> int:
    if isinstance(value, str):
        text = value.strip().lstrip("#")
        if not _DIGITS.fullmatch(text):
            raise ApiError(400, "bad_deal", f"deal {value!r} is not a number")
        value = int(text)
    return check_deal_number(value)


def _board(body: NewGame) -> Position:
    """The starting position of a custom board (JSON board or Freecell Solver text)."""
    rules: Rules | None = None
    if "variant" in body.model_fields_set or isinstance(body.board, str):
        rules = preset(body.variant)
    if rules is None and isinstance(body.board, dict):
        rules = preset(str(body.board.get("variant", "eightoff")))
    assert rules is not None
    rules = rules.with_options(
        foundation_retrieval=body.foundation_retrieval, strict_single=body.strict_single
    )
    try:
        if isinstance(body.board, dict):
            position = from_json(body.board, rules)
        else:
            assert body.board is not None
            position = parse_board(body.board, rules)
    except BoardError as e:
        raise ApiError(400, "bad_board", f"board: {e}") from None
    if position.is_won():
        raise ApiError(400, "bad_board", "board: every card is already home")
    return position


def _place(p: PlaceIn, role: str) -> Place:
    kind = Kind(p.kind)
    if p.index is None:
        if kind is Kind.FOUNDATION and role == "target":
            return Place(Kind.FOUNDATION, None)
        raise ApiError(400, "bad_move", f"{role}: a {p.kind} needs an index (0-based)")
    return Place(kind, p.index)


def _move_from(body: MoveIn) -> Move | str:
    structured = body.source is not None or body.target is not None
    if body.move is not None:
        if structured:
            raise ApiError(400, "bad_move", "Send a move as notation or as source/target, not both")
        return body.move
    if body.source is None or body.target is None:
        raise ApiError(
            400, "bad_move", 'Send {"move": "37"} or {"source": {...}, "target": {...}, "count": n}'
        )
    return Move(_place(body.source, "source"), _place(body.target, "target"), body.count)


def _turns_json(pos: Position, moves: tuple[Move, ...]) -> list[list[dict[str, Any]]]:
    """Group a solution into the turns the table would play with auto-move on: a move and
    the safe moves after it, when the solution's next moves are exactly those."""
    turns: list[list[dict[str, Any]]] = []
    i = 0
    while i < len(moves):
        turn = [move_json(pos, moves[i])]
        p = pos.apply_unchecked(moves[i])
        j = i + 1
        autos: list[Move] = []
        q = p
        while (m := q.safe_auto_move()) is not None:
            autos.append(m)
            q = q.apply_unchecked(m)
        if autos and tuple(autos) == tuple(moves[j : j + len(autos)]):
            for m in autos:
                turn.append(move_json(p, m))
                p = p.apply_unchecked(m)
            j += len(autos)
        turns.append(turn)
        pos = p
        i = j
    return turns


def _no_win_reason(verdict: str, seconds: float) -> str:
    if verdict == "not_winnable":
        return "No move leads to a win from here: undo to get back to a winnable position"
    return f"The solver found no win within {seconds:g} seconds"


def _hint_reason(pos: Position, move: Move, length: int) -> str:
    """E.g. "Park the 3♦ in Cell 5: it uncovers the 2♣. The solver wins in 86 moves from here."."""
    card = pos.moving_card(move)
    target = pos.resolve_target(move)
    what = f"the {card.symbol}"
    if move.count > 1:
        assert move.source.index is not None
        what = f"the {move.count} cards {card.symbol}…{pos.columns[move.source.index][-1].symbol}"
    if target.kind is Kind.FOUNDATION:
        action = f"Send {what} home"
    elif target.kind is Kind.CELL:
        action = f"Park {what} in {target.title}"
    else:
        assert target.index is not None
        col = pos.columns[target.index]
        action = (
            f"Move {what} onto the {col[-1].symbol}"
            if col
            else f"Move {what} into the empty {target.title}"
        )
    effect = ""
    if move.source.kind is Kind.COLUMN:
        assert move.source.index is not None
        col = pos.columns[move.source.index]
        if len(col) > move.count:
            effect = f": it uncovers the {col[-move.count - 1].symbol}"
        else:
            effect = f": it empties {move.source.title}"
    elif move.source.kind is Kind.CELL:
        effect = f": it frees {move.source.title}"
    plural = "s" if length != 1 else ""
    return f"{action}{effect}. The solver wins in {length} move{plural} from here."


def _docs_page(spec: dict[str, Any]) -> str:
    """A small local page listing the API (the stock /docs page loads JS from a CDN)."""
    rows = []
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            rows.append(
                f"<tr><td><code>{html.escape(method.upper())}</code></td>"
                f"<td><code>{html.escape(path)}</code></td>"
                f"<td>{html.escape(str(op.get('summary', '')))}</td></tr>"
            )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>eightoff API</title>"
        "<style>body{font-family:system-ui,sans-serif;margin:2rem}td{padding:.2rem 1rem}"
        "</style></head><body><h1>eightoff API</h1><p>The full description is"
        " <a href='/openapi.json'>/openapi.json</a>; errors are"
        f" <code>{html.escape(json.dumps({'error': '…', 'code': '…'}))}</code>.</p>"
        "<table><thead><tr><th>Method</th><th>Path</th><th>What</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></body></html>"
    )


# ----- Server-Timing middleware ------------------------------------------------------------
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ServerTiming:
    """Adds ``Server-Timing: app;dur=<ms>`` (from the request reaching the app to the
    response starting, event-loop waits included) and, for API endpoints,
    ``handler;dur=<ms>, cpu;dur=<ms>`` (see :func:`timed`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        rec: dict[str, float] = {}
        token = _timing.set(rec)

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - t0) * 1000
                value = f"app;dur={ms:.3f}" + "".join(f", {k};dur={v:.3f}" for k, v in rec.items())
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", value.encode()))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, timed_send)
        finally:
            _timing.reset(token)


__all__ = ["ApiError", "StoreError", "create_app", "rule_options"]
