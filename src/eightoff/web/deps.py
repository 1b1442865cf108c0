"""What the routes share: the table service, the oracle and the app's limits."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from eightoff.game import Turn
from eightoff.i18n import DEFAULT_LANGUAGE, Lang, pick_language
from eightoff.oracle import Oracle
from eightoff.table import GameState, Table
from eightoff.web.serialize import game_json

_LANGUAGE: ContextVar[Lang] = ContextVar("eightoff_language", default=DEFAULT_LANGUAGE)


def language() -> Lang:
    """The language of the request being answered (its ``Accept-Language``; the table
    sends the player's choice there)."""
    return _LANGUAGE.get()


class Language:
    """ASGI middleware: the request's ``Accept-Language`` picks the language its answer's
    words (moves, reasons, hints, status) are rendered in."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = next((v for k, v in scope["headers"] if k == b"accept-language"), b"")
        token = _LANGUAGE.set(pick_language(header))
        try:
            await self.app(scope, receive, send)
        finally:
            _LANGUAGE.reset(token)


@dataclass
class Services:
    table: Table
    oracle: Oracle
    winnable_tries: int = 30
    winnable_budget: float = 20.0

    def game(
        self,
        s: GameState,
        *,
        last_turn: Turn | None = None,
        undone: Turn | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A Game object (see API.md)."""
        return game_json(
            s,
            self.table.analyse(s.position),
            auto_move=bool(self.table.settings()["auto_move"]),
            last_turn=last_turn,
            undone=undone,
            extra=extra,
            lang=language(),
        )


async def services(request: Request) -> Services:
    """The app's services (async: FastAPI would run a plain function in a thread)."""
    found: Services = request.app.state.services
    return found


Svc = Annotated[Services, Depends(services)]
