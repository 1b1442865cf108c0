"""How long Ctrl+C (SIGTERM) takes to stop `solve` once it searches on disk.

    uv run python bench/disk_signal.py                         # deal 1568, 1 cell, 1 GiB
    uv run python bench/disk_signal.py --after 15 35 55 --memory 1G

Each run is `eightoff solve DEAL --variant freecell --cells N --memory M --disk 20G`
(this checkout's own program, as a whole process), pinned to --cpu. Once the disk
search's directory appears under a directory of its own, the script waits --after
seconds, sends SIGTERM and measures the time to the process's end, and checks that it
exited as SIGTERM says (143) and left no file. The default deal takes about a minute of
depth-first search to fill 1 GiB before the disk search starts.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one(program: Path, args: argparse.Namespace, after: float) -> str:
    with tempfile.TemporaryDirectory(prefix="disk-signal-") as where:
        disk_dir = Path(where)
        command = [str(program), "solve", str(args.deal), "--variant", "freecell"]
        command += ["--cells", str(args.cells), "--memory", args.memory, "--disk", "20G"]
        command += ["--disk-dir", where, "--max-states", str(10**12), "--time-limit", "3000"]
        command += ["--quiet"]
        if args.cpu is not None:
            command = ["taskset", "-c", str(args.cpu), *command]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not any(disk_dir.iterdir()):
                if proc.poll() is not None:
                    code = proc.returncode
                    return f"after {after:g} s: ended before the disk search (exit {code})"
                time.sleep(0.2)
            time.sleep(after)
            sent = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait()
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        left = sorted(p.name for p in disk_dir.iterdir())
        return (
            f"SIGTERM {after:g} s into the disk search: ended {took:.2f} s later,"
            f" exit {proc.returncode}, files left: {left or 'none'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=1568)
    parser.add_argument("--cells", type=int, default=1)
    parser.add_argument("--memory", default="1G")
    parser.add_argument("--after", type=float, nargs="+", default=[15.0, 35.0, 55.0])
    parser.add_argument("--cpu", type=int, default=1, help="CPU to pin to (-1: none)")
    args = parser.parse_args()
    if args.cpu is not None and args.cpu < 0:
        args.cpu = None
    program = Path(sys.executable).with_name("eightoff")
    one_min, five, fifteen = os.getloadavg()
    print(f"load average {one_min:.2f} {five:.2f} {fifteen:.2f}", flush=True)
    for after in args.after:
        print(one(program, args, after), flush=True)
    one_min, five, fifteen = os.getloadavg()
    print(f"load average {one_min:.2f} {five:.2f} {fifteen:.2f}", flush=True)


if __name__ == "__main__":
    main()
