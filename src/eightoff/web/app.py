"""The FastAPI app: create it, add the middleware, include the routers. API.md documents it.

Layout of ``eightoff.web``:

* ``app.py``: :func:`create_app` (this module);
* ``security.py``: Host, Origin, content-type, token and size checks, security headers;
* ``timing.py``: the Server-Timing header;
* ``errors.py``: every client error as a 4xx JSON ``{"error", "code"}``;
* ``schemas.py`` (request bodies), ``serialize.py`` (answers), ``deps.py`` (shared services);
* ``routes/``: one router per concern (pages, access, reference, games, help, settings);
* ``oracle.py``: the solver's lanes and caches; ``server.py``: ``eightoff play``.

The table itself (games, revisions, settings, statistics) is :mod:`eightoff.table`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from eightoff.oracle import Oracle, Solver
from eightoff.solver.optimal import TABLE_LIMITS
from eightoff.store import Store, StoreError
from eightoff.table import Table
from eightoff.web import errors
from eightoff.web.deps import Language, Services
from eightoff.web.routes import access, games, help, pages, par, reference, settings
from eightoff.web.routes.pages import STATIC_DIR
from eightoff.web.security import MAX_BODY, Guard
from eightoff.web.timing import ServerTiming


def create_app(
    db_path: str | Path,
    *,
    hosts: Iterable[str] | None = (),
    port: int | None = None,
    token: str | None = None,
    max_body: int = MAX_BODY,
    status_seconds: float = 3.0,
    hint_seconds: float = 10.0,
    deal_seconds: float = 1.0,
    winnable_tries: int = 30,
    winnable_budget: float = 20.0,
    solver: Solver | None = None,
    par_seconds: float | None = None,
) -> FastAPI:
    """The web table's app on the database ``db_path`` (created if missing).

    ``hosts``: host names it answers for besides 127.0.0.1, localhost and [::1] (None:
    any, for a server on 0.0.0.0 guarded by ``token``); ``port``: the port the Host
    header must name (None: any); ``token``: the access token every request needs (None:
    none). The ``*_seconds`` limits bound each solver call: the status line, hints and
    solutions, and each deal tried for a winnable-only game; ``par_seconds`` a par search
    (None: :data:`eightoff.solver.optimal.TABLE_LIMITS`, 20 s; always 512 MiB at most)."""
    store = Store(db_path)
    par_limits = TABLE_LIMITS if par_seconds is None else replace(TABLE_LIMITS, seconds=par_seconds)
    oracle = Oracle(
        status_seconds=status_seconds,
        hint_seconds=hint_seconds,
        deal_seconds=deal_seconds,
        **({} if solver is None else {"solver": solver}),
        par_limits=par_limits,
    )
    table = Table(store, on_change=oracle.on_board)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.reopen()  # when the app is started again (test clients do)
        oracle.start()
        yield
        oracle.close()
        store.close()

    app = FastAPI(
        title="eightoff",
        summary="The local Eight Off table: games, moves, hints, winnability, lessons, stats.",
        version="2",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.services = Services(table, oracle, winnable_tries, winnable_budget)
    errors.install(app)
    for module in (pages, access, reference, games, help, par, settings):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    # outermost last: the guard refuses before anything is parsed or timed
    app.add_middleware(Language)
    app.add_middleware(ServerTiming)
    app.add_middleware(Guard, hosts=hosts, port=port, token=token, max_body=max_body)
    return app


__all__ = ["StoreError", "create_app"]
