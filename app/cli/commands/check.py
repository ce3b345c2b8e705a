"""``ttr-kripke check``: evaluate a formula at the actual world after turn N of a seeded game."""

from __future__ import annotations

import argparse

from app.cli.checking import read_formula, vacuity_note
from app.cli.main import UsageError
from app.cli.options import add_game_options, add_rules_option, model_from_args
from kripke.explain import render

NAME = "check"
HELP = "evaluate an epistemic formula at the actual world after turn N of a seeded game"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("formula", help="e.g. 'K_0 p(1,7)' or 'C_{0,1,2} !p(2,7)'; atoms p(i,t) "
                        "say that player i holds ticket t")
    add_game_options(parser)
    add_rules_option(parser)
    parser.add_argument("--turn", type=int, default=0,
                        help="turns to play first (default 0: right after the deal)")
    parser.add_argument("--explain", action="store_true",
                        help="say why: each subformula's value, the worlds an agent considers "
                             "possible, a counterexample (a symbolic game lists its deals "
                             "first)")


def run(args: argparse.Namespace) -> int:
    formula = read_formula(args.formula)
    if args.turn < 0:
        raise UsageError(f"--turn must be 0 or more, got {args.turn}")
    model = model_from_args(args)
    while model.turn < args.turn and model.running:
        model.step()
    if model.turn < args.turn:
        raise UsageError(f"the game ended after turn {model.turn}; ask for --turn {model.turn} "
                         "or less")
    worlds = model.worlds
    values = worlds.values(formula)  # once: the verdict, the count and the explanation
    holds, count = worlds.actual_value(values), worlds.count_values(values)
    print(f"after turn {model.turn}: {formula} is {'TRUE' if holds else 'FALSE'} at the actual "
          f"world; it holds in {count:,} of {model.world_count:,} worlds")
    print(f"actual deal: {worlds.world_label()}")
    if note := vacuity_note(worlds, formula):
        print(note)
    if args.explain:
        print()
        print(render(worlds.explain(formula, values)))
    return 0 if holds else 1
