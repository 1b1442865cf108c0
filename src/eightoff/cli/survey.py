"""``eightoff survey``: run a range of deals, report on a store, export it.

    eightoff survey START END [--variant ID] [--workers N] [--db FILE]
                              [--scheduler ADDRESS] [--time-limit S] [...]
    eightoff survey report [--db FILE] [--variant ID] [--json] [--png FILE]
    eightoff survey export --csv FILE [--db FILE]

Exit codes: 0 done; 64 bad usage (range, variant, options); 66 no such store;
69 Dask or the scheduler unavailable; 70 a worker failed; 73 cannot write a file;
130 interrupted (finished batches are kept: rerun the same command to continue);
141 the output pipe closed (the table in :mod:`eightoff.cli.exits`).

Bounds: START and END 1 to 2^63 - 1 (the store's integers); --workers 1 to
:data:`MAX_WORKERS_PER_CORE` × the cores (default: one per core); --states 1 to
2^63 - 1; --time-limit more than 0, at most 10^9 s; --batch-size 1 to
:data:`MAX_BATCH_SIZE`.
"""

from __future__ import annotations

import argparse
import csv
import json
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, TextIO

from eightoff.cli import house_rules
from eightoff.cli.exits import (
    EX_CANTCREAT,
    EX_INTERRUPTED,
    EX_NOINPUT,
    EX_OK,
    EX_SOFTWARE,
    EX_UNAVAILABLE,
    EX_USAGE,
    MAX_PATH,
    UsageError,
    fail,
    file_path,
    whole_number,
)
from eightoff.i18n import quote

ACTIONS: Final = ("report", "export")
MAX_WORKERS_PER_CORE: Final = 4
"""--workers may be at most this many times the cores (each worker is a process)."""
MAX_BATCH_SIZE: Final = 100_000

_USAGE: Final = """\
%(prog)s START END [--variant ID] [--workers N] [--db FILE] [--scheduler ADDRESS]
                  [--time-limit S] [--states N] [--batch-size N] [--retry-unknown] [--rate]
       %(prog)s report [--db FILE] [--variant ID] [--json] [--png FILE]
       %(prog)s export --csv FILE [--db FILE]"""

_DESCRIPTION: Final = """\
Solve every deal from START to END (deal numbers, both included) and store each
verdict (solved / lost / unknown) with its solution length, states, seconds,
solver version and rules; with --rate also its difficulty rating (level, score,
rating formula version). Deals already stored are skipped: the same command run
again completes exactly what is missing; with --rate, deals stored unrated (or
rated with an older formula) are rated, keeping their verdicts. Ctrl+C keeps every
finished batch.

'report' summarises a store: winnability with its Wilson 95% interval (unknown
deals counted as wins for the upper bound, as losses for the lower), the lost
deals, the deals per difficulty level (of rated deals), and with --png histograms
of solution length, solve time and levels.
'export' writes every stored row as CSV."""

_EPILOG: Final = """\
examples:
  %(prog)s 1 10000                          Eight Off deals 1-10000, one worker per core
  %(prog)s 1 1000 --variant freecell --db fc.sqlite3
  %(prog)s 1 1000 --rate                    also rate each deal (Easy ... Grandmaster)
  %(prog)s 1 1000000 --scheduler tcp://10.0.0.5:8786   on a Dask cluster
  %(prog)s report --png survey.png
  %(prog)s report --json
  %(prog)s export --csv survey.csv

exit codes: 64 bad usage, 66 no such store, 69 Dask/scheduler unavailable,
70 a worker failed, 73 cannot write a file, 130 interrupted (rerun to continue)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the survey arguments to ``parser`` (the ``survey`` subcommand
    of :mod:`eightoff.cli.app`)."""
    parser.usage = _USAGE
    parser.description = _DESCRIPTION
    parser.epilog = _EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "first",
        metavar="START|report|export",
        help="first deal number of the range, or 'report' or 'export'",
    )
    parser.add_argument(
        "end", metavar="END", nargs="?", help="last deal number of the range (included)"
    )
    common = parser.add_argument_group("store and variant (all forms)")
    common.add_argument(
        "--db",
        metavar="FILE",
        help="the survey store, an SQLite file (default: survey.sqlite3 in eightoff's data folder)",
    )
    common.add_argument(
        "--variant",
        metavar="ID",
        default="eightoff",
        help="the variant's id (default: eightoff); e.g. freecell, bakers-game, seahaven-towers",
    )
    house_rules.add_arguments(common)  # a survey with house rules is stored apart
    run = parser.add_argument_group("running a range (START END)")
    run.add_argument(
        "--workers",
        metavar="N",
        type=str,
        help="local worker processes: 1 to 4 × the cores (default: one per core)",
    )
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://host:8786 (needs eightoff[dask])",
    )
    run.add_argument(
        "--time-limit",
        metavar="S",
        type=str,
        help="seconds per deal before its verdict is 'unknown' (default: the solver's, 60)",
    )
    run.add_argument(
        "--states",
        metavar="N",
        type=str,
        help="states searched per deal before 'unknown' (default: the solver's, 5000000)",
    )
    run.add_argument(
        "--batch-size",
        metavar="N",
        type=str,
        help="deals per batch (default: adaptive, about 2 s of solving per batch, at most 2000)",
    )
    run.add_argument(
        "--retry-unknown",
        action="store_true",
        help="solve again the deals stored as 'unknown' (e.g. with a larger --time-limit)",
    )
    run.add_argument(
        "--rate",
        action="store_true",
        help="also rate each deal (level and score, as 'eightoff rate'), including deals"
        " stored unrated or rated with an older formula (their verdicts are kept);"
        " about 12 ms more CPU per Eight Off deal, some 45 times the solving",
    )
    run.add_argument(
        "--no-progress", action="store_true", help="no live progress bar (one line at the end)"
    )
    rep = parser.add_argument_group("report")
    rep.add_argument("--json", action="store_true", help="print the report as JSON")
    rep.add_argument(
        "--png", metavar="FILE", help="also draw histograms of solution length and solve time"
    )
    exp = parser.add_argument_group("export")
    exp.add_argument("--csv", metavar="FILE", help="write every stored row to FILE ('-': stdout)")


def run(args: argparse.Namespace) -> int:
    """Run ``eightoff survey`` with parsed arguments; return the exit code."""
    from eightoff.rules import UnknownVariantError
    from eightoff.survey import (
        StoreError,
        SurveyError,
        SurveyRangeError,
        SurveyUnavailableError,
        SurveyWorkerError,
    )

    try:
        if args.first == "report":
            return _report(args)
        if args.first == "export":
            return _export(args)
        return _run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EX_INTERRUPTED
    except UsageError as exc:
        return _fail(str(exc), exc.code)
    except (SurveyRangeError, UnknownVariantError) as exc:
        return _fail(str(exc), EX_USAGE)
    except StoreError as exc:
        code = EX_NOINPUT if args.first in ACTIONS else EX_CANTCREAT
        return _fail(str(exc), code)
    except SurveyUnavailableError as exc:
        return _fail(str(exc), EX_UNAVAILABLE)
    except SurveyWorkerError as exc:
        return _fail(str(exc), EX_SOFTWARE)
    except SurveyError as exc:
        return _fail(str(exc), EX_USAGE)


def _fail(message: str, code: int) -> int:
    return fail("eightoff survey", message, code)


def _refuse(args: argparse.Namespace, allowed: set[str], form: str) -> None:
    """Options that belong to another form of the command are a usage error."""
    flags = {
        "end": "END",
        "workers": "--workers",
        "scheduler": "--scheduler",
        "time_limit": "--time-limit",
        "states": "--states",
        "batch_size": "--batch-size",
        "retry_unknown": "--retry-unknown",
        "rate": "--rate",
        "no_progress": "--no-progress",
        "json": "--json",
        "png": "--png",
        "csv": "--csv",
    }
    for dest, flag in flags.items():
        if dest not in allowed and getattr(args, dest, None) not in (None, False):
            raise UsageError(f"{flag} does not apply to '{form}'")


def _whole(text: str | None, what: str, high: int) -> int | None:
    return None if text is None else whole_number(text, what, 1, high)


def _deal_number(text: str, what: str) -> int:
    from eightoff.survey.store import MAX_STORED_DEAL

    try:
        return whole_number(text, what, 1, MAX_STORED_DEAL)
    except UsageError:
        extra = " or the word 'report' or 'export'" if what == "START" else ""
        raise UsageError(
            f"{what} must be a deal number (a whole number from 1 to {MAX_STORED_DEAL}){extra},"
            f" not {quote(text)}"
        ) from None


def _check_db(args: argparse.Namespace) -> None:
    if args.db is not None:
        file_path(args.db, "--db")


# -- START END ------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    from eightoff.rules import preset
    from eightoff.solver import DEFAULT_LIMITS, Limits
    from eightoff.survey import SurveyInterrupted, run_survey

    _refuse(
        args,
        {
            "end",
            "workers",
            "scheduler",
            "time_limit",
            "states",
            "batch_size",
            "retry_unknown",
            "rate",
            "no_progress",
        },
        "START END",
    )
    from eightoff.cli.solve import MAX_STATES, seconds_limit
    from eightoff.survey import default_workers
    from eightoff.survey.cluster import SchedulerAddressError, check_address

    start = _deal_number(args.first, "START")
    if args.end is None:
        raise UsageError(f"give the last deal too: eightoff survey {start} END")
    end = _deal_number(args.end, "END")
    _check_db(args)
    rules = house_rules.apply(preset(args.variant), args)
    workers = _whole(args.workers, "--workers", MAX_WORKERS_PER_CORE * default_workers())
    seconds = None if args.time_limit is None else seconds_limit(args.time_limit)
    states = _whole(args.states, "--states", MAX_STATES)
    batch = _whole(args.batch_size, "--batch-size", MAX_BATCH_SIZE)
    if args.scheduler is not None and workers is not None:
        raise UsageError("--workers is for local runs; a Dask cluster brings its own workers")
    if args.scheduler is not None:
        try:
            check_address(args.scheduler)
        except SchedulerAddressError as e:
            raise UsageError(str(e)) from None
    limits = Limits(
        seconds=DEFAULT_LIMITS.seconds if seconds is None else seconds,
        states=DEFAULT_LIMITS.states if states is None else states,
    )
    from eightoff.survey import check_range

    check_range(start, end)
    with (
        _ProgressBar(f"{rules.name} {start}–{end}", enabled=not args.no_progress) as bar,
        _sigterm_as_interrupt(),
    ):
        try:
            result = run_survey(
                start,
                end,
                rules,
                db=args.db,
                workers=workers,
                scheduler=args.scheduler,
                limits=limits,
                batch_size=batch,
                retry_unknown=args.retry_unknown,
                rate=args.rate,
                progress=bar.update,
                on_start=bar.start,
            )
        except SurveyInterrupted as stop:
            bar.close()
            r = stop.run
            rated = f", {r.rated_only} stored deals rated" if r.rated_only else ""
            print(
                f"interrupted: {r.new.total} deals saved this run{rated},"
                f" {r.already + r.new.total + r.rated_only} of {r.total} stored;"
                " run the same command again to continue",
                file=sys.stderr,
            )
            return EX_INTERRUPTED
    n = result.new
    where = f" into {result.db}"
    shared = (
        f"; {result.by_others} solved by another survey on this store at the same time"
        if result.by_others
        else ""
    )
    rated = (
        f"; {result.rated_only} deals stored before were rated (their verdicts kept)"
        if result.rated_only
        else ""
    )
    if n.total == 0 and result.rated_only:
        print(
            f"{rules.name} {start}–{end}: {result.rated_only} stored deals rated in"
            f" {result.seconds:.1f} s ({result.backend}), their verdicts kept;"
            f" {result.already} were already rated{where}{shared}"
        )
    elif n.total == 0 and not result.by_others:
        done = "stored and rated" if args.rate else "stored"
        print(f"{rules.name} {start}–{end}: all {result.total} deals already {done}{where}")
    elif n.total == 0:
        print(
            f"{rules.name} {start}–{end}: nothing left for this run: {result.already} were"
            f" already stored{where}{shared}"
        )
    else:
        print(
            f"{rules.name} {start}–{end}: {n.total} deals solved in {result.seconds:.1f} s"
            f" ({result.rate:.1f} deals/s, {result.backend};"
            f" {1000 * result.cpu_seconds / n.total:.2f} ms of worker CPU per deal):"
            f" {n.solved} solved, {n.lost} lost, {n.unknown} unknown;"
            f" {result.already} were already stored{where}{rated}{shared}"
        )
    if result.errors:
        return _report_errors(rules.name, result.errors)
    return EX_OK


def _report_errors(name: str, errors: tuple[tuple[int, str], ...]) -> int:
    """The deals a survey left without a verdict because the solver's solution failed
    its replay: one line saying which, what was wrong with the first, that nothing of
    theirs was stored and a rerun tries them again; exit status 70 (a bug to report)."""
    shown = ", ".join(f"#{n}" for n, _ in errors[:10]) + (", …" if len(errors) > 10 else "")
    many = len(errors) != 1
    print(
        f"eightoff survey: {len(errors)} deal{'s' if many else ''} of {name} not stored"
        f" ({shown}): the solver's solution did not replay ({errors[0][1]}); a bug in the"
        " solver, please report it; rerun the command to try them again",
        file=sys.stderr,
    )
    return EX_SOFTWARE


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a survey the way Ctrl+C does (finished batches kept)."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _ProgressBar:
    """A rich progress bar on stderr: done / total, deals per second, time left."""

    def __init__(self, title: str, *, enabled: bool) -> None:
        self.title = title
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None
        self._plain: _PlainProgress | None = None

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, p: Any) -> None:
        if not self.enabled or p.done >= p.total:
            return
        if not sys.stderr.isatty():
            # Logs and pipes: a plain line now and then instead of a live bar.
            self._plain = _PlainProgress(self.title, p)
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[counts]}"),
            console=Console(stderr=True),
            speed_estimate_period=60.0,
        )
        self._progress.start()
        self._task = self._progress.add_task(
            self.title, total=p.total, completed=p.done, rate="", counts=_counts(p.new)
        )

    def update(self, p: Any) -> None:
        if self._plain is not None:
            self._plain.update(p)
        if self._progress is None:
            return
        self._progress.update(self._task, completed=p.done, counts=_counts(p.new))
        speed = self._progress.tasks[0].speed
        self._progress.update(self._task, rate="" if speed is None else f"{speed:,.1f} deals/s")

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


class _PlainProgress:
    """Progress for a log file: one line every ``every`` seconds."""

    def __init__(self, title: str, p: Any, every: float = 30.0) -> None:
        self.title = title
        self.every = every
        self.t0 = time.monotonic()
        self.last = self.t0
        self.done0 = p.done

    def update(self, p: Any) -> None:
        now = time.monotonic()
        if now - self.last < self.every or p.done >= p.total:
            return
        self.last = now
        rate = (p.done - self.done0) / max(now - self.t0, 1e-9)
        left = (p.total - p.done) / rate if rate > 0 else float("inf")
        eta = "?" if left == float("inf") else f"{left / 60:.1f} min"
        print(
            f"{self.title}: {p.done}/{p.total} ({100 * p.done / p.total:.1f}%),"
            f" {rate:.1f} deals/s, {eta} left; {_counts(p.new)}",
            file=sys.stderr,
            flush=True,
        )


def _counts(c: Any) -> str:
    return f"solved {c.solved} · lost {c.lost} · unknown {c.unknown}"


# -- report / export -------------------------------------------------------------


def _store_path(args: argparse.Namespace) -> str:
    from eightoff.survey import default_store_path

    return str(default_store_path()) if args.db is None else args.db


def _report(args: argparse.Namespace) -> int:
    from eightoff.rules import preset
    from eightoff.survey import build_report, write_png

    _refuse(args, {"json", "png"}, "report")
    _check_db(args)
    rules = house_rules.apply(preset(args.variant), args)
    report = build_report(_store_path(args), rules)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(report.text())
    if args.png:
        try:
            out = write_png(report, args.png)
        except OSError as exc:
            return _fail(f"cannot write {quote(args.png, MAX_PATH)}: {exc}", EX_CANTCREAT)
        print(f"histograms written to {out}", file=sys.stderr if args.json else sys.stdout)
    return EX_OK


def _export(args: argparse.Namespace) -> int:
    from eightoff.survey.store import CSV_COLUMNS, SurveyStore

    _refuse(args, {"csv"}, "export")
    _check_db(args)
    if not args.csv:
        raise UsageError("say where to write: eightoff survey export --csv FILE")
    if args.csv != "-":
        file_path(args.csv, "--csv")
    with SurveyStore(_store_path(args), create=False) as store:
        if args.csv == "-":  # a closed pipe (| head) ends quietly in eightoff.cli.main
            _write_csv(store, sys.stdout, CSV_COLUMNS)
            return EX_OK
        try:
            with open(args.csv, "w", newline="", encoding="utf-8") as f:
                count = _write_csv(store, f, CSV_COLUMNS)
        except OSError as exc:
            return _fail(f"cannot write {quote(args.csv, MAX_PATH)}: {exc}", EX_CANTCREAT)
    print(f"{count} rows written to {args.csv}", file=sys.stderr)
    return EX_OK


def _write_csv(store: Any, f: TextIO, columns: Sequence[str]) -> int:
    writer = csv.writer(f)
    writer.writerow(columns)
    count = 0
    for row in store.export_rows():
        writer.writerow(row)
        count += 1
    return count


__all__ = ["add_arguments", "run"]
