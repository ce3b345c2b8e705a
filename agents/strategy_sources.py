"""Where the standard game's four strategy agents come from, chosen per run with
``--strategies`` and recorded in the run's spec, so a run never mixes them silently:

=========  =======================================================  ==========================
source     what the agents do                                       module
=========  =======================================================  ==========================
described  what the papers and the design note say (default)        ``agents.strategies``
engine     what the authors' engine does, its bugs included         ``agents.engine_strategies``
=========  =======================================================  ==========================

Every seat of a game takes its agent from the same source. The ``engine`` source has only the
four agents of the papers (``osta``, ``pa``, ``lrja``, ``ha``); its agents keep a memory per
seat (:class:`agents.engine_strategies.SeatMemory`), so each game makes fresh ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.engine_strategies import ENGINE_STRATEGIES, EngineSeat
from agents.strategies import STRATEGIES, Policy

#: The sources of agents, the default first.
SOURCES: tuple[str, ...] = ("described", "engine")
DEFAULT_SOURCE = SOURCES[0]


def kinds_of(source: str) -> tuple[str, ...]:
    """The agent kinds a source offers."""
    check_source(source)
    return tuple(STRATEGIES if source == "described" else ENGINE_STRATEGIES)


def check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown --strategies {source!r}; choose from {', '.join(SOURCES)}")


def check_lineup(source: str, lineup: Sequence[str]) -> None:
    """Every kind of ``lineup`` exists in ``source`` (one line saying which does not)."""
    kinds = kinds_of(source)
    for kind in lineup:
        if kind not in kinds:
            raise ValueError(f"agent kind {kind!r} has no {source} version; with --strategies "
                             f"{source} choose from {', '.join(kinds)}")


def seat_policies(source: str, lineup: Sequence[str]) -> list[Policy]:
    """One policy per seat for one game (fresh memories for the engine's agents)."""
    check_lineup(source, lineup)
    if source == "described":
        return [STRATEGIES[k] for k in lineup]
    return [EngineSeat(k) for k in lineup]
