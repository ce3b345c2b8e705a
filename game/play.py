"""The one game loop of both rule sets, OpenSpiel's shape: while the state is not terminal, the
player to move is given its observation and its policy's action is applied.

A policy is any ``(view, rng) -> action`` callable (the game knows none of them: they live in
``agents``) and must return one of its view's legal actions. Everything that watches a game (the
Mesa model's turn records, the soak's invariants, the design lab's game arc) is an ``on_event``
callback, told of the state after each action, so no driver needs a loop, or a patched
``apply``, of its own.

One seeding scheme for every game: a seed makes one ``random.Random``; the state is dealt from
its first 32 bits (:func:`deal`) and the policies draw from it after that, so a seed fixes the
deal and every choice. ``TTRModel`` passes Mesa's generator, which Mesa seeds the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.actions import Action
from game.knowledge import Backend
from game.open_state import OpenState
from game.rules import OpenRules, Rules
from game.standard_rules import StandardRules
from game.standard_state import StandardState
from game.state import GameState
from game.table import Event, TableState
from game.view import PlayerView

#: A player's policy: what it does, given only what it may see and the game's generator.
Policy = Callable[[PlayerView, random.Random], Action]
#: Told of the state after each action and the event the action made.
OnEvent = Callable[[TableState, Event], None]

#: Far above any real game (each claim uses trains, each card draw a card, each ticket draw a
#: ticket); reaching it means a broken policy, and the game says so instead of hanging.
MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class PlayedTurn:
    """What one player did in its turn: the actions its policy chose (a declared block is a
    ``DeclareBlock``) and the events the rules made of them (the table sees the claim)."""

    actions: tuple[Action, ...]
    events: tuple[Event, ...]


class Arc:
    """The game arc as an ``on_event``: the moves open to the player to move at the start of
    each turn (:meth:`PlayerView.move_count`; a standard game's setup choices and a ticket
    choice are not turn starts). Made on the dealt state, so the first turn is counted too."""

    def __init__(self, state: TableState) -> None:
        self.moves: list[int] = []
        self(state)

    def __call__(self, state: TableState, event: Event | None = None) -> None:
        if state.is_terminal():
            return
        view = state.observation(state.current)
        if not view.setup and view.drawn == 0 and not view.offer:
            self.moves.append(view.move_count())


def deal[S: TableState](make: Callable[[int], S], rng: random.Random) -> S:
    """The game ``make`` deals from ``rng``'s next 32 bits (the one seeding scheme: the same
    generator then goes to the policies)."""
    return make(rng.getrandbits(32))


def seeded[S: TableState](make: Callable[[int], S], seed: int) -> tuple[S, random.Random]:
    """The game a seed plays, dealt, and the generator its policies draw from (see
    :func:`deal`)."""
    rng = random.Random(seed)
    return deal(make, rng), rng


def start_game(rules: Rules, seed: int) -> TableState:
    """Deal a game under ``rules`` from a state seed: a standard game for
    :class:`StandardRules`, else the epistemic one (with its shared model of the deal)."""
    if isinstance(rules, StandardRules):
        return StandardState(rules, seed)
    return epistemic_game(rules, seed)


def epistemic_game(rules: Rules, seed: int, backend: Backend | str = Backend.AUTO
                   ) -> GameState:
    """Deal a game with a shared model under ``rules``: the open game for
    :class:`OpenRules`, else the simplified one."""
    if isinstance(rules, OpenRules):
        return OpenState(rules, seed, backend)
    return GameState(rules, seed, backend)


def play_turn(state: TableState, policy: Policy, rng: random.Random,
              on_event: OnEvent | None = None) -> PlayedTurn:
    """The player to move plays its turn: its policy's actions until the rules end the turn
    (a turn is at most a few actions: two draws, a ticket draw and its choice, a tunnel and its
    extra cards)."""
    actions: list[Action] = []
    events: list[Event] = []
    while not events or not events[-1].turn_over:
        actions.append(policy(state.observation(state.current), rng))
        events.append(state.apply(actions[-1]))
        if on_event is not None:
            on_event(state, events[-1])
    return PlayedTurn(tuple(actions), tuple(events))


def play(state: TableState, policies: Sequence[Policy], rng: random.Random,
         on_event: OnEvent | None = None) -> None:
    """Play ``state`` to its end, seat ``p`` by ``policies[p]``, every choice from ``rng``;
    ``RuntimeError`` after :data:`MAX_ACTIONS` actions (a policy that never ends the game)."""
    while not state.is_terminal():
        if len(state.history) >= MAX_ACTIONS:
            raise RuntimeError(f"no end after {MAX_ACTIONS} actions; a policy loops")
        play_turn(state, policies[state.current], rng, on_event)
