"""Mixed-integer formulations of the max-score problem and their solution with HiGHS.

Two formulations, both maximising connection points plus ticket gains under a train budget:

* ``flow`` — the paper's (Schaefer & Schaefer): a commodity per ticket flows from one city to
  the other, only over chosen edges. Exact for any network, however many pieces it has, but its
  LP relaxation is weak: half of every edge of a cycle carries a whole unit of flow between any
  two of its cities, so the bound stays far above the optimum.
* ``rooted`` — the ticket-finishing part of the network is one tree, oriented away from its
  root; every city a finished ticket touches receives a unit of flow from the root along tree
  arcs, and every tree city has exactly one parent. The half-cycle trick now needs a root per
  cycle, and there is only one. The root is pinned (the lowest-numbered end of a finished
  ticket) so the solver does not branch over equivalent orientations, and the tree must finish
  a ticket. Edges outside the tree may still be built for their points. Ticketless networks and
  networks whose finished tickets lie in two or more pieces are not covered; the caller handles
  those (a knapsack, and a split of the budget: see ``maxscore.solve``).

Columns are kept as named blocks of a sparse matrix so each formulation reads like its algebra.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import highspy
import numpy as np

from maxscore import cuts
from maxscore.network import Network

INF = highspy.kHighsInf


class _Builder:
    """Accumulates columns and rows of a MIP, then hands it to HiGHS in one piece."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integer: list[bool] = []
        self.rows: list[tuple[list[int], list[float], float, float]] = []

    def cols(self, count: int, *, cost=0.0, lower=0.0, upper=1.0, integer=False) -> np.ndarray:
        start = len(self.cost)
        self.cost += list(np.broadcast_to(np.asarray(cost, float), (count,)))
        self.lower += list(np.broadcast_to(np.asarray(lower, float), (count,)))
        self.upper += list(np.broadcast_to(np.asarray(upper, float), (count,)))
        self.integer += [integer] * count
        return np.arange(start, start + count)

    def row(self, idx, coef, lower=-INF, upper=INF) -> int:
        self.rows.append((list(map(int, idx)), list(map(float, coef)), lower, upper))
        return len(self.rows) - 1

    def highs(self, offset: float = 0.0) -> highspy.Highs:
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = len(self.cost), len(self.rows)
        lp.col_cost_ = np.array(self.cost)
        lp.col_lower_, lp.col_upper_ = np.array(self.lower), np.array(self.upper)
        lp.row_lower_ = np.array([r[2] for r in self.rows])
        lp.row_upper_ = np.array([r[3] for r in self.rows])
        lp.sense_ = highspy.ObjSense.kMaximize
        lp.offset_ = offset
        lengths = [len(r[0]) for r in self.rows]
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = lp.num_col_, lp.num_row_
        lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        lp.a_matrix_.index_ = np.array([i for r in self.rows for i in r[0]], dtype=np.int32)
        lp.a_matrix_.value_ = np.array([v for r in self.rows for v in r[1]])
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
                           for i in self.integer]
        h = highspy.Highs()
        h.silent()
        h.passModel(lp)
        return h


@dataclass(frozen=True)
class Options:
    """Switches for the strengthenings, so the benchmark can measure what each one buys."""

    formulation: str = "rooted"  # "rooted" or "flow"
    # flow: a finished ticket has a chosen edge at each end; rooted: arcs leave tree cities only
    node_links: bool = True
    # rooted: which city is the root. "any": the solver's choice (many equivalent trees);
    # "lowest": the tree's lowest-numbered city; "ticket": the lowest-numbered city ending a
    # finished ticket, so the root's own ticket must be whole, which the LP feels.
    root: str = "ticket"
    # rooted: the tree finishes at least one ticket (the caller covers ticketless networks,
    # a knapsack). Without this the LP may shrink the whole tree, root included, pro rata.
    some_ticket: bool = True
    budget_cuts: bool = True  # what shortest distances rule out (see maxscore.cuts)
    warm_start: bool = True


@dataclass
class Formulation:
    """A built formulation: the HiGHS object plus where its x, y and budget live."""

    highs: highspy.Highs
    x: np.ndarray
    y: np.ndarray
    budget_row: int


def build(net: Network, trains: int, opts: Options) -> Formulation:
    """Build the chosen formulation of ``net`` under ``trains``."""
    b = _Builder()
    edges = net.edges
    # Owned edges are fixed in; their points are in the network's constant, not counted twice.
    x = b.cols(len(edges), cost=[0 if e.owned else e.points for e in edges], integer=True,
               lower=[1.0 if e.owned else 0.0 for e in edges])
    y = b.cols(len(net.tickets), cost=[net.ticket_gain(t) for t in net.tickets], integer=True)
    budget = b.row(x, [e.cost for e in edges], upper=trains)
    if opts.formulation == "flow":
        _flow(b, net, x, y, opts)
    elif opts.formulation == "rooted":
        z = _rooted(b, net, x, y, opts)
    else:
        raise ValueError(f"unknown formulation {opts.formulation!r}; use 'rooted' or 'flow'")
    if opts.budget_cuts:
        dist = cuts.distances(net)
        one_piece = opts.formulation == "rooted"
        for t in cuts.unreachable_tickets(net, dist, trains):
            b.upper[y[t]] = 0.0
        for group in cuts.exclusive_groups(cuts.ticket_conflicts(net, dist, trains, one_piece)):
            b.row([y[t] for t in group], [1.0] * len(group), upper=1.0)
        if one_piece:
            pairs = cuts.ticket_city_conflicts(net, dist, trains)
            for t, v in pairs:
                b.row([y[t], z[v]], [1.0, 1.0], upper=1.0)
            for v in range(net.n):  # too far from every ticket: a tree there finishes nothing
                if sum(1 for _, u in pairs if u == v) == len(net.tickets):
                    b.upper[z[v]] = 0.0
    return Formulation(b.highs(offset=net.constant), x, y, budget)


def _arcs(net: Network) -> list[tuple[int, int, int]]:
    """Both directions of every edge as (edge, tail, head)."""
    return [(k, e.u, e.v) for k, e in enumerate(net.edges)] + \
           [(k, e.v, e.u) for k, e in enumerate(net.edges)]


def _flow(b: _Builder, net: Network, x, y, opts: Options) -> None:
    arcs = _arcs(net)
    for t, ticket in enumerate(net.tickets):
        s, d = net.ticket_ends(ticket)
        f = b.cols(len(arcs))
        for v in range(net.n):
            idx, coef = [], []
            for a, (_, tail, head) in enumerate(arcs):
                if v in (tail, head):
                    idx.append(f[a])
                    coef.append(1.0 if tail == v else -1.0)
            want = 1.0 if v == s else -1.0 if v == d else 0.0
            if want:
                b.row(idx + [y[t]], coef + [-want], 0.0, 0.0)
            elif idx:
                b.row(idx, coef, 0.0, 0.0)
        for a, (k, _, _) in enumerate(arcs):
            b.row([f[a], x[k]], [1.0, -1.0], upper=0.0)
    if opts.node_links:
        # A finished ticket touches both its cities: y_t <= Σ x over the edges at each end.
        for t, ticket in enumerate(net.tickets):
            for c in net.ticket_ends(ticket):
                at = [x[k] for k, e in enumerate(net.edges) if c in (e.u, e.v)]
                b.row(at + [y[t]], [1.0] * len(at) + [-1.0], lower=0.0)


def _rooted(b: _Builder, net: Network, x, y, opts: Options) -> np.ndarray:
    """The rooted tree's rows; its city-in-tree columns, which the distance cuts use."""
    arcs = _arcs(net)
    n = net.n
    arc = b.cols(len(arcs))  # tree arcs, oriented away from the root
    z = b.cols(n)  # city is in the tree
    root = b.cols(n, integer=True)
    b.row(root, [1.0] * n, lower=1.0 if opts.some_ticket else 0.0, upper=1.0)
    half = len(net.edges)
    for k in range(half):  # a tree edge is a chosen edge, used in one direction
        b.row([arc[k], arc[k + half], x[k]], [1.0, 1.0, -1.0], upper=0.0)
    into: list[list[int]] = [[] for _ in range(n)]
    out: list[list[int]] = [[] for _ in range(n)]
    for a, (_, tail, head) in enumerate(arcs):
        into[head].append(a)
        out[tail].append(a)
    for v in range(n):  # one parent per tree city, none for the root
        b.row([arc[a] for a in into[v]] + [root[v], z[v]], [1.0] * len(into[v]) + [1.0, -1.0],
              0.0, 0.0)
    if opts.node_links:
        for a, (_, tail, _) in enumerate(arcs):  # arcs leave tree cities only
            b.row([arc[a], z[tail]], [1.0, -1.0], upper=0.0)
    terminals = sorted({c for t in net.tickets for c in net.ticket_ends(t)})
    if opts.root == "lowest":
        # The root is the lowest-numbered city of the tree: every tree has exactly one such
        # city, so this removes the solver's choice among equivalent roots without losing any.
        for v in range(n):
            for u in range(v):
                b.row([root[v], z[u]], [1.0, 1.0], upper=1.0)
    elif opts.root == "ticket":
        # The root is the lowest-numbered city ending a finished ticket: a ticket of the root
        # is finished, and no finished ticket has a lower-numbered end.
        ending = [[t for t, ticket in enumerate(net.tickets) if v in net.ticket_ends(ticket)]
                  for v in range(n)]
        for v in range(n):
            b.row([root[v]] + [y[t] for t in ending[v]], [1.0] + [-1.0] * len(ending[v]),
                  upper=0.0)
            for t, ticket in enumerate(net.tickets):
                if min(net.ticket_ends(ticket)) < v:
                    b.row([root[v], y[t]], [1.0, 1.0], upper=1.0)
    elif opts.root != "any":
        raise ValueError(f"unknown root rule {opts.root!r}; use 'ticket', 'lowest' or 'any'")
    for c in terminals:  # a unit of flow from the root to each terminal in the tree
        g = b.cols(len(arcs))
        from_root = b.cols(n)
        for v in range(n):
            idx = [g[a] for a in into[v]] + [g[a] for a in out[v]] + [from_root[v]]
            coef = [1.0] * len(into[v]) + [-1.0] * len(out[v]) + [1.0]
            if v == c:
                b.row(idx + [z[c]], coef + [-1.0], 0.0, 0.0)
            else:
                b.row(idx, coef, 0.0, 0.0)
            b.row([from_root[v], root[v]], [1.0, -1.0], upper=0.0)
        for a in range(len(arcs)):
            b.row([g[a], arc[a]], [1.0, -1.0], upper=0.0)
    for t, ticket in enumerate(net.tickets):
        for c in net.ticket_ends(ticket):
            b.row([y[t], z[c]], [1.0, -1.0], upper=0.0)
    return z


@dataclass(frozen=True)
class Solved:
    """What a solve returned, in the network's terms (edge indices, not connection ids)."""

    chosen: tuple[int, ...]
    objective: float
    bound: float
    optimal: bool
    seconds: float
    nodes: int


def solve(form: Formulation, *, time_limit: float | None = None,
          start: tuple[int, ...] | None = None) -> Solved:
    """Run HiGHS on ``form``; ``start`` (edge indices) seeds it with a known network."""
    h = form.highs
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1 - 1e-6)  # scores are whole numbers
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if start is not None:
        picked = set(start)
        values = [1.0 if k in picked else 0.0 for k in range(len(form.x))]
        h.setSolution(len(form.x), np.asarray(form.x, np.int32), np.asarray(values))
    began = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - began
    info = h.getInfo()
    status = h.getModelStatus()
    optimal = status == highspy.HighsModelStatus.kOptimal
    if status == highspy.HighsModelStatus.kInfeasible:
        raise RuntimeError("the model has no feasible network; the caller should not ask")
    if info.primal_solution_status == 0:  # out of time before any network: only the bound
        return Solved((), -math.inf, info.mip_dual_bound, False, time.perf_counter() - began,
                      info.mip_node_count)
    col = np.asarray(h.getSolution().col_value)
    chosen = tuple(int(k) for k in range(len(form.x)) if col[form.x[k]] > 0.5)
    bound = info.objective_function_value if optimal else info.mip_dual_bound
    return Solved(chosen, info.objective_function_value, bound, optimal, seconds,
                  info.mip_node_count)


def lp_relaxation(form: Formulation) -> tuple[float, float] | None:
    """The optimum of the LP relaxation (the network's constant included) and the budget row's
    dual, the rate at which it grows per train; ``None`` when the LP has no optimum. It is what
    the formulation knows before any branching, and the split bound's tangents are made of it.
    The columns are left continuous: build the formulation anew to solve the MIP."""
    h = form.highs
    n = h.getNumCol()
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.array([highspy.HighsVarType.kContinuous] * n))
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return h.getInfo().objective_function_value, abs(h.getSolution().row_dual[form.budget_row])
