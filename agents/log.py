"""Event logs of epistemic games: the engine's JSON Lines log plus, on the last event of each
turn, the turn's announcements in formula syntax with the worlds before and after.

Replaying re-deals the game from the header, applies each action through the rules and each
announced formula (parsed back from its text) to the deal model, and checks both against the
record, so a log reproduces the same state and the same Kripke model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agents.knowledge import deal_worlds, ticket_knowledge
from agents.model import Announcement, TTRModel
from boards import Board
from game.log import (
    apply_logged,
    check_final,
    event_to_json,
    final,
    header,
    read_log,
    start,
    write_log,
)
from game.state import GameState
from kripke import DealModel, SymbolicDealModel, parse


def announcement_json(a: Announcement) -> dict[str, Any]:
    """An announcement as the log keeps it; an outside one also says who made it."""
    line: dict[str, Any] = {"kind": a.kind, "formula": a.text, "worlds_before": a.worlds_before,
                            "worlds_after": a.worlds_after}
    if a.by is not None:
        line["by"] = a.by
    return line


def records(model: TTRModel) -> Iterator[dict[str, Any]]:
    """One record per applied action, the turn's announcements on its last action (outside
    announcements made after the turn among them, in the order made)."""
    for turn in model.history:
        for event in turn.events:
            line = event_to_json(event)
            if event.turn_over:
                line["announcements"] = [announcement_json(a) for a in turn.announcements]
                line["worlds_before"] = turn.worlds_before
                line["worlds_after"] = turn.worlds_after
            yield line


def log_header(model: TTRModel) -> dict[str, Any]:
    """The log's first line: the game's settings and seed, any outside announcement made
    before the first turn, and where the game stood when the log was written (``final``)."""
    extra: dict[str, Any] = {}
    if model.opening:
        extra["announcements"] = [announcement_json(a) for a in model.opening]
    return header(model.state, agents=[s.kind for s in model.seats], model_seed=model.seed,
                  **extra, final=final(model.state))


def game_seed(head: dict[str, Any]) -> int | None:
    """The seed the game was played with, as ``play --seed`` and the page take it, or None if
    the log was not written by a ``TTRModel``. The header keeps two: ``model_seed`` is that
    one, and ``seed`` is the seed of the deal's own generator, which the model draws from it
    (what the rules need to deal again, and what a replay re-deals from)."""
    seed = head.get("model_seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def save(model: TTRModel, path: str | Path) -> None:
    """Write the model's game so far (also a game cut short: nothing played is lost)."""
    write_log(path, log_header(model), records(model))


def replay(path: str | Path, board: Board | None = None
           ) -> tuple[GameState, DealModel | SymbolicDealModel]:
    """The final game state and shared model of a logged game; ``ValueError`` names the file
    and the first line that does not come out as logged (an edited header, event or
    announcement, a turn's announcements removed)."""
    head, lines = read_log(path)

    def known(agent: int) -> tuple[tuple[int, int], ...]:
        """What ``agent`` knows in the model replayed so far (the rules ask, as in play)."""
        return ticket_knowledge(worlds, agent, [t.id for t in state.dealt_tickets],
                                state.rules.players).known_opponent_tickets

    try:
        state = start(head, board, knows=known)
        # outside announcements before the first turn, from the header
        worlds: DealModel | SymbolicDealModel = _announce(deal_worlds(state), head, 1,
                                                           whole_turn=False)
        for number, (event, line) in enumerate(zip(apply_logged(state, lines), lines,
                                                   strict=True), 2):
            worlds = _announce(worlds, line, number, whole_turn=event.turn_over)
        if not lines:
            raise ValueError("the log has no events to replay")
        check_final(head, state)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    return state, worlds


def _announce(worlds: DealModel | SymbolicDealModel, line: dict[str, Any], number: int,
              whole_turn: bool) -> DealModel | SymbolicDealModel:
    """The model after a line's logged announcements, each checked against the replay; the
    line that ends a turn must carry them and the worlds left after them."""
    try:
        announced = line["announcements"] if whole_turn else line.get("announcements", ())
        for a in announced:
            if worlds.n_worlds != a["worlds_before"]:
                raise ValueError(f"line {number}: {worlds.n_worlds} worlds before "
                                 f"{a['formula']}, the log says {a['worlds_before']}")
            worlds = worlds.announce(parse(a["formula"]))
            if worlds.n_worlds != a["worlds_after"]:
                raise ValueError(f"line {number}: {worlds.n_worlds} worlds after "
                                 f"{a['formula']}, the log says {a['worlds_after']}")
        logged = line["worlds_after"] if whole_turn else worlds.n_worlds
    except (KeyError, TypeError, AttributeError):
        raise ValueError(f"line {number}: the turn's announcements are missing or malformed; "
                         "the log was edited, record the game again") from None
    if worlds.n_worlds != logged:
        raise ValueError(f"line {number}: {worlds.n_worlds} worlds after the turn, the log says "
                         f"{logged} (an announcement is missing or edited)")
    return worlds
