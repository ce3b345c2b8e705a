"""Test helpers: a hand-made board and a way to put a game into a chosen position.

(A plain module, not ``conftest.py``: test files import these names, and two conftest modules,
here and in ``tests/browser``, would shadow each other on ``sys.path``.)

The tiny board (8 cities, 12 connections) has one of everything the rules tests need:

    A–B 2 red, B–D 2 blue, A–C 2 grey, C–D 2 green   two equally short A→D paths (4 trains)
    A–D 4 yellow                                        a third A→D path of 4 trains, 1 connection
    D–E 2 grey ferry 1                                  a ferry needing one locomotive
    E–F 3 red / E–F 3 blue (pair 1)                     a double connection
    F–G 1 white, G–H 8 black                            H hangs off G: claiming either cuts F–H
    B–H 6 orange                                        a length-6 connection for scoring
    C–E 5 white                                         one connection, but C–D–E takes fewer trains

Connection ids are the indices of ``TINY_CONNECTIONS``; tests refer to them through ``CONN``.
"""

from __future__ import annotations

from boards import Board, parse_board
from game.cards import LOCO, N_CARD_TYPES, card_index
from game.distances import PathOracle
from game.knowledge import deal_worlds
from game.rules import Rules
from game.standard_state import StandardState
from game.state import GameState

TINY_CONNECTIONS = [
    ("AB", "A", "B", 2, "red", 0, None),
    ("BD", "B", "D", 2, "blue", 0, None),
    ("AC", "A", "C", 2, "grey", 0, None),
    ("CD", "C", "D", 2, "green", 0, None),
    ("AD", "A", "D", 4, "yellow", 0, None),
    ("DE", "D", "E", 2, "grey", 1, None),
    ("EF_red", "E", "F", 3, "red", 0, 1),
    ("EF_blue", "E", "F", 3, "blue", 0, 1),
    ("FG", "F", "G", 1, "white", 0, None),
    ("GH", "G", "H", 8, "black", 0, None),
    ("BH", "B", "H", 6, "orange", 0, None),
    ("CE", "C", "E", 5, "white", 0, None),
]
#: Connection id by short name, e.g. ``CONN["DE"]`` is the ferry.
CONN = {name: i for i, (name, *_rest) in enumerate(TINY_CONNECTIONS)}

TINY_TICKETS = [
    ("A", "D", 4), ("A", "E", 6), ("B", "C", 4), ("C", "E", 5), ("D", "F", 5), ("E", "G", 4),
    ("F", "H", 9), ("A", "H", 8), ("B", "G", 10), ("C", "F", 7), ("A", "F", 9), ("B", "E", 6),
]

#: Ticket id by its two cities, e.g. ``TICKET["AD"]``.
TICKET = {a + b: i for i, (a, b, _points) in enumerate(TINY_TICKETS)}


def tiny_board_dict() -> dict:
    """The tiny board as a "ttr-kripke-board" v1 document."""
    cities = [{"name": n, "x": i / 8, "y": (i % 3) / 3} for i, n in enumerate("ABCDEFGH")]
    connections = []
    for _name, a, b, length, colour, ferry, pair in TINY_CONNECTIONS:
        c = {"a": a, "b": b, "length": length, "colour": colour}
        if ferry:
            c["ferry"] = ferry
        if pair is not None:
            c["pair"] = pair
        connections.append(c)
    tickets = [{"a": a, "b": b, "points": p} for a, b, p in TINY_TICKETS]
    return {"format": "ttr-kripke-board", "version": 1, "name": "tiny", "cities": cities,
            "connections": connections, "tickets": tickets}


_TINY = parse_board(tiny_board_dict(), "tests/positions.py tiny board")


def tiny_board() -> Board:
    """The same board for module-level use (parametrisation, helpers)."""
    return _TINY


def new_game(board: Board | None = None, players: int = 2, seed: int = 0, **settings) -> GameState:
    return GameState(Rules(board=board or _TINY, players=players, **settings), seed)


def hand(**counts: int) -> list[int]:
    """A hand as a count vector: ``hand(red=2, locomotive=1)``."""
    out = [0] * N_CARD_TYPES
    for name, n in counts.items():
        out[card_index(name)] = n
    return out


def cards(*names: str) -> list[int]:
    """Card numbers by name, e.g. for a pile (its *last* card is drawn first) or a face-up row;
    ``None`` leaves a face-up slot empty."""
    return [None if n is None else card_index(n) for n in names]


def arrange(state: GameState, *, hands: dict[int, list[int]] | None = None,
            face_up: list[int | None] | None = None, pile: list[int] | None = None,
            discard: list[int] | None = None, trains: dict[int, int] | None = None,
            owner: dict[int, int] | None = None, tickets: dict[int, list[int]] | None = None,
            current: int | None = None, conserve: bool = True) -> GameState:
    """TEST-ONLY SETUP: put ``state`` into a chosen position by writing its fields directly.

    Real games change only through ``GameState.apply``; tests use this to reach a position
    (a given hand, face-up row, pile, owners, tickets by board ticket id) without playing up to
    it. Owners set here do not finish tickets: claim through ``apply`` for that. Hands not named are
    emptied, so a test states every card that matters. With ``conserve`` (the default) any
    card of the deck that the position does not place is put into the discard pile (replacing
    the discard pile unless one is given), so
    ``total_cards()`` still equals the deck size and conservation can be asserted afterwards;
    pass ``conserve=False`` for a position that needs an empty discard pile.
    """
    rules = state.rules
    if hands is not None:
        state.hands = [list(hands.get(p, [0] * N_CARD_TYPES)) for p in range(rules.players)]
    if face_up is not None:
        assert len(face_up) == rules.face_up, "a face-up row has one entry per slot"
        state.face_up = list(face_up)
    if pile is not None:
        state.pile = list(pile)
    if discard is not None:
        state.discard = list(discard)
    if trains is not None:
        for p, n in trains.items():
            state.trains[p] = n
    if owner is not None:
        for cid, p in owner.items():
            state.owner[cid] = p
        state._adjacent = [{} for _ in range(rules.players)]
        for conn in rules.board.connections:
            who = state.owner[conn.id]
            if who is not None:
                state._adjacent[who].setdefault(conn.a, set()).add(conn.b)
                state._adjacent[who].setdefault(conn.b, set()).add(conn.a)
        state.oracle = fresh_oracle(state)
    if tickets is not None:
        held = list(state.tickets)
        for p, ids in tickets.items():
            held[p] = tuple(rules.board.tickets[t] for t in sorted(ids))
        # a player not named keeps its dealt tickets, but none a named player now holds (a
        # ticket is dealt once): those give way to tickets nobody holds
        taken = {t for ids in tickets.values() for t in ids}
        spare = iter(t for t in rules.board.tickets
                     if t.id not in taken and all(t not in h for h in held))
        for p in range(rules.players):
            if p not in tickets and any(t.id in taken for t in held[p]):
                held[p] = tuple(sorted((t if t.id not in taken else next(spare)
                                        for t in held[p]), key=lambda t: t.id))
        state.tickets = tuple(held)
        state.oracle = fresh_oracle(state)
        if isinstance(state, GameState):  # the shared model is of the deal as arranged
            state.worlds = deal_worlds(rules, state.tickets, state.backend)
            state.initial_worlds = state.worlds.n_worlds
    if current is not None:
        state.current = current
    state.drawn = 0
    if conserve:
        if discard is None:  # the discard pile is where the rest of the deck lies
            state.discard = []
        state.discard += missing_cards(state)
    return state


def fresh_oracle(state: GameState) -> PathOracle:
    """Public paths computed anew for the owners the position has (no cached answers)."""
    oracle = PathOracle(state.board, state.rules.doubles_both_usable)
    for c, who in enumerate(state.owner):
        if who is not None:
            oracle.claimed(c, who)
    return oracle


def card_counts(state: GameState) -> list[int]:
    """How many cards of each kind lie anywhere in the game."""
    counts = [0] * N_CARD_TYPES
    for c in [*state.pile, *state.discard, *(c for c in state.face_up if c is not None)]:
        counts[c] += 1
    for h in state.hands:
        for c, n in enumerate(h):
            counts[c] += n
    return counts


def ticket_places(state: StandardState) -> list[int]:
    """The ids of the tickets held, on offer and in the pile, sorted: the board's whole deck,
    each once, whatever the position."""
    return sorted([*(t.id for held in state.tickets for t in held),
                   *(t for offer in state.offers for t in offer), *state.ticket_pile])


def deck_counts(rules: Rules) -> list[int]:
    return [rules.cards_per_colour] * LOCO + [rules.locomotives]


def missing_cards(state: GameState) -> list[int]:
    """The deck's cards that the position does not hold anywhere (to top up the discard)."""
    have, full = card_counts(state), deck_counts(state.rules)
    assert all(h <= f for h, f in zip(have, full, strict=True)), (
        f"position holds more cards than the deck: {have} > {full}")
    return [c for c in range(N_CARD_TYPES) for _ in range(full[c] - have[c])]

