"""Options shared by the design-lab commands (metrics, evolve, balance): the game, where the
games run, and the desired win shares; each checked before any game is played."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from agents.standard_batch import kind_order
from agents.strategy_sources import DEFAULT_SOURCE, SOURCES
from app.cli import UsageError
from lab.cluster import check_scheduler
from lab.games import RULES, LabSpec, Rules

DEFAULT_LINEUP = {"standard": "osta,pa,lrja,ha", "simplified": "epistemic,baseline,baseline"}


def add_game_options(parser: argparse.ArgumentParser, board: str = "usa", games: int = 200,
                     rules: bool = True) -> None:
    parser.add_argument("--board", default=board,
                        help=f"a shipped board (usa, europe24) or a board file (default {board})")
    if rules:
        parser.add_argument("--rules", choices=RULES, default="standard",
                            help="standard (the published rules, default) or simplified")
    parser.add_argument("--agents", default=None,
                        help="one kind per seat, comma-separated (default: osta,pa,lrja,ha "
                             "for the standard rules, epistemic,baseline,baseline for the "
                             "simplified game)")
    parser.add_argument("--players", type=int, default=None,
                        help="with one kind in --agents: that many seats of it")
    parser.add_argument("--trains", type=int, default=None,
                        help="trains each (default: the rule set's)")
    parser.add_argument("--tickets", type=int, default=2,
                        help="simplified game: tickets dealt each (default 2)")
    parser.add_argument("--games", type=int, default=games,
                        help=f"games per measurement (default {games})")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    add_strategies_option(parser)


def add_strategies_option(parser: argparse.ArgumentParser) -> None:
    """``--strategies``: where the standard game's agents come from (never mixed in a run)."""
    parser.add_argument("--strategies", choices=SOURCES, default=DEFAULT_SOURCE,
                        help="standard rules: the agents as the papers describe them "
                             "(described, default) or as the authors' engine plays them, "
                             "its bugs included (engine)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=None,
                        help="local Dask workers (default: one per core; 0 plays in this "
                             "process)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run on an existing Dask cluster instead (see the README)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace existing output files (each only once its successor is "
                             "whole)")


def check_counts(**counts: tuple[int | None, int]) -> None:
    """Each ``name=(value, least)``: a one-line error when the value is below its least."""
    for name, (value, least) in counts.items():
        if value is not None and value < least:
            raise UsageError(f"--{name.replace('_', '-')} must be at least {least}, got {value}")


def check_run(args: argparse.Namespace) -> None:
    check_counts(workers=(args.workers, 0))
    if args.scheduler is not None:
        check_scheduler(args.scheduler)


def lab_spec(args: argparse.Namespace, rules: Rules | None = None) -> LabSpec:
    """The game every measurement plays, checked (bad board, agent or setting: ValueError)."""
    check_counts(games=(args.games, 1), trains=(args.trains, 1), tickets=(args.tickets, 1),
                 players=(args.players, 2))
    rule_set: Rules = rules or args.rules
    agents = [k.strip() for k in (args.agents or DEFAULT_LINEUP[rule_set]).split(",")]
    if args.players is not None:
        if len(agents) != 1:
            raise UsageError("--players goes with one kind in --agents (it seats that many)")
        agents *= args.players
    if rule_set != "standard" and args.strategies != DEFAULT_SOURCE:
        raise UsageError("--strategies belongs to the standard rules")
    return LabSpec(rules=rule_set, board=args.board, lineup=tuple(agents), trains=args.trains,
                   tickets_each=args.tickets, strategies=args.strategies).check()


def desired_shares(text: str | None, lineup: Sequence[str]) -> tuple[float, ...]:
    """One desired share of the games won per agent kind (in the order the line-up names them;
    default each kind's share of the seats: an even split when each kind has one seat)."""
    kinds = kind_order([lineup])
    if text is None:
        return tuple(list(lineup).count(k) / len(lineup) for k in kinds)
    try:
        shares = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise UsageError(f"--desired takes comma-separated shares, e.g. 0.25,0.25,0.25,0.25; "
                         f"got {text!r}") from None
    if len(shares) != len(kinds) or any(not 0 <= d <= 1 for d in shares) or abs(
            sum(shares) - 1) > 1e-6:
        raise UsageError(f"--desired needs {len(kinds)} shares between 0 and 1 summing to 1 "
                         f"(one per agent kind: {', '.join(kinds)}); got {text}")
    return shares
