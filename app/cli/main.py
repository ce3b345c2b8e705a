"""The ``ttr-kripke`` command line.

Each subcommand lives in its own module under ``app/cli/commands`` (``NAME``, ``HELP``,
``add_arguments(parser)``, ``run(args) -> int``), so the CLI grows with the product without one
file that everybody edits. A run imports only the module of the command it names: the others
are listed from their source (``NAME`` and ``HELP`` read, not executed), so ``--help`` and
``model`` start without the game, Mesa or Dask that other commands need (issue 39).
``python -m app.cli`` runs ``main`` (``app/cli/__main__.py``), as the ``ttr-kripke`` script does.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType

COMMANDS = Path(__file__).with_name("commands")


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr and exit code 2, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


@dataclass(frozen=True)
class Command:
    """A command as the table lists it: its name, its one-line help and the module to import."""

    name: str
    help: str
    module: str


@cache
def command_table() -> tuple[Command, ...]:
    """Every command, by module name, read from the ``NAME`` and ``HELP`` constants of its
    source without running it: importing a command imports what it needs (the game, Mesa,
    Dask), which only the command that runs should pay for."""
    table = []
    for path in sorted(COMMANDS.glob("[!_]*.py")):
        found = {}
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in ("NAME", "HELP"):
                found[node.targets[0].id] = ast.literal_eval(node.value)
        table.append(Command(found["NAME"], found["HELP"], f"app.cli.commands.{path.stem}"))
    return tuple(table)


def named_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the program itself
    takes no option with a value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only`` the full parser of that one command and
    the others by name and help alone (enough for ``--help`` and for refusing a typo)."""
    parser = _Parser(prog="ttr-kripke", description=__doc__.splitlines()[0])
    subs = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                 metavar="COMMAND")
    for command in command_table():
        sub = subs.add_parser(command.name, help=command.help, description=command.help)
        if only is None or command.name == only:
            module = importlib.import_module(command.module)
            module.add_arguments(sub)
            sub.set_defaults(_run=module.run, _prog=sub.prog)
    return parser


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (``kill``, a job scheduler ending a job) stops a command as Ctrl-C does: what
    it finished is kept (a batch's games, a search's levels), not lost with the process."""
    raise KeyboardInterrupt


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT is blocked in this thread for the block and delivered when it ends (as a
    KeyboardInterrupt at the block's end), also one that came while ``python -m app.cli``
    held it from its first line: for code that must not be interrupted halfway."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def main(argv: list[str] | None = None) -> int:
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)  # signal handlers are the main thread's
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        return _main(argv)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _main(argv: list[str] | None) -> int:
    try:
        # Building the parser imports the command's module (numpy, the checkers, for some Mesa:
        # up to a second on a cold start); Ctrl-C in that second stops as quietly as later. It
        # is held until the imports are done: landing inside importlib's module-lock callback,
        # it could not be raised there and Python printed "Exception ignored in ..." with a
        # traceback, then went on as if no key was pressed.
        words = sys.argv[1:] if argv is None else argv
        with _ctrl_c_held():
            parser = build_parser(only=named_command(words) or "")
    except KeyboardInterrupt:
        return 130
    args = parser.parse_args(words)
    # here, not at the top: the commands above imported it already, and an import at the top
    # would come before the Ctrl-C guard around them
    from game.files import release_claims

    try:
        return _run(args)
    finally:
        release_claims()  # the outputs this command claimed are free again


def _run(args: argparse.Namespace) -> int:
    try:
        code = args._run(args)
        sys.stdout.flush()  # inside the try: a closed pipe shows up here, not at exit
        return code
    except (UsageError, ValueError) as e:
        # ValueError covers BoardError, FormulaError and parameter checks: all user input.
        print(f"{args._prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``ttr-kripke play | head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
