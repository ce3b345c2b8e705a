"""Export for drawing: the current worlds as a networkx graph, guarded against huge models.

Nodes are original world ids (``model.world_ids``), so a layout computed once can pin positions
across announcements. One edge joins two distinct worlds some agent cannot tell apart, labelled
with every such agent; reflexive loops are left out because S5 has them everywhere.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from kripke.errors import ModelTooLargeError
from kripke.formula import Agent

if TYPE_CHECKING:
    from kripke.model import KripkeModel


def to_networkx(
    model: KripkeModel,
    agent: Agent | None = None,
    max_worlds: int = 500,
    world: int | None = None,
) -> nx.Graph:
    """The model's worlds, or only those ``agent`` considers possible at ``world``.

    Node attributes: ``label`` (``model.world_label``), ``actual`` (bool), ``index`` (position
    in this model). Edge attributes: ``agents`` (list) and ``label`` (them joined by commas).
    Raises :class:`ModelTooLargeError` with the world count instead of drawing past
    ``max_worlds`` worlds.
    """
    if agent is None:
        worlds = np.arange(model.n_worlds)
    else:
        worlds = model.possible_worlds(agent, world)
    if worlds.size > max_worlds:
        raise ModelTooLargeError(int(worlds.size), max_worlds, agent)

    graph = nx.Graph()
    for w in worlds.tolist():
        graph.add_node(
            int(model.world_ids[w]),
            label=model.world_label(w),
            actual=w == model.actual,
            index=w,
        )
    together: dict[tuple[int, int], list[Agent]] = {}
    for who in model.agents:
        keys = model.observation(who)[worlds]
        order = np.argsort(keys, kind="stable")
        # Split the (sorted) worlds into the agent's classes, then join each pair in a class.
        cuts = np.flatnonzero(np.diff(keys[order])) + 1
        for cell in np.split(worlds[order], cuts):
            ids = sorted(int(model.world_ids[w]) for w in cell)
            for pair in combinations(ids, 2):
                together.setdefault(pair, []).append(who)
    for (u, v), agents in together.items():
        graph.add_edge(u, v, agents=agents, label=",".join(str(a) for a in agents))
    return graph
