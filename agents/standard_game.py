"""One seeded standard game with a line-up of strategy agents, as a pure function returning a
plain result record: the unit every batch, table and design-lab search is built from.

``play_standard_game(spec, seed)`` depends on nothing but its arguments (both picklable), so
games run in worker processes or on a Dask cluster in any order and give the same records.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from agents.kinds import DEFAULT_SOURCE, rotated_lineup, seat_policies
from boards import Board
from boards.loader import load_board
from game.actions import DrawTickets
from game.play import Arc, play, seeded
from game.standard_rules import STANDARD_TRAINS, StandardRules
from game.standard_state import StandardState

#: The playtesting papers' line-up, one agent of each of their kinds: every standard run's
#: default (the batch table, the design lab, the bench).
PAPERS_LINEUP: tuple[str, ...] = ("osta", "pa", "lrja", "ha")


@dataclass(frozen=True)
class StandardSpec:
    """Everything but the seed: board (a shipped name or a loaded board, its ticket deck
    included), one agent kind per seat, trains each, whether to record the game arc, and the
    source of the agents (:mod:`agents.kinds`: every seat from the same one)."""

    board: str | Board = "usa"
    lineup: tuple[str, ...] = PAPERS_LINEUP
    trains: int = STANDARD_TRAINS
    record_arc: bool = False
    strategies: str = DEFAULT_SOURCE

    def rules(self) -> StandardRules:
        board = load_board(self.board) if isinstance(self.board, str) else self.board
        return StandardRules(board, players=len(self.lineup), trains=self.trains)

    def rotated(self, shift: int) -> StandardSpec:
        """The same game with every agent moved ``shift`` seats on (seat s gets the agent of
        seat s - shift)."""
        return replace(self, lineup=rotated_lineup(self.lineup, shift))


@dataclass(frozen=True)
class SeatResult:
    """How one seat did: the score and its parts, tickets, turns."""

    seat: int
    kind: str
    score: int
    connections: int  # connection points
    tickets: int  # finished tickets' points minus unfinished ones'
    longest: int  # the longest-path bonus won (0 or the bonus)
    longest_length: int  # its longest continuous path in trains
    kept: int
    finished: int
    ticket_draws: int
    turns: int
    trains_left: int
    win: float  # share of the win after the tie-break (ties share)


@dataclass(frozen=True)
class GameResult:
    """One game: its seed, line-up, length, end and every seat's result; ``arc`` the number of
    legal actions of the player to move at the start of each turn (with ``record_arc``)."""

    seed: int
    board: str
    lineup: tuple[str, ...]
    turns: int
    end_reason: str
    seats: tuple[SeatResult, ...]
    arc: tuple[int, ...] = ()


def play_standard(spec: StandardSpec, seed: int) -> tuple[StandardState, tuple[int, ...]]:
    """Play one seeded game to the end through the one game loop (:func:`game.play.play`); the
    final state (its history is the game's log) and, with ``record_arc``, the moves open to the
    player to move at the start of each turn. The seed fixes everything
    (:func:`game.play.seeded`: the deal and the agents' choices from one generator)."""
    state, rng = seeded(partial(StandardState, spec.rules()), seed)
    arc = Arc(state) if spec.record_arc else None
    play(state, seat_policies(spec.strategies, spec.lineup), rng, arc)
    return state, tuple(arc.moves) if arc else ()


def play_standard_game(spec: StandardSpec, seed: int) -> GameResult:
    """One seeded game as a plain result record (see :func:`play_standard`)."""
    state, arc = play_standard(spec, seed)
    n = state.rules.players
    turns, draws = [0] * n, [0] * n
    for event in state.history[n:]:  # the first n events are the setup choices
        turns[event.player] += event.turn_over
        draws[event.player] += isinstance(event.action, DrawTickets)
    shares = state.win_shares()
    lengths = state.longest_paths()
    seats = []
    for p, kind in enumerate(spec.lineup):
        parts = state.score_parts(p)
        seats.append(SeatResult(
            seat=p, kind=kind, score=parts.total, connections=parts.connections,
            tickets=parts.finished - parts.unfinished, longest=parts.longest,
            longest_length=lengths[p], kept=len(state.tickets[p]),
            finished=len(state.finished[p]), ticket_draws=draws[p], turns=turns[p],
            trains_left=state.trains[p], win=shares[p]))
    return GameResult(seed=seed, board=state.board.name, lineup=spec.lineup, turns=state.turn,
                      end_reason=state.end_reason or "", seats=tuple(seats), arc=arc)
