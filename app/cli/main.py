"""The ``ttr-kripke`` command line.

Each subcommand lives in its own module under ``app/cli/commands`` (``NAME``, ``HELP``,
``add_arguments(parser)``, ``run(args) -> int``), so the CLI grows with the product without one
file that everybody edits. Importing this module never imports Solara: headless runs stay light.
``python -m app.cli`` runs ``main`` (``app/cli/__main__.py``), as the ``ttr-kripke`` script does.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import signal
import sys
import threading
from types import FrameType

import app.cli.commands


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr and exit code 2, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ttr-kripke", description=__doc__.splitlines()[0])
    subs = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                 metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(app.cli.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"app.cli.commands.{info.name}")
        sub = subs.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run, _prog=sub.prog)
    return parser


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (``kill``, a job scheduler ending a job) stops a command as Ctrl-C does: what
    it finished is kept (a batch's games, a search's levels), not lost with the process."""
    raise KeyboardInterrupt


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
        # Building the parser imports every command (numpy, Mesa, the checkers: a second or
        # more on a cold start); Ctrl-C in that second stops as quietly as it does later.
        parser = build_parser()
    except KeyboardInterrupt:
        return 130
    args = parser.parse_args(argv)
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
