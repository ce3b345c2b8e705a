"""Options shared by the commands: a game's (play, batch, check, app), and the checked numbers
every command takes (each named in its own message, checked before any work starts).

Commands that never play a game (``puzzle``, ``max-score``, the lab's) take their numbers from
here too, so the game's modules (the agents, Mesa, the demo's defaults) are imported by the
functions that need them, not by this module: ``puzzle`` starts without them (issue 39)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from boards.loader import MAX_TRAINS
from game import fields
from game.fields import MAX_WORKERS, argument
from game.rules import EPISTEMIC_RULES, MAX_PLAYERS, MIN_PLAYERS, OpenRules, Rules

if TYPE_CHECKING:
    from agents.model import TTRModel

#: Bounds of the game options: enough for any board that loads, small enough to refuse typos
#: (the trains a board file may give, too).
MAX_TICKETS = 99


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``."""
    return argument(lambda text: fields.whole(text, low, high), "whole number")


#: An argparse ``type``: a time limit, a positive number of seconds up to a day.
seconds = argument(fields.seconds, "seconds")
#: An argparse ``type``: a file name or prefix that is not empty.
file_name = argument(fields.file_name, "file name")
#: An argparse ``type``: a picture's file name, its format from its suffix (.png, .svg, .pdf).
figure_file = argument(fields.figure_file, "figure file")


def cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container sets it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_workers_option(parser: argparse.ArgumentParser, default: int | None, help: str,
                       least: int = 1) -> None:
    """``--workers`` and ``--force``; :func:`check_workers` holds them to the machine's cores
    (every command that starts processes: batch, max-score, metrics, evolve, balance)."""
    parser.add_argument("--workers", type=whole(least, MAX_WORKERS), default=default,
                        help=f"{help}; at most this machine's cores ({cores()}) unless --force")
    parser.add_argument("--force", action="store_true",
                        help="allow more --workers than cores (each is a process of its own)")


def check_workers(args: argparse.Namespace) -> None:
    """More worker processes than cores only slow a batch down (and 100,000 of them stall the
    machine): refused unless ``--force``."""
    if args.workers is not None and args.workers > cores() and not args.force:
        raise ValueError(f"--workers {args.workers} is more than this machine's {cores()} "
                         f"cores; give --workers {cores()} or less, or add --force")


def add_game_options(parser: argparse.ArgumentParser, default_agents: str = "epistemic",
                     backend: bool = True) -> None:
    """The options of a game; ``backend=False`` leaves out ``--backend`` (the demo draws the
    explicit model, so it has no choice to offer)."""
    from agents.kinds import AgentKind
    from app.web.components.session import DEFAULT_SEED
    from game.knowledge import Backend

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
                        help=f"trains each, 1 to {MAX_TRAINS} (default: the board's own, usa 45 "
                             "as published; with --rules standard the rulebook's 45)")
    parser.add_argument("--seed", type=argument(fields.seed, "seed"), default=DEFAULT_SEED,
                        help=f"random seed, 0 to 2⁶³ − 1 (default {DEFAULT_SEED})")
    if backend:
        parser.add_argument("--backend", choices=[b.value for b in Backend], default="auto",
                            help="the shared model's checker: explicit (a list of worlds), "
                                 "symbolic (BDDs, any number of deals) or auto: explicit up "
                                 "to 4 × 4 (default auto)")


#: What ``--rules`` says of each epistemic rule set.
RULES_HELP = {Rules.variant: "simplified (the knowledge game: a claim only for one's own "
                             "tickets or as a block of a known ticket)",
              OpenRules.variant: "open (any claim allowed, so a claim is evidence, not proof; "
                                 "a block on belief)"}


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules`` of a command that plays one epistemic game (play, check)."""
    parser.add_argument("--rules", choices=tuple(EPISTEMIC_RULES), default=Rules.variant,
                        help=f"{' or '.join(RULES_HELP.values())}; default {Rules.variant}")


def model_from_args(args: argparse.Namespace) -> TTRModel:
    """Build the model, turning bad combinations into one-line errors (``ValueError``)."""
    from agents.model import TTRModel

    return TTRModel(board=args.board, players=args.players, tickets_each=args.tickets,
                    agent_kinds=args.agents, trains=args.trains, rng=args.seed,
                    backend=args.backend, variant=args.rules)
