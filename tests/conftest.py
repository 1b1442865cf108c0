"""Every test starts in an English environment: the command line speaks the language of
``LC_ALL``/``LC_MESSAGES``/``LANG``/``LANGUAGE`` (eightoff.i18n.environment_language),
and the tests that match its English words must not depend on the machine's locale.
A test of another language sets it itself (monkeypatch.setenv, or a subprocess's env)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
