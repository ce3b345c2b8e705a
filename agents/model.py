"""``TTRModel``: the epistemic Ticket to Ride game as a Mesa model; one ``step()`` is one turn.

The game state is the engine's; the shared Kripke model is the logic engine's. After every turn
the model takes exactly the public announcements of the design notes (a declared block, the
claim inference, completed tickets), so each agent's knowledge is the shared model seen from its
class. The web app, the CLI and batch runs all drive this one class.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import mesa
import numpy as np

from agents.agents import AGENT_KINDS, CLAIMS_FOR_OWN_TICKETS, PlayerAgent
from agents.knowledge import (
    Holders,
    block_announcement,
    claim_inference,
    deal_worlds,
    holders,
    holds,
)
from agents.policies import Block, own_path_connections
from boards import Board
from boards.loader import load_board
from game.actions import Claim
from game.rules import DEFAULT_TRAINS, Rules
from game.state import Event, GameState
from kripke import KripkeModel, parse
from kripke.formula import Formula

#: The largest deal the shared model is built for: 4 players × 4 tickets.
MAX_WORLDS = 63_063_000


@dataclass(frozen=True)
class Announcement:
    """One public announcement and what it did to the shared model."""

    kind: str  # "claim", "block" or "completion"
    formula: Formula
    worlds_before: int
    worlds_after: int

    @property
    def text(self) -> str:
        return str(self.formula)

    @property
    def removed(self) -> int:
        return self.worlds_before - self.worlds_after


@dataclass(frozen=True)
class TurnRecord:
    """Everything one turn did, for the event log, the CLI and the app."""

    turn: int
    player: int
    kind: str
    events: tuple[Event, ...]
    actions: tuple[str, ...]
    claimed: int | None
    block: tuple[int, int] | None  # (victim, ticket)
    completed: tuple[int, ...]
    announcements: tuple[Announcement, ...]
    worlds_before: int
    worlds_after: int
    end_reason: str | None


def world_count(players: int, tickets_each: int) -> int:
    """Deals of players × tickets_each tickets, each player getting tickets_each."""
    return math.factorial(players * tickets_each) // math.factorial(tickets_each) ** players


def parse_kinds(agent_kinds: str | Sequence[str], players: int) -> tuple[str, ...]:
    """``"epistemic"`` for everyone, or one kind per player (``"epistemic,baseline,random"``)."""
    kinds = agent_kinds.split(",") if isinstance(agent_kinds, str) else list(agent_kinds)
    kinds = [k.strip() for k in kinds]
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} agent kinds given for {players} players; give one kind "
                         "for everyone or exactly one per player, comma-separated")
    for k in kinds:
        if k not in AGENT_KINDS:
            raise ValueError(f"unknown agent kind {k!r}; choose from {', '.join(AGENT_KINDS)}")
    return tuple(kinds)


class TTRModel(mesa.Model):
    """Players of the given kinds play one game; ``running`` turns false when it ends."""

    def __init__(self, *, board: str | Board = "europe24", players: int = 3,
                 tickets_each: int = 2, agent_kinds: str | Sequence[str] = "epistemic",
                 trains: int | None = None, rng: int | None = None):
        super().__init__(rng=rng)
        self.seed: int = self._seed  # Mesa keeps it private; users quote it to replay a game
        kinds = parse_kinds(agent_kinds, players)
        self.board = load_board(board) if isinstance(board, str) else board
        self.rules = Rules(self.board, players=players, tickets_each=tickets_each,
                           trains=DEFAULT_TRAINS if trains is None else trains)
        if world_count(players, tickets_each) > MAX_WORLDS:
            raise ValueError(f"{players} players × {tickets_each} tickets make "
                             f"{world_count(players, tickets_each):,} possible deals; the shared "
                             f"model holds at most {MAX_WORLDS:,} (4 × 4): deal fewer tickets")
        # The game's own generator is seeded from the model's, so one seed fixes everything.
        self.state = GameState(self.rules, self.random.getrandbits(32))
        self.seats = [PlayerAgent(self, p, kind) for p, kind in enumerate(kinds)]
        self.worlds: KripkeModel = deal_worlds(self.state)
        self.initial_worlds = self.worlds.n_worlds
        self.history: list[TurnRecord] = []
        self.blocks = 0
        self._holders: dict[int, Holders] = {}
        self.datacollector = mesa.DataCollector(
            model_reporters={"Worlds": "world_count", "Blocks": "blocks",
                             "Announcement": "last_announcement"},
            agent_reporters={"Kind": "kind", "Score": "score", "KnownTickets": "known_tickets",
                             "Blocks": "blocks"},
        )
        self.datacollector.collect(self)

    # ----- what the views ask -------------------------------------------------------------

    @property
    def world_count(self) -> int:
        return self.worlds.n_worlds

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def last_announcement(self) -> str:
        if not self.history or not self.history[-1].announcements:
            return ""
        return "; ".join(a.text for a in self.history[-1].announcements)

    def holders(self, agent: int) -> Holders:
        """Who ``agent`` considers a possible holder of each dealt ticket (cached until the
        shared model changes)."""
        if agent not in self._holders:
            tickets = [t.id for t in self.state.dealt_tickets]
            self._holders[agent] = holders(self.worlds, agent, tickets, self.rules.players)
        return self._holders[agent]

    def evaluate(self, text: str) -> tuple[bool, np.ndarray]:
        """A formula's value at the actual world and at every world (raises ``FormulaError``)."""
        values = self.worlds.evaluate(parse(text))
        return bool(values[self.worlds.actual]), values

    # ----- one turn -------------------------------------------------------------------------

    def step(self) -> None:
        """Play the current player's whole turn, then take the turn's announcements."""
        if not self.running:
            return
        state = self.state
        player = state.current
        seat = self.seats[player]
        events, announced = [], []
        claimed = block = None
        while True:
            choice = seat.choose()
            action = choice.claim if isinstance(choice, Block) else choice
            if isinstance(choice, Block):
                block = (choice.victim, choice.ticket)
                announced.append(("block", block_announcement(player, *block)))
            elif isinstance(action, Claim) and seat.kind in CLAIMS_FOR_OWN_TICKETS and \
                    action.connection in own_path_connections(state, player):
                # computed on the board before the claim, as everyone would
                announced.append(("claim", claim_inference(state, player, action.connection)))
            if isinstance(action, Claim):
                claimed = action.connection
            event = state.apply(action)
            events.append(event)
            if event.turn_over:
                break
        completed = tuple(t for e in events for t in e.completed)
        announced += [("completion", holds(player, t)) for t in completed]
        before = self.worlds.n_worlds
        records = tuple(self._announce(kind, formula) for kind, formula in announced)
        if block is not None:
            seat.blocks += 1
            self.blocks += 1
        self.history.append(TurnRecord(
            turn=events[0].turn, player=player, kind=seat.kind, events=tuple(events),
            actions=tuple(e.action.describe(self.board) for e in events), claimed=claimed,
            block=block, completed=completed, announcements=records, worlds_before=before,
            worlds_after=self.worlds.n_worlds, end_reason=state.end_reason))
        self.running = not state.is_terminal()
        self.datacollector.collect(self)

    def _announce(self, kind: str, formula: Formula) -> Announcement:
        """Publicly announce ``formula``. The actual world always survives: the announcements
        are truthful by construction, so ``AnnouncementError`` here is a bug and propagates."""
        before = self.worlds.n_worlds
        self.worlds = self.worlds.announce(formula)
        if self.worlds.n_worlds != before:
            self._holders.clear()
        return Announcement(kind, formula, before, self.worlds.n_worlds)

    def run(self, max_turns: int = 100_000) -> None:
        """Play to the end (a game always ends; ``max_turns`` guards against a broken rule)."""
        while self.running:
            if self.state.turn >= max_turns:
                raise RuntimeError(f"game still running after {max_turns} turns")
            self.step()
