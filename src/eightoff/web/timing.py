"""Server-Timing: how long the app and the endpoint took, for bench/web_latency.py; and
:func:`off_loop`, which runs the table's store calls in a worker thread."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

_timing: ContextVar[dict[str, float] | None] = ContextVar("eightoff_timing", default=None)
P = ParamSpec("P")
T = TypeVar("T")
_OFF_LOOP_CPU = "off_loop_cpu"


async def off_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` in a worker thread (the request's context, its language
    included, goes with it): every call that touches the database goes through here, so
    that a file locked by another process holds up that request only, never the event
    loop (``GET /api/server``, the pages, other games' answers). Its CPU time is counted
    in the request's ``cpu`` (Server-Timing)."""

    def run() -> T:
        c0 = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            rec = _timing.get()
            if rec is not None:
                rec[_OFF_LOOP_CPU] = rec.get(_OFF_LOOP_CPU, 0.0) + time.thread_time() - c0

    return await run_in_threadpool(run)


def timed(fn: Callable[P, Awaitable[Any]]) -> Callable[P, Awaitable[Response]]:
    """Render the endpoint's answer as JSON inside the endpoint (no second encoding pass)
    and note its time for the Server-Timing header: ``handler`` (wall) and ``cpu`` (this
    CPU time, on the event loop and in :func:`off_loop`'s worker)."""

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
                off = rec.pop(_OFF_LOOP_CPU, 0.0)
                rec["cpu"] = (time.thread_time() - c0 + off) * 1000

    return wrapper


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
