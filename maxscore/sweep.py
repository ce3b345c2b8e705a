"""The optimum over a range of budgets, and what it depends on (the paper's Tables 2–3, Fig. 4).

A sweep is cheaper than its budgets one by one: budgets go up, so each one-piece bound already
proven is a share the split bound of a larger budget can read instead of re-solving, and the
network of a smaller budget seeds the next solve.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from boards import Board, Connection, Ticket
from maxscore.formulation import Options
from maxscore.network import build_network
from maxscore.solve import MaxScoreResult, check_input, make_result, max_score, solve_network


def sweep(board: Board, budgets: Sequence[int], *, time_limit: float | None = None,
          options: Options | None = None, workers: int = 1,
          progress: Callable[[MaxScoreResult], None] | None = None) -> tuple[MaxScoreResult, ...]:
    """``max_score`` for every budget in ``budgets`` (each with ``time_limit`` seconds).

    With ``workers`` > 1 the budgets are dealt round-robin to that many processes, each a chain
    of its own (HiGHS's branch and bound uses one core); a chain misses the other chains'
    bounds and falls back on LP tangents for those shares. ``progress`` then sees the results
    only at the end.
    """
    if not budgets:
        raise ValueError("the sweep needs at least one budget, e.g. 1:50")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    for b in budgets:
        check_input(board, b, None, None, (), time_limit)
    order = sorted(set(budgets))
    if workers == 1 or len(order) == 1:
        return _chain(board, order, time_limit, options, progress)
    chains = [order[i::workers] for i in range(workers)]
    # spawn, not fork: the parent may already run HiGHS or pytest threads, and a forked child
    # of a threaded process can deadlock
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = pool.map(_chain, [board] * workers, chains, [time_limit] * workers,
                        [options] * workers)
        results = sorted((r for chain in done for r in chain), key=lambda r: r.trains)
    for r in results:
        if progress:
            progress(r)
    return tuple(results)


def _chain(board: Board, budgets: Sequence[int], time_limit: float | None,
           options: Options | None,
           progress: Callable[[MaxScoreResult], None] | None = None) -> tuple[MaxScoreResult, ...]:
    """Budgets in increasing order, each reusing what the ones before proved and built."""
    net = build_network(board)
    opts = options or Options()
    one_tree: dict[int, float] = {}
    results = []
    previous: tuple[int, ...] | None = None
    for b in budgets:
        began = time.perf_counter()
        deadline = None if time_limit is None else began + time_limit
        fits = previous if previous and sum(net.edges[k].cost for k in previous) <= b else None
        chosen, bound, stats = solve_network(net, b, opts, deadline, one_tree=one_tree,
                                             start=fits)
        result = make_result(board, net, b, chosen, bound, time.perf_counter() - began, stats)
        results.append(result)
        previous = chosen
        if progress:
            progress(result)
    return tuple(results)


@dataclass(frozen=True)
class TicketLoss:
    """What the optimum loses when one of its tickets is taken out of the deck."""

    ticket: Ticket
    total: int
    loss: int
    proven: bool


def ticket_sensitivity(board: Board, best: MaxScoreResult, *,
                       time_limit: float | None = None) -> tuple[TicketLoss, ...]:
    """For each ticket the optimum finishes, the optimum without that ticket (paper, Table 2).

    A large loss marks a ticket the best network is built around; a loss equal to its points
    means the same network is still best without it.
    """
    out = []
    for t in best.tickets:
        rest = [u for u in board.tickets if u != t]
        r = max_score(board, best.trains, tickets=rest, time_limit=time_limit)
        out.append(TicketLoss(t, r.total, best.total - r.total, r.proven and best.proven))
    return tuple(sorted(out, key=lambda x: -x.loss))


def frequencies(results: Sequence[MaxScoreResult]) -> tuple[Counter[Ticket], Counter[Connection]]:
    """How often each ticket is finished and each connection chosen over a sweep (Table 3,
    Figure 4): the tickets and connections good play keeps coming back to."""
    tickets: Counter[Ticket] = Counter()
    connections: Counter[Connection] = Counter()
    for r in results:
        tickets.update(r.tickets)
        connections.update(r.connections)
    return tickets, connections


__all__ = ["TicketLoss", "frequencies", "sweep", "ticket_sensitivity"]
