"""The web pages are built from small parts: no Solara component (nor hook, ``use_...``) in
``app/web`` runs past ``MAX_LINES`` lines, so a page is read a part at a time, each part with
one job (the puzzle page was one component of 306 lines, its Why? thread written twice).

Read from the source (``ast``): a component is a function decorated ``@solara.component``;
its length runs from its ``def`` to its last line, docstring and comments included.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WEB = REPO / "app" / "web"
#: About a screen and a half; the longest part today is well under it.
MAX_LINES = 110


def is_component(node: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr == "component" and
               isinstance(d.value, ast.Name) and d.value.id == "solara"
               for d in node.decorator_list)


def parts() -> dict[str, int]:
    """Every component and hook of the web app, ``module:name`` to its length in lines."""
    found = {}
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and (is_component(node) or
                                                      node.name.startswith("use_")):
                assert node.end_lineno is not None
                found[f"{path.relative_to(REPO)}:{node.name}"] = \
                    node.end_lineno - node.lineno + 1
    return found


def test_no_component_of_the_web_app_runs_past_the_limit() -> None:
    found = parts()
    # the scan sees the pages' parts (a scan that found nothing would pass anything)
    for name in ("puzzles.py:PuzzlePage", "events.py:EventControl", "game.py:GameView",
                 "why.py:use_why"):
        assert any(key.endswith(name) for key in found), name
    too_long = {name: n for name, n in found.items() if n > MAX_LINES}
    assert not too_long, (f"components over {MAX_LINES} lines (split them into parts with one "
                          f"job each): {too_long}")
