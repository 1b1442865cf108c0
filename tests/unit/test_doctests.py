"""The examples in the README and the core's docstrings run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import eightoff.cards
import eightoff.cli.values
import eightoff.counts
import eightoff.game
import eightoff.i18n
import eightoff.rules
import eightoff.store.db
import eightoff.store.games
import eightoff.table
import eightoff.verdict

ROOT = Path(__file__).resolve().parents[2]


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, verbose=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    "module",
    [
        eightoff.cards,
        eightoff.counts,
        eightoff.rules,
        eightoff.game,
        eightoff.i18n,
        eightoff.cli.values,
        eightoff.store.db,
        eightoff.store.games,
        eightoff.table,
        eightoff.verdict,
    ],
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
