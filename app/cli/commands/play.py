"""``ttr-kripke play``: one seeded game in the terminal, announcements as they happen."""

from __future__ import annotations

import argparse
import sys

from agents import log
from agents.model import TTRModel
from app.cli.options import add_game_options, add_rules_option, file_name, model_from_args
from game.cards import CARD_NAMES
from game.files import check_output
from game.knowledge import AnnouncementKind
from game.open_state import OpenState
from game.rules import Rules
from game.table import END_REASONS

NAME = "play"
HELP = "play one seeded game and print its announcements and a summary"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, default_agents="baseline")
    add_rules_option(parser)
    parser.add_argument("--log", type=file_name, metavar="FILE",
                        help="write the JSON Lines event log to FILE (also a game stopped "
                             "with Ctrl-C)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing log")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def run(args: argparse.Namespace) -> int:
    if args.log:
        check_output(args.log, "--log", overwrite=args.overwrite)
    model = model_from_args(args)
    try:
        while model.running:
            model.step()
            if not args.quiet:
                print_turn(model)
    except BaseException:  # Ctrl-C, maybe inside a turn: the whole turns before it are kept
        if args.log:
            log.save(model, args.log, cut=True)
            print(f"stopped: {args.log} keeps the {len(model.history)} whole turns played "
                  "(ttr-kripke replay says it was cut)", file=sys.stderr)
        raise
    if args.log:
        log.save(model, args.log)
    print_summary(model)
    if args.log:
        print(f"event log: {args.log}")
    return 0


def print_turn(model: TTRModel) -> None:
    turn = model.history[-1]
    for event in turn.events:
        drawn = f" ({CARD_NAMES[event.cards[0]]})" if event.cards else ""
        print(f"turn {turn.turn:3d}  player {turn.player} [{turn.kind}] "
              f"{event.action.describe(model.board)}{drawn}")
    for a in turn.announcements:
        if a.kind == AnnouncementKind.SHIFT and a.text in ("true", "false"):
            # explained in every deal or in none: every deal keeps its place, nothing is learnt
            print(f"          evidence: {'every' if a.text == 'true' else 'no'} deal explains "
                  "the claim, so the ranks keep their order")
        elif a.kind == AnnouncementKind.SHIFT:
            print(f"          evidence {a.text}: the deals that do not explain the claim drop "
                  "one rank")
        else:
            print(f"          announce ({a.kind}) {a.text}: {a.worlds_before:,} → "
                  f"{a.worlds_after:,} deals")


def print_summary(model: TTRModel) -> None:
    state = model.state
    rules = "" if state.rules.variant == Rules.variant else f"{state.rules.variant} rules, "
    print(f"\n{model.board.title}: {rules}{state.rules.players} players, "
          f"{state.rules.tickets_each} tickets each, {state.rules.trains} trains, "
          f"seed {model.seed}")
    print(f"game over after {state.turn} turns: {END_REASONS[state.end_reason]}"
          if state.end_reason else f"stopped after {state.turn} turns")
    print(f"possible deals: {model.initial_worlds:,} when dealt, {model.world_count:,} now; "
          f"blocks: {model.blocks}")
    if isinstance(state, OpenState):
        ranks = ", ".join(f"{count:,} of rank {r}" for r, count in
                          enumerate(state.worlds.rank_counts()) if count)
        actual = state.worlds.actual_rank()
        believing = sum(state.worlds.best_rank(p) == actual for p in range(state.rules.players))
        print(f"plausibility (claims a deal leaves unexplained): {ranks}; the actual deal's "
              f"rank {actual}; players believing it: {believing} of {state.rules.players}")
    print(f"\n{'player':<8}{'kind':<11}{'score':>6}{'routes':>8}{'tickets+':>9}{'tickets-':>9}"
          f"{'trains':>7}  tickets")
    for p, seat in enumerate(model.seats):
        parts = state.score_parts(p)
        tickets = ", ".join(f"{t}{' ✓' if t.id in state.finished[p] else ''}"
                            for t in state.tickets[p])
        print(f"{p:<8}{seat.kind:<11}{parts.total:>6}{parts.connections:>8}{parts.finished:>9}"
              f"{parts.unfinished:>9}{state.trains[p]:>7}  {tickets}")
