"""The Dask backend: the same batches on an existing ``distributed`` cluster.

Needs the optional extra ``eightoff[dask]`` here, and eightoff installed on every
worker of the cluster (the task is :func:`eightoff.survey.solve_batch`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import queue
import socket
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

from eightoff.i18n import quote
from eightoff.rules import Rules
from eightoff.solver import Limits
from eightoff.verdict import Verdict

PER_THREAD = 2
"""Batches queued per worker thread of the cluster."""


PROBE_SECONDS = 4.0
"""A scheduler address where nothing answers like Dask within this time is reported
unreachable, before Dask itself is imported (a slow import): a wrong --scheduler
fails within about 5 s of the command's start."""
CLIENT_SECONDS = 5.0
"""The Dask client's own connection timeout, once the probe has heard a scheduler."""

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
"""Dask's comm protocols a scheduler address may name."""


class SchedulerAddressError(ValueError):
    """A --scheduler value that is not a Dask scheduler address."""


def check_address(address: str) -> str:
    """A scheduler address ``tcp://host:port``; raise SchedulerAddressError otherwise."""
    example = "write it like tcp://10.0.0.5:8786"
    scheme, sep, _ = address.partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        raise SchedulerAddressError(
            f"--scheduler {quote(address)} is not a Dask scheduler address: {example}"
            f" (protocols: {', '.join(SCHEMES)})"
        )
    if scheme.lower() == "inproc":  # a cluster in this process (tests, notebooks)
        return address
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise SchedulerAddressError(
            f"--scheduler {quote(address)}: the port must be a number from 1 to 65535; {example}"
        ) from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise SchedulerAddressError(
            f"--scheduler {quote(address)} names no host and port: {example}"
        )
    if port == 0:
        raise SchedulerAddressError(
            f"--scheduler {quote(address)}: the port must be a number from 1 to 65535; {example}"
        )
    return address


def _probe(address: str) -> None:
    """Raise OSError unless something at ``address`` (tcp://) answers the way a Dask
    scheduler does within PROBE_SECONDS: a scheduler writes its handshake as soon as
    a connection opens, a frame that starts with its length (8 bytes, little-endian).
    Nothing listening, a silent listener or a stranger's bytes fail here, quickly and
    without Dask (whose client, when it fails to connect, waits 30 s more when it is
    collected and then prints "Exception ignored …")."""
    deadline = time.monotonic() + PROBE_SECONDS
    parts = urlsplit(address)
    assert parts.hostname is not None
    try:
        conn = socket.create_connection((parts.hostname, parts.port or 8786), PROBE_SECONDS)
    except TimeoutError:
        raise OSError(f"nothing answers within {PROBE_SECONDS:g} s") from None
    with conn:
        head = b""
        while len(head) < 8:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = conn.recv(8 - len(head))
            except TimeoutError:
                raise OSError(f"no Dask handshake within {PROBE_SECONDS:g} s") from None
            if not chunk:
                raise OSError("the connection was closed without a Dask handshake")
            head += chunk
    if not 0 < int.from_bytes(head, "little") < 1 << 20:
        raise OSError("what answers there is not a Dask scheduler")


def _installed(name: str) -> bool:
    """Is the package importable (without importing it: Dask takes seconds)?"""
    try:
        return importlib.util.find_spec(name) is not None
    except (ValueError, ImportError):  # sys.modules[name] is None: import blocked
        return False


class DaskBackend:
    def __init__(self, address: str, *, timeout: float = CLIENT_SECONDS) -> None:
        from eightoff.survey import SurveyUnavailableError

        check_address(address)
        if not _installed("distributed"):
            raise SurveyUnavailableError(
                "--scheduler needs Dask's distributed package: install eightoff[dask]"
                " (pip install 'eightoff[dask]')"
            )
        if urlsplit(address).scheme.lower() == "tcp":
            try:
                _probe(address)
            except OSError as exc:
                raise SurveyUnavailableError(
                    f"no Dask scheduler at {address}: {exc.strerror or exc}"
                ) from None
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
        except Exception as exc:  # anything from a failed connection: not reachable
            raise SurveyUnavailableError(
                f"the Dask scheduler at {address} cannot be used: {type(exc).__name__}: {exc}"
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
        self,
        key: int,
        rules: Rules,
        runs: tuple[tuple[int, int], ...],
        limits: Limits,
        rate: bool = False,
        stored: tuple[tuple[int, Verdict], ...] = (),
    ) -> None:
        from eightoff.survey import solve_batch

        future = self._client.submit(
            solve_batch,
            rules,
            runs,
            limits,
            rate,
            stored,
            key=f"{self._prefix}-{key}",
            pure=False,
            retries=1,
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
