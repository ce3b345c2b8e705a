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
from agents.gameplay import GOALS, gameplay_rows
from bench.report import Report, Table
from game.fields import MAX_GAMES, MAX_WORKERS, argument, seed, whole
from lab.europe24_search import parse_trains

#: (board, players, tickets each): the deals the report covers.
DEALS = [("europe24", 2, 2), ("europe24", 3, 2), ("europe24", 4, 2), ("europe24", 3, 3),
         ("usa", 3, 3)]


def lineups(players: int) -> list[str]:
    """All epistemic, and one epistemic player against baseline players."""
    return ["epistemic", ",".join(["epistemic"] + ["baseline"] * (players - 1))]


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
                      f"{r['gap_p90']:g}", _pct(r["finished_share"]), _pct(r["with_completion"]),
                      _pct(r["ended_by_trains"]), _pct(r["ended_by_tickets"]),
                      _pct(r["ended_by_stalemate"])) for r in rows])


def _case(row: dict[str, Any]) -> str:
    named = dict(zip(lineups(row["players"]), ("all epistemic", "epistemic vs baseline"),
                     strict=True))
    kinds = named.get(row["agents"], row["agents"])  # the lab's metrics: any line-up
    return f"{row['board']} {row['players']}×{row['tickets']}, {kinds}"


def _pct(value: float) -> str:
    return f"{value:.0%}"


def report_tables(rows: list[dict[str, Any]]) -> tuple[Table, ...]:
    """The three tables: the flow of play, the announcements, the goals (a blank line between
    them)."""
    flow = Table.of(
        ("case", "trains", "games", "turns med", "turns p90", "claim turns", "no-claim run med",
         "no-claim run p90", "tickets done", "by trains", "by tickets", "by stalemate"),
        [(_case(r), r["trains"], r["games"], f"{r['turns_median']:g}", f"{r['turns_p90']:g}",
          _pct(r["claim_turn_share"]), f"{r['gap_median']:g}", f"{r['gap_p90']:g}",
          _pct(r["finished_share"]), _pct(r["ended_by_trains"]), _pct(r["ended_by_tickets"]),
          _pct(r["ended_by_stalemate"])) for r in rows])
    announcements = Table.of(
        ("case", "informative claims", "blocks", "completions", "games with: inf. claim",
         "block", "completion", "all 3 in 30 turns"),
        [(_case(r), f"{r['informative_claims_per_game']:.2f}", f"{r['blocks_per_game']:.2f}",
          f"{r['completions_per_game']:.2f}", _pct(r["with_informative_claim"]),
          _pct(r["with_block"]), _pct(r["with_completion"]), _pct(r["opening_shows_all"]))
         for r in rows], before=("",))
    demo = next((r for r in rows if (r["board"], r["players"], r["tickets"], r["agents"])
                 == ("europe24", 3, 2, "epistemic")), None)
    if demo is None:
        return flow, announcements
    return flow, announcements, Table.of(
        ("goal (europe24 3×2, all epistemic)", "measured", "goal", "met"),
        [(g.label, g.shown(demo[g.column]), str(g), "yes" if g.met(demo) else "NO")
         for g in GOALS], before=("",))


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
