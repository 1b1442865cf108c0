"""Kept searches: the search on disk of one position, carried over from run to run.

A complete search of the hardest deals (FreeCell with one or two cells) outlasts any one
run.  With ``Limits.disk_keep`` the search on disk keeps its complete layers where a
limit or a signal stops it, in ``<disk dir>/eightoff-keep-<hash>/``, and the same search
of the same position run again goes on from them (``disk.h``, "Kept searches").  It is
the same search: only a kept search of the same root, rules, plan and compiled core
(:func:`core_build`) is gone on from; any other is begun afresh.  A verdict ends it and
removes its files.

This module names the two words the core compares and lists the kept searches of a
directory for the command line."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import _core

_PREFIX = "eightoff-keep-"


def core_build() -> str:
    """Which compiled core this is: the first 12 hex digits of the SHA-256 of the sources
    it was compiled from (setup.py's ``source_id``).  The same code built in any checkout
    is the same build, so a kept search goes on in another clone of it; two builds of
    different code never share a kept search or a survey's version."""
    return str(getattr(_core, "BUILD", "unknown"))


def keep_words(fields: dict[str, int], plan: dict[str, Any]) -> tuple[str, str]:
    """What a search is (the rules and the plan as the core reads them: ``fields``, and
    ``plan`` as the Setup is given it), and which build runs it: the two lines a kept
    search's manifest holds and a search must match to go on from it."""
    return repr((sorted(fields.items()), sorted(plan.items()))), core_build()


@dataclass(frozen=True, slots=True)
class KeptSearch:
    """A kept search as its manifest describes it."""

    path: Path
    deal: int | None
    """The deal's number (None: a position searched by ``solve``)."""
    layers: int
    last_layer: int
    """The states of its last complete layer (the next to be expanded)."""
    states: int
    """The states counted so far, over every run."""
    runs: int
    seconds: float
    """The CPU seconds its runs spent on disk."""
    bytes: int
    """The bytes of its files."""
    current: bool
    """Made by this build (else no search goes on from it: it may be deleted)."""
    written: float
    """When its manifest was last written (seconds since the epoch)."""


def _disk_root(disk_dir: str | None) -> Path:
    """The directory the search on disk works in (as the core picks it)."""
    return Path(disk_dir or os.environ.get("TMPDIR") or "/tmp")


def kept_searches(disk_dir: str | None = None) -> list[KeptSearch]:
    """The kept searches in ``disk_dir`` (None: where the core looks by default), by path;
    a directory whose manifest is missing or unreadable is left out."""
    root = _disk_root(disk_dir)
    out = []
    try:
        entries = sorted(root.glob(_PREFIX + "*"))
    except OSError:
        return []
    for path in entries:
        kept = _read(path)
        if kept is not None:
            out.append(kept)
    return out


def _read(path: Path) -> KeptSearch | None:
    try:
        lines = (path / "M").read_text(encoding="utf-8").splitlines()
        written = (path / "M").stat().st_mtime
        size = sum(f.stat().st_size for f in path.iterdir() if f.is_file())
    except (OSError, UnicodeDecodeError):
        return None
    fields = {}
    for line in lines:
        name, _, value = line.partition(" ")
        fields[name] = value
    try:
        deal = int(fields["deal"])
        sizes = fields.get("sizes", "").split()
        return KeptSearch(
            path=path,
            deal=deal if deal >= 0 else None,
            layers=int(fields["layers"]),
            last_layer=int(sizes[-1]) if sizes else 0,
            states=int(fields["base"]) + int(fields["expanded"]),
            runs=int(fields["sittings"]),
            seconds=float(fields["seconds"]),
            bytes=size,
            current=fields.get("build") == core_build(),
            written=written,
        )
    except (KeyError, ValueError):
        return None
