"""One table, two rule sets: each state class answers every public method on a game of its own
(the simplified game's questions are the simplified state's alone, so none raises
``AttributeError`` on a standard game), and the table itself is no game to play."""

from __future__ import annotations

import inspect

import pytest
from positions import tiny_board

from game.rules import Rules
from game.standard_rules import StandardRules
from game.standard_state import StandardState
from game.state import GameState
from game.table import TableState
from kripke import Top


def fresh(cls: type[TableState]) -> TableState:
    if cls is StandardState:
        return StandardState(StandardRules(tiny_board(), players=2), 0)
    return GameState(Rules(tiny_board(), players=2), 0)


def argument(state: TableState, name: str) -> object:
    """A value for a public method's parameter, by its name."""
    board = state.board
    values = {"player": 0, "agent": 0, "connection": board.connections[0],
              "ticket": board.tickets[0], "action": state.legal_actions()[0],
              "formula": Top(), "by": "a test"}
    return values[name]


@pytest.mark.parametrize("cls", [GameState, StandardState])
def test_every_public_method_works_on_a_fresh_game_of_its_rule_set(cls):
    names = [name for name in dir(cls) if not name.startswith("_")]
    for name in names:
        state = fresh(cls)
        member = getattr(state, name)
        if not callable(member):
            continue  # an attribute or a property, read without error above
        params = inspect.signature(member).parameters
        member(*(argument(state, p) for p in params))


def test_the_simplified_questions_belong_to_the_simplified_game():
    for name in ("own_connections", "block_targets", "allowed_connections", "dealt_tickets"):
        assert hasattr(GameState, name) and not hasattr(StandardState, name)


def test_the_table_alone_is_no_rule_set():
    with pytest.raises(TypeError):
        TableState(Rules(tiny_board(), players=2), 0)  # type: ignore[abstract]
