"""Mesa agents: one seat at the table each.

A seat plays its own turn (Mesa's shape: behaviour in the agents, the model orchestrates): its
kind's simplified-game policy (:data:`agents.kinds.KINDS`) plays it through the one game loop
(:func:`game.play.play_turn`), on the model's generator. What the turn announces is the game's
(``game.state.GameState.apply``, by ``game.knowledge``'s protocol).
"""

from __future__ import annotations

import mesa

from agents.kinds import KINDS, AgentKind
from game.play import PlayedTurn, play_turn
from game.state import GameState


class PlayerAgent(mesa.Agent):
    """A player. ``player`` is its seat (0-based), the agent name used in formulas (``K_0``).

    ``model`` is the ``TTRModel`` it sits at (not imported here: the model imports the agents,
    never the reverse); the agent reads its game state, its generator and what watches it.
    """

    def __init__(self, model: mesa.Model, player: int, kind: AgentKind):
        super().__init__(model)
        self.player = player
        self.kind = kind
        self.blocks = 0

    @property
    def state(self) -> GameState:
        return self.model.state

    def play_turn(self) -> PlayedTurn:
        """This player's turn, its policy's actions until the rules end it (each one of its
        view's legal actions, a claim off its own paths declared as a block); all randomness
        is the model's generator."""
        return play_turn(self.state, KINDS[self.kind].simplified, self.model.random,
                         self.model.on_event)

    def known_opponent_tickets(self) -> tuple[tuple[int, int], ...]:
        """(opponent, ticket) pairs this agent knows, at the actual world."""
        return self.state.known(self.player)

    @property
    def known_tickets(self) -> int:
        return len(self.known_opponent_tickets())
