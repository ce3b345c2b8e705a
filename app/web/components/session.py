"""The model the app drives, the session each browser tab keeps around it, and the settings its
header offers.

``ttr-kripke app`` passes its command-line options to the server process as ``TTR_KRIPKE_*``
environment variables (a Solara app is a module the server imports, so it has no argv of its
own); ``defaults()`` reads them back.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agents.kinds import AgentKind, parse_kinds
from agents.model import MAX_WORLDS, TooManyDeals, TTRModel, game_rules
from agents.timeline import Timeline
from app.worlds.layout import DRAWN_LIMIT
from boards import load_board
from game.knowledge import Backend, DealWorlds
from game.rules import Rules, TooFewTickets
from kripke import deal_count

ENV_PREFIX = "TTR_KRIPKE_"
#: The seed the demo and the commands start with: on europe24, 3 players × 2 tickets, all
#: epistemic, its first 30 turns show a claim that removes worlds (turn 2), a declared block
#: (turn 8) and a completed ticket (turn 17); the game lasts 41 turns with no stretch of more
#: than 6 without a claim. Chosen among the seeds of 0–59 that show all three early
#: (``agents.gameplay.GameStats.opening_shows_all``: 6, 14, 19, 27, 28, 29, 30, ...) for its
#: short game with three completions; tests/test_gameplay.py checks it.
DEFAULT_SEED = 30
#: The open game's line-ups (``design/open-game.md``): a bluffer against those who believe
#: claims and those who do not, so a false belief can be planted and revised in front of a class.
OPEN_LINEUPS = (f"{AgentKind.BLUFFER},{AgentKind.BELIEVER},{AgentKind.SCEPTIC}",
                f"{AgentKind.BLUFFER},{AgentKind.BELIEVER}",
                f"{AgentKind.BLUFFER},{AgentKind.SCEPTIC}")
#: Agent kinds the sidebar offers, from the table of kinds: each kind alone, the epistemic
#: player against each other kind, and all of them; a comma list is repeated over the seats.
KIND_CHOICES = (*map(str, AgentKind), *(f"{AgentKind.EPISTEMIC},{k}" for k in AgentKind
                                        if k != AgentKind.EPISTEMIC), ",".join(AgentKind),
                *OPEN_LINEUPS)


@dataclass(frozen=True)
class Defaults:
    board: str = "europe24"
    players: int = 3
    tickets: int = 2
    agents: str = "epistemic"
    seed: int = DEFAULT_SEED
    trains: int | None = None
    rules: str = Rules.variant  # the simplified game, or the open one (EPISTEMIC_RULES)

    def environ(self) -> dict[str, str]:
        """These defaults as the server process's environment variables."""
        return {f"{ENV_PREFIX}{k.upper()}": str(v) for k, v in vars(self).items()
                if v is not None}


def defaults(environ: Mapping[str, str] = os.environ) -> Defaults:
    """The game the app starts with: the command line's options, else the built-in ones."""
    def get(name: str, convert=str):
        value = environ.get(f"{ENV_PREFIX}{name.upper()}")
        return getattr(Defaults, name) if value is None else convert(value)
    return Defaults(board=get("board"), players=get("players", int), tickets=get("tickets", int),
                    agents=get("agents"), seed=get("seed", int), trains=get("trains", int),
                    rules=get("rules"))


#: The demo lists the worlds of a game of at most this many deals (4 × 3: 369,600) and holds a
#: bigger one symbolically (4 × 4: 63,063,000). Listed, a 4 × 4 turn writes up to 300 MB of
#: new arrays, which on this project's virtual machines took 1.0-1.5 s of a step; as diagrams
#: the game and its picture (counts per class, ``kripke.parts``) take a fraction of that.
LISTED_LIMIT = 1_000_000


class DemoModel(TTRModel):
    """``TTRModel`` with the settings' parameters, made so that no choice in the settings can
    make Reset fail (the page builds the model in its worker, where an exception would leave
    the old game on screen with no word why): a list of agent kinds is repeated over the
    seats, and a game too big (too few tickets on the board, or more deals than the model
    holds) deals fewer tickets each, saying so in ``notice``. Up to ``LISTED_LIMIT`` deals the
    shared model is a list of worlds, above it a symbolic one (the same game either way)."""

    def __init__(self, *, board: str = "europe24", players: int = 3, tickets_each: int = 2,
                 agent_kinds: str | Sequence[str] = "epistemic", trains: int | None = None,
                 rng: int | str | None = None, repeat_kinds: bool = True,
                 variant: str = Rules.variant):
        players, tickets_each = int(players), int(tickets_each)
        loaded = load_board(board)
        dealt, why = tickets_each, ""
        while dealt > 1:  # TTRModel's own checks say whether a deal fits, and why not
            try:
                game_rules(loaded, players, dealt, trains, Backend.EXPLICIT, variant)
                break
            except TooFewTickets:
                why = why or f"{loaded.title} has only {len(loaded.tickets)}."
            except TooManyDeals as e:
                why = why or (f"{e.deals:,} possible deals are more than the model holds "
                              f"({MAX_WORLDS:,}).")
            dealt -= 1
        deals = deal_count(players * dealt, [dealt] * players)
        super().__init__(board=loaded, players=players, tickets_each=dealt,
                         agent_kinds=parse_kinds(agent_kinds, players, repeat=repeat_kinds),
                         trains=trains, rng=seed_of(rng),
                         backend=Backend.EXPLICIT if deals <= LISTED_LIMIT else Backend.SYMBOLIC,
                         variant=variant)
        self.notice = "" if dealt == tickets_each else (
            f"{players} players get {dealt} tickets each, not {tickets_each}: {why}")


def seed_of(text: int | str | None) -> int | None:
    """The seed box's text as a seed: a whole number as it is, any other text by its CRC-32
    (so every text starts some reproducible game and Reset never fails on a typo)."""
    if text is None or isinstance(text, int):
        return text
    text = text.strip()
    return int(text) if text.isdigit() else zlib.crc32(text.encode())


def new_model(d: Defaults, *, repeat_kinds: bool = True) -> DemoModel:
    """The game ``d`` describes; ``repeat_kinds=False`` holds the agent kinds to the command
    line's rule (one kind, or one per seat) instead of the sidebar's (repeated over the seats)."""
    return DemoModel(board=d.board, players=d.players, tickets_each=d.tickets,
                     agent_kinds=d.agents, trains=d.trains, rng=d.seed, repeat_kinds=repeat_kinds,
                     variant=d.rules)


@dataclass(frozen=True)
class Session:
    """What one browser tab keeps of its game, made together by :func:`new_session` (a Reset
    makes a new one): the model, the settings it was made from (the parameter form compares
    its pending values with them), its timeline (every turn and announcement, to go back to)
    and the deal as first built while small enough to draw every world (``None`` past
    ``DRAWN_LIMIT``), so the picture shows removed worlds where they stood. The timeline and
    the model change as the game goes on; which ones the tab holds does not."""

    model: DemoModel
    settings: Defaults
    timeline: Timeline
    first_worlds: DealWorlds | None


def new_session(d: Defaults) -> Session:
    """A tab's session for the game ``d`` describes."""
    model = new_model(d)
    return Session(model, d, Timeline(model),
                   model.worlds if model.world_count <= DRAWN_LIMIT else None)
