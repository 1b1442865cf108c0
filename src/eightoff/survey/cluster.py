"""The Dask backend: the same batches on an existing ``distributed`` cluster.

Needs the optional extra ``eightoff[dask]`` here, and eightoff installed on every
worker of the cluster (the task is :func:`eightoff.survey.solve_batch`, or for a par
survey :func:`eightoff.survey.par.par_batch`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import queue
import socket
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from eightoff.i18n import Message, quote, reason
from eightoff.survey.errors import SurveyUnavailableError, SurveyWorkerError
from eightoff.survey.local import Runs, _runs_text

PER_THREAD = 2
"""Batches queued per worker thread of the cluster."""


PROBE_SECONDS = 4.0
"""A scheduler address where nothing answers like Dask within this time is reported
unreachable, before Dask itself is imported (a slow import): a wrong --scheduler
fails within about 5 s of the command's start."""
CLIENT_SECONDS = 5.0
"""The Dask client's own connection timeout, once the probe has heard a scheduler."""

LOST_SECONDS = 15.0
"""A survey whose scheduler has been unreachable this long (with batches out) stops."""

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
"""Dask's comm protocols a scheduler address may name."""


class SchedulerAddressError(ValueError):
    """A --scheduler value that is not a Dask scheduler address."""


def check_address(address: str) -> str:
    """A scheduler address ``tcp://host:port``; raise SchedulerAddressError otherwise."""
    given = quote(address)
    scheme, sep, _ = address.partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        schemes = ", ".join(SCHEMES)
        raise SchedulerAddressError(
            Message("survey.scheduler.not_an_address", address=given, schemes=schemes)
        )
    if scheme.lower() == "inproc":  # a cluster in this process (tests, notebooks)
        return address
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise SchedulerAddressError(Message("survey.scheduler.port", address=given)) from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise SchedulerAddressError(Message("survey.scheduler.no_host", address=given))
    if port == 0:
        raise SchedulerAddressError(Message("survey.scheduler.port", address=given))
    return address


def _probe(address: str) -> None:
    """Raise OSError unless something at ``address`` (tcp://) answers the way a Dask
    scheduler does within PROBE_SECONDS: a scheduler writes its handshake as soon as
    a connection opens, a message that starts with its length (8 bytes, little-endian)
    followed by that many bytes, which begin with the number of frames and their
    lengths. Nothing listening, a silent listener, one that stops after a plausible
    start, or a stranger's bytes fail here, quickly and without Dask (whose client
    waits minutes for a handshake that stops half-way, and, when it fails to connect,
    10 s more when it is collected)."""
    deadline = time.monotonic() + PROBE_SECONDS
    parts = urlsplit(address)
    assert parts.hostname is not None
    try:
        conn = socket.create_connection((parts.hostname, parts.port or 8786), PROBE_SECONDS)
    except TimeoutError:
        raise OSError(Message("survey.probe.silent", seconds=PROBE_SECONDS)) from None

    def read(n: int) -> bytes:
        got = b""
        while len(got) < n:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = conn.recv(n - len(got))
            except TimeoutError:
                raise OSError(Message("survey.probe.no_handshake", seconds=PROBE_SECONDS)) from None
            if not chunk:
                raise OSError(Message("survey.probe.closed"))
            got += chunk
        return got

    stranger = OSError("what answers there is not a Dask scheduler")
    with conn:
        size = int.from_bytes(read(8), "little")
        if not 16 <= size < 1 << 20:
            raise stranger
        body = read(size)
    frames = int.from_bytes(body[:8], "little")
    if not 1 <= frames <= 64 or 8 * (frames + 1) > size:
        raise stranger


def _installed(name: str) -> bool:
    """Is the package importable (without importing it: Dask takes seconds)?"""
    try:
        return importlib.util.find_spec(name) is not None
    except (ValueError, ImportError):  # sys.modules[name] is None: import blocked
        return False


class DaskBackend:
    def __init__(
        self, address: str, task: Callable[..., Any], *, timeout: float = CLIENT_SECONDS
    ) -> None:
        """A client of the Dask scheduler at ``address`` whose workers run ``task`` (a
        verdict survey's ``solve_batch``, a par survey's ``par_batch``) on each batch."""
        self._task = task
        check_address(address)
        if not _installed("distributed"):
            raise SurveyUnavailableError(Message("survey.scheduler.no_dask"))
        if urlsplit(address).scheme.lower() == "tcp":
            try:
                _probe(address)
            except OSError as exc:
                why = reason(exc) or str(exc.strerror or exc)
                none_there = Message("survey.scheduler.none", address=address, error=why)
                raise SurveyUnavailableError(none_there) from None
        try:
            import distributed
        except ImportError:
            raise SurveyUnavailableError(Message("survey.scheduler.no_dask")) from None
        self.address = address
        _quiet_dask()
        try:
            self._client: Any = _client_class(distributed)(
                address, timeout=f"{timeout}s", set_as_default=False
            )
        except Exception as exc:  # anything from a failed connection: not reachable
            why = _why(address, exc)
            unusable = Message("survey.scheduler.unusable", address=address, error=why)
            raise SurveyUnavailableError(unusable) from None
        self._client.eightoff_connected = True
        self._prefix = f"eightoff-survey-{uuid.uuid4().hex[:8]}"
        self._futures: dict[int, tuple[Any, tuple[tuple[int, int], ...]]] = {}
        self._done: queue.Queue[int] = queue.Queue()
        self._capacity_checked = 0.0
        self._capacity = 2
        self._lost_since: float | None = None
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

    def submit(self, key: int, runs: Runs, args: tuple[Any, ...]) -> None:
        future = self._client.submit(
            self._task,
            *args,
            key=f"{self._prefix}-{key}",
            pure=False,
            retries=1,
        )
        self._futures[key] = (future, runs)
        future.add_done_callback(lambda _f, k=key: self._done.put(k))

    def _gone(self) -> Message:
        return Message("survey.scheduler.gone", address=self.address)

    def _scheduler_here(self) -> bool:
        """Is the client still connected to its scheduler?"""
        try:
            return str(getattr(self._client.status, "value", self._client.status)) == "running"
        except Exception:
            return False

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        keys: list[int] = []
        try:
            keys.append(self._done.get(timeout=timeout))
            while True:
                keys.append(self._done.get_nowait())
        except queue.Empty:
            pass
        if not keys and self._futures and not self._scheduler_here():
            if self._lost_since is None:
                self._lost_since = time.monotonic()
            elif time.monotonic() - self._lost_since > LOST_SECONDS:  # it did not come back
                raise SurveyUnavailableError(self._gone())
        elif keys:
            self._lost_since = None
        out: list[tuple[int, Any]] = []
        for key in keys:
            future, runs = self._futures.pop(key)
            if future.status == "finished":
                try:
                    out.append((key, future.result(timeout=CLIENT_SECONDS)))
                except (OSError, TimeoutError):  # the result's way back is gone with it
                    raise SurveyUnavailableError(self._gone()) from None
                continue
            if future.status == "cancelled" or not self._scheduler_here():
                if not self._scheduler_here():
                    raise SurveyUnavailableError(self._gone())
                raise SurveyWorkerError(Message("survey.cancelled", deals=_runs_text(runs)))
            exc = future.exception()
            failed = Message(
                "survey.dask_worker_failed",
                deals=_runs_text(runs),
                error=f"{type(exc).__name__}: {exc}",
                missing="yes" if isinstance(exc, ModuleNotFoundError) else "no",
            )
            raise SurveyWorkerError(failed)
        return out

    def close(self, abort: bool) -> None:
        if abort and self._futures:
            with contextlib.suppress(Exception):
                self._client.cancel([f for f, _ in self._futures.values()])
        self._futures.clear()
        if not self._scheduler_here():  # gone: closing would wait for it
            self._client.eightoff_connected = False
            _stop_loop(self._client)
            return
        with contextlib.suppress(Exception):
            self._client.close(timeout=CLIENT_SECONDS)


def _why(address: str, exc: Exception) -> str:
    """Why a Dask client could not connect, in words a user can act on."""
    scheme = urlsplit(address).scheme.lower()
    if scheme == "inproc":
        return "inproc:// names a scheduler inside one process, which a command cannot reach"
    if scheme == "ucx" and isinstance(exc, (TypeError, ImportError)):
        return "ucx:// needs Dask's UCX support (distributed-ucxx) on this machine"
    if scheme in ("tls", "wss") and "ssl" in f"{type(exc).__name__} {exc}".lower():
        return f"{scheme}:// needs certificates that eightoff does not pass; use tcp://"
    text = " ".join(str(exc).split())[:160]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _client_class(distributed: Any) -> Any:
    """Dask's Client, but one that never connected (or whose scheduler is gone) is not
    closed when it is collected: Dask's own ``__del__`` would then wait 10 s and print
    "Exception ignored in Client.__del__ … TimeoutError" after the command's error."""

    class Client(distributed.Client):  # type: ignore[misc]
        eightoff_connected = False

        def __del__(self) -> None:
            if self.eightoff_connected:
                with contextlib.suppress(Exception):
                    super().__del__()
            else:
                _stop_loop(self)

    return Client


def _stop_loop(client: Any) -> None:
    """Stop the client's event-loop thread without waiting for a scheduler."""
    with contextlib.suppress(Exception):
        client._loop_runner.stop()


def _quiet_dask() -> None:
    """Dask's own log lines (a lost scheduler, reconnect attempts) are not for the
    survey's user: each failure is one line of eightoff's."""
    import logging

    for name in ("distributed", "distributed.client", "distributed.comm", "distributed.core",
                 "distributed.batched", "distributed.worker", "distributed.scheduler",
                 "tornado", "tornado.application"):  # fmt: skip
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
