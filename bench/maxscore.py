"""What each strengthening of the max-score model buys (``ttr-kripke bench maxscore``).

One MIP per row, each adding one idea to the row above, at the same budget and time limit:
the LP bound at the root, the time, the best score found, the proven bound and the gap left.
Then the full ``max_score`` (the one-tree MIP plus the proof that no network in pieces does
better), which is what ``ttr-kripke max-score`` runs.
"""

from __future__ import annotations

import argparse
import math
import time

from agents.tables import Table
from bench.report import Report
from boards import load_board
from maxscore.formulation import Options, build, lp_relaxation, solve
from maxscore.heuristic import greedy
from maxscore.network import build_network
from maxscore.solve import max_score

#: (label, options): each row adds one idea to the one above.
VARIANTS: tuple[tuple[str, Options], ...] = (
    ("paper: flow per ticket", Options("flow", node_links=False, budget_cuts=False,
                                       warm_start=False)),
    ("flow + distance cuts + warm start", Options("flow")),
    ("rooted tree, any root", Options(node_links=False, root="any", some_ticket=False,
                                      budget_cuts=False, warm_start=False)),
    ("+ root = lowest tree city", Options(node_links=False, root="lowest", some_ticket=False,
                                          budget_cuts=False, warm_start=False)),
    ("+ arcs leave tree cities only", Options(root="lowest", some_ticket=False,
                                              budget_cuts=False, warm_start=False)),
    ("+ root at a finished ticket", Options(budget_cuts=False, warm_start=False)),
    ("+ distance cuts", Options(warm_start=False)),
    ("+ greedy warm start", Options()),
)


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench maxscore", description=__doc__)
    parser.add_argument("--board", default="usa")
    parser.add_argument("--trains", default="45", help="budgets, comma separated (default 45)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per row")
    args = parser.parse_args(argv)
    board = load_board(args.board)
    net = build_network(board)
    tables = []
    for trains in (int(t) for t in args.trains.split(",")):
        rows = []
        for label, opts in VARIANTS:
            relaxed = lp_relaxation(build(net, trains, opts))
            lp = math.nan if relaxed is None else relaxed[0]
            start = greedy(net, trains) if opts.warm_start else None
            s = solve(build(net, trains, opts), time_limit=args.time_limit, start=start)
            best = sum(net.score(s.chosen)[:2])
            gap = (s.bound - best) / max(best, 1)
            rows.append((label, f"{lp:.1f}", f"{s.seconds:.1f}", best, f"{s.bound:.0f}",
                         f"{gap:.1%}", s.nodes))
        began = time.perf_counter()
        r = max_score(board, trains, time_limit=args.time_limit)
        tables.append(Table.of(
            ("formulation", "LP", "seconds", "best", "bound", "gap", "nodes"), rows,
            before=("", f"{board.title}, {trains} trains, {args.time_limit:.0f} s per row"),
            after=(f"max_score (with the proof for networks in pieces): {r.total} = "
                   f"{r.connection_points} + {r.ticket_points}, bound {r.bound}, "
                   f"{'proven' if r.proven else 'NOT proven'}, "
                   f"{time.perf_counter() - began:.1f} s (split bound: "
                   f"{r.stats.get('split_lp_solves', 0)} LPs, "
                   f"{r.stats.get('split_mip_solves', 0)} MIPs)",)))
    return Report(tuple(tables))
