"""The ``eightoff`` command line (:mod:`eightoff.cli.app`), its exit statuses
(:mod:`eightoff.cli.exits`) and the commands' modules.

Entry-point code: it parses, calls a service or the core, and prints; nothing below it
imports it.
"""

from eightoff.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
