"""``TTRModel``: the epistemic Ticket to Ride game as a Mesa model; one ``step()`` is one turn.

The game state is the engine's; the shared Kripke model is the logic engine's. After every turn
the model takes exactly the public announcements of the design notes (a declared block, the
claim inference, completed tickets), so each agent's knowledge is the shared model seen from its
class. The web app, the CLI and batch runs all drive this one class.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import mesa
import numpy as np

from agents.agents import AgentKind, PlayerAgent, parse_kinds
from agents.knowledge import (
    MAX_WORLDS,
    AnnouncementKind,
    Backend,
    TicketKnowledge,
    deal_worlds,
    parse_backend,
    resolve_backend,
    ticket_knowledge,
    turn_announcements,
)
from agents.policies import Block
from boards import Board, load_board
from game.actions import Claim
from game.rules import Rules
from game.state import GameState
from game.table import Event
from kripke import (
    AnnouncementError,
    DealModel,
    ModelTooLargeError,
    SymbolicDealModel,
    deal_count,
    parse,
)
from kripke.formula import Formula


@dataclass(frozen=True)
class Announcement:
    """One public announcement and what it did to the shared model."""

    kind: AnnouncementKind
    formula: Formula
    worlds_before: int
    worlds_after: int
    by: str | None = None  # who made an outside announcement (the game's own have no name)

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
    kind: AgentKind
    events: tuple[Event, ...]
    actions: tuple[str, ...]
    claimed: int | None
    block: tuple[int, int] | None  # (victim, ticket)
    completed: tuple[int, ...]
    announcements: tuple[Announcement, ...]
    worlds_before: int
    worlds_after: int
    end_reason: str | None


@dataclass(frozen=True)
class Snapshot:
    """Everything a turn or an announcement changes in a ``TTRModel``, taken so the model can
    be put back exactly as it was (:meth:`TTRModel.restore`), but for Mesa's clock. The shared
    Kripke model is immutable, so it is kept by reference, never copied."""

    state: GameState
    worlds: DealModel | SymbolicDealModel
    history: tuple[TurnRecord, ...]
    opening: tuple[Announcement, ...]
    seat_blocks: tuple[int, ...]
    blocks: int
    running: bool
    random_state: Any
    rng_state: Any
    collected: dict[str, tuple[Any, ...]]
    agent_records: tuple[Any, ...]


class TooManyDeals(ValueError):
    """More deals than the explicit shared model holds. A type of its own, so that the app
    (which draws the explicit model's worlds) can deal fewer tickets instead of failing, without
    a second copy of the check."""

    def __init__(self, players: int, tickets_each: int) -> None:
        self.deals = deal_count(players * tickets_each, [tickets_each] * players)
        super().__init__(f"{players} players × {tickets_each} tickets make {self.deals:,} "
                         f"possible deals; the explicit shared model holds at most "
                         f"{MAX_WORLDS:,} (4 × 4): deal fewer tickets, or use the symbolic "
                         "backend")


def game_rules(board: Board, players: int, tickets_each: int, trains: int | None = None,
               backend: Backend | str = Backend.AUTO) -> Rules:
    """The rules of a game the shared model can follow: the rules' own checks (``TooFewTickets``
    among them), then, for the explicit backend, the number of deals (``TooManyDeals``); the
    symbolic backend, and ``auto`` above the limit, take any number. ``trains`` ``None``: the
    board's default."""
    rules = Rules(board, players=players, tickets_each=tickets_each, trains=trains)
    if parse_backend(backend) is Backend.EXPLICIT and \
            deal_count(players * tickets_each, [tickets_each] * players) > MAX_WORLDS:
        raise TooManyDeals(players, tickets_each)
    return rules


class TTRModel(mesa.Model):
    """Players of the given kinds play one game; ``running`` turns false when it ends.

    ``backend`` chooses the shared model's checker (:class:`Backend`): ``auto`` (explicit up
    to MAX_WORLDS deals, symbolic above), ``explicit`` or ``symbolic``. The game, its
    announcements and its decisions are the same on both; only the explicit model can be drawn
    and asked for a value per world.
    """

    running: bool

    def __init__(self, *, board: str | Board = "europe24", players: int = 3,
                 tickets_each: int = 2, agent_kinds: str | Sequence[str] = "epistemic",
                 trains: int | None = None, rng: int | None = None,
                 backend: Backend | str = Backend.AUTO):
        # The seed is kept here (Mesa keeps its own private): users quote it to replay a game.
        self.seed: int = secrets.randbelow(2**31 - 1) if rng is None else rng
        super().__init__(rng=self.seed)
        self.board = load_board(board) if isinstance(board, str) else board
        # the rules first: they hold the player count to 2–5 before a kind is given to each
        self.rules = game_rules(self.board, players, tickets_each, trains, backend)
        kinds = parse_kinds(agent_kinds, players)
        self.backend = resolve_backend(backend, players, tickets_each)
        # The game's own generator is seeded from the model's, so one seed fixes everything. The
        # rules ask the shared model who knows what (a block is allowed only of a known ticket).
        self.state = GameState(self.rules, self.random.getrandbits(32), knows=self._known)
        self.seats = [PlayerAgent(self, p, kind) for p, kind in enumerate(kinds)]
        self.worlds: DealModel | SymbolicDealModel = deal_worlds(self.state, self.backend)
        self.initial_worlds = self.worlds.n_worlds
        self.history: list[TurnRecord] = []
        #: Outside announcements made before the first turn (later ones join their turn's).
        self.opening: list[Announcement] = []
        self.blocks = 0
        self._knowledge: dict[int, TicketKnowledge] = {}
        #: The symbolic shared model listed (:attr:`explicit_worlds`), with the model it lists.
        self._listed: tuple[SymbolicDealModel, DealModel] | None = None
        # What the views plot per turn (the app's worlds chart) and Mesa's batch_run reports.
        self.datacollector = mesa.DataCollector(
            model_reporters={"Worlds": "world_count"},
            agent_reporters={"Kind": "kind", "Score": "score", "Blocks": "blocks"},
        )
        self.datacollector.collect(self)

    # ----- what the views ask -------------------------------------------------------------

    @property
    def world_count(self) -> int:
        return self.worlds.n_worlds

    @property
    def turn(self) -> int:
        return self.state.turn

    def knowledge(self, agent: int) -> TicketKnowledge:
        """Who ``agent`` considers a possible holder of each dealt ticket (cached until the
        shared model changes)."""
        if agent not in self._knowledge:
            tickets = [t.id for t in self.state.dealt_tickets]
            self._knowledge[agent] = ticket_knowledge(self.worlds, agent, tickets,
                                                      self.rules.players)
        return self._knowledge[agent]


    @property
    def explicit_worlds(self) -> DealModel:
        """The shared model as a list of worlds, for what only that can do (give a value per
        world, explain one, write every world out). On the symbolic backend it is made when
        first asked (and kept until the shared model changes): the deal listed, then every
        announcement made so far, in order; seconds at 63 million deals, so only what needs a
        list asks (a teacher's "why"). Past MAX_WORLDS deals as dealt it raises
        ``ModelTooLargeError`` before listing any."""
        if isinstance(self.worlds, DealModel):
            return self.worlds
        if self._listed is not None and self._listed[0] is self.worlds:
            return self._listed[1]
        if self.initial_worlds > MAX_WORLDS:
            raise ModelTooLargeError(self.initial_worlds, MAX_WORLDS, task="to list",
                                     advice="ask for counts and class summaries")
        listed = deal_worlds(self.state, Backend.EXPLICIT)
        for record in [*self.opening, *(a for turn in self.history for a in turn.announcements)]:
            listed = listed.announce(record.formula)
        assert isinstance(listed, DealModel) and listed.n_worlds == self.worlds.n_worlds
        self._listed = (self.worlds, listed)
        return listed

    def _known(self, agent: int) -> tuple[tuple[int, int], ...]:
        """The rules' question: which (opponent, ticket) pairs ``agent`` knows, now."""
        return self.knowledge(agent).known_opponent_tickets

    def evaluate(self, text: str) -> tuple[bool, np.ndarray]:
        """A formula's value at the actual world and at every world (raises ``FormulaError``;
        explicit backend only, see :attr:`explicit_worlds`; :meth:`check` works on both)."""
        worlds = self.explicit_worlds
        values = worlds.evaluate(parse(text))
        return bool(values[worlds.actual]), values

    def check(self, text: str) -> tuple[bool, int]:
        """A formula's value at the actual world and the number of worlds where it holds, on
        either backend (raises ``FormulaError``)."""
        formula = parse(text)
        return self.worlds.holds(formula), self.worlds.count(formula)

    # ----- one turn -------------------------------------------------------------------------

    def step(self) -> None:
        """One turn: the current seat plays it, the turn's announcements update the shared
        model, the record and the data collector take note."""
        if not self.running:
            return
        seat = self.seats[self.state.current]
        played = seat.play_turn()
        announced = turn_announcements(played.before, seat.player, played.choices,
                                       played.events)
        before = self.worlds.n_worlds
        records = tuple(self._announce(kind, formula) for kind, formula in announced)
        block = next(((c.victim, c.ticket) for c in played.choices if isinstance(c, Block)),
                     None)
        if block is not None:
            seat.blocks += 1
            self.blocks += 1
        events = played.events
        self.history.append(TurnRecord(
            turn=events[0].turn, player=seat.player, kind=seat.kind, events=events,
            actions=tuple(e.action.describe(self.board) for e in events),
            claimed=next((e.action.connection for e in events if isinstance(e.action, Claim)),
                         None),
            block=block, completed=tuple(t for e in events for t in e.completed),
            announcements=records, worlds_before=before, worlds_after=self.worlds.n_worlds,
            end_reason=self.state.end_reason))
        self.running = not self.state.is_terminal()
        self.datacollector.collect(self)

    def _announce(self, kind: AnnouncementKind, formula: Formula) -> Announcement:
        """Publicly announce ``formula``. The actual world always survives: the announcements
        are truthful by construction, so ``AnnouncementError`` here is a bug and propagates."""
        before = self.worlds.n_worlds
        self.worlds = self.worlds.announce(formula)
        if self.worlds.n_worlds != before:
            self._knowledge.clear()
        return Announcement(kind, formula, before, self.worlds.n_worlds)

    def announce_outside(self, formula: Formula | str, by: str = "the teacher"
                         ) -> Announcement:
        """A public announcement made from outside the game ("what if everyone learned
        p(1,14)?"): refused with ``AnnouncementError`` when false at the actual world, and then
        nothing changes. The players act on it from the next turn on, and the record keeps it
        with the turn just played (before the first turn: in ``opening``), so the event log
        and a replay reproduce it."""
        formula = parse(formula) if isinstance(formula, str) else formula
        if not self.worlds.holds(formula):
            raise AnnouncementError(formula)
        made = replace(self._announce(AnnouncementKind.OUTSIDE, formula), by=by)
        if not self.history:
            self.opening.append(made)
        else:
            last = self.history[-1]
            self.history[-1] = replace(last, announcements=(*last.announcements, made),
                                       worlds_after=made.worlds_after)
        self.datacollector.model_vars["Worlds"][-1] = self.world_count  # the chart's last point
        return made

    def snapshot(self) -> Snapshot:
        """The model as it is now, to :meth:`restore` later (the timeline's step back)."""
        collector = self.datacollector
        return Snapshot(
            self.state.clone(), self.worlds, tuple(self.history), tuple(self.opening),
            tuple(s.blocks for s in self.seats), self.blocks, self.running,
            self.random.getstate(), self.rng.bit_generator.state,
            {name: tuple(values) for name, values in collector.model_vars.items()},
            tuple(collector._agent_records.items()))

    def restore(self, snapshot: Snapshot) -> None:
        """Put the model back exactly as it was when ``snapshot`` was taken: the board, the
        shared model, the records, the generators and the collected data."""
        self.state = snapshot.state.clone()  # the snapshot stays valid for another restore
        self.worlds = snapshot.worlds
        self.history = list(snapshot.history)
        self.opening = list(snapshot.opening)
        for seat, blocks in zip(self.seats, snapshot.seat_blocks, strict=True):
            seat.blocks = blocks
        self.blocks, self.running = snapshot.blocks, snapshot.running
        self.random.setstate(snapshot.random_state)
        self.rng.bit_generator.state = snapshot.rng_state
        # Mesa's own clock (steps, time) runs on: its step is an event scheduled ahead, so
        # turning it back would stop the model. The agent records keep their first times.
        collector = self.datacollector
        for name, values in snapshot.collected.items():
            collector.model_vars[name] = list(values)
        collector._agent_records = dict(snapshot.agent_records)
        self._knowledge.clear()

    def run(self, max_turns: int = 100_000) -> None:
        """Play to the end (a game always ends; ``max_turns`` guards against a broken rule)."""
        while self.running:
            if self.state.turn >= max_turns:
                raise RuntimeError(f"game still running after {max_turns} turns")
            self.step()
