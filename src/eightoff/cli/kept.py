"""The lines that tell a user where a search on disk is kept (eightoff.solver.kept)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from eightoff.cli.say import say
from eightoff.i18n import Lang, Message
from eightoff.solver import kept_searches


def report_kept(disk_dir: str | None, since: float, again: Message, lang: Lang) -> None:
    """One line on stderr for each search on disk kept by this command (its manifest
    written since ``since``, a time.time()): how much it holds and ``again``, how the
    command goes on from it."""
    for kept in kept_searches(disk_dir):
        if kept.written < since or not kept.current:
            continue
        line = Message(
            "cli.kept.line",
            what=Message("cli.kept.deal", deal=kept.deal) if kept.deal is not None else "",
            path=str(kept.path),
            gib=kept.bytes / 2**30,
            layers=Message("cli.kept.layers", n=kept.layers),
            states=kept.states,
            runs=kept.runs,
            seconds=kept.seconds,
            again=again,
        )
        print(say(line, lang), file=sys.stderr)


class KeptWatch:
    """While a command runs: a line on stderr each time one of its searches on disk has
    made more layers (its manifest written again since ``since``), looked for every
    ``every`` seconds in a thread of its own, so that a search of hours shows where it
    is (the survey's bar and the solve's output move only when a deal ends)."""

    def __init__(
        self,
        disk_dir: str | None,
        since: float,
        lang: Lang,
        every: float = 20.0,
        out: Callable[[str], None] | None = None,
    ) -> None:
        self.disk_dir = disk_dir
        self.since = since
        self.lang = lang
        self.every = every
        self.out = out or (lambda line: print(line, file=sys.stderr, flush=True))
        self._seen: dict[Path, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self) -> list[str]:
        """The lines for the searches that made layers since the last look."""
        lines = []
        for kept in kept_searches(self.disk_dir):
            if kept.written < self.since or not kept.current:
                continue
            if self._seen.get(kept.path) == kept.layers:
                continue
            self._seen[kept.path] = kept.layers
            line = Message(
                "cli.kept.progress",
                time=time.strftime("%H:%M", time.localtime(kept.written)),
                what=Message("cli.kept.deal", deal=kept.deal) if kept.deal is not None else "",
                layers=Message("cli.kept.layers", n=kept.layers),
                last=kept.last_layer,
                states=kept.states,
                gib=kept.bytes / 2**30,
                seconds=kept.seconds,
            )
            lines.append(say(line, self.lang))
        return lines

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                for line in self.poll():
                    self.out(line)
            except OSError:  # a directory going away as it is read: the next look
                continue

    def __enter__(self) -> KeptWatch:
        self._thread = threading.Thread(target=self._run, name="kept-watch", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
