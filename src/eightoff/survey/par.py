"""``eightoff survey START END --par``: par for every deal of a range, in the survey store.

Each deal's par (:func:`eightoff.solver.optimal.optimal`, in player or single-card
moves) is stored in ``survey_par`` (:mod:`eightoff.survey.store`), proven or as its
bounds, beside the deal's verdict and apart per count.  Resumable: a deal whose par is
stored is skipped, so a run stopped half-way goes on with the deals not searched yet;
with ``retry_unknown`` (``--retry-unknown``, e.g. with a larger ``--time-limit``) a deal
stored unproven is searched again and keeps the tighter bounds.  Runs on local worker
processes (:class:`eightoff.survey.local.LocalPool`) or on a Dask cluster
(:class:`eightoff.survey.cluster.DaskBackend`), one deal a batch; every result is stored
as it comes (Ctrl+C keeps all finished deals: :class:`ParSurveyInterrupted`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from eightoff.counts import MoveCount
from eightoff.rules import Rules

from .store import Claim, ParRow, Runs, SurveyStore, rules_signature

if TYPE_CHECKING:
    from eightoff.survey import Backend

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
    by_others: int = 0
    """Deals of the range that other par surveys on the same store stored (or still
    hold claimed) while this one ran: work shared, not repeated."""


@dataclass(frozen=True, slots=True)
class ParProgress:
    """Where a par survey stands: deals done (stored before and this run), the range,
    deals proven this run, and the deals another survey holds while this one waits for
    them (0 while it searches)."""

    done: int
    total: int
    proven: int
    waiting: int = 0


class ParSurveyInterrupted(KeyboardInterrupt):
    """Ctrl+C (or SIGTERM) stopped a par survey: what it had done (every finished deal
    is stored)."""

    def __init__(self, done: ParRun) -> None:
        super().__init__()
        self.done = done


class ParBatch(NamedTuple):
    """What a worker hands back for a batch of deals: the solver version that searched
    them (a cluster's workers must run this machine's) and a row a deal."""

    solver: str
    rows: list[ParRow]


def par_batch(rules: Rules, runs: Runs, count: str, seconds: float, memory_mb: int) -> ParBatch:
    """The par of each deal of ``runs``, as the store keeps it (the task of a worker)."""
    from eightoff.deals import deal
    from eightoff.solver.optimal import ParLimits, optimal
    from eightoff.survey import solver_version

    rows: list[ParRow] = []
    limits = ParLimits(seconds=seconds, memory_mb=memory_mb)
    for first, last in runs:
        for number in range(first, last + 1):
            par = optimal(deal(rules, number), MoveCount(count), limits)
            rows.append(
                (
                    number,
                    par.optimal,
                    par.lost,
                    par.lower_bound,
                    par.length,
                    par.states,
                    par.seconds,
                )
            )
    return ParBatch(solver_version(), rows)


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
    scheduler: str | None = None,
    retry_unknown: bool = False,
    progress: Callable[[ParProgress], None] | None = None,
) -> ParRun:
    """Search par for the deals start…end with no stored par (with ``retry_unknown``,
    those not proven either) on ``workers`` local processes or on the Dask cluster at
    ``scheduler``; store each as it finishes.  ``progress`` after each deal, and about
    once a second while this survey waits for deals another survey holds.

    Deals are claimed in the store before they are searched, as a verdict survey claims
    its batches (:meth:`SurveyStore.claim`, apart per count): two par surveys of one
    store share the work, and a survey whose deals are all stored or held by another
    waits for the other's to be stored (or its claims to be taken back when it dies)
    before it ends."""
    from eightoff.survey import solver_version

    backend: Backend[ParBatch]
    if scheduler is not None:
        from eightoff.survey.cluster import DaskBackend

        backend = DaskBackend(scheduler, par_batch)
    else:
        from eightoff.survey.local import LocalPool

        backend = LocalPool(workers or max(1, (os.cpu_count() or 1)), par_batch)
    search = _Search(rules, count, seconds, memory_mb, retry_unknown, solver_version())
    try:
        with SurveyStore(db) as store:
            result = _run(start, end, db, store, backend, search, progress)
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close(abort=False)
    return result


class _Search(NamedTuple):
    """What every deal of a par survey is searched with."""

    rules: Rules
    moves: MoveCount
    seconds: float
    memory_mb: int
    retry_unknown: bool
    version: str


def _run(
    start: int,
    end: int,
    db: str,
    store: SurveyStore,
    backend: Backend[ParBatch],
    search: _Search,
    progress: Callable[[ParProgress], None] | None,
) -> ParRun:
    """The par survey in ``store`` (see :func:`run_par_survey`)."""
    from eightoff.survey import Heartbeat, Kind, same_solver, share_work

    rules, count, seconds, memory_mb, retry_unknown, version = search

    signature = rules_signature(rules)
    store.register_rules(rules)
    before = store.par_rows(rules.id, signature, count.value, start, end)
    settled = {d for d, optimal, lost, *_ in before if optimal or lost}
    lost_before = sum(1 for _, _, lost, *_ in before if lost)
    done = {row[0] for row in before} if not retry_unknown else settled
    run = store.start_run(
        solver_version=version,
        time_limit=seconds,
        state_limit=None,
        backend=f"par ({count.value} moves), {backend.description}",
    )
    total = end - start + 1
    searched = proven = lost = by_others = 0
    kept = 0  # deals searched this run that count as done (with retry_unknown: settled)

    def so_far() -> ParRun:
        proven_before = len(settled) - lost_before
        return ParRun(
            total, len(done), searched, proven, db, proven_before, lost, lost_before, by_others
        )

    def tell(waiting: int = 0) -> None:
        if progress is not None:
            progress(ParProgress(len(done) + searched, total, proven, waiting))

    def submitted(claim: Claim) -> tuple[Any, ...]:
        return (rules, claim.runs, count.value, seconds, memory_mb)

    def stored(runs: Runs, batch: ParBatch) -> None:
        nonlocal searched, lost, proven, kept
        same_solver(batch.solver, version)
        store.write_par(rules.id, signature, run, count.value, batch.rows, claimed=(owner, runs))
        for row in batch.rows:
            searched += 1
            lost += row[2]
            proven += row[1] and not row[2]
            kept += not retry_unknown or row[1] or row[2]
        tell()

    owner = store.register_owner()
    beats = Heartbeat(store, owner)
    try:
        kind = Kind(rules.id, signature, retry_unknown, par=count.value)
        share_work(store, owner, backend, kind, start, end, size=lambda: 1,
                   submitted=submitted, stored=stored, waiting=tell)  # fmt: skip
    except KeyboardInterrupt:
        raise ParSurveyInterrupted(so_far()) from None
    finally:
        beats.stop()  # before the owner is released: a renewal after would record it again
        store.release(owner)
    now = store.stored_or_claimed(
        rules.id, signature, start, end, retry_unknown=retry_unknown, par=count.value
    )  # claimed: still being searched by another survey
    by_others = max(0, now - len(done) - kept)
    return so_far()
