"""What a survey found: counts, winnability with its Wilson 95% interval, lost deals,
the distribution of difficulty levels (surveys run with ``--rate``), the family table
by number of free cells, and a PNG of the solution lengths, solve times, levels, par
and winnability by number of cells.

Unknown verdicts (a limit stopped the search) widen the interval the way Blake &
Gent (JAIR 2026) count them: as wins for the upper bound and as losses for the
lower bound. The point estimate is the share of decided deals that are winnable.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from eightoff.explain import with_house_rules
from eightoff.i18n import DEFAULT_LANGUAGE, Count, Words, duration, grouped
from eightoff.rating import Level, formula_version
from eightoff.rules import MAX_CELLS, Rules, cells_named, house_rules_on, preset
from eightoff.survey.store import SurveyStore, rules_signature
from eightoff.verdict import Verdict

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` ((0, 1) when n = 0)."""
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n = {n}, not {successes}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = (z / denom) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == n else min(1.0, center + half)
    return (low, high)


def survey_interval(solved: int, lost: int, unknown: int) -> tuple[float, float]:
    """The 95% interval of winnability: the Wilson lower bound with the unknowns
    counted as losses, the Wilson upper bound with them counted as wins."""
    n = solved + lost + unknown
    return (wilson_interval(solved, n)[0], wilson_interval(solved + unknown, n)[1])


def _weighted_median(hist: Mapping[int, int]) -> int | None:
    total = sum(hist.values())
    if total == 0:
        return None
    half = (total + 1) // 2
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= half:
            return value
    return None  # pragma: no cover


class _Counted:
    """Deals by verdict, and what follows from them (for a report and its lines)."""

    solved: int
    lost: int
    unknown: int

    @property
    def deals(self) -> int:
        return self.solved + self.lost + self.unknown

    @property
    def winnability(self) -> float | None:
        """Share of the decided deals that are winnable (None if none is decided)."""
        decided = self.solved + self.lost
        return self.solved / decided if decided else None

    @property
    def ci95(self) -> tuple[float, float]:
        return survey_interval(self.solved, self.lost, self.unknown)

    def counts_json(self) -> dict[str, Any]:
        """deals, solved, lost, unknown, winnability and ci95, in that order."""
        low, high = self.ci95
        return {
            "deals": self.deals,
            "solved": self.solved,
            "lost": self.lost,
            "unknown": self.unknown,
            "winnability": self.winnability,
            "ci95": [low, high],
        }


def _figures(hist: Mapping[int, int]) -> tuple[int, float, int, int]:
    """Median, mean, min and max of a histogram (value -> how many), not empty."""
    n = sum(hist.values())
    mean = sum(k * v for k, v in hist.items()) / n
    return _weighted_median(hist) or 0, mean, min(hist), max(hist)


def _spread(hist: Mapping[int, int], words: Words) -> str:
    """ "median 21, mean 22.4, min 9, max 40" of a histogram (value -> how many)."""
    median, mean, low, high = _figures(hist)
    return words.text("survey.spread", median=median, mean=grouped(mean, 1), min=low, max=high)


def _english() -> Words:
    return Words(DEFAULT_LANGUAGE)


@dataclass(frozen=True)
class ParSummary:
    """The par stored for a variant's deals in one count (``survey --par``)."""

    count: str
    """"player" or "single"."""
    deals: int
    proven: int
    lost: int
    hist: dict[int, int] = field(repr=False)
    """Proven par → deals."""
    unproven: dict[int, tuple[int, int | None]] = field(repr=False)
    """Deal → (lower bound, best solution's length or None), for the deals not proven."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "proven": self.proven,
            "lost": self.lost,
            "median": _weighted_median(self.hist),
            "histogram": {str(k): v for k, v in self.hist.items()},
            "unproven": {
                str(d): {"lower_bound": lo, "upper_bound": hi}
                for d, (lo, hi) in self.unproven.items()
            },
        }

    def lines(self, words: Words | None = None) -> list[str]:
        words = words or _english()
        out = [
            words.text(
                "survey.par",
                count=words.text(f"survey.count.{self.count}"),
                deals=Count(self.deals, "deal"),
                proven=self.proven,
                share=grouped(100 * self.proven / self.deals, 1),
                lost=self.lost,
            )
        ]
        if self.hist:
            out.append(words.text("survey.par_proven", spread=_spread(self.hist, words)))
        if self.unproven:
            shown = ", ".join(
                f"{d}: {lo}–{'?' if hi is None else hi}"
                for d, (lo, hi) in list(self.unproven.items())[:20]
            )
            more = (
                words.text("survey.par_more", n=len(self.unproven) - 20)
                if len(self.unproven) > 20
                else ""
            )
            out.append(words.text("survey.par_unproven", n=len(self.unproven), deals=shown + more))
        return out


@dataclass(frozen=True)
class CellsRow(_Counted):
    """The verdicts of the variant (its other rules as the report's) with ``cells`` free
    cells: one line of the family table by number of cells."""

    cells: int
    solved: int
    lost: int
    unknown: int

    def to_json(self) -> dict[str, Any]:
        return {"cells": self.cells, **self.counts_json()}

    def text(self, words: Words | None = None) -> str:
        words = words or _english()
        w = self.winnability
        low, high = self.ci95
        return (
            f"    {self.cells:>5} {self.deals:>10} {self.solved:>10} {self.lost:>10}"
            f" {self.unknown:>8} "
            + (_not_applicable(words) if w is None else words.percent(100 * w, ">9.3f"))
            + f"   {words.percent(100 * low, '.3f')} – {words.percent(100 * high, '.3f')}"
        )


def _not_applicable(words: Words) -> str:
    """ "n/a" where a share is, right-aligned in its column."""
    return words.text("survey.not_applicable").rjust(9)


@dataclass(frozen=True)
class SurveyReport(_Counted):
    rules: Rules
    signature: str
    solved: int
    lost: int
    unknown: int
    lost_deals: list[int]
    unknown_deals: list[int]
    length_hist: dict[int, int] = field(repr=False)
    """Solution length → solved deals, in player moves (``length_count`` "player"), or
    for a store written before it held them, as the solutions list their moves
    ("listed": each card sent home one, a group move one)."""
    time_hist: dict[int, int] = field(repr=False)
    """Solve time in whole microseconds → deals."""
    total_seconds: float = 0.0
    solver_versions: dict[str, int] = field(default_factory=dict)
    other_rules: tuple[tuple[Rules | None, int], ...] = ()
    """Rows of this variant stored under other rules (not counted here), by the rules
    they were stored under, most first (None: rules this eightoff cannot name, a house
    rule it no longer has)."""
    levels: dict[str, int] = field(default_factory=dict)
    """Level name → deals rated so with the current rating formula (every level, in
    order from Easy to Not winnable, when any deal is rated; empty otherwise)."""
    other_formula_ratings: int = 0
    """Deals rated with another version of the rating formula (not counted here)."""
    by_cells: list[CellsRow] = field(default_factory=list)
    """The same variant and options with each number of free cells that has stored
    deals (this report's own included), fewest cells first; empty when only this one."""
    par: dict[str, ParSummary] = field(default_factory=dict)
    """Count ("player", "single") → the par stored in it (``survey --par``)."""
    length_count: str = "player"
    """Which count ``length_hist`` is in: "player" or "listed"."""
    uncounted: int = 0
    """Solved deals left out of a player-move ``length_hist``: stored by an older
    version, without their player moves."""

    @property
    def variant(self) -> str:
        return self.rules.id

    @property
    def name(self) -> str:
        """The variant's English name, with its cells when not its own."""
        return self.rules.name

    @property
    def rated(self) -> int:
        return sum(self.levels.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "cells": self.rules.cells,
            "house_rules": house_rules_on(self.rules),
            **self.counts_json(),
            "lost_deals": self.lost_deals,
            "rating_formula": formula_version(self.variant),
            "rated": self.rated,
            "levels": self.levels,
            "by_cells": [row.to_json() for row in self.by_cells],
            "par": {k: v.to_json() for k, v in self.par.items()},
            "solution_length": self._lengths_json(),
            "solve_time": self._times_json(),
        }

    def _lengths_json(self) -> dict[str, Any] | None:
        """The solved deals' lengths: their count ("player", or "listed" for a store from
        before it held player moves), median, mean, min, max, histogram, and the solved
        deals left out (stored without player moves); None with no solved deal."""
        hist = self.length_hist
        if not hist:
            return None
        median, mean, low, high = _figures(hist)
        return {
            "count": self.length_count,
            "median": median,
            "mean": round(mean, 2),
            "min": low,
            "max": high,
            "histogram": {str(k): v for k, v in hist.items()},
            "left_out": self.uncounted,
        }

    def _times(self) -> tuple[float, float, float, float]:
        """Each deal's CPU seconds: median, mean, max, and the total (some deal stored)."""
        median = (_weighted_median(self.time_hist) or 0) / 1e6
        return (
            median,
            self.total_seconds / self.deals,
            max(self.time_hist) / 1e6,
            self.total_seconds,
        )

    def _times_json(self) -> dict[str, Any] | None:
        """Each deal's CPU seconds in the solver: median, mean, max and total; None with
        no deal."""
        if not self.time_hist or not self.deals:
            return None
        return dict(zip(("median", "mean", "max", "total"), self._times(), strict=True))

    def text(self, words: Words | None = None) -> str:
        """The report for people, in the language of ``words`` (English by default)."""
        words = words or _english()
        # with the house rules, stored apart from the plain variant's rows
        name = _titled(self.rules, words.lang)
        if self.deals == 0 and not self.par:
            lines = [words.text("survey.none", name=name, variant=self.variant)]
            if self.by_cells:
                # stored only with other numbers of cells: show those, and how to ask
                lines.extend(self._cells_lines(words))
                lines.append(words.text("survey.by_cells_hint", variant=self.variant))
            elif self.other_rules_rows:  # stored only with house rules (--strict, ...)
                lines.append(self._other_rules_line(words))
            return "\n".join(lines)
        if self.deals == 0:
            lines = [words.text("survey.no_verdicts", name=name, variant=self.variant)]
            for summary in self.par.values():
                lines.extend(summary.lines(words))
            return "\n".join(lines)
        w = self.winnability
        low, high = self.ci95
        lines = [
            words.text("survey.surveyed", name=name, variant=self.variant, deals=self.deals),
            words.text("survey.solved", n=self.solved),
            words.text("survey.lost", n=self.lost),
            words.text("survey.unknown", n=self.unknown),
            words.text(
                "survey.winnable",
                share=(
                    _not_applicable(words).rjust(12)
                    if w is None
                    else words.percent(100 * w, ">12.4f")
                ),
                low=words.percent(100 * low, ".4f"),
                high=words.percent(100 * high, ".4f"),
                unknowns=self.unknown,
            ),
        ]
        if self.length_hist:
            spread = _spread(self.length_hist, words)
            if self.length_count == "player":
                line = words.text("survey.length", spread=spread)
                if self.uncounted:
                    line += words.text("survey.length_uncounted", n=self.uncounted)
            else:
                line = words.text("survey.length_listed", spread=spread)
            lines.append(line)
        if self.time_hist:
            median, mean, most, total = map(duration, self._times())
            lines.append(words.text("survey.time", median=median, mean=mean, max=most, total=total))
        lines.append(
            words.text(
                "survey.lost_deals",
                n=len(self.lost_deals),
                deals=_deal_list(self.lost_deals, words),
            )
        )
        if self.unknown_deals:
            lines.append(
                words.text(
                    "survey.unknown_deals",
                    n=len(self.unknown_deals),
                    deals=_deal_list(self.unknown_deals, words),
                )
            )
        lines.extend(self._level_lines(words))
        lines.extend(self._cells_lines(words))
        for summary in self.par.values():
            lines.extend(summary.lines(words))
        versions = ", ".join(
            words.text("survey.solver_version", version=v, n=n)
            for v, n in self.solver_versions.items()
        )
        lines.append(words.text("survey.solver", versions=versions, signature=self.signature))
        if self.other_rules_rows:
            lines.append(self._other_rules_line(words))
        return "\n".join(lines)

    @property
    def other_rules_rows(self) -> int:
        """Rows of this variant stored under other rules (not counted here)."""
        return sum(n for _, n in self.other_rules)

    def _other_rules_line(self, words: Words) -> str:
        """The rows not counted, named by their rules: what to ask for to see them."""
        which = ", ".join(
            words.text(
                "survey.other_rules_one",
                name=_titled(r, words.lang) if r else words.text("survey.other_rules_unnamed"),
                n=n,
            )
            for r, n in self.other_rules
        )
        return words.text(
            "survey.other_rules", n=self.other_rules_rows, variant=self.variant, which=which
        )

    def _cells_lines(self, words: Words) -> list[str]:
        """The table by number of cells (none when only one count is stored)."""
        if not self.by_cells:
            return []
        return [
            words.text("survey.by_cells"),
            words.text("survey.by_cells_head"),
            *(row.text(words) for row in self.by_cells),
        ]

    def _level_lines(self, words: Words) -> list[str]:
        formula = formula_version(self.variant)
        older = (
            words.text("survey.levels_older", n=self.other_formula_ratings)
            if self.other_formula_ratings
            else ""
        )
        if not self.rated:
            if not self.other_formula_ratings:
                return [words.text("survey.levels_none")]
            return [words.text("survey.levels_none_current", formula=formula, older=older)]
        lines = [
            words.text(
                "survey.levels",
                rated=self.rated,
                deals=self.deals,
                formula=formula,
                older=older,
            )
        ]
        labels = {name: words.text(f"level.{name}") for name in self.levels}
        width = max(13, *(len(label) + 1 for label in labels.values()))  # "Nicht gewinnbar"
        for name, n in self.levels.items():
            lines.append(
                f"    {labels[name]:<{width}}{n:>10}  {words.percent(100 * n / self.rated, '6.2f')}"
            )
        return lines


def _deal_list(deals: list[int], words: Words, limit: int = 200) -> str:
    if not deals:
        return words.text("survey.deals_none")
    shown = " ".join(map(str, deals[:limit]))
    return shown + (
        words.text("survey.deals_more", n=len(deals) - limit) if len(deals) > limit else ""
    )


def build_report(
    db: SurveyStore | str | os.PathLike[str], variant: str | Rules = "eightoff"
) -> SurveyReport:
    """The report of one variant (under its current rules) from a survey store."""
    rules = preset(variant) if isinstance(variant, str) else variant
    if isinstance(db, SurveyStore):
        return _build(db, rules)
    with SurveyStore(db, create=False) as store:
        return _build(store, rules)


def _build(store: SurveyStore, rules: Rules) -> SurveyReport:
    sig = rules_signature(rules)
    counts = store.counts(rules.id, sig)
    stored = store.signatures(rules.id)
    named = {rules_signature(r): r for r in _house_rules_of(rules)}
    by_rules = sorted(((n, s) for s, n in stored.items() if s != sig), reverse=True)
    other_rules = tuple((named.get(s), n) for n, s in by_rules)
    ratings = store.rating_counts(rules.id, sig)
    version = formula_version(rules.id)
    current = {level: n for (formula, level), n in ratings.items() if formula == version}
    levels = {lv.value: current.get(lv.value, 0) for lv in Level} if current else {}
    lengths, uncounted = store.player_histogram(rules.id, sig) or ({}, 0)
    count = "player"
    if not lengths:  # stored before player moves were: the moves as listed
        lengths, uncounted, count = store.length_histogram(rules.id, sig), 0, "listed"
    return SurveyReport(
        rules=rules,
        signature=sig,
        solved=counts.solved,
        lost=counts.lost,
        unknown=counts.unknown,
        lost_deals=store.deals_with(rules.id, sig, Verdict.LOST),
        unknown_deals=store.deals_with(rules.id, sig, Verdict.UNKNOWN),
        length_hist=lengths,
        time_hist=store.time_histogram(rules.id, sig),
        total_seconds=store.total_seconds(rules.id, sig),
        solver_versions=store.solver_versions(rules.id, sig),
        other_rules=other_rules,
        levels=levels,
        other_formula_ratings=sum(ratings.values()) - sum(current.values()),
        by_cells=_by_cells(store, rules),
        par=_par(store, rules.id, sig),
        length_count=count,
        uncounted=uncounted,
    )


def _titled(rules: Rules, lang: str) -> str:
    """The rules' name with their house rules ("FreeCell, 3 cells · single-card moves")."""
    return with_house_rules(cells_named(rules, lang), rules, lang)


def _house_rules_of(rules: Rules) -> list[Rules]:
    """The variant under every combination of house rules: each number of cells, with
    and without foundation retrieval and single-card moves."""
    base = preset(rules.id)
    return [
        base.with_options(cells=n, foundation_retrieval=retrieval, strict_single=strict)
        for n in range(base.least_cells, MAX_CELLS + 1)
        for retrieval in (False, True)
        for strict in (False, True)
    ]


def _by_cells(store: SurveyStore, rules: Rules) -> list[CellsRow]:
    """The family table by number of cells (see SurveyReport.by_cells)."""
    stored = store.signatures(rules.id)
    rows = []
    for n in range(rules.least_cells, MAX_CELLS + 1):
        sig = rules_signature(rules.with_options(cells=n))
        if sig not in stored:
            continue
        c = store.counts(rules.id, sig)
        rows.append(CellsRow(n, c.solved, c.lost, c.unknown))
    return rows if len(rows) > 1 or (rows and rows[0].cells != rules.cells) else []


def beyond_note(beyond: int, longest: int, words: Words | None = None) -> str:
    """The length histogram's note on the solutions longer than it shows."""
    return (words or _english()).text(
        "survey.png.beyond", n=beyond, shown=grouped(beyond), longest=longest
    )


def _par(store: SurveyStore, variant: str, sig: str) -> dict[str, ParSummary]:
    out: dict[str, ParSummary] = {}
    for count in ("player", "single"):
        rows = store.par_rows(variant, sig, count)
        if not rows:
            continue
        hist: dict[int, int] = {}
        unproven: dict[int, tuple[int, int | None]] = {}
        for deal, optimal, lost, lower, upper, _, _ in rows:
            if lost:
                continue
            if optimal and upper is not None:
                hist[upper] = hist.get(upper, 0) + 1
            else:
                unproven[deal] = (lower, upper)
        out[count] = ParSummary(
            count,
            len(rows),
            sum(1 for r in rows if r[1] and not r[2]),
            sum(1 for r in rows if r[2]),
            dict(sorted(hist.items())),
            unproven,
        )
    return out


def write_png(
    report: SurveyReport, path: str | os.PathLike[str], words: Words | None = None
) -> Path:
    """The report's charts (see :func:`figure`) as a PNG file at ``path`` (SVG or PDF
    where its name ends so), written whole or not at all."""
    from eightoff.store.files import written_whole

    out = Path(path)
    kind = out.suffix.lower().lstrip(".")
    with written_whole(out, binary=True) as f:
        figure(report, words).savefig(f, format=kind if kind in ("svg", "pdf") else "png")
    return out


def figure(report: SurveyReport, words: Words | None = None) -> Figure:
    """Histograms of solution length (solved deals) and solve time (all deals), the
    deals per difficulty level when the survey rated them, the par histograms, and the
    family table by number of free cells when the store holds more than one."""
    import logging

    # matplotlib's own warnings (a config folder it cannot write, so a temporary one)
    # would be lines of its words on the command's stderr: the picture is the same
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    words = words or _english()
    t = words.text
    # an empty store has no counts to tell: its axis says player moves, as a survey's will
    listed = report.length_count != "player" and bool(report.length_hist)
    length_axis = t("survey.png.length_axis_listed" if listed else "survey.png.length_axis")
    pars = [p for p in report.par.values() if p.hist]
    panels = (3 if report.rated else 2) + len(pars) + (1 if report.by_cells else 0)
    # two panels a row (one long row of five was 3000 pixels wide, its words small), an
    # odd one out spanning its row; the cells panel a row of its own, for its nine bars
    paired = panels - (1 if report.by_cells else 0)
    rows = math.ceil(paired / 2) + (1 if report.by_cells else 0)
    fig = Figure(figsize=(12.8, 4.8 * rows + 0.6), dpi=110)
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(rows, 2)
    axes = [
        fig.add_subplot(grid[i // 2, :] if i == paired - 1 and paired % 2 else grid[i // 2, i % 2])
        for i in range(paired)
    ]
    if report.by_cells:
        axes.append(fig.add_subplot(grid[rows - 1, :]))
    ax_len, ax_time = axes[0], axes[1]
    w = report.winnability
    low, high = report.ci95
    fig.suptitle(
        t(
            "survey.png.title",
            name=cells_named(report.rules, words.lang),
            deals=grouped(report.deals),
            winnable=(
                t("survey.png.undecided")
                if w is None
                else t("survey.png.winnable", share=grouped(100 * w, 4))
            ),
            low=grouped(100 * low, 4),
            high=grouped(100 * high, 4),
            lost=grouped(report.lost),
            unknown=grouped(report.unknown),
        )
    )

    if report.length_hist:
        lengths = np.array(sorted(report.length_hist), dtype=float)
        counts = np.array([report.length_hist[int(k)] for k in lengths], dtype=float)
        # A few very long solutions would squash the rest: show up to the 99.9th
        # percentile and say how many are beyond.
        cut = int(lengths[np.searchsorted(np.cumsum(counts), 0.999 * counts.sum())])
        beyond = int(counts[lengths > cut].sum())
        lo, hi = int(lengths.min()), cut
        width = max(1, math.ceil((hi - lo + 1) / 80))
        bins = np.arange(lo, hi + width + 1, width) - 0.5
        shown = lengths <= cut
        ax_len.hist(lengths[shown], bins=bins.tolist(), weights=counts[shown], color="#3a6ea5")
        med = _weighted_median(report.length_hist) or 0
        ax_len.axvline(
            med, color="#c0392b", linestyle="--", label=t("survey.png.median", value=med)
        )
        ax_len.legend(loc="upper right", fontsize="small")
        if beyond:
            ax_len.set_xlabel(length_axis + "\n" + beyond_note(beyond, int(lengths.max()), words))
    else:
        ax_len.text(
            0.5,
            0.5,
            t("survey.png.no_solved"),
            ha="center",
            va="center",
            transform=ax_len.transAxes,
        )
    ax_len.set_title(t("survey.png.length"))
    if not ax_len.get_xlabel():
        ax_len.set_xlabel(length_axis)
    ax_len.set_ylabel(t("survey.png.deals"))

    if report.time_hist:
        us = np.array(sorted(report.time_hist), dtype=float)
        counts = np.array([report.time_hist[int(k)] for k in us], dtype=float)
        secs = np.maximum(us, 1.0) / 1e6
        lo, hi = secs.min(), secs.max()
        if hi <= lo:
            hi = lo * 2
        bins = np.geomspace(lo, hi * 1.0001, 60)
        ax_time.hist(secs, bins=bins.tolist(), weights=counts, color="#27ae60")
        ax_time.set_xscale("log")
        med_time = (_weighted_median(report.time_hist) or 1) / 1e6
        ax_time.axvline(
            med_time,
            color="#c0392b",
            linestyle="--",
            label=t("survey.png.median", value=duration(med_time)),
        )
        ax_time.legend(loc="upper right", fontsize="small")
        ax_time.set_xlabel(t("survey.png.time_axis"))
    else:
        none = t("survey.png.no_deals")
        ax_time.text(0.5, 0.5, none, ha="center", va="center", transform=ax_time.transAxes)
    ax_time.set_title(t("survey.png.time"))
    ax_time.set_ylabel(t("survey.png.deals"))
    if report.rated:
        ax_lv = axes[2]
        names = list(report.levels)
        ax_lv.bar(range(len(names)), [report.levels[n] for n in names], color="#8e44ad")
        ax_lv.set_xticks(range(len(names)), [t(f"level.{n}").replace(" ", "\n") for n in names])
        ax_lv.set_title(t("survey.png.levels", rated=grouped(report.rated)))
        ax_lv.set_xlabel(t("survey.png.levels_axis", formula=formula_version(report.variant)))
        ax_lv.set_ylabel(t("survey.png.deals"))
    from matplotlib.ticker import MaxNLocator

    first_par = 3 if report.rated else 2
    for k, summary in enumerate(pars):
        ax_par = axes[first_par + k]
        keys = sorted(summary.hist)
        ax_par.bar(keys, [summary.hist[v] for v in keys], width=0.9, color="#d35400")
        med_par = _weighted_median(summary.hist) or 0
        ax_par.axvline(
            med_par, color="#2c3e50", linestyle="--", label=t("survey.png.median", value=med_par)
        )
        ax_par.legend(loc="best", fontsize="small")
        ax_par.xaxis.set_major_locator(MaxNLocator(integer=True))  # par is a whole number
        ax_par.set_title(
            t("survey.png.par", proven=grouped(summary.proven), deals=grouped(summary.deals))
        )
        ax_par.set_xlabel(t("survey.png.par_axis", count=t(f"survey.count.{summary.count}")))
        ax_par.set_ylabel(t("survey.png.deals"))
    for ax in axes[: first_par + len(pars)]:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if report.by_cells:
        _cells_panel(axes[-1], report.by_cells, words)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))  # room for the title
    return fig


def _cells_panel(ax: Axes, rows: list[CellsRow], words: Words) -> None:
    """Winnable share by number of free cells, with each row's Wilson 95% interval
    (unknowns counted as losses for its low end, as wins for its high end) as error
    bars, and the counts under each bar."""
    xs = range(len(rows))
    shares = [100 * (row.winnability or 0.0) for row in rows]
    lows = [max(0.0, share - 100 * row.ci95[0]) for share, row in zip(shares, rows, strict=True)]
    highs = [max(0.0, 100 * row.ci95[1] - share) for share, row in zip(shares, rows, strict=True)]
    ax.bar(xs, shares, yerr=[lows, highs], capsize=4, color="#16a085")
    t = words.text
    ax.set_xticks(
        list(xs),
        [
            t(
                "survey.png.cells_bar",
                cells=row.cells,
                solved=grouped(row.solved),
                deals=grouped(row.deals),
            )
            + (t("survey.png.cells_unknown", unknown=grouped(row.unknown)) if row.unknown else "")
            for row in rows
        ],
        fontsize="small",
    )
    for x, share, above, row in zip(xs, shares, highs, rows, strict=True):
        if row.winnability is not None:
            ax.annotate(  # above the interval's top, not on its whisker
                words.percent(share),
                (x, share + above),
                ha="center",
                va="bottom",
                fontsize="small",
                xytext=(0, 3),
                textcoords="offset points",
            )
    ax.set_ylim(0, 112)
    ax.set_title(t("survey.png.cells"))
    ax.set_xlabel(t("survey.png.cells_axis"))
    ax.set_ylabel(t("survey.png.cells_share"))
