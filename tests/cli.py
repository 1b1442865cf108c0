"""Running the command line in-process, as the tests of its entry points do."""

from __future__ import annotations

import pytest

from eightoff.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``eightoff ARGS`` in this process: its exit code, standard output and error."""
    try:
        code = main(list(args))
    except SystemExit as stop:  # argparse refuses a malformed argument
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
