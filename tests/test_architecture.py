"""The import arrows of ARCHITECTURE.md hold: packages import only what they may, only the app
knows the web stack, no two modules import each other, however indirectly, and nothing outside
``kripke`` asks which kind of model it holds.

Imports are read from the source (every ``import`` statement, also those inside functions and
``if TYPE_CHECKING:`` blocks), so an arrow drawn the wrong way fails here even if it is never
executed by a test. Each module is parsed once for all the tests (``tree``, ``edges``).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent

#: Each package and the packages it may import (its own modules always).
ALLOWED: dict[str, set[str]] = {
    "lookalikes": set(),
    "kripke": {"lookalikes"},
    "boards": {"lookalikes"},
    "maxscore": {"boards", "lookalikes"},
    "game": {"kripke", "boards", "maxscore", "lookalikes"},
    "agents": {"game", "kripke", "boards", "maxscore", "lookalikes"},
    "lab": {"agents", "game", "kripke", "boards", "maxscore", "lookalikes"},
    "bench": {"lab", "agents", "game", "kripke", "boards", "maxscore", "lookalikes"},
    "app": {"lab", "agents", "game", "kripke", "boards", "maxscore", "bench", "lookalikes"},
}
#: Inside the app, the parts each part may import: the command line starts the web app (its
#: ``app`` command checks the options by building the page's game), the web app knows nothing
#: of the command line, and the worlds picture is a library under both.
APP_PARTS: dict[str, set[str]] = {"app.cli": {"app.web", "app.worlds"},
                                  "app.web": {"app.worlds"}, "app.worlds": set()}
#: Third-party libraries only some packages (or parts of one) may know: the web stack is the web
#: app's alone.
ONLY_IN = {"solara": {"app.web"}, "ipyvue": {"app.web"}, "ipyvuetify": {"app.web"},
           "mesa": {"agents", "app.web"}, "highspy": {"maxscore"},
           "dask": {"lab"}, "distributed": {"lab"}, "hypothesis": set()}


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package's ``__init__`` by its own)."""
    found = {}
    for package in ALLOWED:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


@cache
def tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once however many tests read it."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(name: str, path: Path) -> set[str]:
    """The top-level names and the first-party modules ``name`` imports. ``from p import x``
    names the module p.x when there is one (a submodule), else p itself."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree(path)):
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


@cache
def edges() -> tuple[tuple[str, str], ...]:
    """Every (importer, imported) pair of the packages, read once."""
    return tuple((name, target) for name, path in MODULES.items()
                 for target in imports(name, path))


def test_every_package_is_found():
    assert {m.split(".")[0] for m in MODULES} == set(ALLOWED)
    assert "game.knowledge" in MODULES and "boards.tools.make_boards" in MODULES


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_what_the_architecture_allows(package):
    wrong = sorted(f"{src} imports {dst}" for src, dst in edges()
                   if src.split(".")[0] == package and dst.split(".")[0] in ALLOWED
                   and dst.split(".")[0] not in ALLOWED[package] | {package})
    assert not wrong, f"{package} may import only {sorted(ALLOWED[package])}: {wrong}"


def within(name: str, parts: set[str]) -> bool:
    """Whether module ``name`` is one of ``parts`` or inside one (``app.web.x`` is in app.web)."""
    return any(name == part or name.startswith(f"{part}.") for part in parts)


def test_the_web_stack_and_the_solver_stay_in_their_packages():
    wrong = sorted(f"{src} imports {dst}" for src, dst in edges()
                   if dst.split(".")[0] in ONLY_IN
                   and not within(src, ONLY_IN[dst.split(".")[0]]))
    assert not wrong


@pytest.mark.parametrize("part", sorted(APP_PARTS))
def test_the_app_parts_import_only_what_they_may(part):
    others = set(APP_PARTS) - {part} - APP_PARTS[part]
    wrong = sorted(f"{src} imports {dst}" for src, dst in edges()
                   if within(src, {part}) and within(dst, others))
    assert not wrong, f"{part} may import only {sorted(APP_PARTS[part])} of the app: {wrong}"


def test_every_module_of_the_app_is_in_a_part():
    assert all(within(name, set(APP_PARTS)) for name in MODULES
               if name.startswith("app.")), "a module of app/ outside app/cli, app/web, app/worlds"


def test_the_command_line_starts_without_the_web_stack():
    """Building every command's parser imports no Solara: ``ttr-kripke play`` stays light and
    ``ttr-kripke app`` hands the pages to a server process of their own."""
    code = ("import sys; from app.cli.main import build_parser; build_parser(); "
            "print(sorted(m for m in ('solara', 'ipyvue', 'ipyvuetify') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.stdout.strip() == "[]"


def declared_dependencies() -> dict[str, str]:
    """pyproject.toml's dependencies: import name → the comment on or above its line."""
    lines = (REPO / "pyproject.toml").read_text(encoding="utf-8").split("dependencies = [\n")[1]
    found, above = {}, ""
    for line in lines.split("\n]")[0].splitlines():
        text, _, comment = line.strip().partition("#")
        if not text:
            above += comment.strip() + " "
            continue
        name = re.match(r'"([A-Za-z0-9_.-]+)', text)
        assert name, line
        found[name.group(1).lower().replace("-", "_")] = (above + comment).strip()
        above = ""
    return found


def test_every_dependency_is_imported_or_says_what_needs_it():
    """A user installs every dependency: one nothing uses (pyvis was) is weight, so each is
    imported by our packages or its comment in pyproject.toml starts "not imported" and says
    what needs it."""
    used = {target.split(".")[0] for _, target in edges()}
    declared = declared_dependencies()
    assert {"mesa", "numpy", "solara_assets", "starlette"} <= set(declared)
    unused = sorted(name for name, comment in declared.items()
                    if name not in used and not comment.startswith("not imported"))
    assert not unused, f"dependencies nothing imports, with no word on what needs them: {unused}"


def test_no_module_imports_itself_through_others():
    graph = nx.DiGraph((src, dst) for src, dst in edges() if dst in MODULES)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles}"


def test_a_cycle_would_be_seen(tmp_path):
    """The reader itself: a module importing another that imports it back is a cycle."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from kripke.explicit import model\n")
    b.write_text("if True:\n    from kripke.explicit.model import KripkeModel\n"
                 "import kripke.explicit.check\n")
    assert imports("kripke.x", a) == {"kripke.explicit.model"}
    assert imports("kripke.y", b) == {"kripke.explicit.model", "kripke.explicit.check"}


#: The classes of ``kripke``'s backends and the modules that hold them. Outside ``kripke`` a
#: model is held through the kernel (``kripke.kernel``, ``kripke.interface.EpistemicModel``,
#: ``kripke.parts``' protocols for a listed model; a game's deal as ``kripke.Deal``) and made by
#: ``kripke.factory``, so a new kind of model needs no page edited: no backend module is
#: imported and no backend class is named, and what a model can do is asked of it
#: (``capabilities``), never found by ``isinstance`` of a class or a protocol.
BACKENDS = {"KripkeModel", "DealModel", "SymbolicModel", "SymbolicDealModel", "BeliefModel",
            "PlausibilityModel", "SymbolicBeliefModel", "NamedModel"}
BACKEND_MODULES = ("kripke.explicit", "kripke.symbolic")
#: What was once asked with ``isinstance`` instead of the model's capabilities.
ASKED = {"ClassCounts", "NamedModel"}


def backend_questions(path: Path) -> list[str]:
    """Where a module imports a backend module, names a backend's class, asks ``isinstance``
    or ``issubclass`` of one (or of what a capability answers), or matches a model against
    one, as ``line: what``."""
    found = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names]
            found |= {f"{node.lineno}: imports {m}" for m in names
                      if m.startswith(BACKEND_MODULES)}
            if isinstance(node, ast.ImportFrom):
                found |= {f"{node.lineno}: imports {a.name}" for a in node.names
                          if a.name in BACKENDS}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
            named = {n.id if isinstance(n, ast.Name) else n.attr
                     for n in ast.walk(node.args[1]) if isinstance(n, ast.Name | ast.Attribute)}
            found |= {f"{node.lineno}: asks {node.func.id} of {c}"
                      for c in named & (BACKENDS | ASKED)}
        elif isinstance(node, ast.MatchClass):
            cls = node.cls.id if isinstance(node.cls, ast.Name) else getattr(node.cls, "attr", "")
            if cls in BACKENDS:
                found.add(f"{node.lineno}: matches {cls}")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in BACKENDS:
                found.add(f"{node.lineno}: names {name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value in BACKENDS:  # a string annotation
            found.add(f"{node.lineno}: names {node.value}")
    return sorted(found)


@pytest.mark.parametrize("package", ["app", "agents", "game", "lab", "bench"])
def test_nothing_outside_kripke_names_a_backend(package):
    wrong = [f"{name}:{q}" for name, path in MODULES.items() if name.split(".")[0] == package
             for q in backend_questions(path)]
    assert not wrong, f"hold the model through kripke's kernel and parts instead: {wrong}"


def test_the_backend_scan_sees_each_way_of_asking(tmp_path):
    """The scan itself, on the shapes the app used before the kernel: an import of a
    symbolic backend, ``isinstance`` of a union, ``assert isinstance``, a match, the command
    line's ``isinstance`` of a belief model, a capability asked by ``isinstance`` of a
    protocol, and a backend named as a type."""
    code = tmp_path / "m.py"
    code.write_text("from kripke.symbolic.deal import SymbolicDealModel\n"
                    "import kripke\n"
                    "def f(m):\n"
                    "    if isinstance(m, kripke.explicit.deal.DealModel | SymbolicDealModel):\n"
                    "        assert issubclass(type(m), kripke.KripkeModel)\n"
                    "    match m:\n"
                    "        case kripke.SymbolicModel():\n"
                    "            pass\n"
                    "    if isinstance(m, kripke.explicit.belief.BeliefModel):\n"
                    "        pass\n"
                    "    if isinstance(m, ClassCounts):\n"
                    "        x: 'NamedModel' = m\n"
                    "    return isinstance(m, int)\n")
    assert set(backend_questions(code)) == {
        "1: imports kripke.symbolic.deal", "1: imports SymbolicDealModel",
        "4: asks isinstance of DealModel", "4: asks isinstance of SymbolicDealModel",
        "4: names DealModel", "4: names SymbolicDealModel", "5: asks issubclass of KripkeModel",
        "5: names KripkeModel", "7: matches SymbolicModel", "7: names SymbolicModel",
        "9: asks isinstance of BeliefModel", "9: names BeliefModel",
        "11: asks isinstance of ClassCounts", "12: names NamedModel"}



#: What only a model may read of a value it gave: numpy, or Python's own look inside a sequence.
INSPECTING = {"bool", "len", "list", "iter", "sum", "int", "any", "all", "sorted", "tuple", "set"}


def _value_source(node: ast.AST, tainted: set[str]) -> bool:
    """Whether ``node`` is a model's value: ``x.values(formula)`` (one argument: a dict's
    ``values()`` takes none), a ``.values`` field (``result.values``, ``marking.values``), or
    a name bound to one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "values" and len(node.args) == 1:
        return True
    if isinstance(node, ast.Attribute) and node.attr == "values" and \
            isinstance(node.ctx, ast.Load):
        return True
    return isinstance(node, ast.Name) and node.id in tainted


def value_inspections(path: Path) -> list[str]:
    """Where a module looks inside a model's value, as ``line: what``: indexes it, reads an
    attribute of it (``.any()``, ``.shape``), iterates it, or hands it to numpy or to a
    builtin that reads a sequence. A value may only be handed back to a model (a method
    call's argument), stored, compared with None or returned. Names bound to a value, or a
    parameter annotated ``Values``, are followed within their function."""
    module = tree(path)
    parent = {child: node for node in ast.walk(module) for child in ast.iter_child_nodes(node)}
    found: set[str] = set()
    for scope in [module, *(n for n in ast.walk(module)
                            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]:
        tainted: set[str] = set()
        if not isinstance(scope, ast.Module):
            tainted |= {a.arg for a in scope.args.args + scope.args.kwonlyargs
                        if a.annotation is not None and "Values" in ast.unparse(a.annotation)}
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) and \
                    node.value is not None and _value_source(node.value, tainted):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                tainted |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        for node in ast.walk(scope):
            if not _value_source(node, tainted) or isinstance(getattr(node, "ctx", None),
                                                                ast.Store):
                continue
            up = parent.get(node)
            if isinstance(up, ast.Call) and up.func is node:
                continue  # the call x.values(...) itself
            if isinstance(up, ast.Subscript) and up.value is node:
                found.add(f"{node.lineno}: indexes {ast.unparse(node)}")
            elif isinstance(up, ast.Attribute) and up.value is node:
                found.add(f"{node.lineno}: reads {ast.unparse(up)}")
            elif isinstance(up, ast.For | ast.comprehension) and up.iter is node:
                found.add(f"{node.lineno}: iterates {ast.unparse(node)}")
            elif isinstance(up, ast.Call) and node in up.args:
                called = ast.unparse(up.func)
                if called.split(".")[0] in ("np", "numpy") or called in INSPECTING:
                    found.add(f"{node.lineno}: hands {ast.unparse(node)} to {called}")
    return sorted(found)


@pytest.mark.parametrize("package", ["app", "agents", "game", "lab", "bench"])
def test_nothing_outside_kripke_looks_inside_a_value(package):
    """Values are opaque (``kripke.kernel.Values``): the model that gave one counts it, reads
    it at the actual world, restricts to it, lists it on a part and explains it."""
    wrong = [f"{name}:{q}" for name, path in MODULES.items() if name.split(".")[0] == package
             for q in value_inspections(path)]
    assert not wrong, f"hand the value back to its model instead: {wrong}"


def test_the_value_scan_sees_each_way_of_looking(tmp_path):
    """The scan itself, on the shapes the app used before values were opaque (an array read
    by numpy, a value indexed per world) and the ones it allows (back to the model)."""
    code = tmp_path / "v.py"
    code.write_text("import numpy as np\n"
                    "def f(model, result, marking, values: Values):\n"
                    "    where = np.flatnonzero(np.asarray(result.values, dtype=bool))\n"
                    "    held = marking.values\n"
                    "    x = held[3]\n"
                    "    if values.any():\n"
                    "        pass\n"
                    "    n = model.count_values(model.values('p'))\n"
                    "    kept = model.restrict(held)\n"
                    "    for v in model.values('q'):\n"
                    "        pass\n"
                    "    return {1: 2}.values(), values is None\n")
    assert value_inspections(code) == sorted([
        "3: hands result.values to np.asarray", "5: indexes held", "6: reads values.any",
        "10: iterates model.values('q')"])


#: Kripke's layers, bottom up: the kernel (the language, errors, budgets, the change, the
#: model protocol and what is written once over it, explanations over a list of worlds), the
#: backends on it, and files, puzzles and the package's front above. A module imports only
#: its own layer or those below; one backend never imports another's files.
KRIPKE_LAYERS = (
    ("kripke.language", "kripke.errors", "kripke.budget", "kripke.lazy", "kripke.kernel",
     "kripke.events", "kripke.explain", "kripke.interface", "kripke.parts"),
    ("kripke.explicit", "kripke.symbolic"),
    ("kripke.files", "kripke.puzzles", "kripke.reference", "kripke.factory", "kripke.backends",
     "kripke"),
)


def kripke_layer(name: str) -> int:
    """The layer of a module of ``kripke`` (the longest prefix named)."""
    best = max(((len(p), k) for k, layer in enumerate(KRIPKE_LAYERS) for p in layer
                if name == p or name.startswith(p + ".")), default=None)
    assert best is not None, f"{name} is in no layer of kripke: add it to KRIPKE_LAYERS"
    return best[1]


def test_kripke_imports_one_way():
    """The kernel at the bottom, backends on it, files and puzzles above (the explicit
    backend reads no file, the kernel names no backend): ARCHITECTURE.md."""
    wrong = [f"{a} -> {b}" for a, b in edges()
             if a.startswith("kripke") and b.startswith("kripke.")
             and kripke_layer(b) > kripke_layer(a)]
    assert not wrong, f"kripke imports against its layers: {wrong}"


def test_every_kripke_module_has_a_layer():
    assert all(kripke_layer(name) >= 0 for name in MODULES if name.split(".")[0] == "kripke")
