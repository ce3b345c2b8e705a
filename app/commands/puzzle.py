"""``ttr-kripke puzzle``: tell a classic puzzle step by step, with the worlds left after each."""

from __future__ import annotations

import argparse
import json
import textwrap

from app.cli import UsageError
from app.options import file_name, whole
from game.files import check_outputs, write_atomically
from kripke import FormulaError, parse
from kripke.exchange import to_json, to_tikz
from kripke.explain import explain, render
from kripke.gallery import (
    GALLERY,
    Puzzle,
    consecutive,
    coordinated_attack,
    dining,
    muddy,
    russian_safe_count,
)

NAME = "puzzle"
HELP = "tell a classic puzzle (muddy children, Cheryl's birthday, ...) step by step"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", choices=list(GALLERY), metavar="NAME",
                        help=f"one of: {', '.join(GALLERY)}")
    parser.add_argument("--children", type=whole(1, 8), default=4, help="muddy: how many (1-8)")
    parser.add_argument("--muddy", default=None,
                        help="muddy: which children are muddy, 0-based, e.g. 1,2,3 "
                             "(default all)")
    parser.add_argument("--anne", type=whole(0, MAX_TOP), default=2,
                        help="consecutive: Anne's number")
    parser.add_argument("--bill", type=whole(0, MAX_TOP), default=3,
                        help="consecutive: Bill's number")
    parser.add_argument("--top", type=whole(1, MAX_TOP), default=8,
                        help=f"consecutive: the largest number, 1 to {MAX_TOP}")
    parser.add_argument("--messengers", type=whole(1, 8), default=4,
                        help="attack: at most (1-8)")
    parser.add_argument("--payer", type=whole(0, 3), default=1,
                        help="dining: who paid, 1-3, or 0 for the NSA (default 1)")
    parser.add_argument("--coins", default="HTH", help="dining: the three coins, H or T")
    parser.add_argument("--safe", action="store_true",
                        help="russian: count Alice's safe announcements (102 of 1,290)")
    parser.add_argument("--steps", type=whole(0, MAX_STEPS), default=None,
                        help="stop after this many steps (default: the whole story)")
    parser.add_argument("--formula", help="a formula to evaluate at the actual world after "
                        "each step")
    parser.add_argument("--explain", action="store_true",
                        help="say why --formula has its value where the story stops")
    parser.add_argument("--json", type=file_name, metavar="FILE",
                        help="write the model where the story stops as JSON")
    parser.add_argument("--tikz", type=file_name, metavar="FILE",
                        help="... and as a LaTeX/TikZ drawing")


#: consecutive's largest number at most: its story costs about top³ (100: 3 s; 300: 40 s;
#: 10⁸ took 12.3 GB in 44 s before it was refused for memory).
MAX_TOP = 100
#: More steps than any story tells.
MAX_STEPS = 1_000


def build(args: argparse.Namespace) -> Puzzle:
    """The puzzle with the command's settings (bad ones raise ModelError: one line, code 2)."""
    match args.name:
        case "muddy":
            if args.muddy is None:
                dirty = list(range(args.children))
            else:
                try:
                    dirty = [int(c) for c in args.muddy.split(",")]
                except ValueError:
                    raise UsageError(f"--muddy takes child numbers such as 1,2,3, got "
                                     f"{args.muddy!r}") from None
            return muddy(args.children, dirty)
        case "consecutive":
            return consecutive(args.anne, args.bill, args.top)
        case "attack":
            return coordinated_attack(args.messengers)
        case "dining":
            coins = args.coins.upper()
            if len(coins) != 3 or set(coins) - {"H", "T"}:
                raise UsageError(f"--coins takes three letters H or T, e.g. HTH, got "
                                 f"{args.coins!r}")
            return dining(args.payer, [c == "H" for c in coins])
    return GALLERY[args.name]()


def shorten(text: str, limit: int = 140) -> str:
    """A long formula's start and its length: the story's formulas can run to pages."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def run(args: argparse.Namespace) -> int:
    # the named files are replaced (no --overwrite), but their folders are checked first
    check_outputs([(path, option) for path, option in ((args.json, "--json"),
                                                       (args.tikz, "--tikz")) if path],
                  overwrite_option=None)
    formula = None
    if args.formula is not None:
        try:
            formula = parse(args.formula)
        except FormulaError as e:
            raise UsageError(f"bad formula: {e}") from None
    elif args.explain:
        raise UsageError("--explain needs a --formula to explain")
    puzzle = build(args)
    if formula is not None:
        puzzle.model.evaluate(formula)  # an unknown atom or agent: refused before the story
    steps = puzzle.steps if args.steps is None else puzzle.steps[:max(args.steps, 0)]
    print(puzzle.title)
    print(textwrap.fill(puzzle.story, 96))
    print()
    model = puzzle.model
    print(f"{'worlds':>7}  {'' if formula is None else f'{'value':<6}  '}step")

    def line(label: str) -> None:
        value = "" if formula is None else f"{'TRUE' if model.holds(formula) else 'FALSE':<6}  "
        print(f"{model.n_worlds:>7,}  {value}{label}")

    line("start")
    for number, step in enumerate(steps, start=1):
        model = step.apply(model)
        line(f"{number}. {step.speaker}: {step.said}")
        indent = " " * (11 + (8 if formula is not None else 0))
        if step.formula is not None:
            print(f"{indent}announced: {shorten(str(step.formula))}")
        else:
            print(f"{indent}nothing announced; the actual world is now: "
                  f"{puzzle.actual_world(model)}")
    if formula is not None:
        print(f"(value: {formula} at the actual world)")
    print()
    if len(steps) == len(puzzle.steps):
        print(textwrap.fill(puzzle.ending, 96))
    print(f"actual world: {puzzle.actual_world(model)}")
    if args.safe:
        if args.name != "russian":
            raise UsageError("--safe counts Russian cards announcements: use it with russian")
        safe, candidates = russian_safe_count()
        print(f"Alice's safe announcements: {safe:,} of {candidates:,} candidate lists")
    if args.explain and formula is not None:
        print()
        print(render(explain(model, formula, name=puzzle.describe)))
    if args.json:
        write_atomically(args.json, json.dumps(to_json(model, name=puzzle.describe), indent=1))
        print(f"model (JSON): {args.json}")
    if args.tikz:
        positions = puzzle.positions(model.agents[0]) if puzzle.positions else None
        write_atomically(args.tikz, to_tikz(model, positions, puzzle.describe,
                                            puzzle.agent_names, title=puzzle.title))
        print(f"model (TikZ): {args.tikz}")
    return 0
