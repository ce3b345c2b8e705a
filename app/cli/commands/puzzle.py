"""``ttr-kripke puzzle``: tell a classic puzzle step by step, with the worlds left after each."""

from __future__ import annotations

import argparse
import textwrap

from app.cli.checking import dead_ends, frame, read_formula, slide_size, write_model_files
from app.cli.main import UsageError
from app.cli.options import file_name, whole
from app.worlds.graph import graph_positions
from app.worlds.tikz import SLIDE
from game.files import check_outputs
from kripke.explain import render
from kripke.language.formula import Formula
from kripke.parts import Drawn
from kripke.puzzles.gallery import (
    GALLERY,
    Puzzle,
    Step,
    cards,
    consecutive,
    coordinated_attack,
    dining,
    muddy,
    reading,
    red_bird,
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
    parser.add_argument("--deal", default="012",
                        help="cards: Anne's, Bill's and Cath's card, e.g. 201 (default 012)")
    parser.add_argument("--says", choices=["p", "not-p"], default="p",
                        help="letter: what the letter says (default p)")
    parser.add_argument("--away", action="store_true",
                        help="letter: Bob is out of the room, so he cannot tell whether "
                             "Alice read it (2 worlds become 4)")
    parser.add_argument("--upgrade", choices=["radical", "conservative"], default="radical",
                        help="red-bird: how each piece of evidence revises belief (default "
                             "radical)")
    parser.add_argument("--safe", action="store_true",
                        help="russian: count Alice's safe announcements (102 of 1,290)")
    parser.add_argument("--steps", type=whole(0, MAX_STEPS), default=None,
                        help="stop after this many steps (default: the whole story)")
    parser.add_argument("--formula", help="a formula to evaluate at the actual world after "
                        "each step")
    parser.add_argument("--explain", action="store_true",
                        help="say why --formula has its value where the story stops")
    parser.add_argument("--symbolic", action="store_true",
                        help="tell the story on a belief structure (BDDs): the same verdicts "
                             "and counts; a story of announcements and events only")
    parser.add_argument("--json", type=file_name, metavar="FILE",
                        help="write the model where the story stops as JSON")
    parser.add_argument("--tikz", type=file_name, metavar="FILE",
                        help="... and as a LaTeX/TikZ drawing")
    parser.add_argument("--html", type=file_name, metavar="FILE",
                        help="... and as an interactive HTML page (drag the worlds apart; "
                             "atoms on hover; opens with no network)")
    parser.add_argument("--size", type=slide_size, default=SLIDE, metavar="WxH",
                        help="the --tikz drawing's largest width and height in cm (default "
                             f"{SLIDE[0]:g}x{SLIDE[1]:g}, a beamer frame's)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an existing --json, --tikz or --html file")


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
        case "cards":
            if sorted(args.deal) != ["0", "1", "2"]:
                raise UsageError(f"--deal gives the cards 0, 1, 2 to Anne, Bill and Cath in "
                                 f"turn, e.g. 012 or 201, got {args.deal!r}")
            return cards(args.deal)
        case "letter":
            return reading(args.says == "p", args.away)
        case "red-bird":
            return red_bird(args.upgrade)
    return GALLERY[args.name]()


def shorten(text: str, limit: int = 140) -> str:
    """A long formula's start and its length: the story's formulas can run to pages."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def ending(puzzle: Puzzle, steps: tuple[Step, ...], actual: str, frame_line: str,
           warnings: list[str]) -> None:
    """Where the story stops: its ending when told whole, the actual world, the frame class
    and the worlds where an agent has no arrow."""
    print()
    if len(steps) == len(puzzle.steps):
        print(textwrap.fill(puzzle.ending, 96))
    print(f"actual world: {actual}")
    print(frame_line)
    for warning in warnings:
        print(warning)


def tell_symbolically(args: argparse.Namespace, puzzle: Puzzle, steps: tuple[Step, ...],
                      formula: Formula | None) -> int:
    """The story on the puzzle's model as a belief structure (:mod:`kripke.symbolic.belief`):
    each world count and verdict as :func:`run` prints them; what needs a list of worlds or
    moves the actual world is refused before the story."""
    if args.json or args.tikz or args.safe or any(s.formula is None and s.event is None
                                                  for s in steps):
        raise UsageError("--symbolic tells a story of announcements and events without "
                         "listing its worlds; drop it for --json, --tikz, --safe or this "
                         "puzzle")
    from app.cli.checking import symbolic_dead_ends
    from kripke.factory import belief_structure

    model = belief_structure(puzzle.model)
    print(puzzle.title)
    print(textwrap.fill(puzzle.story, 96))
    print()
    print(f"{'worlds':>7}  {'' if formula is None else f'{'value':<6}  '}step")
    for number, step in enumerate((None, *steps)):
        if step is not None:
            model = model.announce(step.formula) if step.formula is not None else \
                model.update(step.event)  # type: ignore[arg-type]  # an event, checked above
        value = "" if formula is None else f"{'TRUE' if model.holds(formula) else 'FALSE':<6}  "
        said = "start" if step is None else f"{number}. {step.speaker}: {step.said}"
        print(f"{model.n_worlds:>7,}  {value}{said}")
    ending(puzzle, steps, model.world_label(), frame(model), symbolic_dead_ends(model, 200))
    if args.explain and formula is not None:
        print()
        print(render(model.explain(formula, name=puzzle.describe)))
    return 0


def run(args: argparse.Namespace) -> int:
    check_outputs([(path, option) for path, option in ((args.json, "--json"),
                                                       (args.tikz, "--tikz"),
                                                       (args.html, "--html")) if path],
                  overwrite=args.overwrite)
    formula = None
    if args.formula is not None:
        formula = read_formula(args.formula)
    elif args.explain:
        raise UsageError("--explain needs a --formula to explain")
    puzzle = build(args)
    if formula is not None:
        puzzle.model.values(formula)  # an unknown atom or agent: refused before the story
    steps = puzzle.steps if args.steps is None else puzzle.steps[:max(args.steps, 0)]
    if args.symbolic:
        return tell_symbolically(args, puzzle, steps, formula)
    print(puzzle.title)
    print(textwrap.fill(puzzle.story, 96))
    print()
    model: Drawn = puzzle.model
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
        elif step.event is not None and step.event.soft:  # the order, not the worlds
            print(f"{indent}{step.event}")
        elif step.event is not None:
            print(f"{indent}event model (product update):")
            for text in str(step.event).splitlines():
                print(f"{indent}  {shorten(text)}")
        else:
            print(f"{indent}nothing announced; the actual world is now: "
                  f"{puzzle.actual_world(model)}")
    if formula is not None:  # as typed: B_a stays B_a, a group in the order given
        print(f"(value: {args.formula.strip()} at the actual world)")
    ending(puzzle, steps, puzzle.actual_world(model), frame(model), dead_ends(model))
    if args.safe:
        if args.name != "russian":
            raise UsageError("--safe counts Russian cards announcements: use it with russian")
        safe, candidates = russian_safe_count()
        print(f"Alice's safe announcements: {safe:,} of {candidates:,} candidate lists")
    if args.explain and formula is not None:
        print()
        print(render(model.explain(formula, name=puzzle.describe,
                                   agent_name=puzzle.agent_name)))
    positions = None
    if args.tikz or args.html:  # the puzzle's own geometry, else the textbook graph's
        positions = puzzle.positions(model.agents[0]) if puzzle.positions else \
            graph_positions(model)
    write_model_files(model, args.json, args.tikz, name=puzzle.describe, positions=positions,
                      agent_names=puzzle.agent_names, title=puzzle.title, size=args.size,
                      html_path=args.html, html_name=puzzle.short)
    return 0
