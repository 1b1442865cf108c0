"""The command line in the tests of its entry points: run in this process, and a child's
Ctrl+C as at a terminal."""

from __future__ import annotations

import signal

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


def ctrl_c_as_at_a_terminal() -> None:
    """In a child process (``preexec_fn``): SIGINT does what it does at a terminal,
    however the test suite was started.  A child inherits an ignored SIGINT (a shell's
    background job without job control starts so, and Python then installs no
    KeyboardInterrupt handler) and a blocked one (a thread's signal mask); either way
    the command would not see Ctrl+C, as a user's ``nohup eightoff survey … &`` rightly
    does not.  Two clean-clone CI runs of the whole suite here saw that (exit 0 after
    the run's end; no exit within 60 s), the test alone never did."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
