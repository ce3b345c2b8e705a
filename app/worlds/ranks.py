"""Belief on the worlds picture: each world shaded by how plausible the agent in focus finds it,
the worlds it believes in ringed, and a belief the facts overturned shown going.

In a plausibility model (the open game's deal model ranks every deal by the claims it leaves
unexplained, ``design/open-game.md``) an agent *knows* what holds in its whole class and
*believes* what holds in the most plausible worlds of it. A picture of classes already shows
the class; this adds the order inside it, read from the model through
:class:`kripke.parts.Leveled` (never by asking which kind of model it is), on top of a
:class:`~app.worlds.layout.Picture` the layout made as for any model: the layouts stay as they
are, and a model without an order is drawn as before.

A *revision* is the step after which none of the worlds an agent believed in is left: hard
information (a completed ticket, a declared block, the teacher's announcement) contradicted
every one, so the agent now believes the next most plausible worlds of its class. A rank shift
alone (a claim: soft information) never removes a world, so it never revises in this sense;
it only moves belief.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from app.worlds.layout import GOING, GONE, LIVE, ClassTiles, Mark, Picture
from kripke.language.formula import Agent
from kripke.parts import ClassCounts, IntArray, Leveled

#: What a mark's ``belief`` says: the agent believes in the world, or did until this step.
BELIEVED, DROPPED = "believed", "dropped"


@dataclass(frozen=True, eq=False)
class Plausibility:
    """One agent's plausibility order as a picture draws it, by world id (ids are stable
    across announcements, so two steps compare). Arrays over every world, not dicts: a game
    lists up to a million deals, and a picture asks about the few hundred it draws."""

    agent: Agent
    ids: IntArray  # every world's id, in the model's order
    levels: IntArray  # each world's level within the agent's class, 0 the most plausible
    believed: frozenset[int]  # the most plausible worlds of its class at the actual world
    flat: bool  # every world of every class as plausible as the rest: belief is knowledge

    def levels_of(self, worlds: Collection[int]) -> dict[int, int]:
        """The levels of those of ``worlds`` (ids) the model still has."""
        kept = np.isin(self.ids, np.fromiter(worlds, np.int64, len(worlds)))
        return dict(zip(self.ids[kept].tolist(), self.levels[kept].tolist(), strict=True))

    def has_any(self, worlds: Collection[int]) -> bool:
        """Whether the model still has any of ``worlds`` (ids)."""
        return bool(np.isin(np.fromiter(worlds, np.int64, len(worlds)), self.ids).any())


@runtime_checkable
class _Listed(Leveled, Protocol):
    """A leveled model as a picture has it: its worlds listed by id, one of them actual."""

    @property
    def actual(self) -> int | None: ...

    @property
    def world_ids(self) -> IntArray: ...


def plausibility(model: Any, agent: Agent) -> Plausibility | None:
    """``agent``'s order in ``model`` (a model of either backend, as the picture takes it), or
    None if the model has none to draw: it answers no :class:`~kripke.parts.Leveled` question
    (a model without an order, or one held as diagrams, which lists no world), or has no
    actual world to believe at."""
    if not isinstance(model, _Listed) or model.actual is None:
        return None
    ids = np.asarray(model.world_ids)
    return Plausibility(agent, ids, model.level(agent),
                        frozenset(ids[model.best(agent)].tolist()), model.is_flat())


@dataclass(frozen=True)
class Revision:
    """Hard information removed every world ``agent`` believed in (``dropped``); it now
    believes in ``believed``, the most plausible worlds left of its class."""

    agent: Agent
    dropped: frozenset[int]
    believed: frozenset[int]


def revision(before: Plausibility | None, now: Plausibility | None) -> Revision | None:
    """The revision between two steps of one agent, or None if some believed world is left
    (or either step has no order)."""
    if before is None or now is None or now.has_any(before.believed):
        return None
    return Revision(now.agent, before.believed, now.believed)


def shaded(picture: Picture, now: Plausibility | None, before: Plausibility | None = None,
           *, name: str = "the agent in focus") -> Picture:
    """``picture`` with each world drawn still possible for the agent shaded by its level, its
    believed worlds ringed, and the worlds it believed in at ``before`` but no longer does
    marked as dropped (fading with the world, if the step removed it). Nothing changes when
    the model has no order, or when it is flat and nothing was dropped (belief is then the
    whole class, which the class's box already shows)."""
    if now is None:
        return picture
    was = before.believed - now.believed if before is not None else frozenset()
    if now.flat and not was:
        return picture
    drawn = {int(m.key[1:]) for m in picture.marks if not m.tile and m.key.startswith("w")}
    levels = now.levels_of(drawn)
    marks = tuple(_marked(m, now, levels, was, name) for m in picture.marks)
    return replace(picture, marks=marks)


def _marked(m: Mark, now: Plausibility, levels: Mapping[int, int], was: frozenset[int],
            name: str) -> Mark:
    if m.tile or not m.key.startswith("w"):
        return m
    wid = int(m.key[1:])
    if wid in was:  # drawn whatever became of it: live, or removed by this very step
        m = replace(m, belief=DROPPED,
                    title=m.title + f"\n{name} believed in it until this step; no longer")
    if m.state != LIVE or wid not in levels:
        return m
    level = levels[wid]
    believed = wid in now.believed
    title = m.title + (f"\nplausibility for {name}: level {level} of its class (0 the most "
                       "plausible)")
    if believed:
        title += f"\n{name} believes in it: one of the most plausible of its class"
    return replace(m, level=0 if now.flat else level,
                   belief=BELIEVED if believed else m.belief, title=title)


@runtime_checkable
class Ranked(ClassCounts[Any], Protocol):
    """A model whose deals share one rank (the open game's ranked deal, either backend), as a
    summary counts it: where a rank holds, as values ``class_sizes`` counts by, and the rank
    of the deals an agent believes in."""

    def rank_values(self, rank: int) -> Any: ...

    def best_rank(self, agent: Agent) -> int: ...


def believed_tiles(picture: Picture, layout: object, model: Any, agent: Agent) -> Picture:
    """On a summary (``ClassTiles``), ring what ``agent`` believes in inside its own class,
    counted where the rank is its best rank, so a game held as diagrams is marked as a listed
    one is: the tiles holding such deals, and such deals among the worlds drawn one by one
    (a listed part keeps its deals' ranks). The tiles of its own classes (the first level)
    and any other picture are left as they are."""
    if not isinstance(layout, ClassTiles) or not isinstance(model, Ranked) or \
            not layout.levels or str(layout.levels[0].agent) != str(agent):
        return picture
    best = model.best_rank(agent)
    where = model.rank_values(best)
    ringed: set[str] = set()
    opened: dict[Agent, int] = {}
    for depth, level in enumerate(layout.levels):
        if depth:
            counts = model.class_sizes(level.agent, where, opened)
            ringed |= {t.key for t in level.tiles if int(counts[list(t.members)].sum())}
        if level.actual is None:
            break
        opened = {**opened, level.agent: model.class_key(level.agent)}
    else:
        if layout.inner is not None and isinstance(part := model.listed(opened), Ranked):
            # the deals of that rank, as the part keeps them (its values stay its own)
            held = part.restrict(part.rank_values(best))
            ringed |= {f"w{w}" for w in held.world_ids.tolist()}
    name = layout.names.agent(agent)
    return replace(picture, marks=tuple(
        replace(m, belief=BELIEVED, title=m.title + f"\n{name} believes in "
                + ("deals of this tile" if m.tile else "this deal"))
        if m.key in ringed and not m.belief and m.state not in (GONE, GOING) else m
        for m in picture.marks))
