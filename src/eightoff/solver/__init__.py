"""The solver: proven verdicts for positions of every variant."""
