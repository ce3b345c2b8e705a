"""Turn policies of the simplified game: pure functions from what a player may see (its
:class:`game.view.PlayerView`) to its next action.

A view holds only public facts (owners, trains, the face-up row, the dealt tickets, the public
paths) plus the player's own hand and tickets, so no policy can peek at hidden cards, which
would make the knowledge reasoning meaningless. Every random choice uses the ``rng`` passed in
(the model's generator).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.actions import Action, Claim, DrawDeck, DrawFaceUp, Pass
from game.cards import LOCO, colour_of
from game.view import PlayerView


def own_path_connections(view: PlayerView) -> set[int]:
    """Connections on a shortest path of one of the player's unfinished tickets."""
    out: set[int] = set()
    for ticket in view.unfinished():
        found = view.ticket_paths(view.player, ticket)
        if found is not None:
            out |= found.connections
    return out - {c for c, who in enumerate(view.owner) if who == view.player}


def best_payment(view: PlayerView, connection: int) -> Claim | None:
    """The cheapest way to pay now: fewest locomotives, then the colour held most."""
    options = view.payments(connection)
    if not options:
        return None
    hand = view.hand
    return min(options, key=lambda c: (c.locomotives, -hand[c.colour] if c.colour is not None
                                       else 0))


def claim_among(view: PlayerView, connections: Iterable[int],
                rng: random.Random) -> Claim | None:
    """A payable claim on one of ``connections``, chosen at random among the payable ones."""
    payable = [claim for c in sorted(connections)
               if (claim := best_payment(view, c)) is not None]
    return rng.choice(payable) if payable else None


def needed_colours(view: PlayerView, connections: Iterable[int]) -> set[int]:
    """Card colours that would pay for ``connections`` (grey ones take any colour)."""
    need: set[int] = set()
    for c in connections:
        colour = colour_of(view.board.connections[c].colour)
        need |= set(range(LOCO)) if colour is None else {colour}
    return need


def draw(view: PlayerView, need: set[int], rng: random.Random) -> Action:
    """The design notes' draw: a face-up locomotive as the whole turn if one lies there (first
    card only), else a face-up card of a needed colour, else the pile; a player who cannot draw
    claims whatever it can pay for (the rules allow a pass only when nothing else is legal)."""
    if view.drawn == 0 and LOCO in view.face_up:
        return DrawFaceUp(view.face_up.index(LOCO))
    wanted = [s for s, card in enumerate(view.face_up) if card is not None and card in need]
    if wanted:
        return DrawFaceUp(rng.choice(wanted))
    if view.pile_size or view.discard_size:
        return DrawDeck()
    legal = view.legal_actions()
    draws = [a for a in legal if isinstance(a, DrawFaceUp)]
    if draws:
        return rng.choice(draws)
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims:
        most = max(view.board.connections[a.connection].length for a in claims)
        return rng.choice([a for a in claims if view.board.connections[a.connection].length
                           == most and a.locomotives == min(
                               b.locomotives for b in claims if b.connection == a.connection)])
    return Pass()


def baseline(view: PlayerView, rng: random.Random) -> Action:
    """Claim on its own shortest paths when the hand pays, else draw what those paths need.
    Never reasons about opponents, never blocks."""
    mine = own_path_connections(view)
    if view.drawn == 0:
        claim = claim_among(view, mine, rng)
        if claim is not None:
            return claim
    return draw(view, needed_colours(view, mine), rng)


def uniform_random(view: PlayerView, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(view.legal_actions())


@dataclass(frozen=True)
class Block:
    """A claim declared as a block of ``victim``'s ``ticket`` (announced as K_b p(victim, t))."""

    claim: Claim
    victim: int
    ticket: int


def epistemic(view: PlayerView, rng: random.Random,
              known: Sequence[tuple[int, int]]) -> Action | Block:
    """The design notes' policy: claim on its own shortest paths if the hand pays; else block a
    ticket it *knows* an opponent holds (``known``: (opponent, ticket) pairs) by claiming on that
    opponent's shortest path for it; else draw."""
    mine = own_path_connections(view)
    if view.drawn == 0:
        claim = claim_among(view, mine, rng)
        if claim is not None:
            return claim
        blocks = block_options(view, known)
        if blocks:
            return rng.choice(blocks)
    return draw(view, needed_colours(view, mine), rng)


def block_options(view: PlayerView, known: Sequence[tuple[int, int]]) -> list[Block]:
    """Every payable claim on a known opponent's shortest path for an unfinished ticket (its
    completions are public in the simplified game, so the view knows which are finished)."""
    tickets = {t.id: t for t in view.dealt_tickets}
    options = []
    for victim, t in known:
        done = view.finished_by[victim] or frozenset()
        found = None if t in done else view.ticket_paths(victim, tickets[t])
        for c in sorted(found.connections if found else ()):
            if view.owner[c] is None and (pay := best_payment(view, c)):
                options.append(Block(pay, victim, t))
    return options
