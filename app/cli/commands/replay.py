"""``ttr-kripke replay LOG``: replay a game log, checking every event and announcement."""

from __future__ import annotations

import argparse
from pathlib import Path

from agents.log import game_seed, replay_log
from boards import load_board
from game.log import read_log
from game.table import END_REASONS

NAME = "replay"
HELP = "replay a game log (play --log), checking it event by event; exit 2 if it is refused"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a JSON Lines game log")
    parser.add_argument("--board", metavar="FILE",
                        help="the board file the game was played on, if not a shipped board")


def run(args: argparse.Namespace) -> int:
    if not Path(args.log).is_file():
        raise ValueError(f"{args.log}: no such log file; give the file play --log wrote")
    replayed = replay_log(args.log, load_board(args.board) if args.board else None)
    state, worlds = replayed.state, replayed.worlds
    rules = state.rules
    seed = game_seed(read_log(args.log)[0])
    # the seed play --seed took; a log of another program names only its deal's seed
    said = f"seed {seed}" if seed is not None else f"deal seed {state.seed}"
    print(f"{args.log}: {rules.board.title}, {rules.players} players, {said}: "
          f"replayed {state.turn} turns as logged")
    if replayed.cut_at is not None:
        print(f"the log was cut at line {replayed.cut_at} (it has no final record: the game "
              "was stopped while it was recorded); replayed up to its last whole turn")
    else:
        print(END_REASONS[state.end_reason] if state.end_reason else "the game was cut short")
    if worlds is not None:  # a standard game keeps no shared model
        print(f"possible deals at the end: {worlds.n_worlds:,}")
    for p in range(rules.players):
        print(f"player {p}: {state.score_parts(p).total} points")
    return 0
