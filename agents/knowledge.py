"""The bridge between the game and the logic: the deal model of a game and the announcements
of the design notes, as formulas over atoms ``p(i,t)`` (player i holds ticket t)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from game.state import GameState
from kripke import Atom, Knows, KripkeModel, Or, deal_model
from kripke.formula import Formula


@cache
def holds(player: int, ticket: int) -> Atom:
    """The atom p(player, ticket) (cached: asked for on every turn of every game)."""
    return Atom("p", (player, ticket))


def deal_worlds(state: GameState) -> KripkeModel:
    """Every deal of the dealt tickets giving each player its number of tickets, the real deal
    actual; player i sees exactly its own hand."""
    players = range(state.rules.players)
    return deal_model([t.id for t in state.dealt_tickets],
                      [state.rules.tickets_each for _ in players],
                      [[t.id for t in state.tickets[p]] for p in players],
                      agents=list(players))


def claim_inference(state: GameState, player: int, connection: int) -> Formula:
    """What a claim of ``connection`` by ``player`` tells everyone (call it *before* the claim):
    ``player`` holds one of the tickets it has not finished whose shortest path for it can use
    the connection. Finished tickets are public; so is the board, so everyone computes this."""
    finished = set().union(*state.finished)
    return Or.of(holds(player, t.id) for t in state.dealt_tickets
                 if t.id not in finished
                 and (found := state.paths(player, t)) is not None
                 and connection in found.connections)


def block_announcement(blocker: int, victim: int, ticket: int) -> Formula:
    """A declared block: the blocker knows the victim holds the ticket."""
    return Knows(blocker, holds(victim, ticket))


@dataclass(frozen=True)
class Holders:
    """What one agent considers possible about each dealt ticket: who might hold it."""

    agent: int
    possible: dict[int, frozenset[int]]  # ticket id -> players that may hold it

    def known(self, ticket: int) -> int | None:
        """The holder the agent knows, or ``None`` while more than one is possible."""
        who = self.possible[ticket]
        return next(iter(who)) if len(who) == 1 else None

    @cached_property
    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs the agent knows, its own tickets left out (computed once:
        the policy and the data collector ask every turn)."""
        return tuple((who, t) for t in self.possible
                     if (who := self.known(t)) not in (None, self.agent))


def holders(model: KripkeModel, agent: int, tickets: Iterable[int], players: int) -> Holders:
    """Who ``agent`` considers a possible holder of each ticket, at the actual world."""
    worlds = model.possible_worlds(agent)
    return Holders(agent, {t: frozenset(j for j in range(players)
                                         if model.atom_values(holds(j, t), worlds).any())
                           for t in tickets})
