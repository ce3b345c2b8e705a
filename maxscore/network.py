"""The network the max-score optimiser works on: a board reduced to what a budget can buy.

The optimiser never looks at colours, ferries or card counts, only at which connections can still
be taken, what they cost in trains and what they score. Reducing a board to that once (merging
double routes, dropping connections owned by others, making owned ones free) keeps every
formulation small and lets them share one definition of the score.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from boards import Board, Ticket


@dataclass(frozen=True)
class Edge:
    """One thing a player can build: a connection, or both segments of a merged double.

    ``connections`` are the board connection ids it stands for (the first is reported when it is
    chosen). ``owned`` edges are already built: they cost no trains and are always in the network.
    """

    connections: tuple[int, ...]
    u: int
    v: int
    length: int
    points: int
    owned: bool = False

    @property
    def cost(self) -> int:
        return 0 if self.owned else self.length


@dataclass(frozen=True)
class Network:
    """Cities (by index), buildable edges and the tickets that count, with their score rule.

    With ``penalise_unfinished`` a ticket is worth ``+points`` when finished and ``-points`` when
    not (the in-game rule), so finishing it gains ``2·points`` over the constant ``-Σ points``.
    """

    cities: tuple[str, ...]
    edges: tuple[Edge, ...]
    tickets: tuple[Ticket, ...]
    penalise_unfinished: bool = False

    @property
    def n(self) -> int:
        return len(self.cities)

    def ticket_ends(self, t: Ticket) -> tuple[int, int]:
        index = {c: i for i, c in enumerate(self.cities)}
        return index[t.a], index[t.b]

    def ticket_gain(self, t: Ticket) -> int:
        """What finishing ``t`` adds to the objective."""
        return 2 * t.points if self.penalise_unfinished else t.points

    @property
    def constant(self) -> int:
        """The score of the owned edges plus the penalty of every ticket left unfinished."""
        owned = sum(e.points for e in self.edges if e.owned)
        return owned - (sum(t.points for t in self.tickets) if self.penalise_unfinished else 0)

    def score(self, chosen: Iterable[int]) -> tuple[int, int, tuple[Ticket, ...]]:
        """Connection points, ticket points and finished tickets of the edges ``chosen``.

        The single source of truth for the score: every formulation's answer is re-scored here,
        so a modelling slip shows up as a disagreement instead of a wrong number.
        """
        picked = set(chosen) | {i for i, e in enumerate(self.edges) if e.owned}
        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from((self.edges[i].u, self.edges[i].v) for i in picked)
        comp = {v: k for k, part in enumerate(nx.connected_components(g)) for v in part}
        done = tuple(t for t in self.tickets
                     if comp[self.ticket_ends(t)[0]] == comp[self.ticket_ends(t)[1]])
        unfinished = sum(t.points for t in self.tickets if t not in done)
        ticket_points = sum(t.points for t in done)
        if self.penalise_unfinished:
            ticket_points -= unfinished
        return sum(self.edges[i].points for i in picked), ticket_points, done

    def gain(self, chosen: Iterable[int]) -> int:
        """What the edges ``chosen`` add to the constant: the objective every formulation and
        the heuristic maximise (the total score less :attr:`constant`)."""
        connections, tickets, _ = self.score(chosen)
        return connections + tickets - self.constant


def build_network(board: Board, *, tickets: Iterable[Ticket] | None = None,
                  usable: Iterable[int] | None = None, owned: Iterable[int] = (),
                  penalise_unfinished: bool = False, merge_doubles: bool = True) -> Network:
    """Reduce ``board`` to the edges a player can still build or already has.

    ``usable`` are the connection ids still free (default: all); ``owned`` are the player's own
    connections. A merged double is owned if the player owns either segment and buildable if
    either is free, because one player may never take both segments of a double.
    """
    owned_ids = set(owned)
    usable_ids = set(range(len(board.connections))) if usable is None else set(usable)
    groups: dict[object, list[int]] = {}
    for c in board.connections:
        key = ("pair", c.pair) if merge_doubles and c.pair is not None else ("one", c.id)
        groups.setdefault(key, []).append(c.id)
    mates_owned = {board.connections[i].pair for i in owned_ids} - {None}
    index = board.city_index
    edges = []
    for ids in groups.values():
        c = board.connections[ids[0]]
        mine = [i for i in ids if i in owned_ids]
        free = [i for i in ids if i in usable_ids and board.connections[i].pair not in mates_owned]
        if mine:
            edges.append(Edge(tuple(mine), index[c.a], index[c.b], c.length,
                              board.points_for(c.length), owned=True))
        elif free:
            edges.append(Edge(tuple(free), index[c.a], index[c.b], c.length,
                              board.points_for(c.length)))
    chosen = board.tickets if tickets is None else tuple(tickets)
    return Network(board.city_names, tuple(edges), tuple(chosen), penalise_unfinished)
