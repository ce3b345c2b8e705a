"""``TTRModel``: the epistemic Ticket to Ride game as a Mesa model; one ``step()`` is one turn.

The game is the state's (:class:`game.state.GameState`: the rules, the shared Kripke model and
the announcements each turn makes on it); the model seats the players, steps them in turn,
records each turn (:class:`TurnRecord`, for logs and views) and collects what the views plot.
It is the Mesa face of the one game loop (:mod:`game.play`): a seat plays its turn through
``game.play.play_turn``, and whatever watches the game's actions (the soak's checks, the design
lab's game arc) is the model's ``on_event``. The web app, the CLI and batch runs all drive this
one class.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import mesa

from agents.agents import PlayerAgent
from agents.kinds import AgentKind, parse_kinds
from boards import Board, load_board
from game.actions import DeclareBlock, claim_of
from game.knowledge import MAX_WORLDS, Announcement, Backend, DealWorlds, parse_backend
from game.play import OnEvent, deal, epistemic_game
from game.rules import EPISTEMIC_RULES, Rules
from game.state import GameState
from game.table import Event
from kripke import deal_count
from kripke.language.formula import Formula


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
    be put back exactly as it was (:meth:`TTRModel.restore`), but for Mesa's clock. The state's
    clone keeps the shared Kripke model by reference (it is immutable), never copied."""

    state: GameState
    history: tuple[TurnRecord, ...]
    opening: tuple[Announcement, ...]
    seat_blocks: tuple[int, ...]
    blocks: int
    running: bool
    random_state: Any
    rng_state: Any
    collected: dict[str, tuple[Any, ...]]


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
               backend: Backend | str = Backend.AUTO, variant: str = Rules.variant) -> Rules:
    """The rules of a game the shared model can follow: the rules' own checks (``TooFewTickets``
    among them), then, for the explicit backend, the number of deals (``TooManyDeals``); the
    symbolic backend, and ``auto`` above the limit, take any number. ``trains`` ``None``: the
    board's default. ``variant``: the simplified game or the open one
    (:data:`game.rules.EPISTEMIC_RULES`)."""
    if variant not in EPISTEMIC_RULES:
        raise ValueError(f"unknown rules {variant!r}; choose from {', '.join(EPISTEMIC_RULES)}")
    rules = EPISTEMIC_RULES[variant](board, players=players, tickets_each=tickets_each,
                                     trains=trains)
    if parse_backend(backend) is Backend.EXPLICIT and \
            deal_count(players * tickets_each, [tickets_each] * players) > MAX_WORLDS:
        raise TooManyDeals(players, tickets_each)
    return rules


def _scores(model: TTRModel) -> tuple[int, ...]:
    """Each seat's score (a DataCollector column)."""
    return tuple(model.state.scores())


def _blocks(model: TTRModel) -> tuple[int, ...]:
    """Each seat's declared blocks so far (a DataCollector column)."""
    return tuple(seat.blocks for seat in model.seats)


class TTRModel(mesa.Model):
    """Players of the given kinds play one game; ``running`` turns false when it ends.

    ``backend`` chooses the shared model's checker (:class:`game.knowledge.Backend`): ``auto``
    (explicit up to MAX_WORLDS deals, symbolic above), ``explicit`` or ``symbolic``. The game,
    its announcements and its decisions are the same on both; only the explicit model can be
    drawn and asked for a value per world. ``variant``: ``simplified`` (default) or ``open``
    (claims are evidence, not proof: ``design/open-game.md``).
    """

    running: bool

    def __init__(self, *, board: str | Board = "europe24", players: int = 3,
                 tickets_each: int = 2, agent_kinds: str | Sequence[str] = "epistemic",
                 trains: int | None = None, rng: int | None = None,
                 backend: Backend | str = Backend.AUTO, variant: str = Rules.variant):
        # The seed is kept here (Mesa keeps its own private): users quote it to replay a game.
        self.seed: int = secrets.randbelow(2**31 - 1) if rng is None else rng
        super().__init__(rng=self.seed)
        self.board = load_board(board) if isinstance(board, str) else board
        # the rules first: they hold the player count to 2–5 before a kind is given to each
        self.rules = game_rules(self.board, players, tickets_each, trains, backend, variant)
        kinds = parse_kinds(agent_kinds, players)
        # Mesa seeds its generator from the seed as game.play.seeded does, and the game is
        # dealt from it the same way (one seeding scheme): one seed fixes everything.
        self.state = deal(partial(epistemic_game, self.rules, backend=backend), self.random)
        #: Told of the state after every action (``game.play.OnEvent``); set it before the
        #: first step to watch a game (the soak's checks, the design lab's game arc).
        self.on_event: OnEvent | None = None
        self.seats = [PlayerAgent(self, p, kind) for p, kind in enumerate(kinds)]
        self.history: list[TurnRecord] = []
        #: Outside announcements made before the first turn (later ones join their turn's).
        self.opening: list[Announcement] = []
        self.blocks = 0
        # What the views plot per turn (the app's worlds chart) and Mesa's batch_run reports:
        # model-level columns only, a value per seat in each, so that a snapshot keeps the
        # collected data through the collector's public ``model_vars``.
        self.datacollector = mesa.DataCollector(model_reporters={
            "Worlds": "world_count", "Scores": _scores, "Blocks": _blocks})
        self.datacollector.collect(self)

    # ----- what the views read --------------------------------------------------------------

    @property
    def worlds(self) -> DealWorlds:
        """The game's shared model now."""
        return self.state.worlds

    @property
    def world_count(self) -> int:
        return self.state.worlds.n_worlds

    @property
    def initial_worlds(self) -> int:
        return self.state.initial_worlds

    @property
    def turn(self) -> int:
        return self.state.turn

    # ----- one turn -------------------------------------------------------------------------

    def step(self) -> None:
        """One turn: the current seat plays it (the game makes the turn's announcements), the
        record and the data collector take note."""
        if not self.running:
            return
        seat, state = self.seats[self.state.current], self.state
        said, before = len(state.announced), state.worlds.n_worlds
        played = seat.play_turn()
        block = next(((a.victim, a.ticket) for a in played.actions
                      if isinstance(a, DeclareBlock)), None)
        if block is not None:
            seat.blocks += 1
            self.blocks += 1
        events = played.events
        self.history.append(TurnRecord(
            turn=events[0].turn, player=seat.player, kind=seat.kind, events=events,
            actions=tuple(e.action.describe(self.board) for e in events),
            claimed=next((claim.connection for e in events
                           if (claim := claim_of(e.action)) is not None), None),
            block=block, completed=tuple(t for e in events for t in e.completed),
            announcements=tuple(state.announced[said:]), worlds_before=before,
            worlds_after=state.worlds.n_worlds, end_reason=state.end_reason))
        self.running = not state.is_terminal()
        self.datacollector.collect(self)

    def announce_outside(self, formula: Formula | str, by: str = "the teacher"
                         ) -> Announcement:
        """A public announcement made from outside the game (:meth:`GameState.announce`:
        refused with ``AnnouncementError`` when false at the actual world, and then nothing
        changes). The record keeps it with the turn just played (before the first turn: in
        ``opening``), so the event log and a replay reproduce it."""
        made = self.state.announce(formula, by)
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
            self.state.clone(), tuple(self.history), tuple(self.opening),
            tuple(s.blocks for s in self.seats), self.blocks, self.running,
            self.random.getstate(), self.rng.bit_generator.state,
            {name: tuple(values) for name, values in collector.model_vars.items()})

    def restore(self, snapshot: Snapshot) -> None:
        """Put the model back exactly as it was when ``snapshot`` was taken: the board, the
        shared model, the records, the generators and the collected data."""
        self.state = snapshot.state.clone()  # the snapshot stays valid for another restore
        self.history = list(snapshot.history)
        self.opening = list(snapshot.opening)
        for seat, blocks in zip(self.seats, snapshot.seat_blocks, strict=True):
            seat.blocks = blocks
        self.blocks, self.running = snapshot.blocks, snapshot.running
        self.random.setstate(snapshot.random_state)
        self.rng.bit_generator.state = snapshot.rng_state
        # Mesa's own clock (steps, time) runs on: its step is an event scheduled ahead, so
        # turning it back would stop the model.
        collector = self.datacollector
        for name, values in snapshot.collected.items():
            collector.model_vars[name] = list(values)

    def run(self, max_turns: int = 100_000) -> None:
        """Play to the end (a game always ends; ``max_turns`` guards against a broken rule)."""
        while self.running:
            if self.state.turn >= max_turns:
                raise RuntimeError(f"game still running after {max_turns} turns")
            self.step()
