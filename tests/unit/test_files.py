"""Files written whole or not at all (eightoff.store.files): what an export, a report's
PNG and the table's runtime file are written through."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from eightoff.store.files import written_whole


def test_a_failure_part_way_leaves_the_old_file_and_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old\n")
    with pytest.raises(OSError), written_whole(path) as out:
        out.write("new, half")
        raise OSError(28, "No space left on device")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_link_is_followed_and_kept_and_permissions_are_kept(tmp_path: Path) -> None:
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old")
    real.chmod(0o640)
    link.symlink_to(real)
    with written_whole(link) as out:
        out.write("new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    with written_whole(tmp_path / "secret", mode=0o600) as out:
        out.write("token")
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600


def test_a_file_that_cannot_be_replaced_is_written_directly(tmp_path: Path) -> None:
    """/dev/null or a named pipe is written, never replaced by a regular file."""
    with written_whole(os.devnull, binary=True) as out:
        out.write(b"gone")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with written_whole(fifo) as out:
            out.write("through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
