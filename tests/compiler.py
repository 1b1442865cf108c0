"""Which C compiler built the solver's core: setup.py's profile-guided build is gcc's."""

from __future__ import annotations

import subprocess
import sysconfig


def built_by_gcc() -> bool:
    """Whether this Python's C compiler, the one setup.py builds with, is gcc."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "Free Software Foundation" in out
