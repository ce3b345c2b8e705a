"""Event models written by hand: a small line-oriented text a teacher can type, in the style of
the hand-written model format (``world w1: p q``, ``alice: {w1} {w2 w3}``, ``actual: w1``).

::

    # Alice reads a letter saying whether p; Bob sees her read it
    event yes: pre p       # the letter says p
    event no: pre ~p
    alice: {yes} {no}      # the events alice tells apart, class by class
    actual: yes

``event NAME: pre FORMULA`` gives an event and its precondition (the formula syntax of
:func:`kripke.parse`); ``AGENT: {e1 e2} {e3}`` the events an agent cannot tell apart, class by
class; ``actual: NAME`` the event that happens. Lines may come in any order; ``#`` starts a
comment. An event an agent's classes leave out is a class of its own (``alice:`` alone: she
tells every event apart), as in the model format; an agent without a line tells *no* events
apart (it sees that something happens, not what), which is what an event model means by the
onlookers. ``str(event_model)`` writes this text back.

Every mistake is an :class:`EventFileError` with the 1-based line and column and a message that
says what to change.

The ready-made events of :mod:`kripke.events.model` are also written on one line
(:data:`READY_MADE`),
``learns:alice:p`` or ``shows:a:b:red(a),white(a),blue(a)``, so that a command line or a page
names one without writing its events out; :func:`load_event_model` reads all three forms.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from kripke.errors import ModelError, quoted
from kripke.events.model import (
    EVENT_NAME,
    Event,
    EventModel,
    learn_together,
    learns_whether,
    may_learn,
    private_announcement,
    public_announcement,
    public_assignment,
    secret_flip,
    secret_look,
    shows_card,
)
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import UPGRADES, RankedEvents, upgrade
from kripke.files.reader import ARROW, LineReader, ReadError, Word, read_source, skip
from kripke.interface import EpistemicModel
from kripke.language.formula import Agent, Atom, Formula
from kripke.language.names import AGENT
from kripke.language.parser import MAX_DIGITS, FormulaError, parse
from lookalikes.characters import shown

if TYPE_CHECKING:  # a model read from a file never needs the BDD library
    pass

_EVENT_LINE = re.compile(r"\s*event\b")
_DECLARED = re.compile(rf"\s*event\s+({EVENT_NAME.pattern})\s*:")
_POST_LINE = re.compile(r"\s*post\b")
_ASSIGN = re.compile(r"\s*([^,:=]+?)\s*:=")
_ACTUAL_LINE = re.compile(r"\s*actual\s*:")
_AGENT_LINE = re.compile(rf"\s*({AGENT.pattern})\s*:")
_RANKS_LINE = re.compile(rf"\s*({AGENT.pattern})\s+ranks\s*:")
_LINES = ("a line is one of 'event e1: pre p', 'post e1: p := true, q := ~q', "
          "'a: {e1 e2} {e3}', 'a: e1 -> e2', 'a ranks: e1 < e2' or 'actual: e1'")


#: The ready-made events written on one line: the kind, its form and what it means. A is an
#: agent, F a formula; the actual event is the first of the events that can happen at the
#: model's actual world (so ``learns:a:p`` works whichever way p is).
READY_MADE = {
    "announce": ("announce:F", "everyone learns that F (as --announce F)"),
    "learns": ("learns:A:F", "A learns whether F; the others see A learn it, not what"),
    "together": ("together:A,B:F", "A and B learn whether F together; the others see that "
                 "they do, not what"),
    "may": ("may:A:F", "A may have learned whether F (and did); the others cannot tell "
            "whether A did"),
    "shows": ("shows:A:B:F1,F2,...", "A shows B one of the cards F1, F2, ... (the first A "
              "holds); the others see that a card is shown, not which"),
    "private": ("private:A:F", "A learns that F in private; the others believe nothing "
                "happened"),
    "secret": ("secret:A:F", "A finds out whether F in secret; the others believe nothing "
               "happened"),
    "flip": ("flip:A:P", "A toggles the atom P in secret; the others believe nothing changed"),
    "set": ("set:P:F", "everyone sees the atom P set to the value F had (P := F)"),
    "radical": ("radical:F", "soft information F (⇑F): every F-world becomes more plausible "
                "than every other, for everyone"),
    "conservative": ("conservative:F", "soft information F, minimal change (↑F): the most "
                     "plausible F-worlds go on top, for everyone"),
    "shift": ("shift:F", "evidence for F (Spohn): every world where F fails drops one rank, "
              "for everyone"),
}
#: The ready-made events that name the agents who did not see (the model's other agents).
_UNSEEN = {"private": private_announcement, "secret": secret_look}
def is_ready_made(source: object) -> bool:
    """Whether ``source`` is meant as a ready-made event written on one line (``learns:a:p``):
    a line that is no file and no event's line (an event model of one event)."""
    return (isinstance(source, str) and "\n" not in source and not os.path.isfile(source)
            and not source.endswith(".events") and not _EVENT_LINE.match(source))


def load_event_model(source: str | os.PathLike[str],
                     model: EpistemicModel | None = None
                     ) -> EventModel:
    """The event model a source gives: a ready-made one on a line (:data:`READY_MADE`), a
    file (a path; a ``str`` of one line is one when such a file exists or it ends in
    ``.events``) or the text itself, read as :func:`kripke.files.modelfile.load_model` reads a
    model. With ``model``, a ready-made event's actual event is the first that can happen at
    the model's actual world; a hand-written one says its own."""
    if is_ready_made(source):
        return ready_made(str(source), model)
    text, origin = read_source(source, (".events",), "event model", "event yes: pre p")
    events = parse_event_model(text, origin, None if model is None else model.atoms)
    if model is not None and isinstance(events, RankedEvents):
        _orderable(model, origin or "the event model")
    return events


def _orderable(model: EpistemicModel, what: str) -> None:
    """Refuse (one line) an upgrade or ordered events on a model with arrows (listed or
    symbolic), whose update would not read an order: a plausibility order ranks the worlds of
    classes."""
    if not isinstance(model, KripkeModel):
        raise ModelError(f"{what} orders the worlds of each agent's classes, and this model "
                         "has arrows (a belief model); write it with classes to revise "
                         "beliefs ('a: {w1 w2}', 'a ranks: w1 < w2')")


def ready_made(spec: str,
               model: EpistemicModel | None = None
               ) -> EventModel:
    """A ready-made event written on one line, as :data:`READY_MADE` lists them; a
    :class:`ModelError` (one line, with the form to write) for anything else."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip()
    if kind not in READY_MADE:
        raise ModelError(f"{quoted(spec)} is no ready-made event; write one of "
                         f"{', '.join(form for form, _ in READY_MADE.values())}, or give an "
                         "event model's file or text")
    form, meaning = READY_MADE[kind]
    parts = [part.strip() for part in rest.split(":")]
    if len(parts) != form.count(":") or not all(parts):
        raise ModelError(f"{quoted(spec)}: write {form} ({meaning})")
    texts = _cards(parts[-1]) if kind == "shows" else [parts[-1]]
    try:
        formulas = [parse(text) for text in texts]
    except FormulaError as e:  # its own text shows the formula with a caret: two lines
        near, _ = e.excerpt()
        raise ModelError(f"in {quoted(spec)}: {e.message} (at character {e.position + 1:,} of "
                         f"the formula: {near}); fix the formula") from None
    if kind == "set":
        return _assignment(spec, parts[0], formulas[0])
    if kind in UPGRADES:
        if model is not None:
            _orderable(model, spec)
            model.values(formulas[0])  # an unknown atom or agent, before any work
        return upgrade(kind, formulas[0])
    named = [[_ready_agent(name, spec) for name in part.split(",")] for part in parts[:-1]]
    if kind != "together" and any(len(group) > 1 for group in named):
        # private:alice,bob:q took alice alone, silently; the page refuses it in these words
        raise ModelError(f"in {quoted(spec)}: " + (
            f"one agent shows a card and one sees it; write {form}" if kind == "shows" else
            f"one agent {'learns' if kind == 'learns' else 'acts'}; for more, write "
            "together:A,B:F"))
    agents = [agent for group in named for agent in group]
    if kind in ("private", "secret", "flip"):
        if model is None:
            raise ModelError(f"{quoted(spec)} needs the model, whose other agents believe nothing "
                             "happened")
        if kind == "flip":
            if not isinstance(formulas[0], Atom):
                raise ModelError(f"in {quoted(spec)}: flip toggles an atom, e.g. flip:a:heads")
            events = secret_flip(agents[0], formulas[0], model.agents)
        else:
            events = _UNSEEN[kind](agents[0], formulas[0], model.agents)
    elif kind == "announce":
        events = public_announcement(formulas[0])
    elif kind == "learns":
        events = learns_whether(agents[0], formulas[0])
    elif kind == "together":
        events = learn_together(agents, formulas[0])
    elif kind == "may":
        events = may_learn(agents[0], formulas[0])
    else:
        if not all(isinstance(card, Atom) for card in formulas):
            raise ModelError(f"in {quoted(spec)}: the cards are atoms (a card the shower holds), "
                             "e.g. shows:a:b:red(a),white(a),blue(a)")
        cards = [str(card) for card in formulas]
        events = shows_card(agents[0], agents[1], cards, cards[0], atom="{card}")
    if model is not None:
        events.check_agents(model.agents)
    if model is not None and model.has_actual:
        happens = [e.name for e in events.events if model.holds(e.precondition)]
        if happens:
            events = events.at(happens[0])
    return events


def _assignment(spec: str, atom: str, value: Formula) -> EventModel:
    """``set:P:F``: the public assignment P := F."""
    try:
        return public_assignment(Atom(atom), value)
    except ValueError:
        raise ModelError(f"in {quoted(spec)}: {quoted(atom)} is not an atom; write set:P:F "
                         "with an atom P, e.g. set:heads:false") from None


def _ready_agent(name: str, spec: str) -> Agent:
    name = name.strip()
    if not AGENT.fullmatch(name):
        raise ModelError(f"in {quoted(spec)}: {quoted(name)} is not an agent's name; agents are "
                         "separated by commas, e.g. together:a,b:p")
    if name.isdigit() and len(name) > MAX_DIGITS:  # int() refuses 4,300 with Python's advice
        raise ModelError(f"in {quoted(spec)}: an agent numbered with {len(name):,} digits; "
                         f"agents are numbered with at most {MAX_DIGITS}")
    return int(name) if name.isdigit() else name


def _cards(text: str) -> list[str]:
    """The comma-separated cards of ``shows``: a comma inside brackets (``p(0,3)``) belongs
    to its card."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


class EventFileError(ReadError):
    """An event model's text that cannot be read: ``line`` and ``column`` (1-based) say where,
    the message what is wrong and how to fix it. A :class:`ModelError`, so a ValueError."""


def parse_event_model(text: str, source: str | None = None,
                      atoms: Iterable[Atom] | None = None) -> EventModel:
    """The event model a text describes (see the module's docstring); :class:`EventFileError`
    at the first mistake (``source``, a file name, goes in front of its message). With
    ``atoms`` (the model's), an assignment to any other atom is such a mistake."""
    return _Reader(text, source, atoms).event_model()


class _Reader(LineReader[EventFileError]):
    """Reads the lines (a mistake in one stops it at once, in file order), then checks that
    the names they use agree and builds the event model."""

    failure = EventFileError
    noun = "event"
    word_pattern = re.compile(r'[^\s,{}"]+')

    def __init__(self, text: str, source: str | None,
                 atoms: Iterable[Atom] | None = None) -> None:
        super().__init__(text, source)
        self.declared = [m.group(1) for raw in self.text_lines
                         if (m := _DECLARED.match(raw))]
        self.atoms = None if atoms is None else tuple(atoms)
        self.events: list[tuple[Word, Formula]] = []
        self.partitions: list[tuple[Word, list[list[Word]]]] = []
        self.arrows: list[tuple[Word, Word, list[Word]]] = []
        self.posts: list[tuple[Word, list[tuple[Word, Formula]]]] = []
        self.actual: list[Word] = []
        self.ranks: list[tuple[Word, tuple[tuple[Word, ...], ...]]] = []
        for number, raw in enumerate(self.text_lines, start=1):
            self.read(number, self.uncommented(number, raw))

    # --- one line ------------------------------------------------------------------------

    def read(self, number: int, text: str) -> None:
        if not text.strip():
            return
        if match := _EVENT_LINE.match(text):
            self.event(number, text, match.end())
        elif match := _POST_LINE.match(text):
            self.post(number, text, match.end())
        elif match := _ACTUAL_LINE.match(text):
            names = self.names(number, text, match.end())
            if len(names) != 1:
                at = names[1].column if names else len(text.rstrip()) + 1
                raise self.error(f"'actual:' names one event, e.g. 'actual: "
                                 f"{self.examples(1)[0]}'", number, at)
            self.actual.append(names[0])
        elif match := _RANKS_LINE.match(text):
            agent = Word(match.group(1), number, match.start(1) + 1)
            levels = self.chain(number, text, match.end(), agent.text)
            self.ranks.append((agent, tuple(tuple(self.named(level)) for level in levels)))
        elif match := _AGENT_LINE.match(text):
            agent = Word(match.group(1), number, match.start(1) + 1)
            if (arrow := ARROW.search(text, match.end())) is not None:
                source, *targets = self.named(
                    self.arrow_list(number, text, agent.text, match.end(), arrow))
                self.arrows.append((agent, source, targets))
            else:
                classes = self.classes(number, text, match.end(), agent.text)
                self.partitions.append((agent, [self.named(block) for block in classes]))
        else:
            raise self.error(f"cannot read this line; {_LINES}", number, skip(text, 0) + 1)

    def event(self, number: int, text: str, position: int) -> None:
        """``event NAME: pre FORMULA``, read from ``position`` (after the word 'event')."""
        position = skip(text, position)
        name = EVENT_NAME.match(text, position)
        if name is None:
            raise self.error("an event line is 'event', its name, ':', 'pre' and the "
                             "precondition: 'event e1: pre p'", number, position + 1)
        position = skip(text, name.end())
        if not text.startswith(":", position):
            raise self.error(f"expected ':' after the event name {name.group()!r}, as in "
                             f"'event {name.group()}: pre p'", number, position + 1)
        position = skip(text, position + 1)
        if not re.match(r"pre\b", text[position:]):
            raise self.error("expected 'pre' and the event's precondition after ':', as in "
                             f"'event {name.group()}: pre p'", number, position + 1)
        start = position + 3
        try:
            precondition = parse(text[start:])
        except FormulaError as e:
            raise self.error(f"{e.message} (in the precondition)", number,
                             start + e.position + 1) from None
        self.events.append((Word(name.group(), number, name.start() + 1), precondition))

    def post(self, number: int, text: str, position: int) -> None:
        """``post e: p := φ, q := ψ``: the event's assignments (a comma inside brackets
        belongs to its formula)."""
        position = skip(text, position)
        name = EVENT_NAME.match(text, position)
        colon = skip(text, name.end()) if name else position
        if name is None or not text.startswith(":", colon):
            raise self.error("a post line is 'post', the event's name, ':' and its "
                             "assignments: 'post e1: p := true, q := ~q'", number, colon + 1)
        changes: list[tuple[Word, Formula]] = []
        start = colon + 1
        for part in _cards(text[start:]):
            offset = text.index(part, start) if part else start
            assign = _ASSIGN.match(text, offset)
            if assign is None:
                raise self.error("an assignment is 'atom := formula', e.g. 'p := ~p'",
                                 number, skip(text, offset) + 1)
            try:
                atom = Atom(assign.group(1))
            except ValueError:
                raise self.error(f"{assign.group(1)!r} is not an atom; assign an atom, e.g. "
                                 "'p := true'", number, assign.start(1) + 1) from None
            try:
                value = parse(text[assign.end():offset + len(part)])
            except FormulaError as e:
                raise self.error(f"{e.message} (in the value of {atom})", number,
                                 assign.end() + e.position + 1) from None
            changes.append((Word(str(atom), number, assign.start(1) + 1), value))
            start = offset + len(part) + 1
        self.posts.append((Word(name.group(), number, name.start() + 1), changes))

    def names(self, number: int, text: str, position: int) -> list[Word]:
        """Event names, separated by spaces or commas."""
        return self.named(self.words(number, text, position))

    def named(self, words: tuple[Word, ...]) -> list[Word]:
        """The words, each checked to be an event's name."""
        for word in words:
            if not EVENT_NAME.fullmatch(word.text):
                raise self.error(f"{shown(word.text)} is not an event name (letters, digits, _ "
                                 "and ', starting with a letter)", word.line, word.column)
        return list(words)

    # --- the event model -------------------------------------------------------------------

    def event_model(self) -> EventModel:
        if not self.events:
            raise self.at_end("no events; define one with 'event e1: pre p'")
        defined: dict[str, Word] = {}
        for name, _ in self.events:
            if name.text in defined:
                raise self.error(f"event {name.text!r} is already defined on line "
                                 f"{defined[name.text].line}; give it another name",
                                 name.line, name.column)
            defined[name.text] = name
        self.distinct(((name.text, name) for name, _ in self.events), "event")
        heads = [agent for agent, _ in self.partitions] + [agent for agent, *_ in self.arrows]
        self.distinct(((agent.text, agent) for agent in heads), "agent")
        partitions: list[tuple[Agent, tuple[tuple[str, ...], ...]]] = []
        agents: dict[str, Word] = {}
        for agent, classes in self.partitions:
            if agent.text in agents:
                raise self.error(f"agent {agent.text} already has its classes on line "
                                 f"{agents[agent.text].line}; put them on one line",
                                 agent.line, agent.column)
            agents[agent.text] = agent
            seen: set[str] = set()
            for name in (n for block in classes for n in block):
                self.defined(name, defined)
                if name.text in seen:
                    raise self.error(f"event {name.text!r} is in two of agent {agent.text}'s "
                                     "classes; put it in one", name.line, name.column)
                seen.add(name.text)
            blocks = [tuple(n.text for n in block) for block in classes]
            blocks += [(name,) for name in defined if name not in seen]  # left out: alone
            partitions.append((int(agent.text) if agent.text.isdigit() else agent.text,
                               tuple(blocks)))
        if not self.actual:
            raise self.at_end("no 'actual:' line; name the event that happens, e.g. "
                              f"'actual: {next(iter(defined))}'")
        if len(self.actual) > 1:
            again = self.actual[1]
            raise self.error(f"the actual event is already named on line {self.actual[0].line}"
                             "; keep one 'actual:' line", again.line, 1)
        actual = self.actual[0]
        self.defined(actual, defined)
        arrows = self.relations(defined, agents)
        post = self.assignments(defined)
        events = tuple(Event(name.text, pre, post.get(name.text, ()))
                       for name, pre in self.events)
        ranks = self.orders(defined, {a.text for a, _, _ in self.arrows})
        if ranks:
            return RankedEvents(events, tuple(partitions), actual.text, arrows, ranks=ranks)
        return EventModel(events, tuple(partitions), actual.text, arrows)

    def orders(self, defined: dict[str, Word], with_arrows: set[str]
               ) -> tuple[tuple[Agent, tuple[int, ...]], ...]:
        """Each ordering agent's rank per event from its 'ranks:' lines: every event once."""
        ranks: dict[str, dict[str, int]] = {}
        where: dict[str, Word] = {}
        for agent, levels in self.ranks:
            if agent.text in with_arrows:
                raise self.error(f"agent {agent.text} has arrows and an order; an order ranks "
                                 "events an agent cannot tell apart: give it classes "
                                 f"('{agent.text}: {{e1 e2}}') or no line", agent.line,
                                 agent.column)
            placed = ranks.setdefault(agent.text, {})
            where.setdefault(agent.text, agent)
            for level, names in enumerate(levels):
                for name in names:
                    self.defined(name, defined)
                    if name.text in placed:
                        raise self.error(f"event {name.text} is ranked twice for "
                                         f"{agent.text}; an order names each event once",
                                         name.line, name.column)
                    placed[name.text] = level
        for who, placed in ranks.items():
            if left := [name for name in defined if name not in placed]:
                raise self.error(f"{who}'s order leaves out {', '.join(left)}; an order ranks "
                                 f"every event: add it ('= {left[0]}' as plausible as the "
                                 f"last, '< {left[0]}' less plausible)", where[who].line,
                                 where[who].column)
        return tuple((int(a) if a.isdigit() else a, tuple(placed[n] for n in defined))
                     for a, placed in ranks.items())

    def defined(self, name: Word, defined: dict[str, Word]) -> None:
        """Refuse a name no 'event' line defines, listing those that do."""
        if name.text not in defined:
            raise self.error(f"no event is named {name.text!r}; the events are "
                             f"{', '.join(defined)}", name.line, name.column)

    def relations(self, defined: dict[str, Word], classes: dict[str, Word]
                  ) -> tuple[tuple[Agent, tuple[tuple[str, str], ...]], ...]:
        """Each agent's arrows from its arrow lines; an agent with classes too is refused."""
        found: dict[str, list[tuple[str, str]]] = {}
        for agent, source, targets in self.arrows:
            if agent.text in classes:
                raise self.error(f"agent {agent.text} has classes on line "
                                 f"{classes[agent.text].line} and arrows here; give it one or "
                                 "the other: arrows (belief) or classes (knowledge), and "
                                 "remove the other line", agent.line, agent.column)
            for name in (source, *targets):
                self.defined(name, defined)
            found.setdefault(agent.text, []).extend((source.text, t.text) for t in targets)
        return tuple((int(a) if a.isdigit() else a, tuple(pairs)) for a, pairs in found.items())

    def assignments(self, defined: dict[str, Word]
                    ) -> dict[str, tuple[tuple[Atom, Formula], ...]]:
        """Each event's assignments, at most one 'post' line per event."""
        found: dict[str, tuple[tuple[Atom, Formula], ...]] = {}
        for event, changes in self.posts:
            self.defined(event, defined)
            if event.text in found:
                raise self.error(f"event {event.text} already has its 'post' line; put its "
                                 "assignments on one line", event.line, event.column)
            seen: set[str] = set()
            for atom, _ in changes:
                if atom.text in seen:
                    raise self.error(f"{atom.text} is assigned twice; keep one",
                                     atom.line, atom.column)
                seen.add(atom.text)
                if self.atoms is not None and Atom(atom.text) not in self.atoms:
                    known = ", ".join(str(a) for a in self.atoms[:8])
                    raise self.error(f"atom {atom.text} is not the model's (its atoms: "
                                     f"{known}); add it to the model's 'atoms:' line or fix "
                                     "the spelling", atom.line, atom.column)
            found[event.text] = tuple((Atom(atom.text), value) for atom, value in changes)
        return found
