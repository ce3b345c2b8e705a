"""Fewest-trains distances between all cities, per player, for the strategy agents.

For player p a free connection costs its length, one of p's own costs nothing, and anyone
else's (or a closed half of a double) cannot be used: the same public metric as
``game.paths``, computed for all pairs at once because the standard agents ask about many city
pairs every turn (tickets on offer, a plan joining all ticket cities). Only owners decide these
distances, so an oracle can serve every player's view without revealing anything hidden.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterable, Sequence

import numpy as np

from boards import Board, Ticket
from game.paths import ShortestPaths, ticket_paths

INF = float("inf")


class Distances:
    """All-pairs distances for one player on the board as it was when computed."""

    def __init__(self, board: Board, ends: tuple[np.ndarray, np.ndarray], weight: np.ndarray,
                 dist: np.ndarray):
        self.board = board
        self.index = board.city_index
        self.weight = weight  # per connection: length, 0 if own, inf if unusable
        self.dist = dist  # city × city
        self._u, self._v = ends
        self._weights = weight.tolist()
        # Agents ask the same questions several times a turn; answers hold until the next claim.
        self._tight: dict[tuple[str, str], list[int]] = {}
        self._paths: dict[tuple[str, str], list[int]] = {}
        self._trees: dict[frozenset[str], list[int]] = {}

    def carried(self, weight: np.ndarray) -> Distances:
        """The same distances under ``weight``, which closes only connections that lie on no
        shortest path: every answer given so far still holds, so they are kept."""
        new = Distances(self.board, (self._u, self._v), weight, self.dist)
        new._tight, new._paths, new._trees = self._tight, self._paths, self._trees
        return new

    def cost(self, a: str, b: str) -> float:
        """Trains still needed to join ``a`` and ``b`` (``inf`` when they are cut apart)."""
        return float(self.dist[self.index[a], self.index[b]])

    def on_shortest(self, a: str, b: str) -> list[int]:
        """Connections still to claim (free, usable) on at least one shortest ``a``–``b`` path,
        by id; empty when the cities are joined already or cut apart."""
        key = (a, b)
        if key not in self._tight:
            ia, ib = self.index[a], self.index[b]
            total = self.dist[ia, ib]
            if total == INF or total == 0:
                self._tight[key] = []
            else:
                d, w, u, v = self.dist, self.weight, self._u, self._v
                tight = (d[ia, u] + w + d[v, ib] == total) | (d[ia, v] + w + d[u, ib] == total)
                self._tight[key] = np.flatnonzero(tight & (w > 0)).tolist()
        return self._tight[key]

    def path(self, a: str, b: str) -> list[int]:
        """One shortest path from ``a`` to ``b`` as connection ids in travel order (own ones
        included): the one with the fewest connections, then the lowest ids. Empty when the
        cities coincide or are cut apart."""
        key = (a, b)
        if key not in self._paths:
            self._paths[key] = self._path(a, b)
        return self._paths[key]

    def _path(self, a: str, b: str) -> list[int]:
        ia, ib = self.index[a], self.index[b]
        to_b = self.dist[:, ib].tolist()
        if to_b[ia] == INF:
            return []
        adjacency = _adjacency(self.board)
        weights = self._weights
        came: dict[int, tuple[int, int]] = {ia: (-1, -1)}
        todo = deque([ia])
        while todo and ib not in came:
            city = todo.popleft()
            for cid, nxt in adjacency[city]:
                if nxt not in came and weights[cid] + to_b[nxt] == to_b[city]:
                    came[nxt] = (city, cid)
                    todo.append(nxt)
        out = []
        city = ib
        while city != ia:
            city, cid = came[city]
            out.append(cid)
        return out[::-1]

    def tree(self, cities: Iterable[str]) -> list[int]:
        """A cheap network joining ``cities`` (a Steiner-tree approximation): the two farthest
        cities joined by a shortest path, then each other city attached to the network by a
        shortest path, nearest city first (ties: lowest city index, as the board lists them).
        Cities cut off from the network are left out.
        Returns connection ids (own ones included)."""
        key = frozenset(cities)
        if key not in self._trees:
            self._trees[key] = self._tree(key)
        return list(self._trees[key])

    def _tree(self, cities: Iterable[str]) -> list[int]:
        idx = sorted({self.index[c] for c in cities})
        if len(idx) < 2:
            return []
        rows = {c: self.dist[c].tolist() for c in idx}  # plain floats: a few dozen look-ups
        pairs = [(-rows[a][b], a, b) for a in idx for b in idx if a < b and rows[a][b] < INF]
        if not pairs:
            return []
        _, i, j = min(pairs)  # the farthest pair, the lowest city indices on ties
        names = self.board.city_names
        edges = list(self.path(names[i], names[j]))
        nodes = self._nodes(i, edges)
        # each city still to attach, with its distance to the network and the nearest node
        gap = {c: min((rows[c][t], t) for t in nodes) for c in idx if c not in nodes}
        while gap:
            d, city, target = min((g[0], c, g[1]) for c, g in gap.items())
            if d == INF:
                break
            del gap[city]
            more = self.path(names[city], names[target])
            edges += more
            added = self._nodes(city, more) - nodes
            nodes |= added
            for c in list(gap):
                if c in added:
                    del gap[c]
                elif added:
                    gap[c] = min(gap[c], min((rows[c][t], t) for t in added))
        return edges

    def _nodes(self, start: int, path: Sequence[int]) -> set[int]:
        out, city = {start}, start
        index = self.index
        for cid in path:
            c = self.board.connections[cid]
            city = index[c.b] if index[c.a] == city else index[c.a]
            out.add(city)
        return out


_ADJ: dict[int, tuple[Board, list[list[tuple[int, int]]]]] = {}


def _adjacency(board: Board) -> list[list[tuple[int, int]]]:
    """Per city index, (connection id, other city index) sorted by connection id."""
    cached = _ADJ.get(id(board))
    if cached is None or cached[0] is not board:
        index = board.city_index
        adj: list[list[tuple[int, int]]] = [[] for _ in board.cities]
        for c in board.connections:
            adj[index[c.a]].append((c.id, index[c.b]))
            adj[index[c.b]].append((c.id, index[c.a]))
        cached = _ADJ[id(board)] = (board, adj)
    return cached[1]


def all_pairs(n: int, ends: tuple[np.ndarray, np.ndarray], weight: np.ndarray) -> np.ndarray:
    """Floyd–Warshall over ``n`` cities for one weight vector (``weight`` 1-d) or several at
    once (2-d, one row each: a batch costs little more than one, since numpy's per-call
    overhead dominates at board size)."""
    weights = np.atleast_2d(weight)
    m = len(weights)
    u, v = ends
    dist = np.full((m, n, n), INF)
    for row, w in zip(dist, weights, strict=True):  # parallel connections: the cheaper counts
        np.minimum.at(row, (u, v), w)
        np.minimum.at(row, (v, u), w)
    dist[:, np.arange(n), np.arange(n)] = 0.0
    for k in range(n):
        np.minimum(dist, dist[:, :, k, None] + dist[:, None, k, :], out=dist)
    return dist[0] if weight.ndim == 1 else dist


class PathOracle:
    """Public paths for every player on the board as it is now: each ticket's shortest paths
    (the simplified game's, from ``game.paths``) and all-pairs distances (the strategy agents'),
    brought up to date after claims.

    The game state owns one and calls :meth:`claimed` after each claim; views hand it to
    policies. It holds owners only, which are public. A claim changes a player's distances in
    one of three ways, and only the last costs a full recomputation: its own claim makes a
    connection free (one vectorised relaxation through it), someone else's claim of a
    connection on none of its shortest paths changes nothing, and someone else's claim of one
    that was on a shortest path may lengthen any distance."""

    def __init__(self, board: Board, doubles_both_usable: bool):
        self.board = board
        index = board.city_index
        self._ends = (np.array([index[c.a] for c in board.connections], dtype=np.intp),
                      np.array([index[c.b] for c in board.connections], dtype=np.intp))
        self._length = np.array([c.length for c in board.connections], dtype=float)
        mates = board.double_mates
        self._mate = np.array([mates.get(c.id, -1) for c in board.connections], dtype=np.intp)
        self._both = doubles_both_usable
        self.owner = np.full(len(board.connections), -1, dtype=np.intp)
        self.claims: list[int] = []  # connection ids in the order claimed
        self._cache: dict[tuple[int, int], tuple[int, Distances]] = {}
        self._ticket_paths: dict[tuple[int, int], ShortestPaths | None] = {}

    @property
    def version(self) -> int:
        """The number of claims so far: distances change only when it does."""
        return len(self.claims)

    def claimed(self, connection: int, player: int) -> None:
        self.owner[connection] = player
        self.claims.append(connection)
        # A claim changes the claimant's ticket paths (its connection now costs nothing) and
        # every path that used the connection; losing one on no shortest path changes none.
        self._ticket_paths = {key: found for key, found in self._ticket_paths.items()
                              if key[0] != player
                              and (found is None or connection not in found.connections)}

    def clone(self) -> PathOracle:
        """An independent copy (for ``GameState.clone``); cached answers are immutable."""
        new = copy.copy(self)
        new.owner, new.claims = self.owner.copy(), self.claims.copy()
        new._cache, new._ticket_paths = dict(self._cache), dict(self._ticket_paths)
        return new

    def path_owner(self, owner: Sequence[int | None] | None = None) -> list[int | None]:
        """Owners as ``game.paths`` reads them (as now, or as ``owner`` gives them): with
        fewer than 4 players the free half of a taken double can never be claimed, so it is
        marked taken by nobody (-1) and no one can use it."""
        if owner is None:
            owner = [None if o < 0 else int(o) for o in self.owner]
        out = list(owner)
        if not self._both:
            for c, mate in self.board.double_mates.items():
                if out[c] is None and owner[mate] is not None:
                    out[c] = -1
        return out

    def ticket_paths(self, player: int, ticket: Ticket, version: int | None = None,
                     owner: Sequence[int | None] = ()) -> ShortestPaths | None:
        """The public shortest paths of ``player`` for ``ticket`` (``game.paths``), cached
        until a claim changes them; a caller holding an older picture of the board passes its
        ``version`` and ``owner`` and gets the paths of that picture."""
        if version is not None and version != self.version:
            return ticket_paths(self.board, self.path_owner(owner), player, ticket)
        key = (player, ticket.id)
        if key not in self._ticket_paths:
            self._ticket_paths[key] = ticket_paths(self.board, self.path_owner(), player, ticket)
        return self._ticket_paths[key]

    def weights(self, player: int | np.ndarray, min_length: int | np.ndarray = 1,
                owner: np.ndarray | None = None) -> np.ndarray:
        """Per connection: 0 if ``player`` owns it, its length if it is free, open to
        ``player`` and at least ``min_length`` long, else ``inf`` (owners as now, or as
        ``owner`` gives them, -1 for free). Column vectors of players and minimum lengths
        give one row each, in one go."""
        owner = self.owner if owner is None else owner
        mate = self._mate
        mate_owner = np.where(mate >= 0, owner[mate], -1)
        closed = (mate_owner >= 0) & ((mate_owner == player) | (not self._both))
        free = (owner < 0) & ~closed & (self._length >= min_length)
        return np.where(owner == player, 0.0, np.where(free, self._length, INF))

    def distances(self, player: int, min_length: int = 1, version: int | None = None,
                  owner: Sequence[int | None] = ()) -> Distances:
        """``player``'s distances over its own connections and the free ones of at least
        ``min_length`` (cached until the next claim). A caller holding an older picture of the
        board passes its ``version`` and ``owner``: it gets the distances of that picture."""
        if version is not None and version != self.version:
            past = np.array([-1 if o is None else o for o in owner], dtype=np.intp)
            weight = self.weights(player, min_length, past)
            return Distances(self.board, self._ends, weight,
                             all_pairs(len(self.board.cities), self._ends, weight))
        key = (player, min_length)
        hit = self._cache.get(key)
        if hit is None or hit[0] != self.version:
            self._refresh(key)
        return self._cache[key][1]

    def _refresh(self, wanted: tuple[int, int]) -> None:
        """Bring ``wanted`` and every other distance table asked for before up to date. Those
        a claim may have lengthened are recomputed together in one batch: in a game every
        player asks on its turn, and one batch costs little more than one table."""
        stale = [k for k, (seen, _) in self._cache.items() if seen != self.version]
        keys = stale if wanted in stale else [*stale, wanted]
        rows = self.weights(np.array([[k[0]] for k in keys]), np.array([[k[1]] for k in keys]))
        recompute = []
        for key, weight in zip(keys, rows, strict=True):
            hit = self._cache.get(key)
            found = None if hit is None else self._update(hit[1], weight, self.claims[hit[0]:])
            if found is None:
                recompute.append((key, weight))
            else:
                self._cache[key] = (self.version, found)
        if recompute:
            weights = np.stack([w for _, w in recompute])
            tables = all_pairs(len(self.board.cities), self._ends, weights)
            for (key, weight), dist in zip(recompute, tables, strict=True):
                self._cache[key] = (self.version, Distances(self.board, self._ends, weight, dist))

    def _update(self, old: Distances, weight: np.ndarray, claims: list[int]) -> Distances | None:
        """``old`` brought up to date after ``claims`` under the new ``weight``, or ``None``
        when a claim may have lengthened a shortest path (then only a recomputation is exact).
        When every change closed a connection that lay on no shortest path at all, every answer
        stays the same, paths and plans included, so the new table keeps the old one's."""
        u, v = self._ends
        changed = {c for cid in claims for c in (cid, int(self._mate[cid])) if c >= 0}
        same = True
        for c in sorted(changed):  # lengthened first: they are checked against the old distances
            before, after = old.weight[c], weight[c]
            if after > before and before < INF:
                a, b = u[c], v[c]
                mate = int(self._mate[c])
                spare = mate >= 0 and weight[mate] <= before
                if old.dist[a, b] >= before:
                    if not spare:
                        return None
                    same = False  # the other half may now be the path the lowest ids pick
            elif after != before:
                same = False
        if same:
            return old.carried(weight)
        dist = old.dist.copy()
        for c in sorted(changed):
            if weight[c] < old.weight[c]:
                a, b, w = u[c], v[c], weight[c]
                np.minimum(dist, dist[:, a, None] + w + dist[None, b, :], out=dist)
                np.minimum(dist, dist[:, b, None] + w + dist[None, a, :], out=dist)
        return Distances(self.board, self._ends, weight, dist)
