"""Board data: cities, connections and tickets, as immutable values.

A board is pure data. It knows nothing of games, players or cards, so the optimiser, the board
tools and the rules engine can all share it without depending on each other.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

from lookalikes.skeleton import confusable_form

#: The eight card colours of the published games, plus ``grey`` for connections any colour pays.
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")
GREY = "grey"
#: How each colour is printed (tracks, cards, the locomotive): one set of inks, so the app's board
#: and the design lab's pictures of the same board look alike.
CARD_INKS: dict[str, str] = {
    "red": "#e53935", "orange": "#fb8c00", "yellow": "#fdd835", "green": "#43a047",
    "blue": "#1e88e5", "pink": "#f48fb1", "black": "#212121", "white": "#f5f5f5",
    "grey": "#9e9e9e", "locomotive": "#607d8b",
}

#: Points for a claimed connection by its length (the rulebook table; 7 does not occur on the
#: published maps but is kept so that a custom board with a 7 still scores).
DEFAULT_ROUTE_POINTS: dict[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}


def city_key(name: str) -> str:
    """What a city name means to a reader: Unicode-normalised (NFC: "é" typed as e + accent is
    "é"), case-folded, spaces collapsed. Two cities of a board never share a key (the loader
    refuses "Berlin" beside "berlin" or "Berlin "), so a name typed in any case finds one."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


@dataclass(frozen=True)
class City:
    """A node of the board. ``x`` and ``y`` are drawing coordinates in [0, 1], y pointing down."""

    name: str
    x: float
    y: float


@dataclass(frozen=True)
class Connection:
    """An edge between two cities.

    ``id`` is the connection's index in ``Board.connections``. ``ferry`` counts the locomotives a
    ferry needs (0 for a normal connection). ``pair`` links the two segments of a double
    connection (``None`` for a single one).
    """

    id: int
    a: str
    b: str
    length: int
    colour: str
    ferry: int = 0
    tunnel: bool = False
    pair: int | None = None

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other(self, city: str) -> str:
        return self.b if city == self.a else self.a

    def __str__(self) -> str:
        kind = f", ferry {self.ferry}" if self.ferry else ""
        return f"{self.a}–{self.b} ({self.length} {self.colour}{kind})"


@dataclass(frozen=True)
class Ticket:
    """A destination card: complete a path between ``a`` and ``b`` for ``points``."""

    id: int
    a: str
    b: str
    points: int

    def __str__(self) -> str:
        return f"{self.a}–{self.b} ({self.points})"


@dataclass(frozen=True)
class Board:
    """A validated board. Build it with :func:`boards.load_board`, not by hand."""

    name: str
    title: str
    version: int
    source: str
    cities: tuple[City, ...]
    connections: tuple[Connection, ...]
    tickets: tuple[Ticket, ...]
    route_points: dict[int, int] = field(default_factory=lambda: dict(DEFAULT_ROUTE_POINTS))
    trains: int | None = None  # the trains each player starts with, if the file says

    def __hash__(self) -> int:  # dict field: hash by identity of content that matters
        return hash((self.name, self.version, self.connections, self.tickets))

    @cached_property
    def city_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cities)

    @cached_property
    def city_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.city_names)}

    @cached_property
    def double_mates(self) -> dict[int, int]:
        """The other segment of each double connection, by connection id."""
        halves: dict[int, list[int]] = {}
        for c in self.connections:
            if c.pair is not None:
                halves.setdefault(c.pair, []).append(c.id)
        mates: dict[int, int] = {}
        for a, b in (ids for ids in halves.values() if len(ids) == 2):
            mates[a], mates[b] = b, a
        return mates

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of everything play depends on: city names, connections (in id order),
        tickets and connection points. Game logs carry it, so a log recorded on another version
        of a board (same name, other connections) is refused instead of replayed wrongly.
        Drawing positions, title, source and default trains are left out: they change no move."""
        play = {"cities": self.city_names,
                "connections": [[c.a, c.b, c.length, c.colour, c.ferry, c.tunnel, c.pair]
                                for c in self.connections],
                "tickets": [[t.a, t.b, t.points] for t in self.tickets],
                "route_points": sorted(self.route_points.items())}
        text = json.dumps(play, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def city(self, name: str) -> City:
        return self.cities[self.city_index[name]]

    @cached_property
    def city_keys(self) -> dict[str, str]:
        """Each city's :func:`city_key` to its name as the board spells it."""
        return {city_key(name): name for name in self.city_names}

    @cached_property
    def city_forms(self) -> dict[str, str]:
        """Each city's confusable form (:func:`lookalikes.skeleton.confusable_form`) to its
        name: the loader refuses a board on which two cities share one."""
        return {confusable_form(name): name for name in self.city_names}

    def find_city(self, typed: str) -> str | None:
        """The board's spelling of a city typed in any case or normal form, or in letters that
        look the same (a Cyrillic "А" for a Latin "A"), or None."""
        if typed in self.city_index:
            return typed
        return self.city_keys.get(city_key(typed)) or self.city_forms.get(confusable_form(typed))

    def points_for(self, length: int) -> int:
        """Connection points for a claimed connection of ``length``."""
        return self.route_points[length]
