"""``ttr-kripke model FILE``: a teacher's own model (the hand-written format of
``kripke.modelfile`` or the JSON ttr-kripke writes), printed, with formulas checked and
announcements made in the order given."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.checking import read_formula, vacuity_note, write_model_files
from app.cli import UsageError
from game.files import check_outputs
from kripke import Formula, KripkeModel, NamedModel, dump_model, load_model
from kripke.explain import explain, render

NAME = "model"
HELP = "print your own Kripke model (a .kripke or .json file), check formulas, announce"
#: The most worlds the command lists; a bigger model (a game's JSON) is summed up in one line.
SHOWN = 200


def _check(text: str) -> tuple[str, str]:
    return ("check", text)


def _announce(text: str) -> tuple[str, str]:
    return ("announce", text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="the model: the format of kripke/README.md ('Models written by "
                             "hand') or JSON from --json or the page's export")
    parser.add_argument("--check", dest="steps", action="append", type=_check, metavar="F",
                        help="evaluate formula F at the actual world (repeat as you like; "
                             "checks and announcements run in the order given)")
    parser.add_argument("--announce", dest="steps", action="append", type=_announce,
                        metavar="F", help="announce F publicly: keep the worlds where it holds "
                                          "(refused when F is false at the actual world)")
    parser.add_argument("--explain", action="store_true",
                        help="say why each --check has its value")
    parser.add_argument("--json", metavar="OUT", help="write the model after the "
                        "announcements as JSON")
    parser.add_argument("--tikz", metavar="OUT", help="... and as a LaTeX/TikZ drawing")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace existing --json/--tikz files")


def describe(model: KripkeModel) -> str:
    """The model in the format it is written in, or one line when it is too big to list."""
    if model.n_worlds <= SHOWN:
        return dump_model(model).rstrip("\n")
    return (f"{model.n_worlds:,} worlds (more than {SHOWN} to list), agents "
            f"{' '.join(str(a) for a in model.agents)}, {len(model.atoms)} atoms; "
            f"actual world: {model.world_label()}")


def drawn(model: KripkeModel, world: int) -> str:
    """A world in the drawing as in a textbook: its name and the atoms true there."""
    atoms = KripkeModel.world_label(model, world)
    return f"{model.world_name(world)}: {atoms}" if isinstance(model, NamedModel) else atoms


def run(args: argparse.Namespace) -> int:
    outputs = [(path, option) for path, option in ((args.json, "--json"),
                                                   (args.tikz, "--tikz")) if path]
    check_outputs(outputs, overwrite=args.overwrite)
    steps: list[tuple[str, str, Formula]] = [(kind, text, read_formula(text))
                                             for kind, text in args.steps or []]
    if args.explain and not any(kind == "check" for kind, _, _ in steps):
        raise UsageError("--explain says why a --check has its value: add --check F")
    model = load_model(Path(args.file))  # a path, even when no such file exists
    if model.actual is None:
        raise UsageError(f"{args.file} names no actual world; name one (a line 'actual: w1', "
                         "or \"actual\" in JSON)")
    for _, _, formula in steps:
        model.evaluate(formula)  # an unknown atom or agent: refused before any output
    print(describe(model))
    print()
    all_true, announced = True, False
    for kind, text, formula in steps:
        if kind == "announce":
            before = model.n_worlds
            model = model.announce(formula)  # false at the actual world: one line, code 2
            announced = True
            print(f"announce {text}: {model.n_worlds:,} of {before:,} worlds left")
            continue
        holds = model.holds(formula)
        all_true &= holds
        print(f"{text}: {'TRUE' if holds else 'FALSE'} at the actual world "
              f"({model.world_label()}); it holds in {model.count(formula):,} of "
              f"{model.n_worlds:,} worlds")
        if note := vacuity_note(model, formula):
            print(note)
        if args.explain:
            print(render(explain(model, formula)))
    if announced:
        print()
        print("after the announcements:")
        print(describe(model))
    write_model_files(model, args.json, args.tikz, drawn=drawn, title=Path(args.file).name)
    return 0 if all_true else 1
