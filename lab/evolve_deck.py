"""Deck evolution (Silva et al. 2018, §6): the board stays, the deck is bred so that every city
is about equally often left alone, i.e. the variance of city undesirability over simulated games
is low. A deck is one bit per pair of cities; a ticket is worth the fewest trains between its
cities.

Choices the paper leaves open: the first population is the board's own deck and random decks of
the same size (so the search starts from the published deck and must beat it); a child that
falls below the fewest tickets the rules deal (players × tickets dealt, plus one ticket draw in
the standard game) gets random tickets added until it has them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from boards import Board
from lab.decks import city_pairs, deck_bits, deck_stats, with_deck
from lab.games import LabSpec
from lab.genetic import Genome
from lab.metrics import Metrics


@dataclass
class DeckProblem:
    """Breed decks for ``spec``'s board (its rules and line-up play every measurement)."""

    spec: LabSpec
    name: str = "deck"
    sign: int = -1  # the measure, undesirability variance, is to be minimised
    alleles: int = 2  # 0 or 1 ticket per pair of cities

    def __post_init__(self) -> None:
        self.board: Board = self.spec.loaded()
        self.pairs = len(city_pairs(self.board))
        self.genes = self.pairs
        players = len(self.spec.lineup)
        self.min_tickets = players * 3 + 3 if self.spec.rules == "standard" else \
            players * self.spec.tickets_each

    def deck_board(self, genome: Genome) -> Board:
        return with_deck(self.board, genome, name=f"{self.board.name}-deck",
                         title=f"{self.board.title}, evolved deck")

    def initial(self, rng: random.Random, size: int) -> list[Genome]:
        own = deck_bits(self.board)
        size_of = max(int(own.sum()), self.min_tickets)
        population = [own]
        while len(population) < size:
            bits = np.zeros(self.pairs, dtype=np.int8)
            bits[rng.sample(range(self.pairs), size_of)] = 1
            population.append(bits)
        return population

    def mutate(self, rng: random.Random, genome: Genome) -> Genome:
        """One bit flipped, then tickets added while the deck is too small to deal."""
        out = genome.copy()
        out[rng.randrange(self.pairs)] ^= 1
        while int(out.sum()) < self.min_tickets:
            out[rng.choice(np.flatnonzero(out == 0).tolist())] = 1
        return out

    def game(self, genome: Genome) -> LabSpec:
        return self.spec.with_board(self.deck_board(genome))

    def penalty(self, genome: Genome) -> float:
        return 0.0

    def baselines(self) -> list[tuple[str, LabSpec]]:
        return [("original", self.spec)]

    def fitness(self, metrics: Metrics) -> float:
        return -metrics.undesirability_variance

    def describe(self, genome: Genome) -> dict[str, float]:
        s = deck_stats(self.deck_board(genome))
        return {"tickets": s.tickets, "cities": s.cities, "average_value": s.average_value}
