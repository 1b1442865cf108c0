"""``python -m eightoff.cli`` — the same as ``eightoff``."""

import sys

from eightoff.cli.app import main

sys.exit(main())
