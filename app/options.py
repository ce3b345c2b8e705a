"""Game options shared by the commands that start games (play, batch, check, app)."""

from __future__ import annotations

import argparse

from agents.agents import AgentKind
from agents.knowledge import Backend
from agents.model import TTRModel


def add_game_options(parser: argparse.ArgumentParser, default_agents: str = "epistemic",
                     backend: bool = True) -> None:
    """The options of a game; ``backend=False`` leaves out ``--backend`` (the demo draws the
    explicit model, so it has no choice to offer)."""
    parser.add_argument("--board", default="europe24",
                        help="a shipped board (europe24, usa) or a board file (default europe24)")
    parser.add_argument("--players", type=int, default=3, help="2 to 5 (default 3)")
    parser.add_argument("--tickets", type=int, default=2, help="tickets each (default 2)")
    parser.add_argument("--agents", default=default_agents,
                        help="one kind for all or one per player, comma-separated: "
                             f"{', '.join(AgentKind)} (default {default_agents})")
    parser.add_argument("--trains", type=int, default=None,
                        help="trains each (default: the board's own; usa 45 as published)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
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
