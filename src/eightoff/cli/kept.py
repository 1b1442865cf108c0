"""The lines that tell a user where a search on disk is kept (eightoff.solver.kept)."""

from __future__ import annotations

import sys

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
