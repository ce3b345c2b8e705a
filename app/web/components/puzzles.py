"""The puzzle gallery page: the classic puzzles of ``kripke.puzzles.gallery``, each with its story,
its
steps (Step / Back), the same worlds picture as the game, a perspective switch, the formula box
with Announce and Why, and the exports.

A puzzle's models are small (at most 2,352 worlds), but a model of your own need not be, and
a formula can be long: the formula is evaluated and Why? worked out in threads of their own
(:func:`use_formula`), which stop when the tab is gone, and Announce keeps the worlds where
the evaluated formula holds, with nothing left to evaluate in the click's handler; the game
page's worker is for the 63-million-world deals. What happened is a list of
moments, as in the game's timeline: the start, each step of the story, each announcement of
your own. Going back and announcing something new drops the moments after it (a new branch);
Step after that goes on with the story where it was.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from html import escape
from typing import cast

import solara

from app.web.components.events import (
    UPDATE_ARROWS,
    UPDATE_LIMIT,
    EventControl,
    EventPicture,
    Prepared,
)
from app.web.components.exports import ExportRow, agent_colour, agent_ink, listed
from app.web.components.formula import (
    FormulaBar,
    FormulaHelp,
    FormulaResult,
    numbered,
    tab_gone,
    use_formula,
)
from app.web.components.picture_fit import PictureFit
from app.web.components.timeline import MomentSteps
from app.web.components.why import Why, use_why
from app.web.components.words import counted
from app.worlds.graph import GRAPH_LIMIT, GraphLayout, layered, too_big
from app.worlds.layout import (
    DRAWN_LIMIT,
    AnyModel,
    ClassGrid,
    FixedPositions,
    Marking,
    Picture,
    Text,
    WorldsLayout,
    class_columns,
    layout_for,
    partitioned,
)
from app.worlds.svg import picture_svg
from kripke import EvaluationStopped
from kripke.budget import stop_when
from kripke.events.model import EventModel, check_product_size
from kripke.language.formula import Agent, Formula
from kripke.parts import Drawn, Partitioned, Values
from kripke.puzzles.gallery import (
    GALLERY,
    TITLES,
    Puzzle,
    consecutive,
    coordinated_attack,
    dining,
    muddy,
)

OUTSIDE = "outside"
#: The two kinds of picture: the class views (regions) and the textbook graph (edges).
CLASSES, GRAPH = "classes", "graph"
PUZZLE_SYNTAX = (
    "Syntax: this puzzle's atoms (see the story), <code>~</code> <code>&amp;</code> "
    "<code>|</code> <code>-&gt;</code>, <code>K_a</code> (or <code>Kₐ</code>) knows (on a "
    "belief model, with arrows: believes, also written <code>B_a</code>), "
    "<code>M_a</code> considers possible, <code>E</code> <code>C</code> <code>D</code> (all "
    "agents) or <code>C_{a,b}</code>, <code>[!φ]ψ</code> after announcing φ.")
MODEL_SYNTAX = PUZZLE_SYNTAX.replace("this puzzle's atoms (see the story)", "the model's atoms")


@dataclass(frozen=True)
class Settings:
    """What the page lets a teacher choose for the puzzles that have choices."""

    key: str = "muddy"
    children: int = 4
    muddy: tuple[int, ...] = (0, 1, 2, 3)
    anne: int = 2
    messengers: int = 4
    payer: int = 1
    coins: str = "HTH"


def build(s: Settings) -> Puzzle:
    """The puzzle the settings describe (they are kept valid by the controls)."""
    match s.key:
        case "muddy":
            dirty = tuple(c for c in s.muddy if c < s.children) or (0,)
            return muddy(s.children, dirty)
        case "consecutive":
            return consecutive(s.anne, s.anne + 1)
        case "attack":
            return coordinated_attack(s.messengers)
        case "dining":
            return dining(s.payer, [c == "H" for c in s.coins])
    return GALLERY[s.key]()


@dataclass(frozen=True)
class Moment:
    label: str
    model: Drawn  # a belief model after an event with arrows
    told: int  # how many of the story's steps have happened by then
    events: int = 0  # how many events of your own (the Event control) have happened by then
    # the event of your own that made this moment from the one before (its graph is drawn
    # as that one's in layers, one per event)
    update: EventModel | None = None
    # how a moment of your own was made, as a share link writes it: (ANNOUNCE, the formula),
    # (EVENT, the event's text) or (MINIMISE, "")
    made: tuple[str, str] | None = None


#: What makes a moment of your own, as a share link names it.
ANNOUNCE, EVENT, MINIMISE = "announce", "event", "minimise"


def announced(moment: Moment, formula: Formula, text: str, after: Drawn) -> Moment:
    """The moment after announcing ``formula``, typed as ``text`` (true at the actual world:
    ``after`` keeps the worlds where it holds)."""
    written = formula.unicode()  # as a textbook (and the TikZ title) writes it
    return Moment(f"you announced {written}", after, moment.told, moment.events,
                  made=(ANNOUNCE, text))


def happened(moment: Moment, event: Prepared, after: Drawn, seen: str) -> Moment:
    """The moment after an event of your own (``seen``: what each agent observed)."""
    assert event.events is not None
    return Moment(f"event {event.label} ({seen})", after, moment.told, moment.events + 1,
                  event.events, (EVENT, event.written))


def minimised(moment: Moment) -> Moment:
    """The moment's model up to bisimulation, as ``ttr-kripke model --minimise`` at that step:
    one world per class of worlds no formula tells apart, each formula keeping its value."""
    after = moment.model.minimised()
    return Moment(f"minimised ({moment.model.n_worlds:,} → {counted(after.n_worlds, 'world')})",
                  after, moment.told, moment.events, made=(MINIMISE, ""))


@dataclass(frozen=True)
class Shown:
    """What a page's side card (the "Your model" editor) reads of the timeline: the moments
    so far, which is shown, and ``then``, which adds a moment after it (a new branch, as an
    announcement does) and shows it."""

    moments: tuple[Moment, ...]
    at: int
    then: Callable[[Moment], None]

    @property
    def moment(self) -> Moment:
        return self.moments[self.at]


class PuzzleNames:
    """How the picture names a puzzle's agents, classes and worlds."""

    classes = "classes"
    part = "atom"

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        # a dealt card is held; what an agent of any other model tells apart, it sees
        # (the model names its classes by the hands: a deal)
        start = puzzle.model
        self.verb = "holds" if start.class_name(start.agents[0], 0) is not None else "sees"

    def agent(self, agent: Agent) -> str:
        return self.puzzle.agent_name(agent)

    def hand(self, model: AnyModel, agent: Agent, key: int) -> tuple[str, ...]:
        """The model's own name for the class (a deal's: the hand), else what the puzzle says
        the agent sees there, else the atoms true throughout it (up to three), else its worlds
        by name when few (the letter's "p ¬p"), else how many: never the key, a number the
        reader was never told."""
        if (named := model.class_name(agent, key)) is not None:
            return named
        worlds = model.listed({agent: key})  # a puzzle's class: a few worlds
        if self.puzzle.sees is not None and worlds.n_worlds:
            return self.puzzle.sees(worlds, agent, 0)
        constant = [str(a) for a in worlds.atoms if worlds.atom_values(a).all()]
        if constant:
            return tuple(constant[:3])
        name = self.puzzle.short or (lambda m, i: m.world_name(i))
        if worlds.n_worlds <= 3:
            return tuple(name(worlds, i) for i in range(worlds.n_worlds))
        return (f"{worlds.n_worlds} worlds",)

    def world(self, model: Partitioned, index: int) -> str:
        return self.puzzle.describe(model, index)


def names_where(model: Drawn, values: Values,
                name: Callable[[Drawn, int], str]) -> list[str]:
    """The worlds where ``values`` (the model's own) hold, by name: the model keeps them
    (its restriction), and each is named at its place in the model."""
    kept = model.restrict(values).world_ids.tolist()
    return [name(model, i) for i, wid in enumerate(model.world_ids.tolist()) if wid in kept]


def describe_plainly(model: Drawn, index: int) -> str:
    """A world in words: its name and what is true there."""
    true = [str(a) for a in model.atoms if model.atom_values(a)[index]]
    return f"{model.world_name(index)}: {' '.join(true) if true else 'no atom true'}"


def own_names(puzzle: Puzzle, moment: Moment) -> Puzzle:
    """The puzzle as it names the worlds of this moment: by its own words while its story is
    told or its worlds stand as they were, by each world's name and atoms once an event of
    yours has made worlds it never named (a product renumbers the worlds that muddy children's
    or consecutive numbers' names are keyed by; a flip makes a Cheryl world of two dates)."""
    if not moment.events or same_facts(puzzle.model, moment.model):
        return puzzle
    return replace(puzzle, describe=describe_plainly, short=None, sees=None)


def same_facts(universe: Drawn, model: Drawn) -> bool:
    """Whether every world of ``model`` is a world of ``universe`` (by id) with the same
    atoms true."""
    def facts(m: Drawn) -> dict[int, frozenset[str]]:
        ids = m.world_ids.tolist()
        true: dict[int, set[str]] = {w: set() for w in ids}
        for atom in m.atoms:
            for w, holds in zip(ids, m.atom_values(atom).tolist(), strict=True):
                if holds:
                    true[w].add(str(atom))
        return {w: frozenset(atoms) for w, atoms in true.items()}

    kept = facts(universe)
    return all(kept.get(w) == atoms for w, atoms in facts(model).items())


def actual_id(model: Drawn) -> int | None:
    """The actual world's id (stable across announcements), or None."""
    return None if model.actual is None else int(model.world_ids[model.actual])


def events_told(puzzle: Puzzle, moment: Moment) -> int:
    """How many semi-private events the story has told by then: each changes the agents'
    classes (not only which worlds are left), so the picture by classes is laid out anew."""
    return sum(step.event is not None for step in puzzle.steps[:moment.told]) + moment.events


def puzzle_layout(puzzle: Puzzle, model: Partitioned, focus: Agent,
                  own_events: int = 0) -> WorldsLayout:
    """The puzzle's own geometry when it has one, else classes in a grid; a model too big to
    draw (Sum and Product at the start) is summarised by classes, and once the story has cut
    it down, drawn world by world from there, one column per class of the agent in focus.
    After an event of your own the classes are new: the puzzle's geometry with the boxes the
    event left, or where worlds split (new worlds, at no position), the classes in a grid."""
    names = PuzzleNames(puzzle)
    # the class views draw partitioned models only (layout.partitioned): a story that starts
    # from a belief model is drawn as the graph, never here
    start = cast(Partitioned, puzzle.model)
    if own_events and puzzle.positions is not None and \
            set(model.world_ids.tolist()) <= set(start.world_ids.tolist()):
        return FixedPositions(model, focus, puzzle.positions(focus), names,
                              labels=short_names(puzzle, model))
    if own_events:
        return layout_for(model, focus, names)
    if puzzle.positions is not None:
        universe, actual = start, actual_id(model)
        if actual is not None and actual != actual_id(universe):  # the story moved it
            index = universe.world_index(actual)
            universe = universe.at(index) if index is not None else universe
        return FixedPositions(universe, focus, puzzle.positions(focus), names,
                              labels=short_names(puzzle, universe))
    if start.n_worlds <= DRAWN_LIMIT:  # after an event, the classes it made
        return layout_for(model if any(s.event for s in puzzle.steps) else start,
                          focus, names)
    if model.n_worlds > DRAWN_LIMIT:
        return layout_for(model, focus, names)
    return FixedPositions(model, focus, class_columns(model, focus), names,
                          labels=short_names(puzzle, model))


def short_names(puzzle: Puzzle, model: Partitioned) -> dict[int, str]:
    """Each world's short name by id (a removed one's too, so the class sees what went), for
    the puzzles drawn at their own positions (a grid of classes has its names on its axes)."""
    if puzzle.short is None:
        return {}
    return {int(w): puzzle.short(model, i) for i, w in enumerate(model.world_ids.tolist())}


def graph_universe(puzzle: Puzzle, model: Drawn) -> Drawn | None:
    """The worlds a graph of this puzzle places once and keeps: all of the puzzle's when few
    enough (removed ones then fade where they stood), else (a big puzzle the story has cut
    down, or a model whose worlds are new) the model now; None while too many."""
    if too_big(puzzle.model) is None and \
            set(model.world_ids.tolist()) <= set(puzzle.model.world_ids.tolist()):
        return puzzle.model
    return model if too_big(model) is None else None


def graph_layout(puzzle: Puzzle, universe: Drawn, focus: Agent,
                 positions: Mapping[int, tuple[float, float]] | None = None,
                 layers: Mapping[str, list[int]] | None = None) -> GraphLayout:
    """The textbook graph: each world named by the puzzle's short name (then no atoms, which
    that name already says), else by its author's name (a model written by hand) or ``w`` and
    its id, with the atoms true in it; at ``positions`` when given (a product's layers)."""
    return GraphLayout(universe, focus, PuzzleNames(puzzle), label=graph_label(puzzle),
                       atoms=puzzle.short is None, positions=positions, layers=layers)


def world_name(model: Drawn, index: int) -> str:
    """A world's own name (a hand-written model's, or the history of events that made it)."""
    return model.world_name(index)


def graph_label(puzzle: Puzzle) -> Callable[[Drawn, int], str]:
    """How the graph names a world: the puzzle's short name, else the world's own (one
    function per puzzle, so a kept graph is known by it)."""
    return puzzle.short or world_name


def moment_graph(puzzle: Puzzle, moments: tuple[Moment, ...], index: int, focus: Agent,
                 graphs: list[GraphLayout]) -> GraphLayout | None:
    """The graph that draws moment ``index``: one already made that draws all its worlds as
    they are now (so worlds stay where they are; a factual change keeps a world's id but not
    its atoms), else, after an event of yours that split worlds, the
    graph before it in layers, one per event (:func:`layered`), else a new one; None while
    too many worlds. Each graph made is kept in ``graphs``. A world an event made may have
    an older world's id (after Sally's marble is moved, ``w·move`` is world 0, as ``w`` was):
    its name differs, so no graph of the older one draws it."""
    model = moments[index].model
    found = next((g for g in graphs if g.label is graph_label(puzzle) and g.draws(model)),
                 None)
    if found is not None:
        return found
    universe = graph_universe(puzzle, model)
    if universe is None:
        return None
    if universe is not model:  # the puzzle's worlds, unless what holds in them changed
        graph = graph_layout(puzzle, universe, focus)
        graphs.append(graph)
        if graph.draws(model):
            return graph
        universe = model
    update = moments[index].update
    before = moment_graph(puzzle, moments, index - 1, focus, graphs) \
        if update is not None and index > 0 and universe is model else None
    places: dict[int, tuple[float, float]] | None = None
    layers: dict[str, list[int]] | None = None
    if before is not None and update is not None:
        old = moments[index - 1].model
        places = layered(before.pos, old, update, model)
        if old.splits(update):  # each event's layer named above it
            layers = {}
            for w in model.world_ids.tolist():
                layers.setdefault(old.origin(update, w)[1], []).append(w)
    graph = graph_layout(puzzle, universe, focus, places, layers)
    graphs.append(graph)
    return graph


#: A puzzle of at most this many worlds with no geometry of its own opens as the textbook
#: graph: a class view of two worlds is one small box, and the graph names both.
GRAPH_FIRST = 8


def default_kind(puzzle: Puzzle) -> str:
    """The picture a puzzle opens with until the teacher picks one: the textbook graph for a
    few worlds with no geometry of their own (the letter, a model written by hand), else the
    classes."""
    small = puzzle.positions is None and puzzle.model.n_worlds <= GRAPH_FIRST
    return GRAPH if small else CLASSES


def plain_name(puzzle: Puzzle) -> Callable[[Drawn, int], str]:
    """A world's name alone (the puzzle's short name, a hand-written model's own name, else
    the atoms true there), as the JSON writes it: it reads back as the world's name, and the
    page then describes the world from it (its name and what holds there)."""
    return puzzle.short or (lambda m, i: m.world_label(i))


def story_html(puzzle: Puzzle, moments: tuple[Moment, ...], position: int) -> str:
    told = moments[position].told
    counts = puzzle.counts()
    steps = []
    for i, step in enumerate(puzzle.steps):
        state = "done" if i < told else "next" if i == told else "later"
        style = {"done": "", "next": "font-weight:600", "later": "opacity:.55"}[state]
        mark = "✓ " if state == "done" else "→ " if state == "next" else ""
        steps.append(f"<li style='{style}' data-state='{state}'>{mark}<b>{escape(step.speaker)}"
                     f"</b>: {escape(step.said)} <span style='opacity:.7'>({counts[i]:,} → "
                     f"{counted(counts[i + 1], 'world')})</span></li>")
    ending = (f"<div data-testid='puzzle-ending' style='margin-top:6px;font-weight:600'>"
              f"{escape(puzzle.ending)}</div>" if told == len(puzzle.steps) else "")
    return (f"<div style='margin-bottom:6px'>{escape(puzzle.story)}</div>"
            f"<ol style='margin:0;padding-left:1.4em' data-testid='puzzle-steps'>"
            f"{''.join(steps)}</ol>{ending}")


def status_html(puzzle: Puzzle, moment: Moment, position: int, total: int,
                what: str = "puzzle") -> str:
    """The status line; ``what`` the page shows ("puzzle", or "model" for one's own)."""
    model = moment.model
    n, began = model.n_worlds, puzzle.model.n_worlds
    # an event (the story's or yours) may split worlds: more than the puzzle began with
    if events_told(puzzle, moment) or n > began:
        of = (f"world{'s' * (n != 1)} possible (the {what} began with "
              f"{counted(began, 'world')})")
    else:
        of = f"of {counted(began, 'world')} possible"
    story = (f"story step {moment.told} of {len(puzzle.steps)} · " if puzzle.steps else "")
    return (f"<b data-testid='puzzle-worlds'>{n:,}</b> {of} · {story}"
            f"moment {position} of {total - 1}: {escape(moment.label)} · "
            f"actual world: {escape(puzzle.actual_world(model))}")


@solara.component
def PuzzleSettings(settings: solara.Reactive[Settings]):
    """The choices of the puzzle on show (only muddy children, consecutive numbers, the
    coordinated attack and the dining cryptographers have any)."""
    s = settings.value

    def set_field(**change) -> None:
        settings.set(replace(settings.value, **change))

    with solara.Row(gap="12px", style="flex-wrap:wrap;align-items:center",
                    classes=["ttr-params"]):
        if s.key == "muddy":
            solara.Select("Children", value=s.children, values=list(range(1, 9)),
                          on_value=lambda v: set_field(children=int(v), muddy=tuple(
                              c for c in s.muddy if c < int(v)) or (0,)),
                          dense=True, style="max-width:90px")
            solara.Text("muddy:", style="font-size:13px")
            solara.ToggleButtonsMultiple(
                value=[str(c) for c in s.muddy if c < s.children],
                on_value=lambda v: set_field(muddy=tuple(sorted(int(c) for c in v)) or (0,)),
                dense=True, children=[solara.Button(str(c), value=str(c))
                                      for c in range(s.children)])
        elif s.key == "consecutive":
            solara.Select("Anne's number (Bill's is one more)", value=s.anne,
                          values=list(range(0, 8)), on_value=lambda v: set_field(anne=int(v)),
                          dense=True, style="max-width:230px")
        elif s.key == "attack":
            solara.Select("Messengers", value=s.messengers, values=list(range(1, 9)),
                          on_value=lambda v: set_field(messengers=int(v)), dense=True,
                          style="max-width:110px")
        elif s.key == "dining":
            solara.Select("Who paid", value=s.payer, values=[0, 1, 2, 3],
                          on_value=lambda v: set_field(payer=int(v)), dense=True,
                          style="max-width:100px")
            solara.Select("Coins", value=s.coins,
                          values=[a + b + c for a in "HT" for b in "HT" for c in "HT"],
                          on_value=lambda v: set_field(coins=v), dense=True,
                          style="max-width:90px")
            solara.Text("(who paid: 0 is the NSA)", style="font-size:12px;opacity:.7")


@dataclass(frozen=True)
class Story(Shown):
    """The page's timeline: the moments so far and which is shown (what a side card reads,
    :class:`Shown`), and what moves among them: ``go`` to a moment, ``step`` to the next (the
    story's next step past the last), ``restart``, ``begin`` (the puzzle's start, or the
    opening it was given). ``fresh``: the puzzle is new and the page's effects have not run
    yet (its start is what is shown)."""

    fresh: bool
    go: Callable[[int], None]
    step: Callable[[], None]
    restart: Callable[[], None]
    begin: Callable[[], None]

    def at_end(self, puzzle: Puzzle) -> bool:
        """Whether there is no moment after this one and the story is told to its end."""
        return self.at == len(self.moments) - 1 and self.moment.told >= len(puzzle.steps)


def use_story(puzzle: Puzzle, opening: tuple[Moment, ...], said: solara.Reactive[str]) -> Story:
    """The moments of the puzzle shown: its start (or ``opening``, a share link's story, at
    its last moment, for as long as that model is shown), each step of its story, each moment
    of your own (``then``); moving among them clears what the last Announce ``said``."""
    def begin() -> tuple[tuple[Moment, ...], int]:
        if opening and opening[0].model is puzzle.model:
            return opening, len(opening) - 1
        return (Moment("the start", puzzle.model, 0),), 0

    # the moments so far and which one is shown, set together so no render sees one without
    # the other
    shown = solara.use_reactive(begin())

    def restart() -> None:
        shown.set(((Moment("the start", puzzle.model, 0),), 0))
        said.set("")

    told, at = shown.value
    fresh = told[0].model is not puzzle.model  # a new puzzle, before the effects have run
    if fresh:
        told, at = begin()
    moment = told[at]
    model = moment.model

    def go(index: int) -> None:
        shown.set((told, index))
        said.set("")

    def step() -> None:
        if at < len(told) - 1:
            go(at + 1)
            return
        if moment.told >= len(puzzle.steps):
            return
        story_step = puzzle.steps[moment.told]
        after = story_step.apply(model)
        shown.set(((*told, Moment(f"{story_step.speaker}: {story_step.said}", after,
                                  moment.told + 1, moment.events)), len(told)))
        said.set("")

    def then(made: Moment) -> None:
        """A moment of your own after the one shown (those after it are dropped: a new
        branch), shown."""
        kept = told[:at + 1]
        shown.set(((*kept, made), len(kept)))

    return Story(told, at, then, fresh, go, step, restart, lambda: shown.set(begin()))


@dataclass(frozen=True)
class View:
    """How the worlds card shows the moment: its ``model``; the puzzle as it names that
    model's worlds (``named``, :func:`own_names`); whose view (``perspective``; None: from
    outside) and whose classes are the boxes (``focus``); the worlds a graph places
    (``universe``; None: too many); whether the model is drawn by classes and which picture
    is drawn (``kind``); the frame class of the viewer (:func:`use_frame_class`); and the
    page's choices behind them (whose view, whose boxes, the kind of picture per puzzle)."""

    model: Drawn
    named: Puzzle
    agents: list[Agent]
    perspective: Agent | None
    focus: Agent
    universe: Drawn | None
    by_classes: bool
    kind: str
    frame: str | None
    choice: solara.Reactive[str]
    chosen: solara.Reactive[int]
    kinds: solara.Reactive[dict[str, str]]


def use_view(puzzle: Puzzle, moment: Moment) -> View:
    """How the moment is shown, from the page's choices (kept across moments and puzzles)."""
    choice = solara.use_reactive(OUTSIDE)
    chosen = solara.use_reactive(0)
    kinds: solara.Reactive[dict[str, str]] = solara.use_reactive({})  # picture kind per puzzle
    model = moment.model
    named = own_names(puzzle, moment)  # how this moment's worlds are called
    agents = list(puzzle.model.agents)
    perspective = None if choice.value == OUTSIDE or choice.value not in map(str, agents) \
        else agents[[str(a) for a in agents].index(choice.value)]
    focus = perspective if perspective is not None else agents[min(chosen.value,
                                                                   len(agents) - 1)]
    frame = use_frame_class(model, perspective)  # its own thread: see there
    universe = graph_universe(puzzle, model)
    # a belief model has no classes to draw: the graph, or (too many worlds) a note saying so
    by_classes = partitioned(model) and partitioned(puzzle.model)
    chosen_kind = kinds.value.get(puzzle.key, default_kind(puzzle))
    kind = GRAPH if (chosen_kind == GRAPH or not by_classes) and universe is not None \
        else CLASSES
    return View(model, named, agents, perspective, focus, universe, by_classes, kind, frame,
                choice, chosen, kinds)


@dataclass(frozen=True)
class Drawing:
    """The picture of the moment as on the page (``drawn``), and the two the exports make
    when asked: ``picture``, with the formula's fill and Why?'s rings, and ``plain``,
    without them."""

    drawn: Picture
    picture: Callable[[], Picture]
    plain: Callable[[], Picture]


def use_drawing(puzzle: Puzzle, story: Story, view: View, result: FormulaResult,
                numbers: dict[int, str]) -> Drawing:
    """The moment's picture. Layouts and graphs are kept per puzzle, so worlds stay where
    they are from moment to moment; the picture is made once per model, view and formula."""
    layouts: dict[tuple[str, bool, int | None, int, int], WorldsLayout] = solara.use_memo(dict,
                                                                                   [puzzle])
    graphs: list[GraphLayout] = solara.use_memo(list, [puzzle])
    told, at, moment = story.moments, story.at, story.moment
    model, named, perspective, focus = view.model, view.named, view.perspective, view.focus
    by_classes, kind = view.by_classes, view.kind

    def picture() -> Picture:
        """The picture as on the page: the formula's fill and Why?'s rings."""
        return marked(Marking(perspective, result.values, set(numbers)))

    def plain() -> Picture:
        """The picture without the teaching marks (no verdict fill, no rings): a slide of
        the model alone."""
        return marked(Marking(perspective))

    def marked(marking: Marking) -> Picture:
        if not by_classes and kind == CLASSES:
            return undrawn(model)
        if kind == GRAPH:
            # kept while it places every world left, so worlds stay where they are
            graph = moment_graph(named, told, at, focus, graphs)
            assert graph is not None
            return graph.picture(model, marking)
        # one layout per focus, and one more once a big puzzle has become small enough to
        # draw: kept from then on, so its worlds stay where they are while the story goes on
        # (a fixed layout outlines the class of its universe's actual world, so a story that
        # moves the actual world, the coordinated attack, gets one per actual world)
        key = (str(focus), model.n_worlds > DRAWN_LIMIT, actual_id(model),
               events_told(puzzle, moment), moment.events)
        kept = layouts.get(key)  # a layout that places worlds (a summary places none)
        placed = kept.pos if isinstance(kept, ClassGrid | FixedPositions) else None
        if key not in layouts or (placed is not None and
                                  not set(model.world_ids.tolist()) <= placed.keys()):
            # a model drawn by classes answers them (by_classes): an S5 model
            layouts[key] = puzzle_layout(named, cast(Partitioned, model), focus,
                                         moment.events)
        return layouts[key].picture(model, marking)

    # the values are the typed formula's in this model: its text says which (an array's id
    # would not, a freed array's id being reused by the next)
    drawn = solara.use_memo(picture, [model, str(focus), str(perspective), result.text,
                                      tuple(sorted(numbers.items())), kind])
    return Drawing(drawn, picture, plain)


@solara.component
def PuzzlePage(home: Callable[[], object] = lambda: None, given: Puzzle | None = None,
               side: Callable[[Shown], object] | None = None, brand: str = "Puzzles",
               opening: tuple[Moment, ...] = ()):
    """The gallery; or, with ``given``, that one model (the "Your model" page, which passes
    its editor as ``side``, shown where a puzzle's story is): the same timeline, picture,
    formula box, events and exports. ``opening``: the moments to open with, at the last (a
    share link's story, replayed on ``given``'s model), for as long as that model is shown."""
    settings = solara.use_reactive(Settings())
    built = solara.use_memo(lambda: build(settings.value), [settings.value])
    puzzle = given if given is not None else built
    text = solara.use_reactive("")
    said = solara.use_reactive("")
    story = use_story(puzzle, opening, said)
    view = use_view(puzzle, story.moment)
    model, named = view.model, view.named
    typed = "" if story.fresh else text.value
    result: FormulaResult = use_formula(model, typed)
    why = use_why(model, result, lambda: (named.describe, puzzle.agent_name), [model, result])

    def new_puzzle() -> None:
        """A formula is about one puzzle's atoms and agents: another puzzle starts empty (or
        with the story a link opened it with)."""
        story.begin()
        said.set("")
        text.set("")
        why.shown.set(False)

    solara.use_effect(new_puzzle, [puzzle])
    solara.use_effect(lambda: said.set(""), [text.value])  # it was about the formula before
    drawing = use_drawing(puzzle, story, view, result, why.numbers)
    with solara.Column(gap="10px", style="padding:6px 8px 8px 8px"):
        PuzzleHeader(puzzle, settings if given is None else None, story, view, brand, home)
        with solara.Columns([1, 1], gutters_dense=True, classes=["ttr-main"]):
            if side is not None:
                side(story)
            else:
                StoryCard(puzzle, story)
            WorldsCard(puzzle, story, view, text, typed, result, why, said, drawing.drawn,
                       given is None)
        with solara.Columns([1, 1], gutters_dense=True):
            FormulaHelp(text, list(puzzle.examples),
                        PUZZLE_SYNTAX if given is None else MODEL_SYNTAX)
            ExportCard(puzzle, story, view, drawing, given is not None)
    return None


@solara.component
def PuzzleHeader(puzzle: Puzzle, settings: solara.Reactive[Settings] | None, story: Story,
                 view: View, brand: str, home: Callable[[], object]):
    """The page's header: its name and links, the gallery's puzzles and their choices
    (``settings``; None on the "Your model" page), the story's steps, whose view, and the
    status line."""
    with solara.Card(margin=0, classes=["ttr-header"]):
        with solara.Row(classes=["ttr-header-row"]):
            with solara.Column(gap="0"):  # the links under the name: the row keeps
                solara.HTML(tag="div", unsafe_innerHTML=brand,  # its width for puzzles
                            classes=["ttr-brand"])
                home()
            if settings is not None:
                solara.ToggleButtonsSingle(
                    value=settings.value.key, dense=True, classes=["ttr-puzzles"],
                    on_value=lambda k: settings.set(replace(settings.value, key=k)),
                    children=[solara.Button(TITLES[k], value=k) for k in GALLERY])
        with solara.Row(classes=["ttr-header-row"]):
            StorySteps(puzzle, story)
            if settings is not None:
                PuzzleSettings(settings)
            # in the header, as on the game page: the worlds card keeps its height for
            # the picture and the formula
            WhoseView(puzzle, view)
        # the theme switch on the status line, which has room to spare: the row above is
        # full with four children's toggles and whose view
        with solara.Row(classes=["ttr-header-row"]):
            solara.HTML(tag="div", unsafe_innerHTML=status_html(
                view.named, story.moment, story.at, len(story.moments),
                "puzzle" if settings is not None else "model"),
                attributes={"data-testid": "puzzle-status"},
                style="font-size:13px;flex:1 1 0;min-width:0")
            with solara.Div(classes=["ttr-theme"]):
                solara.lab.ThemeToggle()


@solara.component
def StorySteps(puzzle: Puzzle, story: Story):
    """Back, Step (the next moment, or the story's next step) and Restart, in the header's
    row: the game's timeline steps (:func:`MomentSteps`) with the story's words."""
    with solara.Div(style="display:contents"):
        MomentSteps(lambda: story.go(story.at - 1), story.step, story.at != 0,
                    not story.at_end(puzzle), forward_label="Step ▶",
                    forward_title="the story's next step", back_title=None, color="primary")
        solara.Button("Restart", on_click=story.restart, small=True, outlined=True)


@solara.component
def WhoseView(puzzle: Puzzle, view: View):
    """Whose view the picture shows: from outside, or one agent's."""
    with solara.Row(gap="6px", style="align-items:center"):
        solara.Text("Whose view:", style="font-size:13px;font-weight:600")
        solara.ToggleButtonsSingle(
            value=view.choice.value, on_value=view.choice.set, dense=True,
            children=[solara.Button("outside", value=OUTSIDE),
                      *(solara.Button(puzzle.agent_name(a), value=str(a))
                        for a in view.agents)])


@solara.component
def StoryCard(puzzle: Puzzle, story: Story):
    """The puzzle's story, each step marked done, next or later, and its ending once told."""
    with solara.Card(puzzle.title, margin=0, classes=["ttr-card"]):
        solara.HTML(tag="div", unsafe_innerHTML=story_html(puzzle, story.moments, story.at),
                    attributes={"data-testid": "puzzle-story"},
                    style="font-size:14px;line-height:1.45")


@solara.component
def WorldsCard(puzzle: Puzzle, story: Story, view: View, text: solara.Reactive[str],
               typed: str, result: FormulaResult, why: Why, said: solara.Reactive[str],
               drawn: Picture, gallery: bool):
    """The worlds card: which picture and whose classes are its boxes, the formula box with
    Announce and Why?, the Event row, the picture with its caption, and its key."""
    pending: solara.Reactive[EventModel | None] = solara.use_reactive(None)  # ready to apply
    event_open = solara.use_reactive(False)  # the Event row: open, it takes room above
    model, moment, then, named = view.model, story.moment, story.then, view.named

    def announce() -> None:
        """The worlds where the evaluated formula holds (the button waits for its verdict)."""
        if result.holds is None or result.values is None or result.formula is None:
            return
        if not result.holds:
            said.set(f"Not announced: {result.text} is false at the actual world, and an "
                     "announcement must be true. Nothing changed.")
            return
        after = model.restrict(result.values)
        removed = model.n_worlds - after.n_worlds
        then(announced(moment, result.formula, result.text, after))
        said.set(f"You announced {result.text}: {removed:,} world{'s' * (removed != 1)} "
                 f"removed ({model.n_worlds:,} → {after.n_worlds:,}).")

    with solara.Card(margin=0, classes=["ttr-card"]):
        with solara.Row(style="align-items:center;flex-wrap:wrap;gap:4px 10px"):
            solara.HTML(tag="div", unsafe_innerHTML="Possible worlds", classes=["ttr-title"])
            PictureKind(view.kind,
                        lambda k: view.kinds.set({**view.kinds.value, puzzle.key: k}),
                        None if view.universe is not None else too_big(model),
                        None if view.by_classes else NO_CLASSES)
            if view.perspective is None and len(view.agents) > 1 and view.kind == CLASSES:
                BoxesChoice(puzzle, view)
        # Why? on every model: a belief model's steps read its arrows, each world
        # named as the graph names it, and rings it there as the classes do
        FormulaBar(text, result, model.n_worlds, announce=announce, said=said.value,
                   why=why.shown, chain=why.chain, step=why.step,
                   explaining=why.running, why_refused=why.refused,
                   hint="Type a formula, or pick an example further down; " + (
                       "the story names the atoms." if gallery else
                       "the atoms are the model's own."),
                   where=lambda values: names_where(model, values, plain_name(named)))
        EventRow(puzzle, story, view, typed, said, pending, event_open)
        PictureRow(puzzle, view, drawn, why.numbers, pending.value, event_open.value)
        solara.HTML(tag="div", unsafe_innerHTML=legend_html(
            puzzle, view.agents, agent_colour(puzzle.agent_names), view.kind,
            not view.by_classes, viewed=view.perspective is not None),
                    style="font-size:12px;opacity:.8;margin-top:6px")


@solara.component
def BoxesChoice(puzzle: Puzzle, view: View):
    """Whose classes the class view draws as boxes, seen from outside (an agent's view
    draws its own)."""
    # the label wraps with its buttons, never alone at a line's end
    with solara.Row(gap="6px", style="align-items:center"):
        solara.Text("boxes:", style="font-size:13px")
        solara.ToggleButtonsSingle(
            value=min(view.chosen.value, len(view.agents) - 1), on_value=view.chosen.set,
            dense=True, classes=["ttr-focus"],
            children=[solara.Button(puzzle.agent_name(a), value=i, text=True)
                      for i, a in enumerate(view.agents)])


@solara.component
def EventRow(puzzle: Puzzle, story: Story, view: View, typed: str,
             said: solara.Reactive[str], pending: solara.Reactive[EventModel | None],
             opened: solara.Reactive[bool]):
    """The Event control (:func:`EventControl`) on the moment shown: an event it applies is
    a moment of your own; ``pending``, the event ready to apply, drawn beside the picture;
    ``opened``, whether the row is open (it takes room above the picture)."""
    model, moment, then, agents = view.model, story.moment, story.then, view.agents
    gone = tab_gone()

    def event(prepared: Prepared) -> Drawn | None:
        """An event of your own: a moment like an announcement (Back undoes it), and the log
        says what each agent observed; the model it made (None: refused)."""
        events, label = prepared.events, prepared.label
        if events is None:
            return None
        try:  # refused before the product is built, as the control refuses it; stopped
            with stop_when(gone):  # when the tab goes
                check_product_size(model, events, UPDATE_LIMIT,
                                   where="a page's event may make", max_arrows=UPDATE_ARROWS)
                after = model.update(events)
        except ValueError as e:  # the control checked it; the model may have moved on since
            said.set(f"Not applied: {e}")
            return None
        except EvaluationStopped:  # nobody is there to see it
            return None
        seen = events.observations(agents, puzzle.agent_name)
        then(happened(moment, prepared, after, seen))
        said.set(f"Event {label}: {model.n_worlds:,} → {counted(after.n_worlds, 'world')}. "
                 f"{seen}.")
        return after

    EventControl(model, typed, event, puzzle.agent_name, on_prepared=pending.set,
                 opened=opened)


@solara.component
def PictureRow(puzzle: Puzzle, view: View, drawn: Picture, numbers: dict[int, str],
               pending: EventModel | None, event_open: bool):
    """The picture, the event ready to apply (``pending``) and the caption, fitted to the
    first screen."""
    model, agents, perspective = view.model, view.agents, view.perspective
    # a small puzzle is not blown up past 1.5 times its size (its text with it);
    # any picture, drawn at its own aspect, no taller than the room the page
    # measures on the first screen under the header, the formula, the Event row
    # and over the caption (PictureFit; before it has measured, a guess by
    # what is open above). The event model never takes room from it: it goes
    # beside the picture, at its own size, when it fits there, else under the
    # caption.
    above = 450 if not event_open else 530 if pending is None else 620
    widest = (f"min(100%, {1.5 * drawn.width:.0f}px, calc(var(--ttr-room, "
              f"calc(100vh - {above}px)) * {drawn.width / drawn.height:.3f}))")
    ink = agent_ink(puzzle.agent_names)  # lighter on the dark theme
    with solara.Row(gap="8px", classes=["ttr-picture-row"],
                    style="align-items:flex-start;flex-wrap:wrap;row-gap:4px"):
        PictureFit.element()
        solara.HTML(tag="div", unsafe_innerHTML=picture_svg(
            numbered(drawn, numbers), ink),
            attributes={"data-testid": "worlds-graph",
                        "data-drawn-worlds": str(drawn.drawn_worlds)},
            style=f"margin:4px auto 0;width:{widest};flex:0 0 auto")
        if pending is not None:
            with solara.Div(classes=["ttr-event-pic"],
                            style="flex:0 1 auto;max-width:100%;margin:4px auto 0;"
                                  "order:var(--ttr-event-order, 3)"):
                EventPicture(pending, agents, puzzle.agent_name, ink)
        # the caption under the picture, with the legend: the picture comes first
        # on the screen even with Why? and an event box open
        solara.HTML(tag="div", unsafe_innerHTML=caption_html(
            puzzle, model, drawn, perspective, view.frame),
            attributes={"data-testid": "worlds-caption"},
            style="font-size:13px;line-height:1.35;flex:1 0 100%;order:2")


@solara.component
def ExportCard(puzzle: Puzzle, story: Story, view: View, drawing: Drawing, own: bool):
    """The exports of the moment shown (``own``: a model of your own, its files named by its
    title, a puzzle's by its key)."""
    model, named = view.model, view.named
    with solara.Card("Export", margin=0):
        # the slide names the worlds as the graph does: a puzzle's short names
        # ("012"; its long ones overlap at a slide's width), else name and atoms
        ExportRow(drawing.picture, listed(model), named.short or named.describe,
                  f"{puzzle.title if own else puzzle.key}-moment{story.at}",
                  model.n_worlds, puzzle.agent_names,
                  f"{puzzle.title}: {story.moment.label}",
                  advice="step the story or announce until fewer are left",
                  label=plain_name(named), plain=drawing.plain)


#: Why a belief model has no class view (its button's title).
NO_CLASSES = ("a belief model's relations need not be partitions, so it has no classes to "
              "draw: the graph shows its arrows")


def undrawn(model: Drawn) -> Picture:
    """What stands for the picture of a belief model too big for the graph: a note."""
    note = (f"{model.n_worlds:,} worlds: the graph draws up to {GRAPH_LIMIT} and a belief "
            "model has no classes to summarise; announce something first. Frame class "
            f"{model.frame_class()}.")
    return Picture(560.0, 40.0, (), (), (), (Text(280.0, 24.0, note[:80]),), note, 0)


@solara.component
def PictureKind(kind: str, choose: Callable[[str], None], refused: str | None = None,
                no_classes: str | None = None):
    """The switch between the class view and the textbook graph; while the model is too big
    for a graph, the graph button is off and says why, as the classes button does for a
    belief model."""
    solara.ToggleButtonsSingle(
        value=kind, on_value=choose, dense=True, classes=["ttr-kind"],
        children=[solara.Button("classes", value=CLASSES, text=True,
                                disabled=no_classes is not None,
                                attributes={"title": no_classes or
                                            "worlds in boxes: a class per box"}),
                  solara.Button("graph", value=GRAPH, text=True, disabled=refused is not None,
                                attributes={"title": refused or "the textbook graph: an edge "
                                            "per pair of worlds an agent cannot tell apart"})])


def use_frame_class(model: Drawn, perspective: Agent | None) -> str | None:
    """The frame class of the agent whose view is shown, for the caption's words: at once
    for a model drawn by classes (S5), else in a thread of its own (a belief model's frame
    class is a pass over its arrows, and for a reflexive relation that is not S5 a bounded
    comparison of pairs of them: on a dense model it froze the tab 15–20 s). None while it is
    being worked out, or when it was too much work (the caption then says what any relation
    gives)."""
    direct = perspective is None or partitioned(model)

    def work(cancel: threading.Event) -> str | None:
        if direct:
            return None
        try:
            return model.frame_class(perspective)
        except ValueError:  # past the frame-class bound: words that hold for any relation
            return None

    running = solara.use_thread(work, dependencies=[model, str(perspective)],
                                intrusive_cancel=False)
    if direct:
        return None if perspective is None else "S5"
    return running.value if running.state == solara.ResultState.FINISHED else None


def caption_html(puzzle: Puzzle, model: Drawn, picture: Picture,
                 perspective: Agent | None, frame: str | None = None) -> str:
    """The line under the picture; ``frame``, the frame class of the agent whose view it is
    (:func:`use_frame_class`; None: not known, worded as for any relation)."""
    n = model.n_worlds
    head = f"<b data-testid='worlds-count'>{n:,}</b> world{'s' * (n != 1)} possible. "
    if perspective is not None:
        n = model.possible_count(perspective)
        who = escape(puzzle.agent_name(perspective)).capitalize()
        if frame == "S5":
            head += (f"{who} cannot tell apart the {n:,} world{'s' * (n != 1)} of its class; "
                     "the others are faded. ")
        else:  # a belief: where its arrows from the actual world lead
            head += (f"{who} considers {n:,} world{'s' * (n != 1)} possible from the actual "
                     "one (its arrows from there); the others are faded. ")
    # a belief model's graph names its frame class with its loops; an S5 model's is said here
    s5 = (" Frame class S5: every agent's relation is a partition (knowledge)."
          if model.frame_class() == "S5" else "")
    # the warning first: a long caption would push it under the fold
    return dead_ends_html(puzzle, model) + head + escape(picture.caption) + s5


def dead_ends_html(puzzle: Puzzle, model: Drawn) -> str:
    """What ``ttr-kripke model`` warns of, on the page: an agent with no arrow from a world
    (after an announcement took the worlds it pointed to) believes everything there, false
    too; its relation is not serial. "" when every agent has an arrow from every world."""
    name = plain_name(puzzle)
    said = []
    for agent in model.agents:
        worlds = model.dead_ends(agent).tolist()
        if worlds:
            who = puzzle.agent_name(agent)
            named = ", ".join(name(model, w) for w in worlds[:5]) + \
                (", ..." if len(worlds) > 5 else "")
            said.append(f"{who} has no arrow from {named}, so {who}'s relation is not "
                        f"serial: there {who} believes everything, false too.")
    if not said:
        return ""
    return (f"<div data-testid='dead-ends' style='color:#e65100;margin-bottom:2px'>"
            f"{escape(' '.join(said))}</div>")


def legend_html(puzzle: Puzzle, agents: list[Agent], colour: Callable[[Agent], str],
                kind: str = CLASSES, arrows: bool = False, viewed: bool = False) -> str:
    """The key under the picture. ``viewed``: an agent's view, where the graph circles no world
    as actual (the agent cannot tell which it is), so the key does not say one is."""
    actual = ("No world is doubly circled: in an agent's view none is marked actual."
              if viewed else "Doubly circled: the actual world.")

    def called(a: Agent) -> str:  # in a graph, with the name its edges carry
        name = puzzle.agent_name(a)
        return name if kind != GRAPH or name == str(a) else f"{name} ({a})"

    swatches = "".join(f"<span style='margin-right:.8em'><span style='color:{colour(a)}'>■"
                       f"</span> {escape(called(a))}</span>" for a in agents)
    if kind == GRAPH and arrows:
        return (f"{swatches}<br>{actual} An arrow in an agent's "
                "colour, labelled with it: from a world to one the agent considers possible "
                "there; a loop: the world is possible from itself. Hover a world for what holds "
                "there; a pale dot and name: removed by an announcement; a dashed orange ring, "
                "numbered: a world the steps of Why? rest on.")
    if kind == GRAPH:
        return (f"{swatches}<br>{actual} An edge in an agent's colour, "
                "labelled with it: two worlds it cannot tell apart. Hover a world for what "
                "holds there; a pale dot and name: removed by an announcement; a dashed orange "
                "ring: the counterexample Why? points at.")
    return (f"{swatches}<br>★ the actual world. A box in an agent's colour: worlds it cannot "
            "tell apart; a line in its colour joins such worlds. Hover a world for what holds "
            "there; a pale dot: removed by an announcement; a dashed orange ring, numbered: a "
            "world the steps of Why? rest on.")

