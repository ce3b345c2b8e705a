"""Options shared by the design-lab commands (metrics, evolve, balance): the game, where the
games run, and the desired win shares; each checked before any game is played."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from agents.kinds import DEFAULT_SOURCE, SOURCES
from agents.standard_batch import kind_order
from agents.standard_game import PAPERS_LINEUP
from app.cli.main import UsageError
from app.cli.options import (
    MAX_TICKETS,
    MAX_TRAINS,
    add_workers_option,
    argument,
    check_workers,
    whole,
)
from game import fields
from game.fields import MAX_GAMES, MAX_SEED
from game.rules import MAX_PLAYERS, MIN_PLAYERS
from lab.cluster import check_scheduler
from lab.games import RULES, LabSpec, Rules

DEFAULT_LINEUP = {"standard": ",".join(PAPERS_LINEUP), "simplified": "epistemic,baseline,baseline",
                  "open": "believer,bluffer,sceptic,baseline"}
#: The agents the standard-rules commands play unless ``--strategies`` says otherwise: the
#: authors' engine's, which reproduce the published figures within their intervals, where the
#: described ones do not (README, "The authors' engine"). A spec built in code still names its
#: own source (``agents.kinds.DEFAULT_SOURCE`` unless told), so logs and checkpoints written
#: before this default keep replaying and resuming as they were.
STANDARD_STRATEGIES = "engine"


def add_game_options(parser: argparse.ArgumentParser, board: str = "usa", games: int = 200,
                     rules: bool = True) -> None:
    parser.add_argument("--board", default=board,
                        help=f"a shipped board (usa, europe24) or a board file (default {board})")
    if rules:
        parser.add_argument("--rules", choices=RULES, default="standard",
                            help="standard (the published rules, default), simplified, or "
                                 "open (the simplified game where a claim is evidence, not "
                                 "proof)")
    parser.add_argument("--agents", default=None,
                        help="one kind per seat, comma-separated (default: "
                             f"{DEFAULT_LINEUP['standard']} for the standard rules, "
                             f"{DEFAULT_LINEUP['simplified']} for the simplified game, "
                             f"{DEFAULT_LINEUP['open']} for the open one)")
    parser.add_argument("--players", type=whole(MIN_PLAYERS, MAX_PLAYERS), default=None,
                        help="with one kind in --agents: that many seats of it")
    parser.add_argument("--trains", type=whole(1, MAX_TRAINS), default=None,
                        help="trains each (default: the board's own in the simplified game, "
                             "the rulebook's 45 in the standard)")
    parser.add_argument("--tickets", type=whole(1, MAX_TICKETS), default=2,
                        help="simplified game: tickets dealt each (default 2)")
    parser.add_argument("--games", type=whole(1, MAX_GAMES), default=games,
                        help=f"games per measurement, 1 to {MAX_GAMES:,} (default {games})")
    parser.add_argument("--seed", type=argument(fields.seed, "seed"), default=0,
                        help="first seed (default 0)")
    add_strategies_option(parser)


def add_strategies_option(parser: argparse.ArgumentParser) -> None:
    """``--strategies``: where the standard game's agents come from (never mixed in a run)."""
    parser.add_argument("--strategies", choices=SOURCES, default=None,
                        help=f"standard rules: the agents as the authors' engine plays them, "
                             f"its bugs included (engine), or as the papers describe them "
                             f"(described; also baseline and random) (default "
                             f"{STANDARD_STRATEGIES})")


def standard_strategies(args: argparse.Namespace) -> str:
    """The standard game's source of agents for this run: ``--strategies`` or the default."""
    return str(args.strategies or STANDARD_STRATEGIES)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    add_workers_option(parser, None, "local Dask workers (default: one per core; 0 plays in "
                       "this process)", least=0)
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run on an existing Dask cluster instead (see the README)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace existing output files (each only once its successor is "
                             "whole)")


def check_run(args: argparse.Namespace) -> None:
    """Where the games run: no more local workers than cores unless ``--force``, the seeds
    within range, a scheduler address of the form Dask takes."""
    check_workers(args)
    if args.seed + args.games - 1 > MAX_SEED:
        raise UsageError(f"--seed {args.seed} with --games {args.games} runs past the last "
                         f"seed {MAX_SEED}; give a smaller --seed")
    if args.scheduler is not None:
        check_scheduler(args.scheduler)


def lab_spec(args: argparse.Namespace, rules: Rules | None = None) -> LabSpec:
    """The game every measurement plays, checked (bad board, agent or setting: ValueError)."""
    rule_set: Rules = rules or args.rules
    agents = [k.strip() for k in (args.agents or DEFAULT_LINEUP[rule_set]).split(",")]
    if args.players is not None:
        if len(agents) != 1:
            raise UsageError("--players goes with one kind in --agents (it seats that many)")
        agents *= args.players
    if rule_set != "standard" and args.strategies is not None:
        raise UsageError("--strategies belongs to the standard rules")
    source = standard_strategies(args) if rule_set == "standard" else DEFAULT_SOURCE
    return LabSpec(rules=rule_set, board=args.board, lineup=tuple(agents), trains=args.trains,
                   tickets_each=args.tickets, strategies=source).check()


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
