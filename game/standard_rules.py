"""The published rules (Ticket to Ride, USA 2004) as a second rule set of the same engine.

``StandardRules`` is a :class:`game.rules.Rules` with the rulebook's values and the settings
only the published game has (ticket draws, the longest-path bonus). ``tickets_each`` is the
number of tickets dealt to each player at setup, of which ``setup_keep`` must be kept. The ticket
deck is the board's own, so a board file with another deck plays as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules import Rules

STANDARD_TRAINS = 45


@dataclass(frozen=True)
class StandardRules(Rules):
    """Board and settings of a standard game (defaults: the USA rulebook, 4 players)."""

    variant: ClassVar[str] = "standard"

    players: int = 4
    tickets_each: int = 3  # dealt at setup
    trains: int = STANDARD_TRAINS
    setup_keep: int = 2  # keep at least this many of the tickets dealt at setup
    ticket_draw: int = 3  # a ticket draw takes this many (fewer if fewer remain)
    ticket_keep: int = 1  # and keeps at least this many
    longest_path_bonus: int = 10  # to every player tied for the longest continuous path
    # (Europe's "European Express" bonus is the same rule)
    tunnel_reveal: int = 3  # Europe: pile cards a tunnel claim turns over (boards without
    # tunnels, like the USA, never use it)
    stations: int = 0  # Europe: 3 stations each; the USA has none
    station_points: int = 4  # Europe: points per station never built

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.setup_keep <= self.tickets_each:
            raise ValueError(f"setup keep must be 1 to {self.tickets_each} (the tickets dealt), "
                             f"got {self.setup_keep}")
        if not 1 <= self.ticket_keep <= self.ticket_draw:
            raise ValueError(f"tickets kept from a draw must be 1 to {self.ticket_draw}, got "
                             f"{self.ticket_keep}")
        if self.stations < 0 or self.station_points < 0:
            raise ValueError("stations and station points cannot be negative")
        if self.tunnel_reveal < 0:
            raise ValueError(f"tunnel cards revealed cannot be negative, got {self.tunnel_reveal}")
        if self.longest_path_bonus < 0:
            raise ValueError(f"the longest-path bonus cannot be negative, got "
                             f"{self.longest_path_bonus}")
