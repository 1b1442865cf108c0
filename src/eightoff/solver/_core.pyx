# cython: language_level=3
"""Compiled solver core (placeholder until the search lands)."""

def core_version() -> str:
    return "0"
