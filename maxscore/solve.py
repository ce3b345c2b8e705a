"""The best score a budget of trains can buy, proven optimal.

Score as in "Maximizing the Score in Ticket to Ride" (Schaefer & Schaefer): points of the chosen
connections plus points of every ticket whose two cities they join, total length within the
budget. In a game (``owned``, ``usable``, ``penalise_unfinished``) the player's own connections
are free, others' are out of reach and unfinished own tickets count minus.

How the proof works. A network that finishes no ticket scores its connections only: a knapsack.
The strong ``rooted`` formulation (see ``maxscore.formulation``) covers the networks whose
finished tickets all lie in one piece, plus any edges built just for points. A
network with finished tickets in two or more pieces splits into parts, each such a network on its
own share of the trains (each at least the cheapest ticket), so its score is at most the best sum
of one-piece bounds over a split of the budget. Those bounds come cheaply from the LP relaxation,
which is concave in the budget, so a few LP solves with their budget duals bound every share; a
share is solved exactly only if the LP is not tight enough. If a split could still win, the
general ``flow`` formulation settles it. With owned connections the pieces are not independent
any more (they share what is owned), so games use the ``flow`` formulation, which is exact for
any network and quick with a player's few tickets.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import networkx as nx

from boards import Board, Connection, Ticket
from maxscore.formulation import Options, build, lp_relaxation, solve
from maxscore.heuristic import fill, greedy
from maxscore.network import Network, build_network

__all__ = ["MaxScoreResult", "max_score", "solve_network"]

#: What solving a network gives: the best edges found (indices into ``Network.edges``), a proven
#: bound on the total (a whole number, or inf when nothing could be proven in time), statistics.
type Solution = tuple[tuple[int, ...], float, dict[str, object]]


@dataclass(frozen=True)
class MaxScoreResult:
    """The best network found for a budget, its score split and how sure we are of it.

    ``bound`` is a proven upper bound on the best possible total; ``proven`` says the total
    reaches it. ``connections`` lists one board connection per chosen edge (for a merged double,
    a segment the player may take), owned ones included.
    """

    trains: int
    connections: tuple[Connection, ...]
    tickets: tuple[Ticket, ...]
    connection_points: int
    ticket_points: int
    bound: float  # a whole number, or inf when nothing could be proven in time
    proven: bool
    seconds: float
    stats: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def total(self) -> int:
        return self.connection_points + self.ticket_points

    @property
    def trains_used(self) -> int:
        """Length of every listed connection, owned ones included."""
        return sum(c.length for c in self.connections)


def max_score(board: Board, trains: int, *, tickets: Iterable[Ticket] | None = None,
              usable: Iterable[int] | None = None, owned: Iterable[int] = (),
              penalise_unfinished: bool = False, merge_doubles: bool = True,
              time_limit: float | None = None, options: Options | None = None) -> MaxScoreResult:
    """The highest score ``trains`` can buy on ``board`` (see the module docstring).

    ``tickets`` default to all of the board's; ``usable`` are the connection ids still free
    (default all); ``owned`` the player's own connections, which cost nothing.
    ``merge_doubles=False`` makes both segments of a double buildable (the paper's unmerged
    map, as if one player could take both). ``options`` switches formulation details off, for
    the benchmark. Raises ``ValueError`` on bad input.
    """
    began = time.perf_counter()
    owned = tuple(owned)
    tickets = check_input(board, trains, tickets, usable, owned, time_limit)
    net = build_network(board, tickets=tickets, usable=usable, owned=owned,
                        penalise_unfinished=penalise_unfinished, merge_doubles=merge_doubles)
    opts = options or Options()
    deadline = None if time_limit is None else began + time_limit
    chosen, bound, stats = solve_network(net, trains, opts, deadline)
    return make_result(board, net, trains, chosen, bound, time.perf_counter() - began, stats)


def solve_network(net: Network, trains: int, opts: Options, deadline: float | None, *,
                  one_tree: dict[int, float] | None = None,
                  start: tuple[int, ...] | None = None) -> Solution:
    """Best edges, proven bound and statistics for ``net`` under ``trains``.

    ``one_tree`` maps budgets to proven bounds on the one-piece gain, as a sweep learns them:
    the split bound reads it instead of re-solving those shares, and this budget's is added.
    ``start`` is a network to try besides the greedy one.
    """
    if any(e.owned for e in net.edges) and opts.formulation == "rooted":
        opts = replace(opts, formulation="flow")  # owned edges tie the pieces together
    stats: dict[str, object] = {"formulation": opts.formulation, "edges": len(net.edges)}
    seed = None
    if opts.warm_start:
        seed = max([c for c in (greedy(net, trains), start) if c is not None],
                   key=net.gain)
        stats["heuristic"] = net.gain(seed) + net.constant
    if opts.formulation == "rooted":
        return _one_tree_or_split(net, trains, opts, deadline, one_tree, seed, stats)
    solved = solve(build(net, trains, opts), time_limit=_left(deadline), start=seed)
    stats.update(nodes=solved.nodes, mip_seconds=round(solved.seconds, 2))
    chosen = max([c for c in (seed, solved.chosen) if c is not None], key=net.gain)
    return chosen, _whole(solved.bound), stats


def _one_tree_or_split(net: Network, trains: int, opts: Options, deadline: float | None,
                       one_tree: dict[int, float] | None, seed: tuple[int, ...] | None,
                       stats: dict[str, object]) -> Solution:
    """The rooted case: ticketless networks (a knapsack), one tree with tickets (the MIP), and
    networks with tickets in two or more pieces (the split bound, else the flow MIP)."""
    loose = fill(net, set(), trains)
    bound = sum(net.edges[k].points for k in loose) + net.constant  # any ticketless network
    chosen = max([c for c in (seed, loose) if c is not None], key=net.gain)
    cheapest = _cheapest_ticket(net)
    if cheapest is None or cheapest > trains:
        return chosen, bound, stats
    solved = solve(build(net, trains, opts), time_limit=_left(deadline), start=seed)
    stats.update(nodes=solved.nodes, mip_seconds=round(solved.seconds, 2))
    if net.gain(solved.chosen) > net.gain(chosen):
        chosen = solved.chosen
    tree_bound = _whole(solved.bound)
    if one_tree is not None:
        one_tree[trains] = tree_bound - net.constant
    value = net.constant + net.gain(chosen)
    split = _split_bound(net, trains, value, opts, deadline, stats,
                         {} if one_tree is None else one_tree, cheapest)
    stats["split_bound"] = split
    if split > value:  # two or more pieces might beat one: settle it exactly
        general = solve(build(net, trains, replace(opts, formulation="flow")),
                        time_limit=_left(deadline), start=chosen)
        stats["flow_seconds"] = round(general.seconds, 2)
        if net.gain(general.chosen) > net.gain(chosen):
            chosen = general.chosen
        split = _whole(general.bound)
    return chosen, max(bound, tree_bound, split), stats


def check_input(board: Board, trains, tickets, usable, owned, time_limit) -> tuple[Ticket, ...]:
    """Reject silly input with a message a CLI user can act on; the tickets that count."""
    if not isinstance(trains, int) or isinstance(trains, bool) or trains < 0:
        raise ValueError(f"trains must be a whole number >= 0, not {trains!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time limit must be a positive number of seconds, not {time_limit!r}")
    chosen = board.tickets if tickets is None else tuple(tickets)
    names = set(board.city_names)
    for t in chosen:
        if t.a not in names or t.b not in names:
            raise ValueError(f"ticket {t} names a city that is not on board {board.name}")
    ids = range(len(board.connections))
    for what, given in (("usable", usable or ()), ("owned", owned)):
        bad = [i for i in given if i not in ids]
        if bad:
            raise ValueError(f"{what} connection ids {bad} are not on board {board.name} "
                             f"(ids run from 0 to {len(board.connections) - 1})")
    return chosen


def _whole(bound: float) -> float:
    """A bound on a whole-number score, rounded down (scores are whole; HiGHS's are floats)."""
    return math.floor(bound + 1e-6) if math.isfinite(bound) else bound


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.perf_counter(), 0.01)


def _split_bound(net: Network, trains: int, value: int, opts: Options,
                 deadline: float | None, stats: dict[str, object], exact: dict[int, float],
                 cheapest: int) -> float:
    """A bound on networks whose finished tickets lie in two or more pieces.

    Each piece costs at least the cheapest ticket. Per-share bounds start from LP tangents
    (concavity in the budget) and are tightened where the best split needs it: first by the LP
    at that share, then by solving that share exactly.
    """
    if 2 * cheapest > trains:
        return value
    tangents: list[tuple[int, float, float]] = []  # (budget, LP value, budget dual)
    mip_solves = 0
    target = value - net.constant  # split bounds are on gains; the constant counts once

    def upper(b: int) -> float:
        # An LP optimum's budget dual is a supergradient of its value, concave in the budget;
        # the distance cuts of a model built for b0 hold for every smaller budget too, so its
        # tangent bounds the one-piece optimum at every b <= b0.
        if b in exact:
            return exact[b]
        best = min((v0 + dual * (b - b0) for b0, v0, dual in tangents if b <= b0),
                   default=math.inf)
        return best if math.isinf(best) else math.floor(best + 1e-6)

    lp_solves = 0
    if any(b not in exact for b in range(cheapest, trains - cheapest + 1)):
        tangents.append(_lp_tangent(net, trains - cheapest, opts))  # valid for every share
        lp_solves = 1
    while True:
        parts, total = _best_split(upper, trains, cheapest)
        if total <= target:
            break
        fresh = sorted(set(parts) - set(exact) - {t[0] for t in tangents})
        if fresh:
            for b in fresh:
                tangents.append(_lp_tangent(net, b, opts))
                lp_solves += 1
            continue
        share = next((b for b in parts if b not in exact), None)
        if share is None or (deadline is not None and time.perf_counter() > deadline):
            break
        shares = solve(build(net, share, opts), time_limit=_left(deadline),
                       start=greedy(net, share))
        exact[share] = _whole(shares.bound) - net.constant
        mip_solves += 1
    stats.update(split_lp_solves=lp_solves, split_mip_solves=mip_solves)
    return total + net.constant if total > target else value


def _cheapest_ticket(net: Network) -> int | None:
    g = nx.Graph()
    g.add_nodes_from(range(net.n))
    for e in net.edges:
        if not g.has_edge(e.u, e.v) or g[e.u][e.v]["w"] > e.cost:
            g.add_edge(e.u, e.v, w=e.cost)
    costs = []
    for t in net.tickets:
        s, d = net.ticket_ends(t)
        if nx.has_path(g, s, d):
            costs.append(nx.dijkstra_path_length(g, s, d, weight="w"))
    return max(min(costs), 1) if costs else None


def _best_split(upper, trains: int, least: int) -> tuple[list[int], float]:
    """The split of ``trains`` into two or more shares of at least ``least`` with the highest
    sum of ``upper``; shares and sum."""
    one: list[tuple[float, list[int]]] = [(-math.inf, [])] * (trains + 1)
    for c in range(least, trains - least + 1):  # best over one or more shares, total <= c
        one[c] = max([(upper(c), [c])] + [(upper(p) + one[c - p][0], [p] + one[c - p][1])
                                          for p in range(least, c - least + 1)],
                     key=lambda pair: pair[0])
    best = max(((upper(p) + one[trains - p][0], [p] + one[trains - p][1])
                for p in range(least, trains - least + 1)), key=lambda pair: pair[0])
    return best[1], best[0]


def _lp_tangent(net: Network, trains: int, opts: Options) -> tuple[int, float, float]:
    """LP relaxation value at ``trains`` and the rate it grows with the budget (its dual)."""
    relaxed = lp_relaxation(build(net, trains, opts))
    if relaxed is None:
        return trains, math.inf, 0.0  # no bound from here: the share gets solved exactly
    value, dual = relaxed
    return trains, value - net.constant, dual


def make_result(board: Board, net: Network, trains: int, chosen: tuple[int, ...], bound: float,
                seconds: float, stats: dict[str, object]) -> MaxScoreResult:
    """Re-score ``chosen`` (edge indices) independently and report it in board terms."""
    connection_points, ticket_points, done = net.score(chosen)
    picked = set(chosen) | {k for k, e in enumerate(net.edges) if e.owned}
    connections = tuple(sorted((board.connections[net.edges[k].connections[0]] for k in picked),
                               key=lambda c: c.id))
    total = connection_points + ticket_points
    return MaxScoreResult(trains, connections, done, connection_points, ticket_points,
                          max(bound, total), total >= bound, round(seconds, 3), stats)
