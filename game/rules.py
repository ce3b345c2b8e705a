"""The immutable rules of one game: a board plus the settings a table agrees on before dealing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boards import COLOURS, Board

#: Trains each when neither the game nor the board file says: the published games' 45. A small
#: board carries its own default (europe24's is chosen from measured games: see the README's
#: "Default trains").
PUBLISHED_TRAINS = 45

#: The version of the simplified game's rules. Game logs carry it, so a log played under other
#: rules is refused instead of replayed wrongly. 2: a claim is allowed only for one's own
#: tickets or as a declared block, and the game ends when no one can ever claim again.
RULES_VERSION = 2

#: The published games seat 2 to 5 players; so do the rules here.
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class TooFewTickets(ValueError):
    """The board's deck cannot deal every player its tickets. A type of its own, so that the app
    can deal fewer instead of failing, without a second copy of the rule."""

    def __init__(self, board: Board, players: int, tickets_each: int) -> None:
        self.deck = len(board.tickets)
        super().__init__(f"{players} players × {tickets_each} tickets each need "
                         f"{players * tickets_each} tickets, but board {board.name} has only "
                         f"{self.deck}; deal fewer")


@dataclass(frozen=True)
class Rules:
    """Board and settings. Validation happens here so that a bad parameter combination is named
    before any card is dealt, never as an error deep in a game."""

    variant: ClassVar[str] = "simplified"

    board: Board
    players: int = 3
    tickets_each: int = 2
    trains: int | None = None  # None: the board's default, else PUBLISHED_TRAINS; always an
    # int once the rules are made
    cards_per_colour: int = 12
    locomotives: int = 14
    face_up: int = 5
    initial_hand: int = 4
    face_up_locomotive_limit: int = 3  # this many face-up locomotives: discard the row, deal anew
    endgame_trains: int = 2  # a claim leaving this many or fewer trains starts the last round

    def __post_init__(self) -> None:
        if self.trains is None:  # frozen: set once, before anyone can read it
            object.__setattr__(self, "trains", self.board.trains or PUBLISHED_TRAINS)
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got "
                             f"{self.players}")
        if self.tickets_each < 1:
            raise ValueError(f"tickets each must be at least 1, got {self.tickets_each}")
        if self.players * self.tickets_each > len(self.board.tickets):
            raise TooFewTickets(self.board, self.players, self.tickets_each)
        if self.start_trains < 1:
            raise ValueError(f"trains must be at least 1, got {self.trains}")
        if self.cards_per_colour < 0 or self.locomotives < 0:
            raise ValueError("card counts cannot be negative")
        if not 0 <= self.face_up <= 9:
            raise ValueError(f"face-up row size must be 0 to 9, got {self.face_up}")
        need = self.players * self.initial_hand + self.face_up
        if self.deck_size < need:
            raise ValueError(f"a deck of {self.deck_size} cards cannot deal {self.initial_hand} "
                             f"to each of {self.players} players and lay {self.face_up} face up")

    @property
    def start_trains(self) -> int:
        """The trains each player starts with (``trains`` as made: never ``None``)."""
        assert self.trains is not None, "set in __post_init__"
        return self.trains

    @property
    def deck_size(self) -> int:
        return self.cards_per_colour * len(COLOURS) + self.locomotives

    @property
    def doubles_both_usable(self) -> bool:
        """The rulebook: both segments of a double are open only with 4 or 5 players."""
        return self.players >= 4


@dataclass(frozen=True)
class OpenRules(Rules):
    """The open game (``design/open-game.md``): the simplified game, but a claim may be made on
    any unclaimed connection the hand pays for, so a claim is evidence, not proof; a block is
    declared on a ticket the claimant *believes* the opponent holds. The settings are the
    simplified game's; only the rules of play differ (:class:`game.open_state.OpenState`)."""

    variant: ClassVar[str] = "open"


#: The rule sets of the epistemic game by name, the plain one first (the CLI's ``--rules``).
EPISTEMIC_RULES: dict[str, type[Rules]] = {Rules.variant: Rules, OpenRules.variant: OpenRules}
