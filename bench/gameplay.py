"""The gameplay report (issue 10): is a game worth watching? Over seeded games per board, line-up
and deal: how long games last, how often turns claim, the longest stretch without a claim, how
many tickets get finished, how often each kind of announcement happens, and how games end; then
the goals for the demo's settings (europe24, 3 players × 2 tickets, all epistemic).

Counts, not timings: the figures do not depend on the machine or its load.

``--sweep-trains 10:24:2`` measures europe24 instead at each of those trains, 2–4 players × 2
tickets, all epistemic: the table the board's default trains was chosen from.

Run: ``ttr-kripke bench gameplay [--games N] [--seed S] [--workers W] [--sweep-trains T]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any

from agents.batch import GameSpec
from agents.gameplay import gameplay_rows, lineups, percent, report_tables
from agents.tables import Table
from bench.report import Report
from game.fields import MAX_GAMES, MAX_WORKERS, argument, seed, whole
from lab.europe24_search import parse_trains

#: (board, players, tickets each): the deals the report covers.
DEALS = [("europe24", 2, 2), ("europe24", 3, 2), ("europe24", 4, 2), ("europe24", 3, 3),
         ("usa", 3, 3)]


def specs() -> list[GameSpec]:
    return [GameSpec(board, players, tickets, kinds) for board, players, tickets in DEALS
            for kinds in lineups(players)]


def sweep_specs(trains: list[int]) -> list[GameSpec]:
    return [GameSpec("europe24", players, 2, "epistemic", t) for t in trains
            for players in (2, 3, 4)]


def sweep_table(rows: list[dict[str, Any]]) -> Table:
    return Table.of(("trains", "players", "turns med", "no-claim run med", "p90", "tickets done",
                     "games with completion", "by trains", "by tickets", "by stalemate"),
                    [(r["trains"], r["players"], f"{r['turns_median']:g}", f"{r['gap_median']:g}",
                      f"{r['gap_p90']:g}", percent(r["finished_share"]),
                      percent(r["with_completion"]), percent(r["ended_by_trains"]),
                      percent(r["ended_by_tickets"]),
                      percent(r["ended_by_stalemate"])) for r in rows])


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench gameplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=argument(lambda t: whole(t, 1, MAX_GAMES), "games"),
                        default=1000, help="games per row (default 1000)")
    parser.add_argument("--seed", type=argument(seed, "seed"), default=0,
                        help="first seed (default 0)")
    parser.add_argument("--workers", type=argument(lambda t: whole(t, 1, MAX_WORKERS),
                                                   "workers"),
                        default=2, help="worker processes (default 2)")
    parser.add_argument("--sweep-trains", type=parse_trains, metavar="T",
                        help="europe24 at these trains instead, e.g. 10:24:2")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.workers,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        rows = gameplay_rows(sweep_specs(args.sweep_trains) if args.sweep_trains else specs(),
                             seeds, map=partial(pool.map,
                                                chunksize=max(1, args.games // (8 * args.workers))))
    tables = (sweep_table(rows),) if args.sweep_trains else report_tables(rows)
    heading = (f"{args.games} seeded games per row (seeds {seeds.start}–{seeds.stop - 1})", "")
    return Report((replace(tables[0], before=heading + tables[0].before), *tables[1:]))
