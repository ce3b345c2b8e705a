"""One seeded game of either rule set as the lab measures it: a pure function of a spec and a
seed that returns a small record of plain values (picklable, so any executor runs it).

The record holds what every metric needs and nothing more: the moves available at the start of
each turn (the game arc), the connections claimed (city undesirability), each seat's kind,
score and share of the win (win ratios, the win-rate distance), and for the simplified game
what ``agents.gameplay`` measures of it (its report row). A design search plays
thousands of games; its memory holds records this small, or none (the runner streams them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from agents.batch import GameSpec
from agents.belief import BeliefRecord, BeliefWatch
from agents.gameplay import GameStats, stats_of
from agents.kinds import DEFAULT_SOURCE, parse_kinds, parse_lineup, rotated_lineup
from agents.standard_game import PAPERS_LINEUP, StandardSpec, play_standard
from boards import Board, load_board
from boards.writer import problem
from game.open_state import OpenState
from game.play import Arc
from game.table import TableState

Rules = Literal["standard", "simplified", "open"]
RULES: tuple[Rules, ...] = ("standard", "simplified", "open")


@dataclass(frozen=True)
class LabSpec:
    """Everything but the seed. ``trains`` None: the rule set's default; ``tickets_each`` is
    the simplified game's deal (the standard game deals 3, keeps at least 2)."""

    rules: Rules = "standard"
    board: str | Board = "usa"
    lineup: tuple[str, ...] = PAPERS_LINEUP
    trains: int | None = None
    tickets_each: int = 2
    strategies: str = DEFAULT_SOURCE  # the standard agents' source (agents.kinds)
    #: Record each turn's legal moves (the game arc). Counting them at every turn doubles a
    #: standard game's time, so a search that never reads the arc (balancing) turns it off.
    arc: bool = True

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise ValueError(f"rules must be one of {', '.join(RULES)}, got {self.rules!r}")

    def loaded(self) -> Board:
        return load_board(self.board) if isinstance(self.board, str) else self.board

    def with_board(self, board: Board) -> LabSpec:
        """This game on ``board``, which a search built: checked by the board format's rules,
        because the game engine would play a board no file could hold (a double whose segments
        differ in length) and a search's figures on it would mean nothing."""
        if (wrong := problem(board)) is not None:
            # not ValueError: the CLI reports those as the user's input; this is a lab bug
            raise RuntimeError(f"the design lab built a board the format refuses: {wrong}")
        return replace(self, board=board)

    def rotated(self, shift: int) -> LabSpec:
        """Every agent moved ``shift`` seats on (seat s gets the agent of seat s - shift)."""
        return replace(self, lineup=rotated_lineup(self.lineup, shift))

    def simplified(self) -> GameSpec:
        """The simplified game (or the open one, its variant) as ``agents.batch`` and the
        gameplay report play it."""
        return GameSpec(board=self.board, players=len(self.lineup),
                        tickets_each=self.tickets_each, agent_kinds=",".join(self.lineup),
                        trains=self.trains,
                        variant="open" if self.rules == "open" else "simplified")

    def standard(self) -> StandardSpec:
        spec = StandardSpec(board=self.board, lineup=self.lineup, record_arc=self.arc,
                            strategies=self.strategies)
        return spec if self.trains is None else replace(spec, trains=self.trains)

    def check(self) -> LabSpec:
        """Raise ValueError naming any bad setting (unknown agent, board, too few tickets)
        before a game is played; return self."""
        if self.rules == "standard":
            parse_lineup(self.lineup, strategies=self.strategies)
            self.standard().rules()
        else:
            parse_kinds(list(self.lineup), len(self.lineup))
            self.simplified().rules()
        return self


@dataclass(frozen=True)
class LabGame:
    """One game: ``arc[t]`` is the number of legal moves of the player to move at the start
    of turn t; ``claimed`` the ids of the connections claimed by the end."""

    seed: int
    lineup: tuple[str, ...]
    turns: int
    end_reason: str
    scores: tuple[int, ...]
    wins: tuple[float, ...]  # each seat's share of the win (ties share)
    arc: tuple[int, ...]
    claimed: tuple[int, ...]
    gameplay: GameStats | None = None  # the simplified game's gameplay report of the game
    beliefs: BeliefRecord | None = None  # the open game's belief, turn by turn


def play_lab_game(spec: LabSpec, seed: int) -> LabGame:
    """Play one seeded game to its end and record it: the standard game through
    ``play_standard``, the simplified one through its Mesa model, both on the one game loop
    (:mod:`game.play`) and its seeding scheme, the arc taken by the same ``on_event``."""
    state: TableState
    gameplay = beliefs = None
    if spec.rules == "standard":
        state, arc = play_standard(spec.standard(), seed)
    else:  # its Mesa model: the gameplay report reads the model's turn records
        model = spec.simplified().model(seed)
        watch = Arc(model.state) if spec.arc else None
        model.on_event = watch
        believing = BeliefWatch(model.state) if isinstance(model.state, OpenState) else None
        while model.running:
            model.step()
            if believing is not None:
                believing.turn()
        state, arc, gameplay = model.state, tuple(watch.moves) if watch else (), stats_of(model)
        beliefs = believing.record() if believing is not None else None
    return LabGame(seed, spec.lineup, state.turn, state.end_reason or "", tuple(state.scores()),
                   tuple(state.returns()), arc, _claimed(state.owner), gameplay, beliefs)


def _claimed(owner: Sequence[int | None]) -> tuple[int, ...]:
    return tuple(c for c, who in enumerate(owner) if who is not None)
