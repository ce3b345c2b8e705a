"""``ttr-kripke max-score``: the best score a budget of trains can buy, proven optimal."""

from __future__ import annotations

import argparse
import time

from app.cli.options import (
    add_workers_option,
    check_workers,
    cores,
    figure_file,
    seconds,
    whole,
)
from boards import Board, load_board
from game import fields
from game.fields import FieldError, shown, whole_number
from game.files import check_output
from maxscore import MaxScoreResult, frequencies, max_score, sweep, ticket_sensitivity

NAME = "max-score"
HELP = ("best score for a number of trains (connections plus tickets joined), with a proven "
        "bound; --sweep for a range of budgets")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default="usa", help="shipped board name or board file "
                        "(default: usa)")
    parser.add_argument("--trains", type=whole(0, MAX_TEXT), default=45,
                        help="train budget, at most the trains of all the board's connections "
                        "(default: 45)")
    parser.add_argument("--sweep", metavar="A:B", help="solve every budget from A to B instead")
    add_workers_option(parser, min(2, cores()),
                       "processes for --sweep (default: 2, or 1 on a one-core machine)")
    parser.add_argument("--plot", type=figure_file, metavar="FILE",
                        help="with --sweep: save the curve (.png, .svg or .pdf)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --plot")
    parser.add_argument("--sensitivity", action="store_true",
                        help="the optimum without each chosen ticket; with --sweep, how often "
                        "each ticket and connection is chosen")
    parser.add_argument("--tickets", metavar="IDS", help="in a game: the player's ticket ids "
                        "(comma separated); unfinished ones count minus")
    parser.add_argument("--owned", metavar="IDS", default="", help="in a game: connection ids "
                        "the player owns (they cost no trains)")
    parser.add_argument("--taken", metavar="IDS", default="", help="in a game: connection ids "
                        "other players own (out of reach)")
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                        help="per budget; the answer is then marked unproven if the bound is "
                        "not reached")


#: A budget typed with more digits than this is refused before the board is read.
MAX_TEXT = 10**9


def run(args: argparse.Namespace) -> int:
    check_workers(args)
    if args.plot and not args.sweep:
        raise ValueError("--plot draws a sweep; add --sweep A:B")
    if args.plot:
        check_output(args.plot, "--plot", overwrite=args.overwrite)
    board = load_board(args.board)
    _check_budget(board, args.trains, "--trains")
    position = args.tickets is not None or args.owned or args.taken
    if position and (args.sweep or args.sensitivity):
        raise ValueError("--tickets/--owned/--taken describe one game position; they do not "
                         "combine with --sweep or --sensitivity")
    if args.sweep:
        budgets = _budgets(args.sweep, board)
        began = time.perf_counter()
        results = sweep(board, budgets, time_limit=args.time_limit, workers=args.workers,
                        progress=_row_printer())
        print(f"{time.perf_counter() - began:.1f} s for {len(results)} budgets on "
              f"{args.workers} worker(s); {sum(r.proven for r in results)} proven optimal")
        if args.plot:
            from agents.plots import max_score_plot

            max_score_plot(results, args.plot, f"{board.title}: best score by trains")
            print(f"curve saved to {args.plot}")
        if args.sensitivity:
            _print_frequencies(results)
        return 0
    if position:
        mine = _ids(args.tickets or "", "--tickets", len(board.tickets))
        taken = set(_ids(args.taken, "--taken", len(board.connections)))
        owned = _ids(args.owned, "--owned", len(board.connections))
        if both := sorted(taken.intersection(owned)):
            raise ValueError(f"--owned and --taken both name connection {both[0]}: a connection "
                             "is this player's or another's, not both; name it in one of them")
        result = max_score(board, args.trains, tickets=[board.tickets[i] for i in mine],
                           owned=owned,
                           usable=[c.id for c in board.connections if c.id not in taken],
                           penalise_unfinished=True, time_limit=args.time_limit)
        _print_result(board.title, result)
        return 0
    result = max_score(board, args.trains, time_limit=args.time_limit)
    _print_result(board.title, result)
    if args.sensitivity:
        _print_sensitivity(board, result, args.time_limit)
    return 0


def _ids(text: str, option: str, count: int) -> list[int]:
    """Distinct ids (``game.fields.ids``): a ticket named three times once counted three times."""
    try:
        return list(fields.ids(text, count))
    except FieldError as e:
        raise ValueError(f"{option} {e}") from None


def _budgets(text: str, board: Board) -> range:
    parts = [whole_number(p) for p in text.split(":")]
    numbers = [p for p in parts if p is not None and p >= 0]
    if len(parts) != 2 or len(numbers) != 2:
        raise ValueError(f"--sweep wants A:B with whole numbers, e.g. 1:50, not {shown(text)}")
    lo, hi = numbers
    if lo > hi:
        raise ValueError(f"--sweep {text}: the first budget must not exceed the last")
    _check_budget(board, hi, "--sweep")
    return range(lo, hi + 1)


def _check_budget(board: Board, trains: int, option: str) -> None:
    """A budget above the trains of every connection together buys nothing more (and 10⁹
    ran out of memory): refused with the board's total."""
    total = sum(c.length for c in board.connections)
    if trains > total:
        raise ValueError(f"{option} {trains:,} is more than the {total} trains of all of "
                         f"{board.name}'s connections; give at most {total}")


def _print_result(title: str, r: MaxScoreResult) -> None:
    status = "proven optimal" if r.proven else "not proven"
    print(f"{title}, {r.trains} trains: {r.total} points = {r.connection_points} from "
          f"connections + {r.ticket_points} from tickets ({status}, bound {r.bound}, "
          f"{r.seconds:.1f} s)")
    print(f"Connections ({len(r.connections)}, {r.trains_used} trains):")
    for c in r.connections:
        print(f"  {c}")
    print(f"Tickets completed ({len(r.tickets)}, {sum(t.points for t in r.tickets)} points):")
    for t in sorted(r.tickets, key=lambda t: -t.points):
        print(f"  {t}")


def _row_printer():
    print(f"{'trains':>6} {'total':>6} {'conn':>5} {'tickets':>7} {'bound':>6} {'proven':>6} "
          f"{'seconds':>8}")

    def row(r: MaxScoreResult) -> None:
        print(f"{r.trains:>6} {r.total:>6} {r.connection_points:>5} {r.ticket_points:>7} "
              f"{r.bound:>6} {'yes' if r.proven else 'no':>6} {r.seconds:>8.1f}", flush=True)
    return row


def _print_sensitivity(board, r: MaxScoreResult, time_limit: float | None) -> None:
    print("Without each chosen ticket (the optimum re-solved without it):")
    print(f"  {'ticket':<36} {'points':>6} {'optimum':>7} {'loss':>5}")
    for row in ticket_sensitivity(board, r, time_limit=time_limit):
        mark = "" if row.proven else " (not proven)"
        print(f"  {str(row.ticket):<36} {row.ticket.points:>6} {row.total:>7} {row.loss:>5}{mark}")


def _print_frequencies(results) -> None:
    tickets, connections = frequencies(results)
    n = len(results)
    print(f"Tickets most often completed (out of {n} budgets):")
    for t, k in tickets.most_common(15):
        print(f"  {k:>3}  {t}")
    print(f"Connections most often chosen (out of {n} budgets):")
    for c, k in connections.most_common(15):
        print(f"  {k:>3}  {c}")
