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

The ready-made events of :mod:`kripke.events` are also written on one line (:data:`READY_MADE`),
``learns:alice:p`` or ``shows:a:b:red(a),white(a),blue(a)``, so that a command line or a page
names one without writing its events out; :func:`load_event_model` reads all three forms.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from kripke.belief import BeliefModel
from kripke.errors import ModelError
from kripke.events import (
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
from kripke.formula import Agent, Atom, Formula
from kripke.model import KripkeModel
from kripke.names import AGENT
from kripke.parser import FormulaError, parse
from kripke.reader import LineReader, ReadError, read_source, skip

_EVENT_LINE = re.compile(r"\s*event\b")
_POST_LINE = re.compile(r"\s*post\s+([A-Za-z_][A-Za-z0-9_']*)\s*:")
_ACTUAL_LINE = re.compile(r"\s*actual\s*:")
_AGENT_LINE = re.compile(rf"\s*({AGENT.pattern})\s*:")
_LINES = ("a line is one of 'event e1: pre p', 'post e1: p := q', 'a: {e1 e2} {e3}', "
          "'a: e1 -> e2 e3' or 'actual: e1'")


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
    "secret": ("secret:A:F", "A finds out whether F in secret (looks under the cup); the "
               "others believe nothing happened"),
    "flip": ("flip:A:P", "A turns the atom P over in secret (P := ~P); the others believe "
             "nothing changed"),
    "set": ("set:P:F", "everyone sees the atom P set to the value F had (P := F)"),
}
def is_ready_made(source: object) -> bool:
    """Whether ``source`` is meant as a ready-made event written on one line (``learns:a:p``):
    a line that is no file and no event's line (an event model of one event)."""
    return (isinstance(source, str) and "\n" not in source and not os.path.isfile(source)
            and not source.endswith(".events") and not _EVENT_LINE.match(source))


def load_event_model(source: str | os.PathLike[str],
                     model: KripkeModel | BeliefModel | None = None) -> EventModel:
    """The event model a source gives: a ready-made one on a line (:data:`READY_MADE`), a
    file (a path; a ``str`` of one line is one when such a file exists or it ends in
    ``.events``) or the text itself, read as :func:`kripke.modelfile.load_model` reads a
    model. With ``model``, a ready-made event's actual event is the first that can happen at
    the model's actual world; a hand-written one says its own."""
    if is_ready_made(source):
        return ready_made(str(source), model)
    text, origin = read_source(source, (".events",), "event model", "event yes: pre p")
    return parse_event_model(text, origin)


def ready_made(spec: str, model: KripkeModel | BeliefModel | None = None) -> EventModel:
    """A ready-made event written on one line, as :data:`READY_MADE` lists them; a
    :class:`ModelError` (one line, with the form to write) for anything else."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip()
    if kind not in READY_MADE:
        raise ModelError(f"{spec!r} is no ready-made event; write one of "
                         f"{', '.join(form for form, _ in READY_MADE.values())}, or give an "
                         "event model's file or text")
    form, meaning = READY_MADE[kind]
    parts = [part.strip() for part in rest.split(":")]
    if len(parts) != form.count(":") or not all(parts):
        raise ModelError(f"{spec!r}: write {form} ({meaning})")
    texts = _cards(parts[-1]) if kind == "shows" else [parts[-1]]
    try:
        formulas = [parse(text) for text in texts]
    except FormulaError as e:  # its own text shows the formula with a caret: two lines
        raise ModelError(f"in {spec!r}: {e.message} (at character {e.position + 1} of the "
                         "formula); fix the formula") from None
    agents = [_ready_agent(name, spec) for part in parts[:-1] for name in part.split(",")
              if kind != "set"]
    others = [a for a in (model.agents if model is not None else ())
              if agents and str(a) != str(agents[0])]
    if kind in ("private", "secret", "flip") and model is None:
        raise ModelError(f"{spec!r}: the others who believe nothing happened are the model's "
                         "other agents; give the model")
    atom: Atom | None = None  # the atom flip and set change
    if kind in ("flip", "set"):
        given = formulas[0] if kind == "flip" else _atom(parts[0], spec)
        if not isinstance(given, Atom):
            raise ModelError(f"in {spec!r}: {given} is not an atom; {form} sets an atom")
        atom = given
    if kind == "announce":
        events = public_announcement(formulas[0])
    elif kind == "learns":
        events = learns_whether(agents[0], formulas[0])
    elif kind == "together":
        events = learn_together(agents, formulas[0])
    elif kind == "may":
        events = may_learn(agents[0], formulas[0])
    elif kind == "private":
        events = private_announcement(agents[0], formulas[0], others)
    elif kind == "secret":
        events = secret_look(agents[0], formulas[0], others)
    elif kind == "flip" and atom is not None:
        events = secret_flip(agents[0], atom, others)
    elif kind == "set" and atom is not None:
        events = public_assignment(atom, formulas[0])
    else:
        if not all(isinstance(card, Atom) for card in formulas):
            raise ModelError(f"in {spec!r}: the cards are atoms (a card the shower holds), "
                             "e.g. shows:a:b:red(a),white(a),blue(a)")
        cards = [str(card) for card in formulas]
        events = shows_card(agents[0], agents[1], cards, cards[0], atom="{card}")
    if model is not None:
        events.check_agents(model.agents)
    if model is not None and model.actual is not None:
        happens = [e.name for e in events.events if model.holds(e.precondition)]
        if happens:
            events = events.at(happens[0])
    return events


def _atom(text: str, spec: str) -> Formula:
    """The atom ``set:P:F`` sets, read as a formula (an error says where)."""
    try:
        return parse(text)
    except FormulaError as e:
        raise ModelError(f"in {spec!r}: {e.message} (in the atom); fix it") from None


def _ready_agent(name: str, spec: str) -> Agent:
    name = name.strip()
    if not AGENT.fullmatch(name):
        raise ModelError(f"in {spec!r}: {name!r} is not an agent's name; agents are "
                         "separated by commas, e.g. together:a,b:p")
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


@dataclass(frozen=True)
class _Name:
    text: str
    line: int
    column: int  # 1-based


def parse_event_model(text: str, source: str | None = None) -> EventModel:
    """The event model a text describes (see the module's docstring); :class:`EventFileError`
    at the first mistake (``source``, a file name, goes in front of its message)."""
    return _Reader(text, source).event_model()


class _Reader(LineReader[EventFileError]):
    """Reads the lines (a mistake in one stops it at once, in file order), then checks that
    the names they use agree and builds the event model."""

    failure = EventFileError

    def __init__(self, text: str, source: str | None) -> None:
        super().__init__(text, source)
        self.events: list[tuple[_Name, Formula]] = []
        self.partitions: list[tuple[_Name, list[list[_Name]]]] = []
        #: per agent line with arrows: the agent, the event they leave, the events they reach
        self.arrows: list[tuple[_Name, _Name, list[_Name]]] = []
        #: per post line: the event and its assignments (atom, its column, the formula)
        self.posts: list[tuple[_Name, list[tuple[Atom, int, Formula]]]] = []
        self.actual: list[_Name] = []
        for number, raw in enumerate(self.text_lines, start=1):
            self.read(number, raw.split("#", 1)[0])

    # --- one line ------------------------------------------------------------------------

    def read(self, number: int, text: str) -> None:
        if not text.strip():
            return
        if match := _EVENT_LINE.match(text):
            self.event(number, text, match.end())
        elif match := _POST_LINE.match(text):
            name = _Name(match.group(1), number, match.start(1) + 1)
            self.posts.append((name, self.assignments(number, text, match.end())))
        elif match := _ACTUAL_LINE.match(text):
            names = self.names(number, text, match.end())
            if len(names) != 1:
                at = names[1].column if names else len(text.rstrip()) + 1
                raise self.error("'actual:' names one event, e.g. 'actual: e1'", number, at)
            self.actual.append(names[0])
        elif match := _AGENT_LINE.match(text):
            agent = _Name(match.group(1), number, match.start(1) + 1)
            if "->" in text[match.end():]:
                self.arrow_line(agent, number, text, match.end())
            else:
                self.partitions.append((agent, self.classes(number, text, match.end())))
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
        self.events.append((_Name(name.group(), number, name.start() + 1), precondition))

    def arrow_line(self, agent: _Name, number: int, text: str, position: int) -> None:
        """``a: e1 -> e2 e3``: where e1 happens, a considers e2 and e3 possible (none: a
        believes nothing possible there)."""
        arrow = text.index("->", position)
        left = self.names(number, text[:arrow], position)
        if len(left) != 1:
            at = left[1].column if left else arrow + 1
            raise self.error(f"an arrow line is '{agent.text}: e1 -> e2 e3', one event before "
                             "'->' (write one line per event the arrows leave)", number, at)
        if "->" in text[arrow + 2:]:
            raise self.error("a second '->' in one line; write one line per event, e.g. "
                             f"'{agent.text}: {left[0].text} -> e2 e3'", number,
                             text.index("->", arrow + 2) + 1)
        self.arrows.append((agent, left[0], self.names(number, text, arrow + 2)))

    def assignments(self, number: int, text: str, position: int
                    ) -> list[tuple[Atom, int, Formula]]:
        """``p := φ, q := ψ`` (commas inside brackets belong to their atom or formula)."""
        found = []
        start = position
        for part in _cards(text[position:]):
            column = text.index(part, start) + 1 if part else start + 1
            start = column - 1 + len(part)
            atom_text, sign, value = part.partition(":=")
            if not sign:
                raise self.error("an assignment is 'p := formula', e.g. 'post e1: p := ~p'",
                                 number, column)
            try:
                atom = parse(atom_text)
            except FormulaError:
                atom = None
            if not isinstance(atom, Atom):
                raise self.error(f"{atom_text.strip()!r} is not an atom; an assignment sets "
                                 "an atom: 'p := formula'", number, column)
            at = column + len(atom_text) + 2
            try:
                formula = parse(value)
            except FormulaError as e:
                raise self.error(f"{e.message} (in the assignment to {atom})", number,
                                 at + e.position) from None
            found.append((atom, column, formula))
        return found

    def names(self, number: int, text: str, position: int) -> list[_Name]:
        """Event names, separated by spaces."""
        found = []
        for word in re.finditer(r"\S+", text[position:]):
            column = position + word.start() + 1
            if not EVENT_NAME.fullmatch(word.group()):
                raise self.error(f"{word.group()!r} is not an event name (letters, digits, _ "
                                 "and ', starting with a letter)", number, column)
            found.append(_Name(word.group(), number, column))
        return found

    def classes(self, number: int, text: str, position: int) -> list[list[_Name]]:
        """``{e1 e2} {e3}``: the classes of one agent."""
        found: list[list[_Name]] = []
        while (position := skip(text, position)) < len(text):
            if text[position] != "{":
                word = text[position:].split()[0]
                raise self.error(f"{word!r} is outside braces: an agent's classes are written "
                                 "in braces, e.g. 'a: {e1 e2} {e3}' (an event's line starts "
                                 "with 'event')", number, position + 1)
            end = text.find("}", position)
            if end < 0:
                raise self.error("this class is not closed; end it with '}'", number,
                                 position + 1)
            inside = text[position + 1:end]
            if "{" in inside:
                raise self.error("a class inside a class; close the first with '}' before "
                                 "opening another", number, position + 2 + inside.index("{"))
            names = self.names(number, text[:end], position + 1)
            if not names:
                raise self.error("an empty class {}; remove it (every class holds an event)",
                                 number, position + 1)
            found.append(names)
            position = end + 1
        return found

    # --- the event model -------------------------------------------------------------------

    def event_model(self) -> EventModel:
        if not self.events:
            raise self.at_end("no events; define one with 'event e1: pre p'")
        defined: dict[str, _Name] = {}
        for name, _ in self.events:
            if name.text in defined:
                raise self.error(f"event {name.text!r} is already defined on line "
                                 f"{defined[name.text].line}; give it another name",
                                 name.line, name.column)
            defined[name.text] = name
        listed = ", ".join(defined)
        partitions: list[tuple[Agent, tuple[tuple[str, ...], ...]]] = []
        agents: dict[str, _Name] = {}
        for agent, classes in self.partitions:
            if agent.text in agents:
                raise self.error(f"agent {agent.text} already has its classes on line "
                                 f"{agents[agent.text].line}; put them on one line",
                                 agent.line, agent.column)
            agents[agent.text] = agent
            seen: set[str] = set()
            for name in (n for block in classes for n in block):
                if name.text not in defined:
                    raise self.error(f"no event is named {name.text!r}; the events are "
                                     f"{listed}", name.line, name.column)
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
        if actual.text not in defined:
            raise self.error(f"no event is named {actual.text!r}; the events are {listed}",
                             actual.line, actual.column)
        arrows: dict[str, list[tuple[str, str]]] = {}
        for agent, source, targets in self.arrows:
            if agent.text in agents:
                raise self.error(f"agent {agent.text} has classes on line "
                                 f"{agents[agent.text].line} and arrows here; give it one or "
                                 "the other", agent.line, agent.column)
            for name in (source, *targets):
                if name.text not in defined:
                    raise self.error(f"no event is named {name.text!r}; the events are "
                                     f"{listed}", name.line, name.column)
            arrows.setdefault(agent.text, []).extend((source.text, t.text) for t in targets)
        post: dict[str, tuple[tuple[Atom, Formula], ...]] = {}
        for name, assigned in self.posts:
            if name.text not in defined:
                raise self.error(f"no event is named {name.text!r}; the events are {listed}",
                                 name.line, name.column)
            if name.text in post:
                raise self.error(f"event {name.text!r} already has its post line; put its "
                                 "assignments on one line", name.line, name.column)
            post[name.text] = tuple((atom, value) for atom, _, value in assigned)
        events = tuple(Event(name.text, pre, post.get(name.text, ()))
                       for name, pre in self.events)
        try:
            return EventModel(events, tuple(partitions), actual.text,
                              tuple((int(a) if a.isdigit() else a, tuple(pairs))
                                    for a, pairs in arrows.items()))
        except ModelError as e:  # what only the whole model shows (an atom set twice)
            raise self.at_end(str(e)) from None
