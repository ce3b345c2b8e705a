"""Explicit models: worlds listed in arrays (S5 partitions, deals, general relations) and their
checkers."""
