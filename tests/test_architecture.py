"""The import arrows of ARCHITECTURE.md hold: packages import only what they may, only the app
knows the web stack, and no two modules import each other, however indirectly.

Imports are read from the source (every ``import`` statement, also those inside functions and
``if TYPE_CHECKING:`` blocks), so an arrow drawn the wrong way fails here even if it is never
executed by a test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent

#: Each package and the packages it may import (its own modules always).
ALLOWED: dict[str, set[str]] = {
    "kripke": set(),
    "boards": set(),
    "maxscore": {"boards"},
    "game": {"kripke", "boards", "maxscore"},
    "agents": {"game", "kripke", "boards", "maxscore"},
    "lab": {"agents", "game", "kripke", "boards", "maxscore"},
    "bench": {"lab", "agents", "game", "kripke", "boards", "maxscore"},
    "app": {"lab", "agents", "game", "kripke", "boards", "maxscore", "bench"},
}
#: Third-party libraries only some packages may know: the web stack is the app's alone.
ONLY_IN = {"solara": {"app"}, "ipyvue": {"app"}, "ipyvuetify": {"app"}, "pyvis": {"app"},
           "mesa": {"agents", "app"}, "highspy": {"maxscore"}, "dask": {"lab"},
           "distributed": {"lab"}, "hypothesis": set()}


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package's ``__init__`` by its own)."""
    found = {}
    for package in ALLOWED:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> set[str]:
    """The top-level names and the first-party modules ``name`` imports. ``from p import x``
    names the module p.x when there is one (a submodule), else p itself."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from .m import y
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in MODULES else base)
    return out


def edges() -> list[tuple[str, str]]:
    return [(name, target) for name, path in MODULES.items() for target in imports(name, path)]


def test_every_package_is_found():
    assert {m.split(".")[0] for m in MODULES} == set(ALLOWED)
    assert "game.knowledge" in MODULES and "boards.tools.make_boards" in MODULES


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_what_the_architecture_allows(package):
    wrong = sorted(f"{src} imports {dst}" for src, dst in edges()
                   if src.split(".")[0] == package and dst.split(".")[0] in ALLOWED
                   and dst.split(".")[0] not in ALLOWED[package] | {package})
    assert not wrong, f"{package} may import only {sorted(ALLOWED[package])}: {wrong}"


def test_the_web_stack_and_the_solver_stay_in_their_packages():
    wrong = sorted(f"{src} imports {dst}" for src, dst in edges()
                   if dst.split(".")[0] in ONLY_IN
                   and src.split(".")[0] not in ONLY_IN[dst.split(".")[0]])
    assert not wrong


def test_no_module_imports_itself_through_others():
    graph = nx.DiGraph((src, dst) for src, dst in edges() if dst in MODULES)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles}"


def test_a_cycle_would_be_seen(tmp_path):
    """The reader itself: a module importing another that imports it back is a cycle."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from kripke import model\n")
    b.write_text("if True:\n    from kripke.model import KripkeModel\nimport kripke.check\n")
    assert imports("kripke.x", a) == {"kripke.model"}
    assert imports("kripke.y", b) == {"kripke.model", "kripke.check"}
