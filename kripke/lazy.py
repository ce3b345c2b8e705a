"""Names a package exports but imports only when first asked for (PEP 562).

``from game import GameState`` and ``from kripke import SymbolicModel`` keep working, while a
command that needs only a light module of the package (``game.files``, ``kripke.files.modelfile``)
does not pay for the heavy ones (the game state and its paths; the BDD library and networkx):
each command of ``ttr-kripke`` imports only what it uses (issue 39)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module


def exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: each name of ``homes`` is imported from the
    submodule named beside it on first use, then kept as an ordinary attribute."""

    def __getattr__(name: str) -> object:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{homes[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
