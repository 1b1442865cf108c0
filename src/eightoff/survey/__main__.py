"""``python -m eightoff.survey`` — the same as ``eightoff survey``."""

import sys

from eightoff.survey.command import main

if __name__ == "__main__":
    sys.exit(main())
