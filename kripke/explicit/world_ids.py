"""Each world's id: the name a world keeps across updates, where its index does not.

A model's worlds are indices 0..n-1, and an announcement renumbers them. A world's *id* stays:
its index in the model as first built, or an id the model was built with (an event model's
update names the pair of a world and an event; a file keeps the ids it was saved with). A
drawing pins each world by its id, a puzzle's valuation reads it ("bit i of the id"), an
explanation cites worlds by it. A model holds a :class:`WorldIds` and asks it; nothing else
of the model knows how its ids are kept.

Ids are kept the cheapest way that still gives them, since at 63 million worlds an array of
them is 250 MB that no announcement reads: a model as first built stores none (world i is world
i); a model whose worlds say their own ids (a deal: its index among all deals follows from its
hands, :meth:`kripke.explicit.deal.DealModel._ids_of`) stores none even after worlds are removed;
any
other model, once worlds are removed, stores them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kripke.errors import ModelError
from kripke.explicit.arrays import IntArray

#: A model's rule for the ids of some of its worlds (by index), when its worlds say their ids.
type Rule = Callable[[IntArray], IntArray]


def id_dtype(n_worlds: int) -> np.dtype:
    """The int type of the ids a model of ``n_worlds`` as first built numbers: half the memory
    of int64 below 2³¹ worlds."""
    return np.dtype(np.int64 if n_worlds >= 2**31 else np.int32)


@dataclass(frozen=True, slots=True)
class WorldIds:
    """How a model knows its worlds' ids, always increasing with the index: stored (one per
    world), or not stored because each world's id is its index (``whole``: no world removed
    since the model was first built) or because the worlds say their ids (``said``: the
    model's rule works them out; a deal's first announcement then writes 126 MB instead of
    189 MB of new memory, and on this project's virtual machines each new page costs more
    than the computation that fills it)."""

    stored: IntArray | None = None
    said: bool = False
    whole: bool = True

    @classmethod
    def given(cls, ids: Sequence[int] | IntArray, n_worlds: int) -> WorldIds:
        """Ids a model is built with: ``n_worlds`` increasing ints, refused otherwise."""
        array = np.array(ids, dtype=np.int64)
        if array.shape != (n_worlds,) or np.any(np.diff(array) <= 0):
            raise ModelError(f"world ids must be {n_worlds} increasing ints")
        return cls._stored(array)

    @classmethod
    def from_worlds(cls, whole: bool = True) -> WorldIds:
        """Ids the worlds say (the model's rule), of every world (``whole``: then each is
        also its index) or of some."""
        return cls(said=True, whole=whole)

    @classmethod
    def _stored(cls, ids: IntArray) -> WorldIds:
        ids.flags.writeable = False  # shared with callers; models are immutable
        return cls(ids, whole=False)

    # --- asking ----------------------------------------------------------------------------

    def all(self, n_worlds: int, rule: Rule) -> IntArray:
        """Every world's id, read-only; made when not stored (see :meth:`known`)."""
        if self.stored is not None:
            return self.stored
        worlds = np.arange(n_worlds)
        ids = (worlds if self.whole else rule(worlds)).astype(id_dtype(n_worlds))
        ids.flags.writeable = False
        return ids

    def known(self, ids: IntArray) -> WorldIds:
        """What a model keeps once :meth:`all` has given ``ids``: worked out by the rule once,
        they are stored from then on (the model's worlds never change); the index of every
        world is not (it costs nothing to make, 250 MB to keep at 63 million worlds)."""
        return self if self.stored is not None or self.whole else WorldIds._stored(ids)

    def one(self, world: int, rule: Rule) -> int:
        """The id of the world at index ``world``, without making the ids of all."""
        if self.stored is not None:
            return int(self.stored[world])
        return world if self.whole else int(rule(np.array([world]))[0])

    def index(self, world_id: int, n_worlds: int, rule: Rule) -> int | None:
        """The index of the world with this id, or None if no world has it."""
        if self.stored is None and self.whole:
            return int(world_id) if 0 <= world_id < n_worlds else None
        if self.stored is None:  # ids increase with the index: a search asks for a few of them
            i = bisect_left(range(n_worlds), world_id, key=lambda w: self.one(w, rule))
            return i if i < n_worlds and self.one(i, rule) == world_id else None
        ids = self.stored
        if not n_worlds or not 0 <= world_id <= ids[-1]:
            return None
        # the id in the ids' own type: a wider one makes numpy convert the whole array
        i = int(np.searchsorted(ids, ids.dtype.type(world_id)))
        return i if ids[i] == world_id else None

    # --- removing worlds -------------------------------------------------------------------

    def picked(self, pick: IntArray, n_worlds: int) -> WorldIds:
        """The ids of the worlds at the increasing indices ``pick`` (of ``n_worlds``)."""
        if self.stored is not None:
            return WorldIds._stored(self.stored[pick])
        if self.said:
            return WorldIds.from_worlds(whole=False)
        return WorldIds._stored(pick.astype(id_dtype(n_worlds)))

    def along(self, n_worlds: int) -> tuple[list[IntArray], np.dtype | None]:
        """What a walk keeping some worlds (:func:`kripke.explicit.arrays.compress`) takes along to
        know the kept worlds' ids: the stored ids as one more array, else the kept indices
        (in the type given: the ids of a model as first built), else nothing (worlds that say
        their ids). :meth:`walked` reads what the walk gave back."""
        if self.stored is not None:
            return [self.stored], None
        return [], None if self.said else id_dtype(n_worlds)

    def walked(self, found: list[IntArray]) -> WorldIds:
        """The kept worlds' ids from what the walk :meth:`along` asked for gave back (the
        arrays after the model's own)."""
        return WorldIds._stored(found[0]) if found else WorldIds.from_worlds(whole=False)
