"""The Dask backend: the same batches on an existing ``distributed`` cluster.

Needs the optional extra ``eightoff[dask]`` here, and eightoff installed on every
worker of the cluster (the task is :func:`eightoff.survey.solve_batch`).
"""

from __future__ import annotations

import contextlib
import queue
import time
import uuid
from typing import Any

from eightoff.rules import Rules
from eightoff.solver import Limits

PER_THREAD = 2
"""Batches queued per worker thread of the cluster."""


class DaskBackend:
    def __init__(self, address: str, *, timeout: float = 15.0) -> None:
        from eightoff.survey import SurveyUnavailableError

        try:
            import distributed
        except ImportError:
            raise SurveyUnavailableError(
                "--scheduler needs Dask's distributed package: install eightoff[dask]"
                " (pip install 'eightoff[dask]')"
            ) from None
        self.address = address
        client_class: Any = distributed.Client
        try:
            self._client: Any = client_class(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SurveyUnavailableError(
                f"cannot reach the Dask scheduler at {address}: {exc}"
            ) from None
        self._prefix = f"eightoff-survey-{uuid.uuid4().hex[:8]}"
        self._futures: dict[int, tuple[Any, tuple[tuple[int, int], ...]]] = {}
        self._done: queue.Queue[int] = queue.Queue()
        self._capacity_checked = 0.0
        self._capacity = 2
        self.description = f"dask:{address}"

    @property
    def capacity(self) -> int:
        now = time.monotonic()
        if now - self._capacity_checked > 10.0:  # the cluster may grow or shrink
            try:
                threads = sum(self._client.nthreads().values())
            except Exception:
                threads = 0
            self._capacity = max(2, PER_THREAD * threads)
            self._capacity_checked = now
        return self._capacity

    def submit(
        self, key: int, rules: Rules, runs: tuple[tuple[int, int], ...], limits: Limits
    ) -> None:
        from eightoff.survey import solve_batch

        future = self._client.submit(
            solve_batch, rules, runs, limits, key=f"{self._prefix}-{key}", pure=False, retries=1
        )
        self._futures[key] = (future, runs)
        future.add_done_callback(lambda _f, k=key: self._done.put(k))

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        from eightoff.survey import SurveyWorkerError
        from eightoff.survey.local import _runs_text

        keys: list[int] = []
        try:
            keys.append(self._done.get(timeout=timeout))
            while True:
                keys.append(self._done.get_nowait())
        except queue.Empty:
            pass
        out: list[tuple[int, Any]] = []
        for key in keys:
            future, runs = self._futures.pop(key)
            if future.status == "finished":
                out.append((key, future.result()))
                continue
            if future.status == "cancelled":
                raise SurveyWorkerError(f"the Dask cluster cancelled the batch {_runs_text(runs)}")
            exc = future.exception()
            hint = ""
            if isinstance(exc, ModuleNotFoundError):
                hint = " (install eightoff on every Dask worker)"
            raise SurveyWorkerError(
                f"a Dask worker failed on {_runs_text(runs)}: {type(exc).__name__}: {exc}{hint}"
            )
        return out

    def close(self, abort: bool) -> None:
        if abort and self._futures:
            with contextlib.suppress(Exception):
                self._client.cancel([f for f, _ in self._futures.values()])
        self._futures.clear()
        self._client.close()
