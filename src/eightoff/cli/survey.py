"""``eightoff survey``: run a range of deals, report on a store, export it.

    eightoff survey START END [--variant ID] [--cells N] [--workers N] [--db FILE]
                              [--scheduler ADDRESS] [--time-limit S] [...]
    eightoff survey report [--db FILE] [--variant ID] [--cells N] [--json] [--png FILE]
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
from contextlib import contextmanager, nullcontext
from typing import IO, Any, Final

from eightoff.cli import house_rules
from eightoff.cli.exits import (
    EX_CANTCREAT,
    EX_OK,
    EX_SOFTWARE,
    EX_UNAVAILABLE,
    EX_USAGE,
    MAX_PATH,
    UsageError,
    database_path,
    fail,
    interrupted_status,
    interrupted_word,
    on_sigterm,
    output_file,
    store_status,
    whole_number,
)
from eightoff.cli.kept import KeptWatch, report_kept
from eightoff.cli.say import language, said, say, text
from eightoff.cli.values import MAX_STATES, deal_number, seconds_limit
from eightoff.explain import variant_name
from eightoff.i18n import Figure, Lang, Message, duration, grouped, quote, words
from eightoff.rules import DEFAULT_VARIANT, Rules

ACTIONS: Final = ("report", "export")
MAX_WORKERS_PER_CORE: Final = 4
"""--workers may be at most this many times the cores (each worker is a process)."""
MAX_BATCH_SIZE: Final = 100_000

_USAGE: Final = """\
%(prog)s START END [--variant ID] [--cells N] [--workers N] [--db FILE]
                  [--scheduler ADDRESS] [--time-limit S] [--states N] [--memory SIZE]
                  [--disk SIZE] [--batch-size N] [--retry-unknown] [--rate] [--par]
       %(prog)s report [--db FILE] [--variant ID] [--cells N] [--json] [--png FILE]
       %(prog)s export --csv FILE [--db FILE]"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the survey arguments to ``parser`` (the ``survey`` subcommand
    of :mod:`eightoff.cli.app`)."""
    parser.usage = _USAGE
    parser.description = text("cli.help.survey.description")
    parser.epilog = text("cli.help.survey.epilog")
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("first", metavar="START|report|export", help=text("cli.help.survey.first"))
    parser.add_argument("end", metavar="END", nargs="?", help=text("cli.help.survey.end"))
    common = parser.add_argument_group(text("cli.help.survey.common"))
    common.add_argument("--db", metavar="FILE", help=text("cli.help.survey.db"))
    common.add_argument(
        "--variant", metavar="ID", default=None, help=text("cli.help.survey.variant")
    )
    house_rules.add_arguments(common)  # a survey with house rules is stored apart
    run = parser.add_argument_group(text("cli.help.survey.run"))
    run.add_argument(
        "--workers",
        metavar="N",
        type=str,
        help=text("cli.help.survey.workers", most=MAX_WORKERS_PER_CORE),
    )
    run.add_argument("--scheduler", metavar="ADDRESS", help=text("cli.help.survey.scheduler"))
    run.add_argument("--time-limit", metavar="S", type=str, help=text("cli.help.survey.time_limit"))
    run.add_argument("--states", metavar="N", type=str, help=text("cli.help.survey.states"))
    run.add_argument("--memory", metavar="SIZE", type=str, help=text("cli.help.survey.memory"))
    run.add_argument("--disk", metavar="SIZE", type=str, help=text("cli.help.survey.disk"))
    run.add_argument("--disk-dir", metavar="DIR", type=str, help=text("cli.help.survey.disk_dir"))
    run.add_argument("--batch-size", metavar="N", type=str, help=text("cli.help.survey.batch_size"))
    run.add_argument(
        "--retry-unknown", action="store_true", help=text("cli.help.survey.retry_unknown")
    )
    run.add_argument("--rate", action="store_true", help=text("cli.help.survey.rate"))
    run.add_argument(
        "--par",
        nargs="?",
        const="player",
        choices=["player", "single"],
        help=text("cli.help.survey.par"),
    )
    run.add_argument("--no-progress", action="store_true", help=text("cli.help.survey.no_progress"))
    rep = parser.add_argument_group(text("cli.help.survey.report"))
    rep.add_argument("--json", action="store_true", help=text("cli.help.survey.json"))
    rep.add_argument("--png", metavar="FILE", help=text("cli.help.survey.png"))
    exp = parser.add_argument_group(text("cli.help.survey.export"))
    exp.add_argument("--csv", metavar="FILE", help=text("cli.help.survey.csv"))


def run(args: argparse.Namespace) -> int:
    """Run ``eightoff survey`` with parsed arguments; return the exit code."""
    from eightoff.rules import CellsError, UnknownVariantError
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
        print(say(interrupted_word()), file=sys.stderr)
        return interrupted_status()
    except UsageError as exc:
        return _fail(said(exc), exc.code)
    except (SurveyRangeError, UnknownVariantError, CellsError) as exc:
        return _fail(said(exc), EX_USAGE)
    except StoreError as exc:  # damage (or not a database) is bad data, as for play
        return _fail(said(exc), store_status(exc, reading=args.first in ACTIONS))
    except SurveyUnavailableError as exc:
        return _fail(said(exc), EX_UNAVAILABLE)
    except SurveyWorkerError as exc:
        return _fail(said(exc), EX_SOFTWARE)
    except SurveyError as exc:
        return _fail(said(exc), EX_USAGE)


def _fail(message: Message | str, code: int) -> int:
    return fail("eightoff survey", message, code)


def _refuse(args: argparse.Namespace, allowed: set[str], form: str) -> None:
    """Options that belong to another form of the command are a usage error."""
    flags = {
        "end": "END",
        "workers": "--workers",
        "scheduler": "--scheduler",
        "time_limit": "--time-limit",
        "states": "--states",
        "memory": "--memory",
        "disk": "--disk",
        "disk_dir": "--disk-dir",
        "batch_size": "--batch-size",
        "retry_unknown": "--retry-unknown",
        "rate": "--rate",
        "par": "--par",
        "no_progress": "--no-progress",
        "json": "--json",
        "png": "--png",
        "csv": "--csv",
    }
    for dest, flag in flags.items():
        if dest not in allowed and getattr(args, dest, None) not in (None, False):
            raise UsageError(Message("cli.survey.not_for_form", flag=flag, form=form))


def _whole(text: str | None, what: str, high: int) -> int | None:
    return None if text is None else whole_number(text, what, 1, high)


def _deal_number(text: str, what: str) -> int:
    from eightoff.survey.store import MAX_STORED_DEAL

    hint = Message("cli.survey.start_hint") if what == "START" else ""
    return deal_number(text, what, MAX_STORED_DEAL, hint)


def _span(rules: Rules, lang: Lang, start: int, end: int) -> str:
    """What a run covers, as its lines name it: "FreeCell 1–32000", "FreeCell 1568", with
    the house rules in force ("Eight Off 1–30 · single-card moves": stored apart)."""
    from eightoff.explain import with_house_rules
    from eightoff.survey.local import deal_span

    return with_house_rules(f"{variant_name(rules, lang)} {deal_span(start, end)}", rules, lang)


def _check_db(args: argparse.Namespace) -> None:
    if args.db is not None:
        database_path(args.db, "--db")


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
            "memory",
            "disk",
            "disk_dir",
            "batch_size",
            "retry_unknown",
            "rate",
            "par",
            "no_progress",
        },
        "START END",
    )
    if args.par is not None:
        return _run_par(args)
    from eightoff.cli.values import disk_dir, disk_limit, memory_limit
    from eightoff.survey import default_workers

    start = _deal_number(args.first, "START")
    if args.end is None:
        raise UsageError(Message("cli.survey.give_end", command=f"eightoff survey {start} END"))
    end = _deal_number(args.end, "END")
    _check_db(args)
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    workers = _whole(args.workers, "--workers", MAX_WORKERS_PER_CORE * default_workers())
    seconds = None if args.time_limit is None else seconds_limit(args.time_limit)
    states = _whole(args.states, "--states", MAX_STATES)
    memory = None if args.memory is None else memory_limit(args.memory)
    disk = 0 if args.disk is None else disk_limit(args.disk)
    disk_in = None if args.disk_dir is None else disk_dir(args.disk_dir, "--disk-dir")
    batch = _whole(args.batch_size, "--batch-size", MAX_BATCH_SIZE)
    if args.scheduler is not None:
        from eightoff.survey.cluster import SchedulerAddressError, check_address

        try:
            check_address(args.scheduler)
        except SchedulerAddressError as e:
            raise UsageError(said(e)) from None
    # a deal's search on disk expands its layers on the cores the local workers leave
    cores = default_workers()
    threads = 1 if args.scheduler else max(1, cores // (workers or cores))
    limits = Limits(
        seconds=DEFAULT_LIMITS.seconds if seconds is None else seconds,
        states=DEFAULT_LIMITS.states if states is None else states,
        memory_mb=DEFAULT_LIMITS.memory_mb if memory is None else memory,
        disk_mb=disk,
        disk_dir=disk_in,
        disk_keep=True,  # a deal's search on disk goes on in the next run (kept searches)
        disk_threads=threads,
        cpu_time=True,  # a deal's verdict does not depend on what else the machine runs
    )
    from eightoff.survey import check_range

    check_range(start, end)
    began = time.time()  # the kept searches this survey wrote are reported
    lang = language()
    with (
        _ProgressBar(_span(rules, lang, start, end), enabled=not args.no_progress) as bar,
        _sigterm_as_interrupt(),
        # a deal's search on disk says where it is as its layers are made (progress too)
        KeptWatch(disk_in, began, lang) if disk and not args.no_progress else nullcontext(),
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
            stopped = Message(
                "cli.survey.interrupted",
                word=interrupted_word(),
                saved=r.new.total,
                rated=r.rated_only,
                stored=r.already + r.new.total + r.rated_only,
                total=r.total,
            )
            print(say(stopped, lang), file=sys.stderr)
            if disk:
                report_kept(disk_in, began, Message("cli.survey.kept_again"), lang)
            return interrupted_status()
    n = result.new
    where = Message("cli.survey.into", db=str(result.db))
    shared: Message | str = (
        Message("cli.survey.shared", n=result.by_others) if result.by_others else ""
    )
    rated: Message | str = (
        Message("cli.survey.rated_before", n=result.rated_only) if result.rated_only else ""
    )
    span = _span(rules, lang, start, end)
    already = Message("cli.survey.already_stored", n=result.already)
    if n.total == 0 and result.rated_only:
        line = Message(
            "cli.survey.rated_only",
            span=span,
            rated=result.rated_only,
            seconds=result.seconds,
            backend=result.backend,
            already=Message("cli.survey.already_rated", n=result.already),
            where=where,
            shared=shared,
        )
    elif n.total == 0 and not result.by_others:
        done = "cli.survey.all_rated" if args.rate else "cli.survey.all_stored"
        line = Message(done, span=span, total=result.total, where=where)
    elif n.total == 0:
        line = Message(
            "cli.survey.nothing_left", span=span, already=already, where=where, shared=shared
        )
    else:
        line = Message(
            "cli.survey.solved",
            span=span,
            n=n.total,
            seconds=result.seconds,
            rate=grouped(result.rate, 1) if result.rate >= 0.1 else Figure(f"{result.rate:.2g}"),
            backend=result.backend,
            cpu=duration(result.cpu_seconds / n.total),
            solved=n.solved,
            lost=n.lost,
            unknown=n.unknown,
            already=already,
            where=where,
            rated=rated,
            shared=shared,
        )
    print(say(line, lang))
    if disk:
        report_kept(disk_in, began, Message("cli.survey.kept_again"), lang)
    if result.errors:
        return _report_errors(variant_name(rules, lang), result.errors)
    return EX_OK


def _report_errors(name: str, errors: tuple[tuple[int, str], ...]) -> int:
    """The deals a survey left without a verdict because the solver's solution failed
    its replay: one line saying which, what was wrong with the first, that nothing of
    theirs was stored and a rerun tries them again; exit status 70 (a bug to report)."""
    shown = ", ".join(f"#{n}" for n, _ in errors[:10]) + (", …" if len(errors) > 10 else "")
    line = Message(
        "cli.survey.not_replayed",
        prog="eightoff survey",
        n=len(errors),
        name=name,
        shown=shown,
        first=errors[0][1],
    )
    print(say(line), file=sys.stderr)
    return EX_SOFTWARE


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a survey the way Ctrl+C does (finished batches kept), with 143
    (also when the survey is run without :func:`eightoff.cli.main`)."""
    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
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
            TextColumn(text("cli.survey.elapsed")),
            TimeElapsedColumn(),
            TextColumn(text("cli.survey.left")),
            TimeRemainingColumn(),
            TextColumn("{task.fields[counts]}"),
            console=Console(stderr=True),
            speed_estimate_period=60.0,
        )
        self._progress.start()
        self._task = self._progress.add_task(
            self.title, total=p.total, completed=p.done, rate="", counts=_counts(p)
        )

    def update(self, p: Any) -> None:
        if self._plain is not None:
            self._plain.update(p)
        if self._progress is None:
            return
        self._progress.update(self._task, completed=p.done, counts=_counts(p))
        speed = self._progress.tasks[0].speed
        rate = "" if speed is None else text("cli.survey.speed", speed=grouped(speed, 1))
        self._progress.update(self._task, rate=rate)

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
        eta = "?" if left == float("inf") else text("cli.survey.minutes", minutes=left / 60)
        line = Message(
            "cli.survey.progress",
            title=self.title,
            done=p.done,
            total=p.total,
            percent=100 * p.done / p.total,
            rate=rate,
            eta=eta,
            counts=_counts(p),
        )
        print(say(line), file=sys.stderr, flush=True)


def _counts(p: Any) -> str:
    """A survey's verdicts so far, and what it waits for when another survey on the
    store holds the deals left (a bar that stands still says why)."""
    c = p.new
    counts = text("cli.survey.counts", solved=c.solved, lost=c.lost, unknown=c.unknown)
    return counts + (text("cli.survey.waiting", n=p.waiting) if p.waiting else "")


# -- report / export -------------------------------------------------------------


def _run_par(args: argparse.Namespace) -> int:
    """``survey START END --par``: par for each deal not proven yet (eightoff.survey.par)."""
    from eightoff.cli.values import memory_limit
    from eightoff.counts import MoveCount
    from eightoff.rules import preset
    from eightoff.survey import check_range, default_workers
    from eightoff.survey.par import (
        SURVEY_MEMORY_MB,
        ParProgress,
        ParSurveyInterrupted,
        run_par_survey,
    )

    for flag, given in (
        ("--states", args.states),
        ("--batch-size", args.batch_size),
        ("--rate", args.rate or None),
        ("--disk", args.disk),
        ("--disk-dir", args.disk_dir),
    ):
        if given is not None:
            raise UsageError(Message("cli.survey.not_for_par", flag=flag))
    start = _deal_number(args.first, "START")
    if args.end is None:
        raise UsageError(
            Message("cli.survey.give_end", command=f"eightoff survey {start} END --par")
        )
    end = _deal_number(args.end, "END")
    _check_db(args)
    check_range(start, end)
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    workers = _whole(args.workers, "--workers", MAX_WORKERS_PER_CORE * default_workers())
    seconds = 10.0 if args.time_limit is None else seconds_limit(args.time_limit)
    memory = SURVEY_MEMORY_MB if args.memory is None else memory_limit(args.memory)
    which = MoveCount(args.par)
    if args.scheduler is not None:
        from eightoff.survey.cluster import SchedulerAddressError, check_address

        if args.workers is not None:
            raise UsageError(Message("survey.workers_or_cluster"))
        try:
            check_address(args.scheduler)
        except SchedulerAddressError as e:
            raise UsageError(said(e)) from None
    last = [0.0]

    def progress(p: ParProgress) -> None:
        now = time.monotonic()
        if not args.no_progress and (now - last[0] > 5 or p.done == p.total):
            last[0] = now
            line = text("cli.survey.par_progress", done=p.done, total=p.total, proven=p.proven)
            wait = text("cli.survey.par_waiting", n=p.waiting) if p.waiting else ""
            print(line + wait, file=sys.stderr)

    try:
        result = run_par_survey(
            start,
            end,
            rules,
            db=_store_path(args),
            count=which,
            seconds=seconds,
            memory_mb=memory,
            workers=workers,
            scheduler=args.scheduler,
            retry_unknown=args.retry_unknown,
            progress=progress,
        )
    except ParSurveyInterrupted as stop:
        done = stop.done
        stopped = Message(
            "cli.survey.par_interrupted",
            word=interrupted_word(),
            saved=done.searched,
            stored=done.already + done.searched,
            total=done.total,
        )
        print(say(stopped), file=sys.stderr)
        return interrupted_status()
    lang = language()
    line = Message(
        "cli.survey.par_done",
        span=_span(rules, lang, start, end),
        count=which.message,
        searched=result.searched,
        proven=result.proven,
        lost=Message("cli.survey.par_lost", n=result.lost) if result.lost else "",
        seconds=seconds,
        already=Message(
            "cli.survey.already_par",
            n=result.already,
            proven=result.proven_before,
            lost=Message("cli.survey.lost_before", n=result.lost_before)
            if result.lost_before
            else "",
        ),
        db=str(result.db),
        shared=Message("cli.survey.par_shared", n=result.by_others) if result.by_others else "",
    )
    print(say(line, lang))
    return EX_OK


def _store_path(args: argparse.Namespace) -> str:
    from eightoff.survey import default_store_path

    return str(default_store_path()) if args.db is None else args.db


def _report(args: argparse.Namespace) -> int:
    from eightoff.rules import preset
    from eightoff.survey import build_report, write_png
    from eightoff.survey.store import SurveyStore

    _refuse(args, {"json", "png"}, "report")
    _check_db(args)
    if args.png is not None:
        if args.png == "-":
            raise UsageError(Message("cli.survey.png_stdout"))
        output_file(args.png, "--png")
    # a bad variant or house rule is bad usage, before the store is opened
    rules = house_rules.apply(preset(args.variant), args) if args.variant else None
    with SurveyStore(_store_path(args), create=False) as store:
        held = store.variants()
        if rules is None:  # the store's one variant, else the default
            variant = next(iter(held)) if len(held) == 1 else DEFAULT_VARIANT
            rules = house_rules.apply(preset(variant), args)
        report = build_report(store, rules)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(report.text(words(language())))
        others = [v for v in held if v != rules.id]
        if others and (args.variant is None or (report.deals == 0 and not report.par)):
            print(text("cli.survey.other_variants", variants=", ".join(others)))
    if args.png:
        try:
            out = write_png(report, args.png, words(language()))
        except OSError as exc:
            refusal = Message(
                "cli.survey.cannot_write", path=quote(args.png, MAX_PATH), error=str(exc)
            )
            return _fail(refusal, EX_CANTCREAT)
        written = text("cli.survey.histograms", path=str(out))
        print(written, file=sys.stderr if args.json else sys.stdout)
    return EX_OK


def _export(args: argparse.Namespace) -> int:
    from eightoff.store.files import written_whole
    from eightoff.survey.store import CSV_COLUMNS, SurveyStore

    _refuse(args, {"csv"}, "export")
    _check_db(args)
    if not args.csv:
        raise UsageError(Message("cli.survey.export_where"))
    if args.csv != "-":
        output_file(args.csv, "--csv")
    with SurveyStore(_store_path(args), create=False) as store:
        if args.csv == "-":  # a closed pipe (| head) ends quietly in eightoff.cli.main
            _write_csv(store, sys.stdout, CSV_COLUMNS)
            return EX_OK
        try:
            with written_whole(args.csv) as f:  # a full disk leaves the old file as it was
                count = _write_csv(store, f, CSV_COLUMNS)
        except OSError as exc:
            refusal = Message(
                "cli.survey.cannot_write", path=quote(args.csv, MAX_PATH), error=str(exc)
            )
            return _fail(refusal, EX_CANTCREAT)
    print(text("cli.survey.rows_written", n=count, path=args.csv), file=sys.stderr)
    return EX_OK


def _write_csv(store: Any, f: IO[str], columns: Sequence[str]) -> int:
    writer = csv.writer(f)
    writer.writerow(columns)
    count = 0
    for row in store.export_rows():
        writer.writerow(row)
        count += 1
    return count


__all__ = ["add_arguments", "run"]
