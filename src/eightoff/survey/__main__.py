"""``python -m eightoff.survey ARGS`` — the same as ``eightoff survey ARGS`` (an entry
point kept for scripts: it only hands its arguments to the command line)."""

import sys

from eightoff.cli import main

sys.exit(main(["survey", *sys.argv[1:]]))
