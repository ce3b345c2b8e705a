"""Turn policies of the simplified game: pure functions from what a player may see (its
:class:`game.view.PlayerView`) to its next action.

A view holds only public facts (owners, trains, the face-up row, the dealt tickets, the public
paths) plus the player's own hand and tickets and which opponents' tickets it knows, so no
policy can peek at hidden cards, which would make the knowledge reasoning meaningless. Every
random choice uses the ``rng`` passed in (the model's generator).

A claim is allowed only for the claimant's own tickets or as a declared block, and the view
offers it only so (:meth:`game.view.PlayerView.declarations`): a policy that picks a claim off
its own shortest paths plays it as a :class:`game.actions.DeclareBlock` naming the ticket it
blocks (:func:`offered`), so every policy returns one of its view's legal actions. The open
game's view offers every claim plain, and a block of each ticket the player believes: the
believer blocks on belief, the bluffer also claims where no ticket of its own explains it, and
the epistemic policy (the sceptic there) still blocks only what it knows.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from game.actions import Action, Claim, DeclareBlock, DrawDeck, DrawFaceUp, Pass
from game.cards import LOCO, colour_of
from game.play import Policy
from game.view import PlayerView


def offered(view: PlayerView, claim: Claim, rng: random.Random) -> Claim | DeclareBlock:
    """``claim`` as its view offers it: itself where the rules take it plain, else declared as a
    block of one of the known tickets on whose shortest path it lies (at random)."""
    forms = view.declarations(claim)
    return claim if claim in forms else rng.choice(forms)


def declaring(policy: Policy) -> Policy:
    """A standard game's ``policy`` as it plays the simplified game: its plans are not the
    design notes' shortest paths, so a claim off its own paths goes out :func:`offered`."""
    def play(view: PlayerView, rng: random.Random) -> Action:
        choice = policy(view, rng)
        return offered(view, choice, rng) if isinstance(choice, Claim) else choice
    return play


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
    makes the longest allowed claim it can pay for (the rules allow a pass only when nothing
    else is legal; a claim off its own paths goes out :func:`offered`)."""
    if view.drawn == 0 and LOCO in view.face_up:
        return DrawFaceUp(view.face_up.index(LOCO))
    wanted = [s for s, card in enumerate(view.face_up) if card is not None and card in need]
    if wanted:
        return DrawFaceUp(rng.choice(wanted))
    if view.pile_size or view.discard_size:
        return DrawDeck()
    draws = [a for a in view.legal_actions() if isinstance(a, DrawFaceUp)]
    if draws:
        return rng.choice(draws)
    claims = view.claim_choices()
    if claims:
        most = max(view.board.connections[a.connection].length for a in claims)
        return offered(view, rng.choice([
            a for a in claims if view.board.connections[a.connection].length == most
            and a.locomotives == min(b.locomotives for b in claims
                                     if b.connection == a.connection)]), rng)
    return Pass()


def baseline(view: PlayerView, rng: random.Random) -> Action:
    """Claim on its own shortest paths when the hand pays, else draw what those paths need.
    Never reasons about opponents, never blocks."""
    mine = view.own_connections()
    if view.drawn == 0:
        claim = claim_among(view, mine, rng)
        if claim is not None:
            return claim
    return draw(view, needed_colours(view, mine), rng)


def uniform_random(view: PlayerView, rng: random.Random) -> Action:
    """A legal action chosen uniformly (tests and a floor for comparisons): a claim that may be
    declared as two blocks is two actions, as the rules count them. The view offers its own
    game's actions (ticket draws under the published rules), so this one policy is the random
    player of both rule sets."""
    return rng.choice(view.legal_actions())


def epistemic(view: PlayerView, rng: random.Random) -> Action:
    """The design notes' policy: claim on its own shortest paths if the hand pays; else block a
    ticket it *knows* an opponent holds (``view.known``) by claiming on that opponent's shortest
    path for it; else draw. In the open game it is the sceptic: it acts on knowledge only and
    ignores what claims suggest."""
    return _routes_then_blocks(view, rng, view.known_targets())


def believer(view: PlayerView, rng: random.Random) -> Action:
    """The open game's believer: its own routes as :func:`epistemic` plays them, and blocks
    of the tickets it *believes* an opponent holds (``view.believed``: what the claims so far
    make most plausible), which may be false. In the simplified game belief is knowledge, and
    it plays :func:`epistemic`."""
    return _routes_then_blocks(view, rng, view.block_targets())


#: How often a bluffer bluffs when it can: on a turn it has no claim for its own tickets and no
#: block to make, one time in three.
BLUFF_CHANCE = 1 / 3
#: The longest connection a bluffer spends on a bluff: a bluff costs trains and scores little,
#: so it bluffs cheaply.
BLUFF_LENGTH = 2


def bluffer(view: PlayerView, rng: random.Random) -> Action:
    """The open game's bluffer: a :func:`believer` that, on a turn it has no claim for its own
    tickets and no block to make, bluffs with probability :data:`BLUFF_CHANCE`: it claims a
    connection of length at most :data:`BLUFF_LENGTH` that lies on its own shortest path for a
    dealt, unfinished ticket it does *not* hold and on none for its own tickets (one such
    payable connection, chosen uniformly), so the table's most plausible deals give it that
    ticket: a false belief planted, and blocks drawn away from its real routes. Every choice
    comes from the game's generator. The simplified rules allow no such claim, and there it
    plays :func:`believer`."""
    mine = view.own_connections()
    if view.drawn == 0:
        chosen = _own_claim_or_block(view, rng, view.block_targets())
        if chosen is not None:
            return chosen
        bluffs = [claim for c in sorted(bluff_connections(view))
                  if (claim := best_payment(view, c)) is not None]
        if bluffs and rng.random() < BLUFF_CHANCE:
            return rng.choice(bluffs)
    return draw(view, needed_colours(view, mine), rng)


def bluff_connections(view: PlayerView) -> set[int]:
    """The connections a bluff may take: unclaimed, at most :data:`BLUFF_LENGTH` long, on the
    player's shortest path for a dealt, unfinished ticket it does not hold, and on none of its
    own tickets' paths (so no ticket of its own explains the claim)."""
    own = {t.id for t in view.tickets}
    done = set().union(*(f for f in view.finished_by if f is not None))
    mine = view.own_connections()
    out: set[int] = set()
    for ticket in view.dealt_tickets:
        if ticket.id in own or ticket.id in done:
            continue
        found = view.ticket_paths(view.player, ticket)
        if found is not None:
            out |= {c for c in found.connections if view.owner[c] is None and c not in mine
                    and view.board.connections[c].length <= BLUFF_LENGTH}
    return out


def _routes_then_blocks(view: PlayerView, rng: random.Random,
                        targets: dict[tuple[int, int], frozenset[int]]) -> Action:
    """Claim on its own shortest paths if the hand pays; else block one of ``targets``; else
    draw what its own paths need."""
    if view.drawn == 0:
        chosen = _own_claim_or_block(view, rng, targets)
        if chosen is not None:
            return chosen
    return draw(view, needed_colours(view, view.own_connections()), rng)


def _own_claim_or_block(view: PlayerView, rng: random.Random,
                        targets: dict[tuple[int, int], frozenset[int]]
                        ) -> Claim | DeclareBlock | None:
    """A payable claim for its own tickets, else a payable block of one of ``targets``."""
    claim = claim_among(view, view.own_connections(), rng)
    if claim is not None:
        return claim
    blocks = block_options(view, targets)
    return rng.choice(blocks) if blocks else None


def block_options(view: PlayerView, targets: dict[tuple[int, int], frozenset[int]]
                  ) -> list[DeclareBlock]:
    """Every payable block of ``targets`` (:meth:`PlayerView.block_targets` or
    :meth:`PlayerView.known_targets`): a claim on an opponent's shortest path for an
    unfinished ticket, one way to pay each."""
    return [DeclareBlock(pay, victim, t)
            for (victim, t), conns in sorted(targets.items())
            for c in sorted(conns) if (pay := best_payment(view, c))]
