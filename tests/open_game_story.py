"""The seeded open game the page's belief tests follow: a bluff plants a false belief, a later
declared block revises it (issue 47, "Done when").

europe24, 3 players × 2 tickets, seed 36, bluffer, believer, sceptic; player 0 holds t3 and
t12, player 1 t2 and t4, player 2 t6 and t14. At turn 6 player 0 (the bluffer) claims
Venezia–Zagrab, which only t4 Berlin–Roma or t14 would explain for it: a bluff. Player 2 holds
t14, so the deals it finds most plausible give player 0 t4: a false belief. At turn 16 player 1
declares a block of player 0's t12, hard information that rules out every deal player 2
believed in. Found by a search over the seeds 0–39 with the engine, stepping each game and
keeping the first where a false belief a bluffer's claim planted is later revised by a
completion or a block (seeds 5, 18, 20, 24, 29 and 36 are such; 36 revises soonest after
planting), not by hand; ``tests/test_open_game_page.py`` holds the game to this story without
a browser, so a change of the engine shows there first.
"""

from __future__ import annotations

import numpy as np

from app.web.components.session import Defaults, new_session
from game.knowledge import ticket_atom
from kripke.language.formula import Believes

SEED, LINEUP, VIEWER, BLUFFER = 36, "bluffer,believer,sceptic", 2, 0
BLUFF_TURN, REVISION_TURN = 6, 16  # the turns (0-based) that plant and revise the belief
SETTINGS = Defaults(board="europe24", players=3, tickets=2, agents=LINEUP, seed=SEED,
                    rules="open")


class Story:
    """The game, as the page plays it (the same settings make the same session), asked
    through the model's own answers: the deals a player believes in, and formulas."""

    def __init__(self, settings: Defaults = SETTINGS) -> None:
        self.session = new_session(settings)
        self.model = self.session.model

    def play_to(self, turns: int) -> None:
        """Step until ``turns`` turns are played (the page's "Turn N")."""
        while self.model.state.turn < turns:
            self.session.timeline.step()

    def believed_ids(self, player: int = VIEWER) -> set[int]:
        """The ids of the deals ``player`` believes in: the most plausible of its class."""
        worlds = self.model.worlds
        return set(np.asarray(worlds.world_ids)[worlds.best(player)].tolist())

    def false_beliefs(self, player: int = VIEWER, holder: int = BLUFFER) -> list[int]:
        """The tickets ``player`` believes ``holder`` holds and ``holder`` does not hold."""
        worlds = self.model.worlds
        return [t.id for t in self.model.state.dealt_tickets
                if worlds.holds(Believes(player, ticket_atom(holder, t.id)))
                and not worlds.holds(ticket_atom(holder, t.id))]

    def ticket(self, ticket: int) -> str:
        """A ticket as the page writes it: ``t4 Venezia–Zagrab``."""
        t = self.model.board.tickets[ticket]
        return f"t{ticket} {t.a}–{t.b}"
