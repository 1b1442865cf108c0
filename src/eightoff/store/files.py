"""Files written whole or not at all: a CSV export, a PNG report, the table's runtime
file and token.

The data goes to a hidden file beside the target (``.NAME.PID.part``), which then
replaces it in one step (``os.replace``), so that a full disk, an error or Ctrl+C part
way through leaves the old file as it was, never a truncated one that looks whole.
A target that exists and is not a regular file (``/dev/null``, a named pipe, a
terminal) is written directly, as ``open`` would: it cannot be replaced.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with written_whole(folder / "a.txt") as out:
...     _ = out.write("all of it")
>>> (folder / "a.txt").read_text()
'all of it'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload


@overload
def written_whole(
    path: str | os.PathLike[str], *, binary: Literal[False] = False, mode: int | None = None
) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def written_whole(
    path: str | os.PathLike[str], *, binary: Literal[True], mode: int | None = None
) -> contextlib.AbstractContextManager[IO[bytes]]: ...
def written_whole(
    path: str | os.PathLike[str], *, binary: bool = False, mode: int | None = None
) -> contextlib.AbstractContextManager[IO[Any]]:
    """A file to write ``path`` through: text (UTF-8, newlines as written) or
    ``binary``. It replaces ``path`` when the block ends without an error; otherwise
    ``path`` is as it was. ``mode``: the new file's permissions (e.g. 0o600); by
    default an existing file's, else what ``open`` would give. A symbolic link is
    followed: the file it names is replaced, the link kept."""
    return _written_whole(Path(path), binary, mode)


@contextlib.contextmanager
def _written_whole(path: Path, binary: bool, mode: int | None) -> Iterator[IO[Any]]:
    target = Path(os.path.realpath(path))
    try:
        now = target.stat()
    except OSError:
        now = None
    if now is not None and not stat.S_ISREG(now.st_mode):
        with open(target, "wb" if binary else "w", **_text(binary)) as out:
            yield out
        return
    if mode is None and now is not None:
        mode = stat.S_IMODE(now.st_mode)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 if mode is None else mode)
    try:
        if mode is not None:
            os.fchmod(fd, mode)  # exactly, whatever the umask
        with os.fdopen(fd, "wb" if binary else "w", **_text(binary)) as out:
            yield out
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise


def _text(binary: bool) -> dict[str, Any]:
    return {} if binary else {"encoding": "utf-8", "newline": ""}


__all__ = ["written_whole"]
