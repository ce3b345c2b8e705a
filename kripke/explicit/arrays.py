"""Array kernels behind the checker, written for 10^7-10^8 worlds.

Both kernels walk the worlds in chunks of a few hundred thousand: numpy converts small int keys
to full-width indices before indexing, and doing that per chunk keeps the converted indices in
cache, which halves the time of a whole-array gather or scatter.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: A bool per world (or per class); an int per world (observation keys, world ids).
type BoolArray = np.ndarray
type IntArray = np.ndarray

_CHUNK = 1 << 18


def gather(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``table[keys]``: a per-class value spread to every world of the class."""
    out = np.empty(keys.shape, dtype=table.dtype)
    for start in range(0, keys.size, _CHUNK):
        stop = start + _CHUNK
        np.take(table, keys[start:stop], out=out[start:stop])
    return out


#: A mask over every world (kept: ``True``).
type WorldMask = BoolArray


def count(mask: WorldMask) -> int:
    """The mask's number of True, a chunk at a time."""
    return sum(int(np.count_nonzero(mask[start:start + _CHUNK]))
               for start in range(0, mask.size, _CHUNK))


def compress(arrays: Sequence[np.ndarray], mask: WorldMask, kept: int,
             positions: np.dtype | None = None, mark: int | None = None
             ) -> tuple[list[np.ndarray], int | None]:
    """``[a[mask] for a in arrays]`` with ``kept`` the mask's count of True, in one walk; with
    ``positions`` (a dtype), one more array: the kept worlds' indices, ``np.flatnonzero(mask)``.
    Also where index ``mark`` lands among the kept ones (None if it is not kept), found in the
    same walk: the actual world of a model that stores no ids.

    Each chunk's kept positions are found once and taken from every array. Boolean indexing of
    small ints re-reads the mask per array and is several times slower: for four int16 key
    arrays and the world ids over 63 million worlds, 0.9 s against 0.3 s on this project's
    machine, and that was most of a turn of a 4 × 4 game.
    """
    out = [np.empty(kept, dtype=a.dtype) for a in arrays]
    where = None if positions is None else np.empty(kept, dtype=positions)
    at, marked = 0, None
    for start in range(0, mask.size, _CHUNK):
        stop = min(start + _CHUNK, mask.size)
        chunk = mask[start:stop]
        end = at + int(np.count_nonzero(chunk))
        if mark is not None and start <= mark < stop and chunk[mark - start]:
            marked = at + int(np.count_nonzero(chunk[:mark - start]))
        if end - at == stop - start:  # a deal's announcements keep or drop long runs: copy them
            for array, result in zip(arrays, out, strict=True):
                result[at:end] = array[start:stop]
            if where is not None:
                where[at:end] = np.arange(start, stop)
        elif end > at:
            kept_here = np.flatnonzero(chunk)
            for array, result in zip(arrays, out, strict=True):
                # in range by construction: "clip" checks nothing and needs no buffer
                np.take(array[start:stop], kept_here, out=result[at:end], mode="clip")
            if where is not None:
                np.add(kept_here, start, out=where[at:end], casting="unsafe")
        at = end
    return (out if where is None else [*out, where]), marked


def positions(keys: np.ndarray, key: int) -> np.ndarray:
    """``np.flatnonzero(keys == key)``, a chunk at a time: the comparison stays in cache
    instead of filling a mask of every world (three times faster at 63 million worlds)."""
    found = [np.flatnonzero(keys[start:start + _CHUNK] == key) + start
             for start in range(0, keys.size, _CHUNK)]
    return np.concatenate([np.zeros(0, dtype=np.intp), *found])


def bincount(keys: np.ndarray, size: int, where: np.ndarray | None = None) -> np.ndarray:
    """``np.bincount(keys[where], minlength=size)``, a chunk at a time: numpy widens each chunk
    to full-size ints first, and chunks of a few hundred thousand keep that in cache (four
    times faster than chunks of four million at 63 million worlds)."""
    counts = np.zeros(size, dtype=np.int64)
    for start in range(0, keys.size, _CHUNK):
        chunk = keys[start:start + _CHUNK]
        if where is not None:
            chunk = chunk[where[start:start + _CHUNK]]
        counts += np.bincount(chunk, minlength=size)
    return counts


def class_flags(keys: np.ndarray, n_keys: int, values: np.ndarray) -> np.ndarray:
    """Per class x, whether some world with key x has value False (column 0) or True (column 1).

    One scatter of the codes 2·key + value, with no compress of the worlds first: a scatter of
    every world costs less than selecting the failing ones when many fail.
    """
    seen = np.zeros(2 * n_keys, dtype=bool)
    for start in range(0, keys.size, _CHUNK):
        stop = start + _CHUNK
        codes = keys[start:stop].astype(np.intp)
        codes <<= 1
        codes += values[start:stop]
        seen[codes] = True
    return seen.reshape(n_keys, 2)


def pair_flags(first: np.ndarray, n_first: int, second: np.ndarray, n_second: int) -> np.ndarray:
    """An (n_first, n_second) bool matrix: whether some world has key x in ``first`` and key y
    in ``second``. It is how one agent's classes meet another's, and so what one agent can know
    about another's observation, computed once over the worlds."""
    seen = np.zeros(n_first * n_second, dtype=bool)
    for start in range(0, first.size, _CHUNK):
        stop = start + _CHUNK
        codes = first[start:stop].astype(np.intp)
        codes *= n_second
        codes += second[start:stop]
        seen[codes] = True
    return seen.reshape(n_first, n_second)


def distinct(codes: np.ndarray) -> np.ndarray:
    """The distinct values of an int array, sorted: one sort and one comparison, which on
    numpy 2.3 is several times faster than ``np.unique`` (its hash table costs 0.8 s on the
    300,000 arrows of a 100,000-world belief model)."""
    ordered = np.sort(codes, kind="stable")
    if ordered.size == 0:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]
