"""Board evolution (Silva et al. 2018, §5): the cities, their positions and the deck stay;
the connections are bred from the Delaunay triangulation of the positions so that the game arc
starts low, peaks and falls (fitness: the arc's triangle area, the arc smoothed over
:data:`SMOOTHING` turns, minus 100 for each broken constraint: planar, connected, no city of
degree above 10, the connection count in its window).

An individual starts as the triangulation after 1 to 5 random operations (remove, duplicate,
flip); a child is a two-point crossover of two layouts with one operation applied. A layout
that breaks a constraint plays no game: it scores its penalties alone, so it ranks below every
board that keeps them all. (Added to an arc area in the thousands, as the paper's −100 is, a
penalty let a board with crossing connections lead the population: it did in generation 6 of
a run on the USA.) Lengths and colours are given to each measured layout (``lab.boardgen``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from boards import Board
from lab.boardgen import PENALTY, Cities, broken, delaunay, layout_board, mutate
from lab.games import LabSpec
from lab.genetic import Genome
from lab.metrics import Metrics

#: Turns the search's arc is smoothed over (:meth:`lab.metrics.Arc.smoothed`): a run that
#: scored the raw arc of 16 games a board kept a best near 13,000 that measured 3,271 over
#: 1,000 games, below a random board's 3,599.
SMOOTHING = 9
#: The seed of the random board the best is compared with (one fixed board, every run).
RANDOM_BOARD_SEED = 2018


@dataclass
class BoardProblem:
    """Breed connections on ``spec``'s board's cities (its rules and line-up play)."""

    spec: LabSpec
    name: str = "board"
    sign: int = 1  # the measure, the arc's triangle area, is to be maximised
    alleles: int = 3  # 0, 1 or 2 connections per pair of cities

    def __post_init__(self) -> None:
        self.original = self.spec.loaded()
        self.cities = Cities(self.original)
        self.start = delaunay(self.cities)
        self.genes = len(self.start)

    def random_layout(self, rng: random.Random) -> Genome:
        layout = self.start
        for _ in range(rng.randint(1, 5)):
            layout = mutate(rng, self.cities, layout)
        return layout

    def initial(self, rng: random.Random, size: int) -> list[Genome]:
        return [self.random_layout(rng) for _ in range(size)]

    def mutate(self, rng: random.Random, genome: Genome) -> Genome:
        return mutate(rng, self.cities, genome)

    def board(self, genome: Genome, name: str = "evolved") -> Board:
        return layout_board(self.cities, genome, f"{self.original.name}-{name}",
                            f"{self.original.title}, {name} board")

    def game(self, genome: Genome) -> LabSpec | None:
        if broken(self.cities, genome):
            return None
        return self.spec.with_board(self.board(genome))

    def penalty(self, genome: Genome) -> float:
        return -PENALTY * len(broken(self.cities, genome))

    def fitness(self, metrics: Metrics) -> float:
        return metrics.arc.smoothed(SMOOTHING).area

    def baselines(self) -> list[tuple[str, LabSpec]]:
        """The original board and one random board that meets every constraint."""
        rng = random.Random(RANDOM_BOARD_SEED)
        while broken(self.cities, layout := self.random_layout(rng)):
            pass
        return [("original", self.spec),
                ("random", self.spec.with_board(self.board(layout, "random")))]

    def describe(self, genome: Genome) -> dict[str, float]:
        return {"connections": int(genome.sum()), "doubles": int((genome == 2).sum()),
                "broken": len(broken(self.cities, genome)),
                "mean_length": float(np.mean(
                    [c.length for c in self.board(genome).connections]))}
