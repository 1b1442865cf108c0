"""Surveys: a proven verdict for every deal of a range, stored so that no work is lost.

>>> from eightoff.survey import run_survey, build_report         # doctest: +SKIP
>>> run_survey(1, 10_000, "eightoff", db="survey.sqlite3")        # doctest: +SKIP
>>> build_report("survey.sqlite3", "eightoff").ci95               # doctest: +SKIP

* Work goes out in batches of deal numbers (runs of consecutive numbers, never
  Positions): each worker deals, solves and replays a run of deals in one call of the
  compiled core and sends back its arrays (no Python object per deal); the parent
  stores each finished batch in one transaction, a few hundred rows per statement.
* Locally one worker per core by default: threads of this process where the core
  does the work (it lets go of the GIL for a whole block of deals), worker processes
  where rating or the short search runs Python per deal, and with one worker this
  process itself, nothing to start (:mod:`eightoff.survey.local`); with
  ``scheduler="tcp://host:port"`` the same batches go to an existing Dask
  ``distributed`` cluster (the ``eightoff[dask]`` extra) and give the same rows.
* Deals already stored are skipped: running the same survey again completes
  exactly what is missing. Deals are claimed in the store before they go out, so
  two surveys over overlapping ranges on one store share the work (neither solves
  a deal the other has claimed). A survey does not finish while deals of its range
  are only claimed by another: it waits for them to be stored, and takes over the
  claims of a survey that died (its process gone from this host, or on another host
  no heartbeat for :data:`~eightoff.survey.store.STALE_SECONDS`, the lease; a live
  survey renews it every :data:`~eightoff.survey.store.HEARTBEAT_SECONDS`). So
  "stored by another survey" counts only deals the other one stored.
  Ctrl+C keeps every finished batch (it raises :class:`SurveyInterrupted`, which
  says what was saved); SIGKILL loses at most the batches in flight.
* With ``rate=True`` (``eightoff survey --rate``) each worker also rates every deal
  it solves (:func:`eightoff.rating.rate`: level, score, formula version) and the
  rating is stored with the verdict. A deal the survey proves lost is "Not
  winnable" without more work; rating costs about 12 ms of CPU per Eight Off deal
  against about 0.3 ms for the survey's solve, so it is optional. A rating survey
  also rates the deals of its range stored without a rating, or with a rating of
  an older formula (:func:`eightoff.rating.formula_version`): they are claimed and
  shared like unsolved deals, and keep their stored verdict (not solved again).
* Batch size adapts to the solver's speed so each batch takes about two seconds
  (five on a cluster), between 1 and 8000 deals, smaller near the end of the range
  so that every worker stays busy.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypeVar

from eightoff._lazy import lazy_names
from eightoff.deals import deal as deal_position
from eightoff.i18n import Message
from eightoff.rules import Rules, UnknownVariantError, preset
from eightoff.solver import (
    DEFAULT_LIMITS,
    DealBlock,
    Limits,
    SolutionError,
    available_cores,
    played,
    solve,
    solve_deals,
    verdict_of,
)
from eightoff.solver._core import REPLAY_FAILED, STATUS
from eightoff.store.db import StoreError
from eightoff.survey.errors import (
    SurveyError,
    SurveyRangeError,
    SurveyUnavailableError,
    SurveyWorkerError,
)
from eightoff.survey.store import (
    HEARTBEAT_SECONDS,
    MAX_STORED_DEAL,
    Claim,
    Counts,
    RatingRow,
    Row,
    RowBlock,
    Runs,
    SurveyStore,
    default_store_path,
    rules_signature,
)
from eightoff.verdict import Verdict

if TYPE_CHECKING:
    from eightoff.survey.report import SurveyReport, build_report, wilson_interval, write_png

# the report's names (those of __all__ not defined here): a survey that runs never loads
# them (eightoff._lazy)
__getattr__ = lazy_names(__name__, "eightoff.survey.report")

__all__ = [
    "MAX_BATCH",
    "BatchResult",
    "Counts",
    "Progress",
    "StoreError",
    "SurveyError",
    "SurveyInterrupted",
    "SurveyRangeError",
    "SurveyReport",
    "SurveyRun",
    "SurveyStore",
    "SurveyUnavailableError",
    "SurveyWorkerError",
    "UnknownVariantError",
    "build_report",
    "check_range",
    "default_store_path",
    "default_workers",
    "rules_signature",
    "run_survey",
    "solve_batch",
    "solver_version",
    "wilson_interval",
    "write_png",
]

MAX_BATCH: Final = 8000
"""The most deals in a batch. What a batch costs the parent whatever its size (its
claim, its transactions, the round trip) is then spread over more deals (the parent's
CPU a deal 5.6 -> 4.6 µs from 2000 to 4000 on Eight Off); 8000 Eight Off deals are
about 1.4 s of a worker."""
LOCAL_BATCH_SECONDS: Final = 2.0
CLUSTER_BATCH_SECONDS: Final = 5.0
CLAIM_POLL_SECONDS: Final = 1.0
"""How often a survey with nothing left to claim looks again at another survey's claims."""


class BatchResult(NamedTuple):
    """What a worker sends back for one batch."""

    rows: list[Row]
    """The deals solved one by one (a rating or ``short`` survey); the batch path's are
    in ``blocks``."""
    seconds: float
    """Wall time of the whole batch in the worker (dealing included)."""
    solver: str = ""
    """The worker's :func:`solver_version` (a cluster's workers may differ from here)."""
    cpu_seconds: float = 0.0
    """CPU time the worker spent on the batch (unlike wall time, not inflated when
    other programs share the cores)."""
    ratings: tuple[RatingRow, ...] = ()
    """The deals' ratings, when the survey rates (else empty)."""
    rated_only: int = 0
    """Deals of the batch that had a stored verdict and were only rated (no row)."""
    errors: tuple[tuple[int, str], ...] = ()
    """Deals the solver answered with a solution the replay refused (a bug, never a
    verdict): (deal, what was wrong). They get no row, so a later run tries again."""
    blocks: tuple[DealBlock, ...] = ()
    """The batch path's deals (besides ``rows``): each call of the core's arrays as it
    returned them, no Python object per deal (a deal in ``errors`` among them gets no
    row)."""

    @property
    def deals(self) -> int:
        """The deals the batch solved (or only rated)."""
        return len(self.rows) + sum(len(b.status) for b in self.blocks) + self.rated_only

    def row_blocks(self) -> list[RowBlock]:
        """``blocks`` as the store takes them: verdicts for statuses, the deals whose
        solution the replay refused left out."""
        out: list[RowBlock] = []
        for b in self.blocks:
            status = b.status
            start = 0
            while start < len(status):
                try:  # a refused solution is a bug: almost never, so cut around it
                    stop = status.index(REPLAY_FAILED, start)
                except ValueError:
                    stop = len(status)
                if stop > start:
                    verdicts = list(map(_WORD_BY_STATUS.__getitem__, status[start:stop]))
                    out.append(
                        RowBlock(
                            b.first + start,
                            verdicts,
                            b.lengths[start:stop],
                            b.states[start:stop],
                            b.seconds[start:stop],
                            b.player_moves[start:stop],
                            b.single_card_moves[start:stop],
                        )
                    )
                start = stop + 1
        return out


@functools.cache
def solver_version() -> str:
    """The version of the solver that decides the verdicts, stored with every row.

    ``eightoff.solver.SOLVER_VERSION`` (or its ``__version__``) when the solver
    module declares one. Otherwise the eightoff package version plus the compiled
    core's build (:func:`eightoff.solver.core_build`: a hash of the sources it was
    compiled from) and the plans' (:func:`eightoff.solver.plans.plans_id`: a hash of
    the searches they run), so that results from two different builds or plans are
    never stored as one version, and the same code built in two checkouts is one.
    """
    import eightoff
    import eightoff.solver as solver_module
    from eightoff.solver.plans import plans_id

    for name in ("SOLVER_VERSION", "__version__"):
        value = getattr(solver_module, name, None)
        if value:
            return str(value)
    version = f"eightoff {eightoff.__version__}"
    build = solver_module.core_build()
    plans = f"plans {plans_id()}"
    return f"{version} {plans}" if build == "unknown" else f"{version} core {build} {plans}"


def _in_the_core(rate: bool, limits: Limits) -> bool:
    """Whether :func:`solve_batch` solves a batch in the compiled core, one call per run
    of deals (no rating, no short search): then it holds the GIL only between calls, and
    a survey's workers can be threads of its process."""
    return not rate and not limits.short


def solve_batch(
    rules: Rules,
    runs: tuple[tuple[int, int], ...],
    limits: Limits,
    rate: bool = False,
    stored: tuple[tuple[int, Verdict], ...] = (),
) -> BatchResult:
    """Deal and solve every deal in ``runs`` (inclusive (first, last) pairs); with
    ``rate``, rate each one too (a deal proven lost is "Not winnable" at once).
    ``stored``: deals of ``runs`` with a verdict in the store, with it; with ``rate``
    they are rated only (no row: their verdict is kept), else left out.

    This is the task a worker runs, locally or on a Dask cluster.
    """
    if _in_the_core(rate, limits):
        return _solve_blocks(rules, runs, limits, stored)
    from eightoff.rating import Level, formula_version
    from eightoff.rating import rate as rate_position

    not_winnable = (Level.NOT_WINNABLE.value, 0.0, formula_version(rules.id))
    known = dict(stored)
    rated_only = 0

    t0 = time.perf_counter()
    c0 = time.thread_time()
    rows: list[Row] = []
    ratings: list[RatingRow] = []
    errors: list[tuple[int, str]] = []
    for first, last in runs:
        for number in range(first, last + 1):
            verdict = known.get(number)
            if verdict is not None and not rate:
                continue
            rated_only += verdict is not None
            try:
                if verdict == Verdict.LOST:  # stored as proven lost: nothing to measure
                    ratings.append((number, *not_winnable))
                    continue
                position = deal_position(rules, number)
                if verdict is None:
                    try:
                        result = solve(position, limits)
                        found = result.verdict
                        length = player = single = None
                        if found is Verdict.SOLVED:
                            length = len(result.moves)
                            counts = played(position, result.moves).counts
                            player, single = counts.player, counts.single_card
                    except SolutionError as exc:  # recorded, reported at the end; go on
                        errors.append((number, str(exc)))
                        continue
                    rows.append(
                        (number, found, length, result.states, result.seconds, player, single)
                    )
                if rate and verdict is None and found is Verdict.LOST:
                    ratings.append((number, *not_winnable))
                elif rate:
                    rating = rate_position(position)
                    ratings.append((number, rating.level.value, rating.score, rating.formula))
            except Exception as exc:
                raise RuntimeError(
                    f"deal {number} of {rules.id}: {type(exc).__name__}: {exc}"
                ) from exc
    return BatchResult(
        rows,
        time.perf_counter() - t0,
        solver_version(),
        time.thread_time() - c0,
        tuple(ratings),
        rated_only,
        tuple(errors),
    )


_WORD_BY_STATUS: Final = tuple(verdict_of(code).value for code in range(max(STATUS) + 1))
"""The verdict of each status of the compiled core (solver.solve_deals), by its code:
every status the core has (a hand-made tuple missed the disk limit, 7, and a survey
whose deal ended there stopped with an IndexError)."""


def _solve_blocks(
    rules: Rules,
    runs: tuple[tuple[int, int], ...],
    limits: Limits,
    stored: tuple[tuple[int, Verdict], ...],
) -> BatchResult:
    """The worker's fast path: each run of deals (less the stored ones) dealt, solved and
    replayed in one call of the compiled core; its arrays go back as they are."""
    t0 = time.perf_counter()
    c0 = time.thread_time()
    known = {number for number, _ in stored}
    blocks: list[DealBlock] = []
    errors: list[tuple[int, str]] = []
    for first, last in runs:
        for a, b in _without(first, last, known):
            try:
                block = solve_deals(rules, a, b - a + 1, limits)
            except Exception as exc:
                raise RuntimeError(
                    f"deals {a}-{b} of {rules.id}: {type(exc).__name__}: {exc}"
                ) from exc
            blocks.append(block)
            if REPLAY_FAILED in block.status:  # a bug, never a verdict: no row, reported
                errors += [
                    (a + i, f"{rules.name} deal #{a + i}: the solver's solution is refused at"
                     f" move {block.lengths[i] + 1} by the compiled replay")
                    for i, code in enumerate(block.status)
                    if code == REPLAY_FAILED
                ]  # fmt: skip
    return BatchResult(
        [],
        time.perf_counter() - t0,
        solver_version(),
        time.thread_time() - c0,
        errors=tuple(errors),
        blocks=tuple(blocks),
    )


def _without(first: int, last: int, known: set[int]) -> list[tuple[int, int]]:
    """first…last as runs of consecutive numbers, leaving out those in ``known``."""
    if not known:
        return [(first, last)]
    out: list[tuple[int, int]] = []
    a = first
    for number in sorted(n for n in known if first <= n <= last):
        if number > a:
            out.append((a, number - 1))
        a = number + 1
    if a <= last:
        out.append((a, last))
    return out


def default_workers() -> int:
    """One worker per core this process may use."""
    return available_cores()


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a survey stands; passed to the progress callback after each batch."""

    total: int
    """Deals in the range."""
    done: int
    """Deals of the range stored (before this run and by it)."""
    new: Counts
    """Verdicts stored by this run so far."""
    waiting: int = 0
    """Deals of the range another survey holds claimed while this one, with nothing
    left to claim, waits for them to be stored (0 while it solves)."""


@dataclass(frozen=True, slots=True)
class SurveyRun:
    """What one call of :func:`run_survey` did."""

    variant: str
    start: int
    end: int
    db: str
    already: int
    """Deals of the range that were stored before (skipped)."""
    new: Counts
    """Verdicts this run stored."""
    seconds: float
    """Wall time of this run."""
    backend: str
    interrupted: bool = False
    cpu_seconds: float = 0.0
    """CPU time the workers spent on this run's deals (dealing and solving)."""
    by_others: int = 0
    """Deals of the range that other surveys on the same store stored (or still hold
    claimed) while this one ran: work shared, not repeated."""
    rated_only: int = 0
    """Deals stored before with a verdict but no rating of the current formula that
    this run rated (``rate``), keeping their verdict."""
    errors: tuple[tuple[int, str], ...] = ()
    """Deals left without a verdict because the solver's solution failed its replay
    (a bug in the solver, never a verdict): (deal, what was wrong), in deal order. They
    are not stored: running the survey again tries them again."""

    @property
    def total(self) -> int:
        return self.end - self.start + 1

    @property
    def complete(self) -> bool:
        done = self.already + self.new.total + self.rated_only + self.by_others
        return not self.errors and done >= self.total

    @property
    def rate(self) -> float:
        """Deals solved per second of wall time in this run."""
        return self.new.total / self.seconds if self.seconds > 0 else 0.0


class SurveyInterrupted(KeyboardInterrupt):
    """Ctrl+C (or SIGTERM) stopped a survey; ``run`` says what was saved."""

    def __init__(self, run: SurveyRun) -> None:
        super().__init__(f"interrupted: {run.new.total} deals saved this run")
        self.run = run


_Result = TypeVar("_Result")


class Backend(Protocol[_Result]):
    """Where a survey's batches run (:mod:`eightoff.survey.local`,
    :mod:`eightoff.survey.cluster`): a verdict survey's and a par survey's alike."""

    @property
    def capacity(self) -> int: ...

    @property
    def description(self) -> str: ...

    def submit(self, key: int, runs: Runs, args: tuple[Any, ...]) -> None:
        """Run the backend's task on ``args`` for the batch of deals ``runs``."""

    def wait(self, timeout: float) -> list[tuple[int, _Result]]: ...

    def close(self, abort: bool) -> None: ...


def check_range(start: int, end: int) -> None:
    """Raise SurveyRangeError unless 1 ≤ start ≤ end ≤ the store's largest deal."""
    for name, value in (("START", start), ("END", end)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SurveyRangeError(Message("survey.range.whole", name=name, value=repr(value)))
    if start < 1:
        raise SurveyRangeError(Message("survey.range.start", start=start))
    if end < start:
        raise SurveyRangeError(Message("survey.range.backwards", start=start, end=end))
    if end > MAX_STORED_DEAL:
        raise SurveyRangeError(Message("survey.range.end", most=MAX_STORED_DEAL, end=end))


def _resolve_rules(variant: str | Rules) -> Rules:
    return preset(variant) if isinstance(variant, str) else variant


def same_solver(theirs: str, ours: str) -> None:
    """Raise SurveyWorkerError unless a batch was solved by this machine's solver (a
    cluster's workers must run the same eightoff: what is stored names one version)."""
    if theirs != ours:
        raise SurveyWorkerError(
            f"the workers run solver version {theirs!r} but this"
            f" machine has {ours!r}: install the same eightoff on both"
        )


class Heartbeat:
    """Renews a survey owner's heartbeat every HEARTBEAT_SECONDS from a thread of its
    own (the compiled search lets it run) until :meth:`stop`; a store that is busy
    or failing is left to the survey's own next write to report."""

    def __init__(self, store: SurveyStore, owner: int) -> None:
        self._store = store
        self._owner = owner
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="survey-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(HEARTBEAT_SECONDS):
            with contextlib.suppress(StoreError):
                self._store.heartbeat(self._owner)

    def stop(self) -> None:
        """Stop renewing (before the owner is released: a renewal after it would
        record the owner again)."""
        self._stopped.set()
        self._thread.join()


class Kind(NamedTuple):
    """Which deals a survey claims (:meth:`SurveyStore.claim`): those of ``variant``
    and the rules ``signature`` not done yet, as ``retry_unknown``, ``formula`` (a
    rating survey's) and ``par`` (a par survey's count) say."""

    variant: str
    signature: str
    retry_unknown: bool = False
    formula: str | None = None
    par: str | None = None


def share_work(
    store: SurveyStore,
    owner: int,
    backend: Backend[_Result],
    kind: Kind,
    start: int,
    end: int,
    *,
    size: Callable[[], int],
    submitted: Callable[[Claim], tuple[Any, ...]],
    stored: Callable[[Runs, _Result], None],
    waiting: Callable[[int], None],
) -> None:
    """A survey's work, shared with the other surveys of ``store``: claim batches of
    start…end for ``owner`` (``size()`` deals at most, lowest first, skipping what is
    done or claimed by others), keep ``backend`` busy with them (the task's arguments
    ``submitted(claim)``) and hand each finished batch to ``stored(runs, result)``,
    which stores it with its claim; until every deal of the range is stored. While the
    rest is only claimed by other surveys, ``waiting(deals they hold)`` about once a
    second, and look again: when they are stored they are done, and when their owner
    dies (no heartbeat within the lease) :meth:`SurveyStore.claim` takes them."""
    in_flight: dict[int, Runs] = {}
    key = 0
    cursor = start
    exhausted = False  # nothing to claim now: the rest is stored or claimed
    polled = time.monotonic()
    variant, signature, retry_unknown, formula, par = kind
    while True:
        if exhausted and time.monotonic() - polled >= CLAIM_POLL_SECONDS:
            exhausted = False
        while not exhausted and cursor <= end and len(in_flight) < backend.capacity:
            claim = store.claim(owner, variant, signature, cursor, end, size(),
                                retry_unknown=retry_unknown, formula=formula, par=par)  # fmt: skip
            cursor = claim.cursor
            if not claim.runs:
                exhausted = True  # the rest is stored, or claimed by live surveys
                polled = time.monotonic()
                break
            backend.submit(key, claim.runs, submitted(claim))
            in_flight[key] = claim.runs
            key += 1
        if not in_flight:
            if cursor > end:
                return  # every deal of the range is stored
            waiting(store.claimed_by_others(owner, variant, signature, cursor, end, par=par))
            time.sleep(CLAIM_POLL_SECONDS)  # wait for the other survey's claims
            continue
        for finished, result in backend.wait(0.5):
            stored(in_flight.pop(finished), result)


def run_survey(
    start: int,
    end: int,
    variant: str | Rules = "eightoff",
    *,
    db: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    batch_size: int | None = None,
    retry_unknown: bool = False,
    rate: bool = False,
    progress: Callable[[Progress], None] | None = None,
    on_start: Callable[[Progress], None] | None = None,
) -> SurveyRun:
    """Give every deal of start…end a verdict and store it in ``db``.

    Deals already stored are skipped (with ``retry_unknown``, deals stored as
    'unknown' are solved again and upgraded). With ``rate``, each deal solved is rated
    too and its rating stored with its verdict, and the deals of the range stored
    without a rating of the current formula are rated (their verdicts kept; deals
    rated with it are skipped). ``progress`` is called after every
    stored batch, ``on_start`` once before solving starts (both with a
    :class:`Progress`). Raises :class:`SurveyRangeError`, ``UnknownVariantError``,
    :class:`StoreError`, :class:`SurveyUnavailableError`, :class:`SurveyWorkerError`;
    Ctrl+C raises :class:`SurveyInterrupted` after the finished batches are stored.
    """
    check_range(start, end)
    rules = _resolve_rules(variant)
    if workers is not None and workers < 1:
        raise SurveyError(Message("survey.workers_at_least", n=workers))
    if batch_size is not None and batch_size < 1:
        raise SurveyError(Message("survey.batch_at_least", n=batch_size))
    if scheduler is not None and workers is not None:
        raise SurveyError(Message("survey.workers_or_cluster"))
    if rate and rules.cells_changed:  # its levels would be stored as if they were
        raise SurveyError(Message("survey.rate_cells", variant=rules.name))
    path = default_store_path() if db is None else Path(db)
    formula: str | None = None
    if rate:
        from eightoff.rating import formula_version

        formula = formula_version(rules.id)
    t0 = time.perf_counter()
    with SurveyStore(path) as store:
        signature = store.register_rules(rules)
        pending = store.pending(
            rules.id, signature, start, end, retry_unknown=retry_unknown, formula=formula
        )
        total = end - start + 1
        already = total - pending.remaining
        new = Counts()
        if on_start is not None:
            on_start(Progress(total, already, new))
        if not pending:
            return SurveyRun(rules.id, start, end, str(path), already, new, 0.0, "none")

        backend: Backend[BatchResult]
        if scheduler is not None:
            from eightoff.survey.cluster import DaskBackend

            backend = DaskBackend(scheduler, solve_batch)
            target = CLUSTER_BATCH_SECONDS
        else:
            from eightoff.survey.local import InlinePool, LocalPool, ThreadPool

            count = workers or default_workers()
            if count == 1:
                backend = InlinePool(solve_batch)
            elif _in_the_core(rate, limits):  # a block at a time, without the GIL
                backend = ThreadPool(count, solve_batch)
            else:  # Python per deal: processes, not threads
                backend = LocalPool(count, solve_batch)
            target = LOCAL_BATCH_SECONDS
        version = solver_version()
        try:
            run_id = store.start_run(
                solver_version=version,
                time_limit=limits.seconds,
                state_limit=limits.states,
                backend=backend.description,
            )
            owner = store.register_owner()
        except BaseException:
            backend.close(abort=True)
            raise
        # renewed from a thread, so that a batch solved in this process (--workers 1)
        # for longer than the lease never looks dead to a survey on another host
        beats = Heartbeat(store, owner)

        work_seconds = 0.0
        work_cpu = 0.0
        work_deals = 0
        largest_done = 0
        tally = dict.fromkeys(Verdict, 0)
        rated_only = 0
        errors: list[tuple[int, str]] = []
        remaining = pending.remaining  # this run's view: not stored, not claimed by it
        others = 0

        def next_size() -> int:
            if batch_size is not None:
                return batch_size
            if work_deals == 0:
                size = 4  # small first batches measure the solver's speed
            else:
                per_deal = max(work_seconds / work_deals, 1e-6)
                # Solve times are heavy-tailed (a few deals take 10^4 times the median),
                # so the estimate from a few easy deals is too low: grow at most 2× per
                # finished batch while the mean settles.
                size = min(round(target / per_deal), 2 * largest_done)
            # Near the end, smaller batches so that all workers stay busy.
            share = math.ceil(remaining / backend.capacity)
            return max(1, min(size, MAX_BATCH, share))

        def summary(interrupted: bool = False) -> SurveyRun:
            return SurveyRun(
                rules.id,
                start,
                end,
                str(path),
                already,
                Counts.of(tally),
                time.perf_counter() - t0,
                backend.description,
                interrupted,
                work_cpu,
                others,
                rated_only,
                tuple(sorted(errors)),
            )

        def submitted(claim: Claim) -> tuple[Any, ...]:
            nonlocal remaining
            remaining -= sum(b - a + 1 for a, b in claim.runs)
            return (rules, claim.runs, limits, rate, claim.stored)

        def stored(runs: Runs, result: BatchResult) -> None:
            nonlocal work_seconds, work_cpu, work_deals, largest_done, rated_only
            same_solver(result.solver, version)
            blocks = result.row_blocks()
            store.write(
                rules.id,
                signature,
                run_id,
                result.rows,
                blocks=blocks,
                claimed=(owner, runs),
                ratings=result.ratings,
            )
            work_seconds += result.seconds
            work_cpu += result.cpu_seconds
            work_deals += result.deals
            largest_done = max(largest_done, result.deals)
            rated_only += result.rated_only
            errors.extend(result.errors)
            for row in result.rows:
                tally[row[1]] += 1
            for block in blocks:
                for verdict in Verdict:
                    tally[verdict] += block.verdicts.count(verdict)
            tell()

        def tell(waiting: int = 0) -> None:
            if progress is not None:
                done = already + sum(tally.values()) + rated_only
                progress(Progress(total, done, summary().new, waiting))

        try:
            share_work(
                store,
                owner,
                backend,
                Kind(rules.id, signature, retry_unknown, formula),
                start,
                end,
                size=next_size,
                submitted=submitted,
                stored=stored,
                waiting=tell,
            )
        except KeyboardInterrupt:
            backend.close(abort=True)
            beats.stop()
            store.release(owner)
            # A batch may have been committed just before Ctrl+C was felt, its tally not
            # yet counted: the store says what this run saved.
            saved = store.run_counts(run_id)
            tally.update(saved.by_verdict())
            raise SurveyInterrupted(summary(interrupted=True)) from None
        except BaseException:
            backend.close(abort=True)
            beats.stop()
            store.release(owner)
            raise
        backend.close(abort=False)
        beats.stop()
        store.release(owner)
        done = store.stored_or_claimed(
            rules.id, signature, start, end, retry_unknown=retry_unknown, formula=formula
        )  # claimed: still being solved by another survey
        # With retry_unknown, a deal this run left unknown is not among ``done`` (it is
        # still to do), so only the deals it decided are subtracted.
        counted = sum(n for v, n in tally.items() if not retry_unknown or v != Verdict.UNKNOWN)
        others = done - already - counted - rated_only
        return summary()
