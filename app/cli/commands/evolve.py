"""``ttr-kripke evolve deck|board``: the design papers' genetic searches (Silva et al. 2018):
a deck that spreads the game over the cities (low undesirability variance), or a board whose
game arc rises and falls (a large arc triangle). Checkpointed every generation; ``--resume``
continues a stopped run to the same result; the best is written as a board file."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from agents.kinds import DEFAULT_SOURCE
from app.cli.lab_options import add_game_options, add_run_options, check_run, lab_spec
from app.cli.main import UsageError
from app.cli.options import file_name, whole
from app.cli.table import print_table
from boards import Board
from boards.writer import board_document, dumps
from game.fields import MAX_GAMES
from game.files import check_outputs, write_atomically
from lab.batch import Interrupted, measure
from lab.cluster import Workers, open_workers
from lab.games import LabSpec
from lab.genetic import (
    Generation,
    Genome,
    Problem,
    SearchState,
    Settings,
    load_checkpoint,
    run_search,
    write_history,
)

NAME = "evolve"
HELP = ("breed a deck (low city-undesirability variance) or a board (a rising and falling "
        "game arc) with a seeded genetic algorithm on Dask; checkpoints and --resume")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("deck", "board"), help="what to breed")
    add_game_options(parser, games=40)
    parser.add_argument("--cities", metavar="FILE|BOARD",
                        help="board: the cities and positions to build boards on (a board file "
                             "or shipped board; its deck goes with them; default --board)")
    parser.add_argument("--population", type=whole(2, MAX_POPULATION), default=12,
                        help=f"individuals, 2 to {MAX_POPULATION:,} (default 12)")
    parser.add_argument("--generations", type=whole(1, MAX_GENERATIONS), default=10,
                        help=f"generations, 1 to {MAX_GENERATIONS:,} (default 10)")
    parser.add_argument("--tournament", type=whole(1, MAX_POPULATION), default=None,
                        help="tournament size of the selection, at most --population (default 3, "
                             "or the population when smaller)")
    parser.add_argument("--confirm", type=whole(0, MAX_GAMES), default=200, metavar="GAMES",
                        help="games that compare the best with the original (and a random "
                             "board) at the end, on new seeds (default 200; 0: none)")
    parser.add_argument("--out", type=file_name, default=None, metavar="PREFIX",
                        help="writes PREFIX.csv and PREFIX.png (fitness per generation), "
                             "PREFIX-checkpoint.json, PREFIX-board.json (the best) and the "
                             "comparison's files (default evolved-deck or evolved-board)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run PREFIX-checkpoint.json holds")
    add_run_options(parser)


def outputs(prefix: str, what: str) -> dict[str, str]:
    files = {"csv": f"{prefix}.csv", "png": f"{prefix}.png",
             "checkpoint": f"{prefix}-checkpoint.json", "board": f"{prefix}-board.json"}
    if what == "board":
        files |= {"board_png": f"{prefix}-board.png", "arcs": f"{prefix}-arcs.png"}
    return files


#: Individuals and generations at most: each individual plays --games games a generation.
MAX_POPULATION = 1_000
MAX_GENERATIONS = 10_000


def run(args: argparse.Namespace) -> int:
    tournament = min(3, args.population) if args.tournament is None else args.tournament
    settings = Settings(args.population, args.generations, args.games, args.seed, tournament)
    check_run(args)
    prefix = args.out or f"evolved-{args.what}"
    files = outputs(prefix, args.what)
    if args.resume:
        if not Path(files["checkpoint"]).is_file():
            raise UsageError(f"no checkpoint {files['checkpoint']} to resume; start without "
                             "--resume (or give the --out of the stopped run)")
        check_outputs([(f, "--out") for k, f in files.items() if k != "checkpoint"],
                      overwrite=True)
    else:
        check_outputs([(f, "--out") for f in files.values()], overwrite=args.overwrite)
    spec = lab_spec(args)
    if args.what == "deck":
        if args.cities:
            raise UsageError("--cities belongs to evolve board; evolve deck breeds --board's deck")
        # the deck's fitness reads which cities were touched, never the arc: no moves counted
        problem: Problem = deck_problem(replace(spec, arc=False))
    else:
        problem = board_problem(args, spec)
    # a checkpoint of one source never resumes another; those of the spec's own default keep
    # the name they were saved under before the command's default became engine
    if spec.strategies != DEFAULT_SOURCE:
        problem.name = f"{problem.name}, {spec.strategies} strategies"
    start = load_checkpoint(files["checkpoint"], problem, settings) if args.resume else None
    with open_workers(args.workers, args.scheduler) as workers:
        print(f"evolve {args.what}: population {settings.population}, {settings.generations} "
              f"generations, {settings.games} games per individual; {workers.where}",
              file=sys.stderr)

        def report(state: SearchState) -> None:
            write_history(files["csv"], state.history)
            from lab.draw import fitness_png

            fitness_png([vars(h) for h in state.history], files["png"],
                        f"evolve {args.what}: {problem_label(args.what)} per generation",
                        problem_label(args.what))
            print_generation(state.history[-1])

        try:
            state = run_search(problem, settings, workers, files["checkpoint"], start,
                               report, progress=not args.no_progress)
        except KeyboardInterrupt:
            print(f"{args._prog}: interrupted; the generations done are in "
                  f"{files['checkpoint']}: add --resume to go on", file=sys.stderr)
            return 130
        assert state.best is not None
        best = problem_board(problem, state.best)
        write_atomically(files["board"], dumps(board_document(best)))
        print(f"\nbest {args.what} → {files['board']} (fitness per generation → {files['csv']}, "
              f"{files['png']})")
        if args.what == "board":
            from lab.draw import board_png

            board_png(best, files["board_png"])
            print(f"drawn → {files['board_png']}")
        if args.confirm:
            try:
                confirm(args, problem, state, workers, files)
            except Interrupted as e:
                print(f"{args._prog}: {e}", file=sys.stderr)
                return 130
    return 0


def problem_label(what: str) -> str:
    return "undesirability variance" if what == "deck" else "game-arc triangle area"


def print_generation(h: Generation) -> None:
    extra = ", ".join(f"{k} {v:.4g}" for k, v in h.described.items())
    print(f"generation {h.generation}: best {h.best:,.2f}, mean {h.mean:,.2f}, worst "
          f"{h.worst:,.2f} (best: {extra})", flush=True)


def deck_problem(spec: LabSpec) -> Problem:
    from lab.evolve_deck import DeckProblem

    return DeckProblem(spec)


def board_problem(args: argparse.Namespace, spec: LabSpec) -> Problem:
    from lab.evolve_board import BoardProblem

    return BoardProblem(spec if args.cities is None else spec.with_board(
        _load(args.cities)))


def _load(name: str) -> Board:
    from boards import load_board

    return load_board(name)


def problem_board(problem: Problem, genome: Genome) -> Board:
    spec = problem.game(genome)
    if spec is None:
        raise ValueError("the best individual breaks the board constraints: no board to write; "
                         "run more generations or a larger population")
    return spec.loaded()


def confirm(args: argparse.Namespace, problem: Problem, state: SearchState, workers: Workers,
            files: dict[str, str]) -> None:
    """The best against the problem's baselines (the original; for boards also a random board)
    on the same new seeds."""
    from lab.decks import deck_distance, deck_stats

    first = (args.seed + 1) * 1_000_000 - args.confirm  # seeds no generation used
    seeds = range(first, first + args.confirm)
    assert state.best is not None
    best = problem.game(state.best)
    assert best is not None
    contenders = [(label, replace(spec, arc=True))  # the table shows each one's arc
                  for label, spec in [*problem.baselines(), ("evolved", best)]]
    original = contenders[0][1].loaded()
    results = [(label, spec.loaded(), measure(spec, seeds, workers, progress=None if
                                              args.no_progress else label,
                                              bootstrap_seed=args.seed))
               for label, spec in contenders]
    print(f"\n{args.confirm} games each on seeds {first}–{first + args.confirm - 1}:")
    rows = []
    for label, board, m in results:
        s = deck_stats(board)
        rows.append((label, f"{m.undesirability_variance:,.1f}",
                     f"{m.variance_low:,.1f}–{m.variance_high:,.1f}", s.tickets, s.cities,
                     f"{s.average_value:.2f}", f"{deck_distance(board, original):.1f}",
                     f"{m.arc.area:,.0f}", f"{m.distance:.3f}"))
    print_table(("board", "undesirability variance", "95% interval", "tickets", "cities",
                 "average value", "deck distance", "arc area", "win-rate distance"), rows)
    if args.what == "board":
        from lab.draw import arcs_png

        arcs_png([(label, m.arc) for label, _, m in results], files["arcs"],
                 f"game arcs: original, random and evolved boards ({args.confirm} games each)")
        print(f"arcs → {files['arcs']}")
