"""``eightoff survey START END --par``: par for every deal of a range, in the survey store.

Each deal's par (:func:`eightoff.solver.optimal.optimal`, in player or single-card
moves) is stored in ``survey_par`` (:mod:`eightoff.survey.store`), proven or as its
bounds, beside the deal's verdict and apart per count.  Resumable: a deal whose par is
stored is skipped, so a run stopped half-way goes on with the deals not searched yet;
with ``retry_unknown`` (``--retry-unknown``, e.g. with a larger ``--time-limit``) a deal
stored unproven is searched again and keeps the tighter bounds.  Runs on local worker
processes, one deal each at a time; every result is stored as it comes (Ctrl+C keeps
all finished deals: :class:`ParSurveyInterrupted`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Final

from eightoff.counts import MoveCount
from eightoff.rules import Rules

from .store import ParRow, SurveyStore, rules_signature

SURVEY_MEMORY_MB: Final = 1024
"""The memory a survey's par search takes a deal by default (one per worker)."""


@dataclass(frozen=True, slots=True)
class ParRun:
    """What a par survey did: deals searched this run, and among them those whose par
    was proven and those proven lost; deals skipped as stored before, and the same two
    counts among them."""

    total: int
    already: int
    searched: int
    proven: int
    """Deals searched this run whose par was proven (not those proven lost)."""
    db: str
    proven_before: int = 0
    lost: int = 0
    """Deals searched this run proven lost: no solution, so no par."""
    lost_before: int = 0


class ParSurveyInterrupted(KeyboardInterrupt):
    """Ctrl+C (or SIGTERM) stopped a par survey: what it had done (every finished deal
    is stored)."""

    def __init__(self, done: ParRun) -> None:
        super().__init__()
        self.done = done


def par_of(rules: Rules, number: int, count: str, seconds: float, memory_mb: int) -> ParRow:
    """One deal's par, as the store keeps it (the task of a worker)."""
    from eightoff.deals import deal
    from eightoff.solver.optimal import ParLimits, optimal

    par = optimal(
        deal(rules, number), MoveCount(count), ParLimits(seconds=seconds, memory_mb=memory_mb)
    )
    return (number, par.optimal, par.lost, par.lower_bound, par.length, par.states, par.seconds)


def run_par_survey(
    start: int,
    end: int,
    rules: Rules,
    *,
    db: str,
    count: MoveCount = MoveCount.PLAYER,
    seconds: float = 10.0,
    memory_mb: int = SURVEY_MEMORY_MB,
    workers: int | None = None,
    retry_unknown: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
) -> ParRun:
    """Search par for the deals start…end with no stored par (with ``retry_unknown``,
    those not proven either); store each as it finishes.  ``progress(done, total,
    proven)`` after each deal."""
    from eightoff.survey import solver_version

    n_workers = workers or max(1, (os.cpu_count() or 1))
    with SurveyStore(db) as store:
        signature = rules_signature(rules)
        store.register_rules(rules)
        stored = store.par_rows(rules.id, signature, count.value, start, end)
        settled = {d for d, optimal, lost, *_ in stored if optimal or lost}
        lost_before = sum(1 for _, _, lost, *_ in stored if lost)
        done = {row[0] for row in stored} if not retry_unknown else settled
        todo = [n for n in range(start, end + 1) if n not in done]
        run = store.start_run(
            solver_version=solver_version(),
            time_limit=seconds,
            state_limit=None,
            backend=f"par ({count.value} moves), local x{n_workers}",
        )
        total = end - start + 1
        searched = proven = lost = 0

        def so_far() -> ParRun:
            before = len(settled) - lost_before
            return ParRun(total, len(done), searched, proven, db, before, lost, lost_before)

        with ProcessPoolExecutor(max_workers=n_workers) as pool:
            queue = iter(todo)
            running: set[Future[ParRow]] = set()

            def fill() -> None:
                while len(running) < n_workers:
                    n = next(queue, None)
                    if n is None:
                        return
                    running.add(pool.submit(par_of, rules, n, count.value, seconds, memory_mb))

            try:
                fill()
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        running.discard(fut)
                        row = fut.result()
                        store.write_par(rules.id, signature, run, count.value, [row])
                        searched += 1
                        lost += row[2]
                        proven += row[1] and not row[2]
                        if progress is not None:
                            progress(len(done) + searched, total, proven)
                    fill()
            except BaseException as stop:
                for fut in running:
                    fut.cancel()
                if isinstance(stop, KeyboardInterrupt):
                    raise ParSurveyInterrupted(so_far()) from None
                raise
    return so_far()
