"""Running a coroutine from a test, whatever else the session runs."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: the browser tests' sync Playwright keeps an
    event loop running in the main thread for the rest of the session, and a plain
    asyncio.run there fails with "cannot be called from a running event loop"."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
