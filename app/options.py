"""Options shared by the commands: a game's (play, batch, check, app), and the checked numbers
every command takes (each named in its own message, checked before any work starts)."""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable

from agents.agents import AgentKind
from agents.knowledge import Backend
from agents.model import TTRModel
from game.rules import MAX_PLAYERS, MIN_PLAYERS

#: Seeds run from 0 to 2⁶³ − 1 (numpy's and Mesa's generators take any; the page's seed box
#: takes the same), so a batch's last seed must stay below too.
MAX_SEED = 2**63 - 1
#: More digits than any number an option means can have: longer text is refused before ``int``
#: (which refuses 4,300 digits with an error that names no option).
MAX_DIGITS = 30
#: Bounds of the game options: enough for any board that loads, small enough to refuse typos.
MAX_TICKETS = 99
MAX_TRAINS = 999
#: A batch holds one row per game for its summary and plot (about 1 kB each): 10⁹ games ran
#: out of memory, 10⁵ hold about 100 MB.
MAX_GAMES = 100_000
_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, a sign, at most ``MAX_DIGITS``), else None:
    ``int`` alone also takes "١" (an Arabic one), "1_000" and 5,000 digits."""
    text = text.strip()
    if not _WHOLE.fullmatch(text) or len(text.lstrip("+-")) > MAX_DIGITS:
        return None
    return int(text)


def shown(text: str, limit: int = 24) -> str:
    """Text a user typed, as a message quotes it: escaped, and cut when long."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else f"{quoted[:limit]}… ({len(text):,} characters)"


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``; argparse puts the
    option's name before the message (``argument --players: must be 2 to 5, got -1``)."""
    span = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
    if high is not None and high - low < 10:
        span = f"{low} to {high}"

    def parse(text: str) -> int:
        value = whole_number(text)
        if value is None:
            long = len(text.strip().lstrip("+-")) > MAX_DIGITS and \
                text.strip().lstrip("+-").isascii() and text.strip().lstrip("+-").isdigit()
            got = f"a {len(text.strip()):,}-digit number" if long else shown(text)
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, got {got}")
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {span}, got {value:,}")
        return value
    parse.__name__ = "whole number"
    return parse


def seconds(text: str) -> float:
    """An argparse ``type``: a time limit, a positive finite number of seconds."""
    try:
        value = float(text) if len(text) <= MAX_DIGITS else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, e.g. 60, got "
                                         f"{shown(text)}")
    return value


def cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container sets it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: With ``--force``, still no more worker processes than this: each costs a Python process.
MAX_WORKERS = 256


def add_workers_option(parser: argparse.ArgumentParser, default: int, help: str) -> None:
    """``--workers`` and ``--force``; :func:`check_workers` holds them to the machine's cores."""
    parser.add_argument("--workers", type=whole(1, MAX_WORKERS), default=default,
                        help=f"{help}; at most this machine's cores ({cores()}) unless --force")
    parser.add_argument("--force", action="store_true",
                        help="allow more --workers than cores (each is a process of its own)")


def check_workers(args: argparse.Namespace) -> None:
    """More worker processes than cores only slow a batch down (and 100,000 of them stall the
    machine): refused unless ``--force``."""
    if args.workers > cores() and not args.force:
        raise ValueError(f"--workers {args.workers} is more than this machine's {cores()} "
                         f"cores; give --workers {cores()} or less, or add --force")

#: The seed the demo and the commands start with: on europe24, 3 players × 2 tickets, all
#: epistemic, its first 30 turns show a claim that removes worlds (turn 2), a declared block
#: (turn 8) and a completed ticket (turn 17); the game lasts 41 turns with no stretch of more
#: than 6 without a claim. Chosen among the seeds of 0–59 that show all three early
#: (``agents.gameplay.GameStats.opening_shows_all``: 6, 14, 19, 27, 28, 29, 30, ...) for its
#: short game with three completions; tests/test_gameplay.py checks it.
DEFAULT_SEED = 30


def add_game_options(parser: argparse.ArgumentParser, default_agents: str = "epistemic",
                     backend: bool = True) -> None:
    """The options of a game; ``backend=False`` leaves out ``--backend`` (the demo draws the
    explicit model, so it has no choice to offer)."""
    parser.add_argument("--board", default="europe24",
                        help="a shipped board (europe24, usa) or a board file (default europe24)")
    parser.add_argument("--players", type=whole(MIN_PLAYERS, MAX_PLAYERS), default=3,
                        help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 3)")
    parser.add_argument("--tickets", type=whole(1, MAX_TICKETS), default=2,
                        help=f"tickets each, 1 to {MAX_TICKETS}; the board's deck must hold "
                             "them all (default 2)")
    parser.add_argument("--agents", default=default_agents,
                        help="one kind for all or one per player, comma-separated: "
                             f"{', '.join(AgentKind)} (default {default_agents})")
    parser.add_argument("--trains", type=whole(1, MAX_TRAINS), default=None,
                        help=f"trains each, 1 to {MAX_TRAINS} (default: the board's own; usa 45 "
                             "as published)")
    parser.add_argument("--seed", type=whole(0, MAX_SEED), default=DEFAULT_SEED,
                        help=f"random seed, 0 to 2⁶³ − 1 (default {DEFAULT_SEED})")
    if backend:
        parser.add_argument("--backend", choices=[b.value for b in Backend], default="auto",
                            help="the shared model's checker: explicit (a list of worlds), "
                                 "symbolic (BDDs, any number of deals) or auto: explicit up "
                                 "to 4 × 4 (default auto)")


def model_from_args(args: argparse.Namespace) -> TTRModel:
    """Build the model, turning bad combinations into one-line errors (``ValueError``)."""
    return TTRModel(board=args.board, players=args.players, tickets_each=args.tickets,
                    agent_kinds=args.agents, trains=args.trains, rng=args.seed,
                    backend=args.backend)
