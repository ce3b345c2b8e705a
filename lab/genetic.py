"""The genetic algorithm both design searches share (Silva et al. 2018, §5 and §6): a genome is
a vector of small counts over the pairs of cities of a board (a deck: 0 or 1 ticket per pair; a
board: 0, 1 or 2 connections per pair), bred by tournament selection and two-point crossover,
mutated by one operation per child, and the best individual kept (elitism).

Every generation is measured by games through the runner, all individuals on the same seeds
(common random numbers: two genomes are compared on the same deals, so a difference is theirs,
not the cards'), and every generation gets new seeds, so the search cannot fit one set of deals.
The generator's state, the population and the history are saved after each generation
(atomically); ``resume`` continues from there and reaches exactly the result an uninterrupted
run reaches, because nothing else carries over from one generation to the next.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from agents.kinds import seat_jobs
from agents.standard_batch import kind_order
from game.files import write_atomically, write_json
from lab.cluster import Workers
from lab.games import LabSpec, play_lab_game
from lab.metrics import Metrics, Tally
from lab.runner import run_jobs

Genome = np.ndarray  # int8 counts over the board's pairs of cities
CHECKPOINT_FORMAT = "ttr-kripke-search"


@dataclass(frozen=True)
class Settings:
    """What a search needs besides its problem; a checkpoint is resumed only with the same."""

    population: int = 12
    generations: int = 10
    games: int = 40  # per individual and generation
    seed: int = 0
    tournament: int = 3

    def __post_init__(self) -> None:
        for name in ("population", "generations", "games", "tournament"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name} must be at least 1, got {getattr(self, name)}")
        if self.population < 2:
            raise ValueError(f"--population must be at least 2 (two parents), got "
                             f"{self.population}")
        if self.tournament > self.population:
            raise ValueError(f"--tournament {self.tournament} is more than the --population "
                             f"{self.population} it draws from; give at most {self.population}")

    def seeds(self, generation: int) -> range:
        """The games of one generation: new seeds every generation."""
        first = self.seed * 1_000_000 + generation * self.games
        return range(first, first + self.games)


class Problem(Protocol):
    """What a search breeds and how it is scored (higher fitness is better)."""

    name: str
    #: a gene is a count from 0 to ``alleles`` − 1 (a deck: 0 or 1 ticket per pair; a board:
    #: 0, 1 or 2 connections), and a genome has ``genes`` of them: a checkpoint is checked
    #: against both (a bit of 2 made a 630-ticket deck)
    alleles: int
    genes: int
    #: the measure in its own units is ``sign * fitness`` (-1: a measure to minimise, such as
    #: the undesirability variance; the history reports the measure)
    sign: int

    def initial(self, rng: random.Random, size: int) -> list[Genome]: ...

    def mutate(self, rng: random.Random, genome: Genome) -> Genome: ...

    def game(self, genome: Genome) -> LabSpec | None:
        """The game to measure the genome with; None: it breaks a constraint so badly that no
        game can be played (it scores :meth:`penalty` alone)."""
        ...

    def penalty(self, genome: Genome) -> float: ...

    def baselines(self) -> list[tuple[str, LabSpec]]:
        """What the best is compared with at the end: ("original", its game) first."""
        ...

    def fitness(self, metrics: Metrics) -> float: ...

    def describe(self, genome: Genome) -> dict[str, float]:
        """A few numbers about a genome for the per-generation table."""
        ...


def tournament(rng: random.Random, fitness: Sequence[float], size: int) -> int:
    """The fittest of ``size`` individuals drawn at random (with replacement)."""
    picks = [rng.randrange(len(fitness)) for _ in range(size)]
    return max(picks, key=lambda i: (fitness[i], -i))


def two_point(rng: random.Random, a: Genome, b: Genome) -> tuple[Genome, Genome]:
    """Two cut points; the children swap the parents' middle parts."""
    i, j = sorted(rng.sample(range(len(a) + 1), 2))
    c, d = a.copy(), b.copy()
    c[i:j], d[i:j] = b[i:j], a[i:j]
    return c, d


@dataclass(frozen=True)
class Generation:
    """One generation's measure (best, mean and worst individual, in the measure's units)."""

    generation: int
    best: float
    mean: float
    worst: float
    described: dict[str, float]


def evaluate(problem: Problem, population: Sequence[Genome], seeds: Sequence[int],
             workers: Workers, progress: str | None = None) -> list[tuple[float, Metrics | None]]:
    """Fitness (and metrics) of every individual over the same seeds, in one batch of games."""
    specs = [problem.game(g) for g in population]
    jobs = [job for spec in specs if spec is not None for job in seat_jobs(spec, seeds)]
    games = iter(run_jobs(play_lab_game, jobs, workers.executor, workers.count,
                          progress=progress))
    out: list[tuple[float, Metrics | None]] = []
    for genome, spec in zip(population, specs, strict=True):
        if spec is None:
            out.append((problem.penalty(genome), None))
            continue
        tally = Tally(spec.loaded(), kind_order([spec.lineup]))
        for _ in seeds:
            tally.add(next(games))
        m = tally.metrics()
        out.append((problem.fitness(m) + problem.penalty(genome), m))
    return out


def breed(problem: Problem, rng: random.Random, population: Sequence[Genome],
          fitness: Sequence[float], size: int, tournament_size: int) -> list[Genome]:
    """The next population: the best individual as it is, then children of tournament winners
    (two-point crossover, one mutation each)."""
    best = max(range(len(fitness)), key=lambda i: (fitness[i], -i))
    nxt = [population[best].copy()]
    while len(nxt) < size:
        a = population[tournament(rng, fitness, tournament_size)]
        b = population[tournament(rng, fitness, tournament_size)]
        for child in two_point(rng, a, b):
            if len(nxt) < size:
                nxt.append(problem.mutate(rng, child))
    return nxt


@dataclass
class SearchState:
    """Everything a search carries from one generation to the next (what a checkpoint holds)."""

    next_generation: int
    population: list[Genome]
    rng_state: Any
    history: list[Generation]
    best: Genome | None = None  # the best individual of the last generation measured
    best_fitness: float = float("-inf")


def save_checkpoint(path: str | Path, problem: Problem, settings: Settings,
                    state: SearchState) -> None:
    version, internal, gauss = state.rng_state
    write_json(path, {
        "format": CHECKPOINT_FORMAT, "problem": problem.name, "settings": asdict(settings),
        "next_generation": state.next_generation,
        "population": [g.tolist() for g in state.population],
        "rng_state": [version, list(internal), gauss],
        "history": [asdict(h) for h in state.history],
        "best": None if state.best is None else state.best.tolist(),
        "best_fitness": state.best_fitness,
    })


#: A checkpoint is a few kB per individual; a file beyond this is not one (and is not read).
MAX_CHECKPOINT_BYTES = 64 * 2**20


def load_checkpoint(path: str | Path, problem: Problem, settings: Settings) -> SearchState:
    """The saved search, or ValueError saying in one line why it cannot be resumed here: each
    field is checked (a generation within the run, a whole population of genomes this problem
    breeds, a generator state Python takes), so a damaged file never starts a search."""
    try:
        if Path(path).stat().st_size > MAX_CHECKPOINT_BYTES:
            raise ValueError(f"checkpoint {path} is larger than {MAX_CHECKPOINT_BYTES >> 20} MB, "
                             "so it is not one; start without --resume")
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read checkpoint {path} ({e}); start without --resume") from None
    except RecursionError:  # json nests by recursion: "[" × 10⁵ is not a checkpoint
        raise ValueError(f"checkpoint {path} is nested too deeply to be a checkpoint; start "
                         "without --resume") from None
    if not isinstance(doc, dict) or doc.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path} is not a search checkpoint; start without --resume")
    if not {"problem", "settings"} <= doc.keys():
        raise ValueError(f"checkpoint {path} is damaged (it names no search); start without "
                         "--resume")
    # another search's checkpoint is whole, not damaged: said as such, not cut to fit
    if doc["problem"] != problem.name or doc["settings"] != asdict(settings):
        raise ValueError(f"{path} was saved by another search ({str(doc['problem'])[:80]}, "
                         f"{str(doc['settings'])[:160]}); resume with the same options or "
                         "start anew")
    try:
        version, internal, gauss = doc["rng_state"]
        rng_state = (version, tuple(internal), gauss)
        random.Random().setstate(rng_state)  # a state Python refuses is refused here
        next_generation = doc["next_generation"]
        if type(next_generation) is not int or not 0 <= next_generation <= settings.generations:
            raise ValueError(f"next_generation must be 0 to {settings.generations}, got "
                             f"{str(next_generation)[:20]}")
        population = doc["population"]
        if not isinstance(population, list) or len(population) != settings.population:
            raise ValueError(f"the population must hold {settings.population} genomes")
        history = doc["history"]
        if not isinstance(history, list) or len(history) != next_generation:
            raise ValueError(f"the history must hold {next_generation} generations")
        return SearchState(
            next_generation=next_generation,
            population=[_genome(g, problem) for g in population],
            rng_state=rng_state,
            # checkpoints saved before issue 37 also hold the best individual's index
            history=[Generation(**{k: v for k, v in h.items() if k != "best_index"})
                     for h in history],
            best=None if doc["best"] is None else _genome(doc["best"], problem),
            best_fitness=float(doc["best_fitness"]))
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise ValueError(f"checkpoint {path} is damaged ({type(e).__name__}: "
                         f"{str(e)[:120]}); start without --resume") from None


def _genome(genes: object, problem: Problem) -> Genome:
    """A genome read back: ``problem.genes`` whole numbers from 0 to ``problem.alleles`` − 1."""
    if not isinstance(genes, list) or len(genes) != problem.genes or any(
            type(g) is not int or not 0 <= g < problem.alleles for g in genes):
        raise ValueError(f"a genome must be {problem.genes} whole numbers from 0 to "
                         f"{problem.alleles - 1}")
    return np.array(genes, dtype=np.int8)


def history_csv(history: Sequence[Generation]) -> str:
    keys = sorted({k for h in history for k in h.described})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["generation", "best", "mean", "worst", *(f"best_{k}" for k in keys)])
    for h in history:
        writer.writerow([h.generation, f"{h.best:.6g}", f"{h.mean:.6g}", f"{h.worst:.6g}",
                         *(f"{h.described.get(k, float('nan')):.6g}" for k in keys)])
    return out.getvalue()


def run_search(problem: Problem, settings: Settings, workers: Workers,
               checkpoint: str | Path, state: SearchState | None = None,
               on_generation: Callable[[SearchState], None] | None = None,
               progress: bool = False) -> SearchState:
    """Run the search to its last generation, from its first or from ``state`` (a checkpoint
    :func:`load_checkpoint` read, so a bad one is refused before any worker starts); after each
    generation the checkpoint is saved and ``on_generation`` is told (the CSV and PNG are
    rewritten there)."""
    if state is None:
        rng = random.Random(settings.seed)
        state = SearchState(0, problem.initial(rng, settings.population), rng.getstate(), [])
    while state.next_generation < settings.generations:
        g = state.next_generation
        scored = evaluate(problem, state.population, settings.seeds(g), workers,
                          f"generation {g}" if progress else None)
        fitness = [f for f, _ in scored]
        best = max(range(len(fitness)), key=lambda i: (fitness[i], -i))
        rng = random.Random()
        rng.setstate(state.rng_state)
        nxt = breed(problem, rng, state.population, fitness, settings.population,
                    settings.tournament)
        s = problem.sign
        record = Generation(g, s * fitness[best], s * float(np.mean(fitness)), s * min(fitness),
                            problem.describe(state.population[best]))
        state = SearchState(g + 1, nxt, rng.getstate(), [*state.history, record],
                            state.population[best].copy(), fitness[best])
        save_checkpoint(checkpoint, problem, settings, state)
        if on_generation is not None:
            on_generation(state)
    return state


def write_history(path: str | Path, history: Sequence[Generation]) -> None:
    write_atomically(path, history_csv(history))
