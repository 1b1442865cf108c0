"""The local backends: workers on this machine, two batches queued per worker.  A
backend runs its task (a verdict survey's ``solve_batch``, a par survey's
``par_batch``) on each batch it is given: ``submit(key, runs, args)`` calls
``task(*args)`` for the batch of deals ``runs``, and ``wait`` hands back (key, result).

* :class:`ThreadPool`, for batches solved in the compiled core (a survey without
  rating or the short search): the workers are threads of this process.  A block of
  deals is one call of the core, which lets go of the GIL until the block is done, so
  the threads solve on separate cores while the main thread stores.
* :class:`LocalPool`, for batches that run Python per deal (rating, the short search),
  which threads would run one at a time: each worker is a ``forkserver`` (or
  ``spawn``) process holding one end of a pipe; it never inherits the parent's other
  pipes, so when the parent dies (even by SIGKILL) the worker sees end-of-file and
  exits by itself after its current batch.  Workers ignore SIGINT: Ctrl+C goes to the
  parent, which stores what is finished and then kills the workers.
* :class:`InlinePool`, one worker: this process itself, with no thread.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eightoff.i18n import Message
from eightoff.survey.errors import SurveyWorkerError

if TYPE_CHECKING:  # multiprocessing is imported by LocalPool, the one pool that uses it
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

Runs = tuple[tuple[int, int], ...]
"""A batch's deals, as runs of numbers (first, last)."""

PER_WORKER = 2
"""Batches queued per worker: one being solved, one waiting, so no worker idles."""


def _worker_main(conn: Connection, task: Callable[..., Any]) -> None:
    """A worker's loop: receive (key, the task's arguments), send (key, the task's
    result, error)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if message is None:
            return
        key, args = message
        try:
            reply: tuple[int, Any, str | None] = (key, task(*args), None)
        except Exception as exc:
            reply = (key, None, str(exc) or type(exc).__name__)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


class _Worker:
    def __init__(self, ctx: Any, task: Callable[..., Any]) -> None:
        self.conn: Connection
        self.conn, child = ctx.Pipe(duplex=True)
        self.process: BaseProcess = ctx.Process(
            target=_worker_main, args=(child, task), daemon=True, name="eightoff-survey-worker"
        )
        self.process.start()
        child.close()
        self.outstanding: dict[int, Runs] = {}


class LocalPool:
    """``workers`` processes, each running ``task`` (the survey's ``solve_batch``, a
    module-level function: it reaches the workers by name); see the module docstring."""

    def __init__(self, workers: int, task: Callable[..., Any]) -> None:
        # here, not at the top: a survey solved in the core (threads, or this process
        # alone) starts without multiprocessing and what it imports (about 4 ms)
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            # the server imports the solver once and each worker is forked from it ready,
            # instead of every worker importing the package again (about 0.17 s each)
            ctx.set_forkserver_preload([task.__module__])
        self._workers = [_Worker(ctx, task) for _ in range(workers)]
        self.capacity = PER_WORKER * workers
        self.description = f"local:{workers}"

    def submit(self, key: int, runs: Runs, args: tuple[Any, ...]) -> None:
        worker = min(self._workers, key=lambda w: len(w.outstanding))
        worker.conn.send((key, args))
        worker.outstanding[key] = runs

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        busy = [w for w in self._workers if w.outstanding]
        by_handle: dict[Any, _Worker] = {}
        for w in busy:
            by_handle[w.conn] = w
            by_handle[w.process.sentinel] = w
        done: list[tuple[int, Any]] = []
        from multiprocessing.connection import wait  # imported by __init__ already

        for handle in wait(list(by_handle), timeout):
            w = by_handle[handle]
            if handle is not w.conn:
                continue  # a sentinel: handled below if its pipe has nothing left
            try:
                while w.conn.poll():
                    key, result, error = w.conn.recv()
                    runs = w.outstanding.pop(key)
                    if error is not None:
                        raise SurveyWorkerError(
                            Message(
                                "survey.worker_failed", deals=_runs_text(runs), error=str(error)
                            )
                        )
                    done.append((key, result))
            except (EOFError, OSError):
                pass  # the worker died; reported below
        for w in busy:
            if w.outstanding and not w.process.is_alive():
                runs = next(iter(w.outstanding.values()))
                raise SurveyWorkerError(
                    Message(
                        "survey.worker_died",
                        code=str(w.process.exitcode),
                        deals=_runs_text(runs),
                    )
                )
        return done

    def close(self, abort: bool) -> None:
        for w in self._workers:
            if abort:
                w.process.kill()
            else:
                with contextlib.suppress(BrokenPipeError, OSError):
                    w.conn.send(None)
        for w in self._workers:
            w.process.join(timeout=None if abort else 10)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.conn.close()


def deal_span(start: int, end: int) -> str:
    """A range of deals as the survey's lines write it: "1568" for one deal, "1–32000"."""
    return str(start) if start == end else f"{start}–{end}"


def _runs_text(runs: Runs) -> str:
    return ", ".join(deal_span(a, b) for a, b in runs)


def _why(exc: Exception) -> str:
    """What a failed batch says of its failure."""
    return str(exc) or type(exc).__name__


def _solving_failed(runs: Runs, why: str) -> SurveyWorkerError:
    """A batch solved in this process (a thread of it, or itself) failed."""
    return SurveyWorkerError(Message("survey.solving_failed", deals=_runs_text(runs), error=why))


class InlinePool:
    """One worker: this process itself.  ``--workers 1`` starts no worker process (no
    forkserver, no second import of the package, no pipe): each batch is solved when it
    is submitted.  Ctrl+C stops it between two calls of the core (a block of deals), and
    the batches stored before are kept, as with the pool."""

    capacity = 1
    description = "local:1"

    def __init__(self, task: Callable[..., Any]) -> None:
        self._task = task
        self._done: list[tuple[int, Any]] = []

    def submit(self, key: int, runs: Runs, args: tuple[Any, ...]) -> None:
        try:
            result = self._task(*args)
        except Exception as exc:
            raise _solving_failed(runs, _why(exc)) from exc
        self._done.append((key, result))

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        done, self._done = self._done, []
        return done

    def close(self, abort: bool) -> None:
        self._done.clear()


_Reply = tuple[int, Runs, Any, str | None]
"""A worker thread's answer: the batch's key and runs, its result or its error."""


class ThreadPool:
    """``workers`` threads of this process, each running ``task`` on the batches queued
    for it: for batches the compiled core solves (``solve_batch`` without rating or the
    short search), which hold the GIL only to start a block of deals and to make its
    result.  Against worker processes: no forkserver, no second import of the package,
    no pipes, no pickling (FreeCell 1-32000 on two workers took about 0.9 s of CPU more
    than on one that way; bench/README.md, "Whole processes").

    The threads are daemons.  Ctrl+C reaches the main thread, which stores what is
    finished and ends the process, and the batches being solved end with it (as a
    worker process's do when it is killed); a survey stopped in a process that goes on
    (the API) lets each thread finish the call of the core it is in and take no other.
    An error in a batch is reported as :class:`InlinePool` reports it."""

    def __init__(self, workers: int, task: Callable[..., Any]) -> None:
        self._task = task
        self._todo: queue.SimpleQueue[tuple[int, Runs, tuple[Any, ...]] | None] = (
            queue.SimpleQueue()
        )
        self._done: queue.SimpleQueue[_Reply] = queue.SimpleQueue()
        self._closed = threading.Event()
        self._threads = [
            threading.Thread(target=self._work, name=f"eightoff-survey-{i + 1}", daemon=True)
            for i in range(workers)
        ]
        for thread in self._threads:
            thread.start()
        self.capacity = PER_WORKER * workers
        self.description = f"local:{workers}"

    def _work(self) -> None:
        """A thread's loop: take a batch, solve it, hand back (key, runs, result, error)."""
        while True:
            item = self._todo.get()
            if item is None or self._closed.is_set():
                return
            key, runs, args = item
            try:
                reply: _Reply = (key, runs, self._task(*args), None)
            except Exception as exc:
                reply = (key, runs, None, _why(exc))
            self._done.put(reply)

    def submit(self, key: int, runs: Runs, args: tuple[Any, ...]) -> None:
        self._todo.put((key, runs, args))

    def wait(self, timeout: float) -> list[tuple[int, Any]]:
        done: list[tuple[int, Any]] = []
        try:
            reply = self._done.get(timeout=timeout)
            while True:
                key, runs, result, error = reply
                if error is not None:
                    raise _solving_failed(runs, error)
                done.append((key, result))
                reply = self._done.get_nowait()
        except queue.Empty:
            return done

    def close(self, abort: bool) -> None:
        if abort:
            self._closed.set()
        for _ in self._threads:
            self._todo.put(None)
        if not abort:
            for thread in self._threads:
                thread.join()
