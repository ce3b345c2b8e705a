"""Classic puzzles as ready-made models, for a logic course and for the tests and benchmark."""

from __future__ import annotations

from collections.abc import Collection
from functools import partial

import numpy as np

from kripke.errors import ModelError
from kripke.formula import Atom, Formula, Not, Or, knows_whether
from kripke.model import KripkeModel


def muddy_children(n: int, muddy: Collection[int]) -> KripkeModel:
    """n children 0..n-1, atom ``m{i}`` iff child i is muddy; each sees every forehead but its own.

    World w is the bit pattern of who is muddy (bit i: child i), so there are 2**n worlds and
    child i's observation key is w with bit i cleared. ``muddy`` is the actual set.
    """
    if not set(muddy) <= set(range(n)):
        raise ModelError(f"muddy children must be among 0..{n - 1}, got {sorted(muddy)}")
    worlds = np.arange(2**n, dtype=np.int64)
    # The world id is the bit pattern, so each atom is a rule on ids, evaluated when asked.
    valuation = {Atom(f"m{i}"): partial(_bit, i) for i in range(n)}
    observations = {i: worlds & ~(1 << i) for i in range(n)}
    actual = sum(1 << i for i in set(muddy))
    return KripkeModel(valuation, observations, actual)


def _bit(i: int, world_ids: np.ndarray) -> np.ndarray:
    bits: np.ndarray = (world_ids >> i) & 1 == 1
    return bits


def at_least_one_muddy(n: int) -> Formula:
    """The father's announcement: m0 ∨ ... ∨ m{n-1}."""
    return Or.of([Atom(f"m{i}") for i in range(n)])


def knows_own_state(child: int) -> Formula:
    """K_i m_i ∨ K_i ¬m_i: the child knows whether it is muddy."""
    return knows_whether(child, Atom(f"m{child}"))


def nobody_knows(n: int) -> Formula:
    """What the children's silence announces after each question: no child knows its state."""
    return Not(Or.of([knows_own_state(i) for i in range(n)]))
