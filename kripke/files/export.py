"""Export for drawing: the current worlds as a networkx graph, guarded against huge models.

Nodes are original world ids (``model.world_ids``), so a layout computed once can pin positions
across announcements. One edge joins two distinct worlds some agent cannot tell apart, labelled
with every such agent; reflexive loops are left out because S5 has them everywhere.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from kripke.errors import ModelTooLargeError
from kripke.language.formula import Agent
from kripke.parts import Partitioned


def to_networkx(
    model: Partitioned,
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
    if not model.agents:
        return graph
    # For every pair of drawn worlds at once: which agents cannot tell them apart.
    first, second = np.triu_indices(worlds.size, k=1)
    confused = np.stack(
        [keys[first] == keys[second]
         for keys in (model.observation(who)[worlds] for who in model.agents)],
        axis=1,
    ).reshape(first.size, len(model.agents))
    linked = np.flatnonzero(confused.any(axis=1))
    patterns, which = np.unique(confused[linked], axis=0, return_inverse=True)
    names = [[a for a, seen in zip(model.agents, row, strict=True) if seen]
             for row in patterns.tolist()]
    ids = model.world_ids[worlds].tolist()
    graph.add_edges_from(
        (ids[i], ids[j], {"agents": list(names[p]), "label": ",".join(map(str, names[p]))})
        for i, j, p in zip(first[linked].tolist(), second[linked].tolist(),
                           which.reshape(-1).tolist(), strict=True)
    )
    return graph
