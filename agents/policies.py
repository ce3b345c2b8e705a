"""Turn policies: pure functions from what a player may see to its next action.

Policies read only public facts (owners, trains, the face-up row, the dealt tickets) plus the
player's own hand and tickets; a policy that peeked at hidden cards would make the knowledge
reasoning meaningless. Every random choice uses the ``rng`` passed in (the model's generator).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.actions import Action, Claim, DrawDeck, DrawFaceUp, Pass
from game.cards import LOCO, colour_of
from game.state import GameState


def own_path_connections(state: GameState, player: int) -> set[int]:
    """Connections on a shortest path of one of ``player``'s unfinished tickets."""
    out: set[int] = set()
    for ticket in state.unfinished(player):
        found = state.paths(player, ticket)
        if found is not None:
            out |= found.connections
    return out - {c for c, who in enumerate(state.owner) if who == player}


def best_payment(state: GameState, player: int, connection: int) -> Claim | None:
    """The cheapest way to pay: fewest locomotives, then the colour held most."""
    options = state.payments(player, state.board.connections[connection])
    if not options:
        return None
    hand = state.hands[player]
    return min(options, key=lambda c: (c.locomotives, -hand[c.colour] if c.colour is not None
                                       else 0))


def claim_among(state: GameState, player: int, connections: Iterable[int],
                rng: random.Random) -> Claim | None:
    """A payable claim on one of ``connections``, chosen at random among the payable ones."""
    payable = [claim for c in sorted(connections)
               if (claim := best_payment(state, player, c)) is not None]
    return rng.choice(payable) if payable else None


def needed_colours(state: GameState, connections: Iterable[int]) -> set[int]:
    """Card colours that would pay for ``connections`` (grey ones take any colour)."""
    need: set[int] = set()
    for c in connections:
        colour = colour_of(state.board.connections[c].colour)
        need |= set(range(LOCO)) if colour is None else {colour}
    return need


def draw(state: GameState, need: set[int], rng: random.Random) -> Action:
    """The design notes' draw: a face-up locomotive as the whole turn if one lies there (first
    card only), else a face-up card of a needed colour, else the pile; a player who cannot draw
    claims whatever it can pay for (the rules allow a pass only when nothing else is legal)."""
    if state.drawn == 0 and LOCO in state.face_up:
        return DrawFaceUp(state.face_up.index(LOCO))
    wanted = [s for s, card in enumerate(state.face_up) if card is not None and card in need]
    if wanted:
        return DrawFaceUp(rng.choice(wanted))
    if state.pile or state.discard:
        return DrawDeck()
    legal = state.legal_actions()
    draws = [a for a in legal if isinstance(a, DrawFaceUp)]
    if draws:
        return rng.choice(draws)
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims:
        most = max(state.board.connections[a.connection].length for a in claims)
        return rng.choice([a for a in claims if state.board.connections[a.connection].length
                           == most and a.locomotives == min(
                               b.locomotives for b in claims if b.connection == a.connection)])
    return Pass()


def baseline(state: GameState, player: int, rng: random.Random) -> Action:
    """Claim on its own shortest paths when the hand pays, else draw what those paths need.
    Never reasons about opponents, never blocks."""
    mine = own_path_connections(state, player)
    if state.drawn == 0:
        claim = claim_among(state, player, mine, rng)
        if claim is not None:
            return claim
    return draw(state, needed_colours(state, mine), rng)


def uniform_random(state: GameState, player: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


@dataclass(frozen=True)
class Block:
    """A claim declared as a block of ``victim``'s ``ticket`` (announced as K_b p(victim, t))."""

    claim: Claim
    victim: int
    ticket: int


def epistemic(state: GameState, player: int, rng: random.Random,
              known: Sequence[tuple[int, int]]) -> Action | Block:
    """The design notes' policy: claim on its own shortest paths if the hand pays; else block a
    ticket it *knows* an opponent holds (``known``: (opponent, ticket) pairs) by claiming on that
    opponent's shortest path for it; else draw."""
    mine = own_path_connections(state, player)
    if state.drawn == 0:
        claim = claim_among(state, player, mine, rng)
        if claim is not None:
            return claim
        blocks = block_options(state, player, known)
        if blocks:
            return rng.choice(blocks)
    return draw(state, needed_colours(state, mine), rng)


def block_options(state: GameState, player: int, known: Sequence[tuple[int, int]]) -> list[Block]:
    """Every payable claim on a known opponent's shortest path for an unfinished ticket."""
    tickets = {t.id: t for t in state.dealt_tickets}
    options = []
    for victim, t in known:
        found = None if t in state.finished[victim] else state.paths(victim, tickets[t])
        for c in sorted(found.connections if found else ()):
            if state.owner[c] is None and (pay := best_payment(state, player, c)):
                options.append(Block(pay, victim, t))
    return options
