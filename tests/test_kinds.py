"""The table of agent kinds (``agents.kinds``) is the only place a kind's name is given a
meaning: every command and page offers exactly its kinds in its order, every kind plays each
rule set its row claims (and is refused in the others), and no other module maps kind names to
anything of its own."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from agents.kinds import (
    KINDS,
    SOURCES,
    AgentKind,
    parse_kinds,
    parse_lineup,
    standard_kinds,
)
from agents.model import TTRModel
from agents.standard_game import StandardSpec, play_standard_game
from app.cli.options import add_game_options
from app.web.components.session import KIND_CHOICES

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("kripke", "game", "boards", "maxscore", "agents", "lab", "app", "bench")


def test_the_commands_and_the_page_offer_the_tables_kinds_in_its_order():
    assert list(KINDS) == list(AgentKind)
    parser = argparse.ArgumentParser()
    add_game_options(parser)
    [agents] = [a for a in parser._actions if "--agents" in a.option_strings]
    assert agents.help is not None and f": {', '.join(KINDS)} (default" in agents.help
    assert KIND_CHOICES[:len(KINDS)] == tuple(KINDS)
    with pytest.raises(ValueError, match=f"choose from {', '.join(KINDS)}$"):
        parse_kinds("nobody", 3)


def test_the_standard_game_lists_the_papers_agents_first():
    # The papers' four (the engine plays them too), then ours: the order its messages print.
    assert standard_kinds() == ("osta", "pa", "lrja", "ha", "baseline", "random")
    assert standard_kinds("engine") == ("osta", "pa", "lrja", "ha")
    assert set(standard_kinds()) == {k for k, b in KINDS.items() if b.standard is not None}
    assert set(standard_kinds("engine")) == {k for k, b in KINDS.items() if b.engine is not None}
    with pytest.raises(ValueError, match=f"choose from {', '.join(standard_kinds())}$"):
        parse_lineup("nobody", 2)


@pytest.mark.parametrize("kind", list(AgentKind))
def test_every_kind_plays_the_simplified_game(kind):
    model = TTRModel(board="europe24", players=3, tickets_each=2, agent_kinds=str(kind), rng=1)
    while model.running and model.state.turn < 400:
        model.step()
    assert model.state.is_terminal()
    assert [seat.kind for seat in model.seats] == [kind] * 3


@pytest.mark.parametrize("kind", list(AgentKind))
@pytest.mark.parametrize("source", SOURCES)
def test_every_kind_plays_the_standard_game_where_its_row_says_and_only_there(kind, source):
    if not KINDS[kind].plays_standard(source):
        with pytest.raises(ValueError, match=repr(str(kind))):
            parse_lineup(str(kind), 2, source)
        return
    lineup = parse_lineup(str(kind), 2, source)
    result = play_standard_game(StandardSpec(board="europe24", lineup=lineup,
                                             strategies=source), 1)
    assert result.end_reason and [s.kind for s in result.seats] == [kind, kind]


def kind_names_given_a_meaning(tree: ast.AST) -> set[str]:
    """Kind names a module maps to something (a dict keyed by the name) or declares (a class
    attribute set to it, as an enum member)."""
    names = set(map(str, AgentKind))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            found |= {k.value for k in node.keys
                      if isinstance(k, ast.Constant) and k.value in names}
        elif isinstance(node, ast.ClassDef):
            found |= {s.value.value for s in node.body
                      if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
                      and s.value.value in names}
    return found


def test_no_module_but_the_table_gives_a_kind_name_a_meaning():
    table = REPO / "agents" / "kinds.py"
    assert kind_names_given_a_meaning(ast.parse(table.read_text(encoding="utf-8"))) == set(KINDS)
    others = {str(path.relative_to(REPO)): found
              for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))
              if path != table and (found := kind_names_given_a_meaning(
                  ast.parse(path.read_text(encoding="utf-8"))))}
    assert others == {}
