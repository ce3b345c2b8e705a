"""``ttr-kripke model FILE``: a teacher's own model (the hand-written format of
``kripke.files.modelfile`` or the JSON ttr-kripke writes), printed, with formulas checked,
announcements made and events applied in the order given."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.checking import (
    dead_ends,
    frame,
    read_formula,
    slide_size,
    vacuity_note,
    write_model_files,
)
from app.cli.main import UsageError
from app.worlds.tikz import SLIDE
from game.files import check_outputs
from kripke import Formula, dump_model, load_model
from kripke.events.model import check_product_size
from kripke.explain import render
from kripke.files.eventfile import READY_MADE, load_event_model
from kripke.interface import EpistemicModel
from kripke.parts import Drawn
from kripke.reference import REFERENCE_LIMIT, Structure

if TYPE_CHECKING:  # the BDD library loads only when --symbolic asks for it
    from kripke.parts import Listable

NAME = "model"
HELP = ("print your own Kripke model (a .kripke or .json file), check formulas, announce, "
        "apply events")
#: The most worlds the command lists; a bigger model (a game's JSON) is summed up in one line.
SHOWN = 200
#: The most worlds an --event may make: each multiplies the worlds by up to its number of
#: events, and a million worlds of a hand-written model is already a few hundred MB.
UPDATE_LIMIT = 1_000_000
#: The most arrows (between classes of worlds, as a belief model stores them) an --event may
#: make. Measured on the shared two-core machine: 98 million took 30 s and 1.3 GB at the peak
#: (about 14 bytes an arrow: the CSR's int32 and int8, counts and cursors), so 100 million
#: stay within a minute and far inside a 24 GB machine (or a 6 GB cap), and a K over them takes
#: about a second. A class is never listed as arrows: only what an event's arrows make counts.
UPDATE_ARROWS = 100_000_000


def _check(text: str) -> tuple[str, str]:
    return ("check", text)


def _announce(text: str) -> tuple[str, str]:
    return ("announce", text)


def _event(text: str) -> tuple[str, str]:
    return ("event", text)


#: --event's help: the ready-made events, one per line (argparse keeps the epilog's lines).
EPILOG = ("--event E is an event model: a file (.events, the format of kripke/README.md, "
          "'Events'), its text, or a ready-made event on one line:\n" +
          "\n".join(f"  {form:<22} {meaning}" for form, meaning in READY_MADE.values()) +
          "\nThe actual event is the first that can happen at the actual world. Example:\n"
          "  ttr-kripke model kripke/models/three-cards.kripke --event "
          "'shows:a:b:red(a),white(a),blue(a)' --check 'K_b red(a) & ~K_c red(a)'")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("file", metavar="FILE",
                        help="the model: the format of kripke/README.md ('Models written by "
                             "hand') or JSON from --json or the page's export")
    parser.add_argument("--check", dest="steps", action="append", type=_check, metavar="F",
                        help="evaluate formula F at the actual world (repeat as you like; "
                             "checks, announcements and events run in the order given)")
    parser.add_argument("--announce", dest="steps", action="append", type=_announce,
                        metavar="F", help="announce F publicly: keep the worlds where it holds "
                                          "(refused when F is false at the actual world)")
    parser.add_argument("--event", dest="steps", action="append", type=_event, metavar="E",
                        help="apply event model E (a file, its text, or a ready-made event "
                             "such as learns:a:p; see below) and say what each agent "
                             "observed (refused when its actual event cannot happen)")
    parser.add_argument("--minimise", dest="steps", action="append_const",
                        const=("minimise", ""),
                        help="contract the model up to bisimulation (one world per class of "
                             "worlds no formula tells apart), in the order given")
    parser.add_argument("--explain", action="store_true",
                        help="say why each --check has its value")
    parser.add_argument("--symbolic", action="store_true",
                        help="hold the model as a belief structure on BDDs (no world listed "
                             "after an event): the same answers, counts and frame classes")
    parser.add_argument("--reference", action="store_true",
                        help="replay the steps on the reference checker (the textbook "
                             "definitions, world by world: kripke/reference.py) and say after "
                             "each --check whether it agrees; for models of up to "
                             f"{REFERENCE_LIMIT} worlds; exit code 3 if it disagrees")
    parser.add_argument("--json", metavar="OUT", help="write the model after the "
                        "announcements and events as JSON")
    parser.add_argument("--tikz", metavar="OUT", help="... and as a LaTeX/TikZ drawing")
    parser.add_argument("--html", metavar="OUT", help="... and as an interactive HTML page "
                        "(drag the worlds apart; atoms on hover; opens with no network)")
    parser.add_argument("--size", type=slide_size, default=SLIDE, metavar="WxH",
                        help="the --tikz drawing's largest width and height in cm (default "
                             f"{SLIDE[0]:g}x{SLIDE[1]:g}, a beamer frame's)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace existing --json/--tikz/--html files")


def describe(model: Drawn) -> str:
    """The model in the format it is written in (or one line when it is too big to list),
    then its frame class and, for a belief model, the worlds where an agent has no arrow."""
    if model.n_worlds <= SHOWN:
        text = dump_model(model).rstrip("\n")
    else:
        text = (f"{model.n_worlds:,} worlds (more than {SHOWN} to list), agents "
                f"{' '.join(str(a) for a in model.agents)}, {len(model.atoms)} atoms; "
                f"actual world: {model.world_label()}")
    return "\n".join([text, frame(model), *dead_ends(model)])


def drawn(model: Drawn, world: int) -> str:
    """A world in the drawing as in a textbook: its name and the atoms true there (every
    model, S5 or belief, answers both)."""
    true = [str(a) for a in model.atoms if model.atom_values(a)[world]]
    return f"{model.world_name(world)}: {' '.join(true) if true else '(no atom true)'}"


def _label(text: str) -> str:
    """An --event as the output names it: the file or ready-made event, or its first line."""
    first = text.strip().splitlines()[0] if text.strip() else text
    return text if "\n" not in text.strip() else f"{first} ..."


def check(model: EpistemicModel, text: str, formula: Formula,
          explain: bool) -> bool:
    """A --check: its value at the actual world, in how many worlds it holds, the vacuity
    note and, asked, why; the value."""
    values = model.values(formula)  # evaluated once, read twice
    holds = model.actual_value(values)
    print(f"{text}: {'TRUE' if holds else 'FALSE'} at the actual world "
          f"({model.world_label()}); it holds in {model.count_values(values):,} of "
          f"{model.n_worlds:,} worlds")
    if note := vacuity_note(model, formula):
        print(note)
    if explain:
        print(render(model.explain(formula)))
    return holds


def reference_for(model: Drawn,
                  steps: list[tuple[str, str, Formula | None]]) -> Structure:
    """The model as the reference checker reads it, refused in one line before any output
    when the steps take it past :data:`REFERENCE_LIMIT` worlds (each event may multiply them
    by its number of events) or ask for what the definitions do not write (a contraction,
    the rank shift)."""
    if any(kind == "minimise" for kind, _, _ in steps):
        raise UsageError("--reference replays the steps by the definitions, which have no "
                         "contraction; drop --minimise (it changes no value at the actual "
                         "world)")
    bound = model.n_worlds
    for kind, text, _ in steps:
        if kind == "event":
            events = load_event_model(text, model)
            if getattr(events, "kind", None) == "shift":
                raise UsageError("--reference writes orders as pairs and has no rank shift; "
                                 "drop --reference or the shift")
            bound *= max(len(events.events), 1)
    if bound > REFERENCE_LIMIT:
        raise UsageError(f"--reference reads at most {REFERENCE_LIMIT} worlds and the model "
                         f"{'has' if bound == model.n_worlds else 'may reach'} {bound:,}; "
                         "drop --reference or check a smaller model")
    return Structure.of(model)


def cross_check(model: EpistemicModel,
                reference: Structure, formula: Formula) -> bool:
    """One line: whether the reference checker finds the --check's value at the actual world
    and its count as the model did; whether it agrees."""
    holds, count = model.holds(formula), model.count(formula)
    truth, found = reference.holds(formula), reference.count(formula)
    said = f"{'TRUE' if truth else 'FALSE'} at the actual world, in {found:,} of " \
        f"{reference.n_worlds:,} worlds"
    if (holds, count, model.n_worlds) == (truth, found, reference.n_worlds):
        print(f"  the reference checker agrees: {said}")
        return True
    print(f"  the reference checker DISAGREES: it finds {said} (a bug: please report it "
          "with this model and these steps)")
    return False


def run(args: argparse.Namespace) -> int:
    outputs = [(path, option) for path, option in ((args.json, "--json"),
                                                   (args.tikz, "--tikz"),
                                                   (args.html, "--html")) if path]
    check_outputs(outputs, overwrite=args.overwrite)
    given = args.steps or []
    if args.explain and not any(kind == "check" for kind, _ in given):
        raise UsageError("--explain says why a --check has its value: add --check F")
    model = load_model(Path(args.file))  # a path, even when no such file exists
    if model.actual is None:
        raise UsageError(f"{args.file} names no actual world; name one (a line 'actual: w1', "
                         "or \"actual\" in JSON)")
    steps: list[tuple[str, str, Formula | None]] = []
    for kind, text in given:  # bad input is refused before any output
        if kind == "minimise":
            steps.append((kind, text, None))
        elif kind == "event":
            events = load_event_model(text, model)  # read again when applied (see below)
            events.check_agents(model.agents)
            for event in events.events:
                model.values(event.precondition)  # an unknown atom or agent
                for atom, value in event.post:  # an assignment to an atom the model lacks
                    model.values(atom)
                    model.values(value)
            steps.append((kind, text, None))
        else:
            read = read_formula(text)
            model.values(read)
            steps.append((kind, text, read))
    reference = reference_for(model, steps) if args.reference else None
    if args.symbolic:
        return run_symbolic(args, model, steps, reference)
    print(describe(model))
    print()
    # where the TikZ draws each world: the textbook graph's places, kept across announcements,
    # an event's product in layers under them (the graph's layout brings networkx: imported
    # only when a drawing is asked for, so a check stays quick to start)
    drawing = args.tikz or args.html
    if drawing:
        from app.worlds.graph import graph_positions, layered
    places = graph_positions(model) if drawing else None
    all_true, agreed, changed = True, True, []
    for kind, text, formula in steps:
        before = model.n_worlds
        if kind == "minimise":
            model = model.minimised()
            changed.append("contraction")
            print(f"minimised: {before:,} worlds; {model.n_worlds:,} up to bisimulation")
            continue
        if kind == "event":
            # a ready-made event's actual event is the one that can happen in the model now
            events = load_event_model(text, model)
            check_product_size(model, events, UPDATE_LIMIT, where="an --event may make",
                               max_arrows=UPDATE_ARROWS)
            old, model = model, model.update(events)  # its actual event cannot happen: one
            # line, code 2
            if reference is not None:
                reference = reference.update(events)[0]
            if places is not None:
                places = layered(places, old, events, model)
            changed.append("events")
            print(f"event {_label(text)}: {model.n_worlds:,} worlds (were {before:,})")
            print(f"  {events.observations(model.agents)}")
            continue
        assert formula is not None
        if kind == "announce":
            model = model.announce(formula)  # false at the actual world: one line, code 2
            if reference is not None:
                reference = reference.announce(formula)
            changed.append("announcements")
            print(f"announce {text}: {model.n_worlds:,} of {before:,} worlds left")
            continue
        all_true &= check(model, text, formula, args.explain)
        if reference is not None:
            agreed &= cross_check(model, reference, formula)
    if changed:
        print()
        print(f"after the {' and '.join(dict.fromkeys(sorted(changed)))}:")
        print(describe(model))
    if drawing and places is None:  # too many worlds to place at the start, few enough now
        places = graph_positions(model)
    write_model_files(model, args.json, args.tikz, drawn=drawn, title=Path(args.file).name,
                      positions=places, size=args.size, html_path=args.html)
    return 3 if not agreed else 0 if all_true else 1


def run_symbolic(args: argparse.Namespace, start: Drawn,
                 steps: list[tuple[str, str, Formula | None]],
                 reference: Structure | None = None) -> int:
    """The steps on the model as a belief structure (:mod:`kripke.symbolic.belief`), printed
    as :func:`run` prints them; what needs a list of worlds is refused before any output."""
    if args.json or args.tikz or any(kind == "minimise" for kind, _, _ in steps):
        raise UsageError("--symbolic keeps the model as diagrams; drop it to use --json, "
                         "--tikz or --minimise")
    from app.cli.checking import symbolic_dead_ends
    from kripke.backends import SYMBOLIC_BELIEF

    def summary(model: Listable) -> str:
        text = dump_model(model.as_list(SHOWN)).rstrip("\n") if model.n_worlds <= SHOWN else \
            f"{model.n_worlds:,} worlds (more than {SHOWN} to list), agents " \
            f"{' '.join(str(a) for a in model.agents)}, {len(model.atoms)} atoms"
        return "\n".join([text, frame(model), *symbolic_dead_ends(model, SHOWN)])

    model = SYMBOLIC_BELIEF.build(start)
    print(summary(model))
    print()
    all_true, agreed, changed = True, True, False
    for kind, text, formula in steps:
        before = model.n_worlds
        if kind == "event":
            events = load_event_model(text, model)
            model = model.update(events)
            if reference is not None:
                reference = reference.update(events)[0]
            print(f"event {_label(text)}: {model.n_worlds:,} worlds (were {before:,})")
            print(f"  {events.observations(model.agents)}")
        elif kind == "announce":
            assert formula is not None
            model = model.announce(formula)
            if reference is not None:
                reference = reference.announce(formula)
            print(f"announce {text}: {model.n_worlds:,} of {before:,} worlds left")
        else:
            assert formula is not None
            all_true &= check(model, text, formula, args.explain)
            if reference is not None:
                agreed &= cross_check(model, reference, formula)
        changed |= kind != "check"
    if changed:
        print()
        print("after the steps:")
        print(summary(model))
    return 3 if not agreed else 0 if all_true else 1
