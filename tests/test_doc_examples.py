"""Every command and formula shown to users runs and means something on the default game, so
the documents cannot drift from the code again (issue 23: the README's, the help's and the
page's examples named tickets the default game never deals, and all exited 2).

Each example is read from where users read it, never from a list copied here:

* ``README.md`` and the documentation site's pages (``docs/**/*.md``, where the README's
  lab notebook moved: issue 39): every line of a ``sh`` code block. ``ttr-kripke`` lines run
  in this process (``app.cli.main``, in a folder of their own, where their outputs land; a
  path to a file of the repository is read from the clone) and must exit 0;
  ``make`` lines must name a target of the Makefile (``make -n``: running them is the whole
  suite or a server); ``dask`` lines must name the venv's own ``dask`` and its subcommand must
  answer ``--help`` (a cluster needs other machines); the ``pytest`` line runs with a few
  examples. A ``check`` line commented ``# true: ...`` or ``# false: ...`` must give that.
* their prose and the tutorial's text (``docs/tutorial.ipynb``): every inline
  ``ttr-kripke ...`` without a placeholder (``FILE``, ``NAME``, ``A|B``) must parse; the
  tutorial's are run, as the README's code lines are.
* ``--help`` of every command: each ``ttr-kripke`` line of its epilog runs; each quoted example
  in an argument's help (``e.g. 'K_0 p(1,7)'``) runs as that argument of that command (``check``
  exits 1 for a false formula: what must not happen is an unknown atom, exit 2).
* The page: the formulas in the formula box's hint (``<code>`` in ``GAME_HINT``) and its
  suggestion buttons parse and evaluate on the page's default game, and so do the puzzle
  gallery's suggestions on each puzzle.
* ``kripke/README.md``: every ``python`` block runs; a line ``expression  # value`` whose
  comment starts with a value (``True``, ``[0, 2]``, ``305,540,235,000 ...``) must give it.

What is expensive runs for real, scaled down by ``SCALE`` below (fewer games, one worker in this
process, a short benchmark; ``balance`` walks every feature of its board, hundreds on usa, so it
balances the tests' tiny board with one game per candidate); every other option stays as written.
``app`` runs up to the moment it would become the server (it checks its options, builds the default
game and checks the port, then execs Solara): the test stops it there and checks the server's
command line, on a free port; the browser tests start the real server. ``max-score`` on usa (a real
MIP), ``bench game`` (a game of each row, the 5 × 4 usa deal among them) and the fuzz line (a
pytest of its own) are marked slow: the rest takes well under a minute on one core.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parent.parent
#: Where users read commands: the README and the site's own pages (the site shows the README,
#: kripke/README.md and ARCHITECTURE.md too, included from where they are).
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent  # the venv running the tests: what README's .venv/bin is

#: What the test changes so that an expensive command runs in seconds: option → value (set or
#: added), "" (a flag, added) or None (removed with its value). Keyed by the command, or the
#: command and its first argument.
TINY = "{tiny board}"  # the tests' 8-city board (positions.py), written to a file per test
SCALE: dict[str, dict[str, str | None]] = {
    "batch": {"--games": "3", "--workers": "1", "--no-progress": ""},
    "metrics": {"--games": "2", "--workers": "0", "--no-progress": ""},
    "evolve": {"--games": "2", "--population": "2", "--generations": "1", "--confirm": "2",
               "--workers": "0", "--no-progress": ""},
    "balance": {"--board": TINY, "--games": "1", "--max-games": "1", "--confirm": "2",
                "--random-boards": "1", "--workers": "0", "--scheduler": None,
                "--no-progress": ""},
    "bench game": {"--seconds": "0.05", "--skip-4x4": ""},
    "bench gameplay": {"--games": "2", "--workers": "1"},
    "bench cli": {"--repeat": "1"},
    # the usa optimum is a real MIP: over a minute of CPU to prove, where the command's run,
    # its answer and its output are what is tested (the solver has tests of its own)
    "max-score": {"--time-limit": "3"},
}
#: Still too slow for every run: the usa optimum is a real MIP (tens of seconds here), the game
#: benchmark plays one game of each of its rows (the 5 × 4 usa deal among them), the command
#: line's starts eight fresh processes.
SLOW = {"max-score", "bench game", "bench cli"}
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z-]+\b|\|")  # FILE, LINE-UP, game|kripke


def scaled(argv: list[str]) -> list[str]:
    """``argv`` with the options of ``SCALE`` for its command."""
    rules = {**SCALE.get(argv[0], {}), **SCALE.get(" ".join(argv[:2]), {})}
    out = list(argv)
    for option, value in rules.items():
        if option in out:
            i = out.index(option)
            del out[i:i + (1 if value == "" else 2)]
        if value is not None:
            out += [option] if value == "" else [option, value]
    return out


@dataclass(frozen=True)
class Example:
    where: str  # the document and line, for the test's id
    argv: tuple[str, ...]  # the words after the program
    claim: str = ""  # the line's comment: "true: ..." or "false: ..." on a check is tested

    def __str__(self) -> str:
        return f"{self.where}: {shlex.join(self.argv)}"


def fenced(text: str, language: str) -> list[tuple[int, str]]:
    """(line number, line) of every line inside ```language blocks."""
    found, inside = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = not inside and line[3:].strip() == language
        elif inside:
            found.append((number, line))
    return found


def prose(text: str) -> str:
    """The text without its fenced code blocks (whose ``` would pair with inline spans)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def document_lines() -> list[tuple[str, list[str], str]]:
    """Each shell line of the documents: where, its words and its comment."""
    return [(f"{path.relative_to(REPO)}:{n}", shlex.split(line, comments=True),
             line.partition("  #")[2].strip())
            for path in DOCUMENTS
            for n, line in fenced(path.read_text(encoding="utf-8"), "sh")
            if line.strip()]


def program(words: list[str]) -> tuple[str, list[str]]:
    """The program a line runs (after any VAR=value) and its arguments."""
    i = 0
    while "=" in words[i] and not words[i].startswith("-"):
        i += 1
    return words[i], words[i + 1:]


def document_commands(name: str) -> list[Example]:
    """The documents' shell lines that run ``name`` (``.venv/bin/NAME`` or ``NAME``)."""
    found = []
    for where, words, comment in document_lines():
        prog, args = program(words)
        if Path(prog).name == name:
            found.append(Example(where, tuple(args), comment))
    return found


def inline_commands(text: str, where: str) -> list[Example]:
    """Inline ``ttr-kripke ...`` spans of a text without placeholders."""
    return [Example(where, tuple(shlex.split(span)[1:]))
            for span in re.findall(r"`((?:\.venv/bin/)?ttr-kripke [^`]+)`", prose(text))
            if not PLACEHOLDER.search(span)]


def tutorial_text() -> str:
    notebook = json.loads((REPO / "docs" / "tutorial.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(cell["source"]) for cell in notebook["cells"]
                     if cell["cell_type"] == "markdown")


def help_examples() -> list[Example]:
    """Every command's ``--help``: the ``ttr-kripke`` lines of its epilog, and each quoted
    example in an argument's help as that argument of the command."""
    from app.cli.main import build_parser

    subs = next(a for a in build_parser()._actions if a.dest == "command")
    found = []
    for name, parser in subs.choices.items():
        for line in (parser.epilog or "").splitlines():
            if line.strip().startswith("ttr-kripke "):
                words = shlex.split(line, comments=True)
                found.append(Example(f"{name} --help epilog", tuple(words[1:])))
        for action in parser._actions:
            if action.option_strings or not action.help:
                continue
            for quoted in re.findall(r"'([^']+)'", action.help.partition("e.g.")[2]):
                argv = (quoted,) if action.dest == "formula" else tuple(shlex.split(quoted))
                found.append(Example(f"{name} --help {action.dest}", (name, *argv)))
    return found


def run(argv: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``ttr-kripke argv`` in this process, in ``folder``: exit code, stdout, stderr."""
    from app.cli.main import main

    monkeypatch.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own errors
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Served(Exception):
    """Raised instead of ``exec``-ing the server."""


def run_app(argv: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``ttr-kripke app ...`` up to the exec of the server, on a free port: its command line."""
    import os

    port = str(free_port())
    argv = [port if prev == "--port" else a
            for prev, a in zip(["", *argv[:-1]], argv, strict=True)]
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder / "cache"))

    def execve(path: str, args: list[str], env: dict) -> None:
        raise _Served(args)

    monkeypatch.setattr(os, "execve", execve)
    with pytest.raises(_Served) as served:
        run(argv, folder, monkeypatch)
    command = served.value.args[0]
    assert command[command.index("--port") + 1] == port
    return command


def ttr_examples() -> list[pytest.param]:
    examples = [*document_commands("ttr-kripke"), *inline_commands(tutorial_text(),
                                                                 "docs/tutorial.ipynb"),
                *help_examples()]
    return [pytest.param(e, id=str(e),
                         marks=[pytest.mark.slow] if {e.argv[0], " ".join(e.argv[:2])} & SLOW
                         else [])
            for e in examples]


@pytest.mark.parametrize("example", ttr_examples())
def test_every_command_shown_runs(example: Example, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch):
    argv = [str(REPO / a) if "/" in a and not a.startswith("-") and (REPO / a).exists() else a
            for a in scaled(list(example.argv))]  # the README's own files, named from the root
    if TINY in argv:
        from positions import tiny_board_dict

        from boards.writer import dumps

        (tmp_path / "tiny.json").write_text(dumps(tiny_board_dict()), encoding="utf-8")
        argv[argv.index(TINY)] = str(tmp_path / "tiny.json")
    if argv[0] == "app":
        command = run_app(argv, tmp_path, monkeypatch)
        assert command[command.index("-m") + 1:][:2] == ["solara", "run"]
        return
    code, out, err = run(argv, tmp_path, monkeypatch)
    allowed = (0, 1) if argv[0] == "check" and "--help" in example.where else (0,)
    if argv[0] == "bench":  # 1 is a goal missed, a figure of this machine at this moment
        allowed = (0, 1)
    if argv[0] == "check" and example.claim.startswith(("true", "false")):
        allowed = (0,) if example.claim.startswith("true") else (1,)
    assert code in allowed, f"{shlex.join(argv)} exited {code}: {err.strip()}"
    assert out.strip()


def test_the_examples_are_found():
    """The extraction finds what the documents show (so a change of format cannot empty it)."""
    commands = {e.argv[0] for e in document_commands("ttr-kripke")}
    assert {"play", "batch", "check", "puzzle", "route", "app", "bench", "metrics", "evolve",
            "balance", "max-score"} <= commands
    assert any(e.argv[0] == "check" for e in help_examples())
    assert inline_commands(tutorial_text(), "tutorial")
    assert document_commands("make") and document_commands("dask")


def test_inline_commands_of_the_documents_parse():
    from app.cli.main import build_parser

    parser = build_parser()
    found = [example for path in DOCUMENTS
             for example in inline_commands(path.read_text(encoding="utf-8"),
                                            str(path.relative_to(REPO)))]
    assert found
    for example in found:
        try:
            parser.parse_args(list(example.argv))
        except SystemExit:
            pytest.fail(f"{example} does not parse")


@pytest.mark.parametrize("example", document_commands("make"), ids=str)
def test_make_lines_name_targets_of_the_makefile(example: Example):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "-n", *example.argv], cwd=REPO, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("example", document_commands("dask"), ids=str)
def test_dask_lines_name_the_venvs_dask(example: Example):
    """The README's cluster lines name ``.venv/bin/dask`` (a clone has no ``dask`` on PATH),
    and its subcommand exists there."""
    line = next(words for where, words, _ in document_lines() if where == example.where)
    assert line[0] == ".venv/bin/dask", f"{example.where}: say .venv/bin/dask, not {line[0]}"
    done = subprocess.run([str(BIN / "dask"), example.argv[0], "--help"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("example", document_commands("python"), ids=str)
def test_python_lines_run(example: Example, tmp_path: Path):
    """The fuzz line, with 2 examples per test instead of its 100,000."""
    line = next(words for where, words, _ in document_lines() if where == example.where)
    env = dict(word.split("=", 1) for word in line if "=" in word and not word.startswith("-"))
    env = {k: "2" for k in env}  # TTR_FUZZ_EXAMPLES
    import os

    done = subprocess.run([sys.executable, *example.argv, "-p", "no:cacheprovider"], cwd=REPO,
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_readmes_formulas_evaluate_on_the_default_game(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path):
    """The formulas of the README's syntax paragraph (inline code with an atom p(i,t))."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in DOCUMENTS)
    formulas = [span for span in re.findall(r"`([^`]+)`", prose(text))
                if re.search(r"\bp\(\d+,\d+\)", span) and not span.startswith("ttr-kripke")]
    assert formulas
    for formula in formulas:
        code, _, err = run(["check", formula], tmp_path, monkeypatch)
        assert code in (0, 1), f"{formula}: {err.strip()}"


def test_the_pages_hints_evaluate_on_the_pages_default_game():
    from app.web.components.formula import GAME_HINT, examples
    from app.web.components.session import Defaults, new_model
    from kripke import parse

    model = new_model(Defaults())
    shown = re.findall(r"<code>([^<]+)</code>", GAME_HINT)
    assert shown
    for text in [*shown, *examples(model)]:
        model.worlds.holds(parse(text))  # an unknown atom or agent raises


def test_the_puzzle_gallerys_suggestions_evaluate_on_their_puzzles():
    from kripke import parse
    from kripke.puzzles.gallery import GALLERY

    for make in GALLERY.values():
        puzzle = make()
        for text in puzzle.examples:
            puzzle.model.holds(parse(text))


def kripke_readme_blocks() -> list[pytest.param]:
    text = (REPO / "kripke" / "README.md").read_text(encoding="utf-8")
    blocks: list[list[tuple[int, str]]] = []
    last = -1
    for number, line in fenced(text, "python"):
        if number != last + 1:
            blocks.append([])
        blocks[-1].append((number, line))
        last = number
    return [pytest.param(block, id=f"kripke/README.md:{block[0][0]}") for block in blocks]


def flat(text: str) -> str:
    return " ".join(text.split())


def shown(value: object) -> list[str]:
    """How a value may be written in a comment."""
    forms = [repr(value), str(value)]
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        forms.append(f"{int(value):,}")
    return forms


@pytest.mark.parametrize("block", kripke_readme_blocks())
def test_kripke_readme_code_runs_and_gives_what_its_comments_say(block):
    lines = [line for _, line in block]
    source = "\n".join(lines)
    namespace: dict = {}
    for statement in ast.parse(source).body:
        code = ast.get_source_segment(source, statement)
        assert code is not None
        comment = lines[statement.end_lineno - 1].partition("  #")[2].strip()
        if isinstance(statement, ast.Expr) and comment and comment[0] in "TF[{0123456789a":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                value = eval(compile(ast.Expression(statement.value), "README", "eval"),
                             namespace)
            said = out.getvalue().strip() if value is None else value
            assert any(flat(comment).startswith(flat(form)) for form in shown(said)), (
                f"kripke/README.md: {code} gives {said!r}, the comment says {comment!r}")
        else:
            exec(compile(ast.Module([statement], []), "README", "exec"), namespace)


def test_every_file_the_readme_names_is_in_the_repository():
    """A clone has only its own files: the README named design notes outside it."""
    text = prose((REPO / "README.md").read_text(encoding="utf-8"))
    named = set(re.findall(r"\]\(([^)#:]+)\)", text))  # links, not web addresses or anchors
    named |= {span for span in re.findall(r"`([^`\s]+)`", text)
              if re.fullmatch(r"[\w./-]+\.(md|py|ipynb|json|toml)", span) and "/" in span}
    assert named
    missing = sorted(path for path in named if not (REPO / path).exists())
    assert not missing, f"README.md names files a clone does not have: {missing}"
