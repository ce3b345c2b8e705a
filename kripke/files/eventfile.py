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

from kripke.errors import ModelError, quoted
from kripke.events.model import (
    EVENT_NAME,
    Event,
    EventModel,
    EventModelError,
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
from kripke.files.reader import EventFileError, LineReader, read_source
from kripke.interface import EpistemicModel
from kripke.language.formula import Agent, Atom, Formula
from kripke.language.names import AGENT
from kripke.language.parser import (
    MAX_DIGITS,
    FormulaError,
    parse,
    parse_assignments_in_line,
    parse_in_line,
)
from kripke.language.tokens import Line, Token, skip
from lookalikes.characters import shown

_EVENT_LINE = re.compile(r"\s*event\b")
_POST_LINE = re.compile(r"\s*post\b")
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
        raise ModelError(f"in {quoted(spec)}: {e.problem} (at column {e.column:,} of the "
                         f"formula: {near}); {e.fix}") from None
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
    return _agent(name)


def _agent(text: str) -> Agent:
    """An agent as formulas name it: digits are its number."""
    return int(text) if text.isdigit() else text


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
        self.atoms = None if atoms is None else tuple(atoms)
        self.events: list[tuple[Token, Formula]] = []
        self.partitions: list[tuple[Token, list[list[Token]]]] = []
        self.arrows: list[tuple[Token, Token, list[Token]]] = []
        self.posts: list[tuple[Token, list[tuple[Token, Formula]]]] = []
        self.actual: list[Token] = []
        self.ranks: list[tuple[Token, tuple[tuple[Token, ...], ...]]] = []
        # each line is read once: events and assignments at once (their formulas in place),
        # the other lines into tokens, read when the events' names are known (a fix names them)
        scanned = [line for number, raw in enumerate(self.text_lines, start=1)
                   if (line := self.scanned(number, raw)) is not None]
        self.declared = [name.text for name, _ in self.events]
        for kind, head, rest in scanned:
            self.read(kind, head, rest)

    # --- one line ------------------------------------------------------------------------

    def scanned(self, number: int, text: str) -> tuple[str, Token, Line] | None:
        """An event or post line read; any other line's kind, head and tokens (None for a
        blank line or a comment)."""
        if match := _EVENT_LINE.match(text):
            self.event(number, text, match.end())
        elif match := _POST_LINE.match(text):
            self.post(number, text, match.end())
        elif match := _ACTUAL_LINE.match(text):
            return "actual", Token("actual", number, 1), self.rest(number, text, match.end())
        elif match := _RANKS_LINE.match(text):
            return ("ranks", Token(match.group(1), number, match.start(1) + 1),
                    self.rest(number, text, match.end(), order=True))
        elif match := _AGENT_LINE.match(text):
            return ("agent", Token(match.group(1), number, match.start(1) + 1),
                    self.rest(number, text, match.end()))
        elif tokens := self.rest(number, text, 0).tokens:
            raise self.error(f"cannot read this line; {_LINES}", number, tokens[0].column)
        return None

    def read(self, kind: str, head: Token, rest: Line) -> None:
        number = head.line
        if kind == "actual":
            names = self.named(self.words(rest.tokens))
            if len(names) != 1:
                at = names[1].column if names else rest.end
                raise self.error("'actual:' names one event", number, at,
                                 fix=f"write e.g. 'actual: {self.examples(1)[0]}'")
            self.actual.append(names[0])
        elif kind == "ranks":
            levels = self.chain(rest, number, head.text)
            self.ranks.append((head, tuple(tuple(self.named(level)) for level in levels)))
        elif any(token.kind == "->" for token in rest.tokens):
            source, *targets = self.named(self.arrow_list(rest, number, head.text))
            self.arrows.append((head, source, targets))
        else:
            classes = self.classes(rest, self.text_lines[number - 1], head.column + len(
                head.text), head.text)
            self.partitions.append((head, [self.named(block) for block in classes]))

    def event(self, number: int, text: str, position: int) -> None:
        """``event NAME: pre FORMULA``, read from ``position`` (after the word 'event')."""
        position = skip(text, position)
        name = EVENT_NAME.match(text, position)
        if name is None:
            raise self.error("an event line is 'event', its name, ':', 'pre' and the "
                             "precondition", number, position + 1,
                             fix="write e.g. 'event e1: pre p'")
        position = skip(text, name.end())
        if not text.startswith(":", position):
            raise self.error(f"expected ':' after the event name {name.group()!r}", number,
                             position + 1, fix=f"write 'event {name.group()}: pre p'")
        position = skip(text, position + 1)
        if not re.match(r"pre\b", text[position:]):
            raise self.error("expected 'pre' and the event's precondition after ':'", number,
                             position + 1, fix=f"write 'event {name.group()}: pre p'")
        precondition = self.formula(text, position + 3, None, number, "in the precondition")
        self.events.append((Token(name.group(), number, name.start() + 1), precondition))

    def formula(self, text: str, start: int, end: int | None, number: int, where: str
                ) -> Formula:
        """The formula ``text[start:end]`` of line ``number``, read in place: its error is
        this format's, at the file's line and column."""
        try:
            return parse_in_line(text, start, end, number, self.source)
        except FormulaError as e:
            raise self.error(f"{e.problem} ({where})", number, e.column or 1,
                             fix=e.fix) from None

    def post(self, number: int, text: str, position: int) -> None:
        """``post e: p := φ, q := ψ``: the event's assignments (a comma inside brackets
        belongs to its formula)."""
        position = skip(text, position)
        name = EVENT_NAME.match(text, position)
        colon = skip(text, name.end()) if name else position
        if name is None or not text.startswith(":", colon):
            raise self.error("a post line is 'post', the event's name, ':' and its "
                             "assignments", number, colon + 1,
                             fix="write e.g. 'post e1: p := true, q := ~q'")
        try:
            assignments = parse_assignments_in_line(text, colon + 1, number, self.source)
        except FormulaError as e:
            raise self.error(e.problem, number, e.column or 1, fix=e.fix) from None
        changes: list[tuple[Token, Formula]] = []
        for where, written, value in assignments:
            try:
                atom = Atom(written)
            except ValueError:
                raise self.error(f"{written!r} is not an atom; assign an atom, e.g. "
                                 "'p := true'", number, where.column) from None
            changes.append((Token(str(atom), number, where.column), value))
        self.posts.append((Token(name.group(), number, name.start() + 1), changes))

    def named(self, words: tuple[Token, ...]) -> list[Token]:
        """The words, each checked to be an event's name."""
        for word in words:
            if not EVENT_NAME.fullmatch(word.text):
                raise self.error(f"{shown(word.text)} is not an event name", word.line,
                                 word.column, fix="name an event by letters, digits, _ and ', "
                                                  "starting with a letter")
        return list(words)

    # --- the event model -------------------------------------------------------------------

    def event_model(self) -> EventModel:
        """The event model the lines describe: what only a text can get wrong (a name no
        'event' line defines where an order or a 'post' line uses it, a second 'actual:' or
        'post' line, look-alike names) checked here; the rest by :class:`EventModel`'s one
        check, its error placed where the name it is about is written (:meth:`placed`)."""
        if not self.events:
            raise self.at_end("no events; define one with 'event e1: pre p'")
        defined: dict[str, Token] = {}  # the first line defining each name
        for name, _ in self.events:
            defined.setdefault(name.text, name)
        self.distinct(((name.text, name) for name, _ in self.events), "event")
        heads = [agent for agent, _ in self.partitions] + [agent for agent, *_ in self.arrows]
        self.distinct(((agent.text, agent) for agent in heads), "agent")
        partitions: list[tuple[Agent, tuple[tuple[str, ...], ...]]] = []
        for agent, classes in self.partitions:
            blocks = [tuple(n.text for n in block) for block in classes]
            listed = {name for block in blocks for name in block}
            blocks += [(name,) for name in defined if name not in listed]  # left out: alone
            partitions.append((_agent(agent.text), tuple(blocks)))
        if not self.actual:
            raise self.at_end("no 'actual:' line; name the event that happens, e.g. "
                              f"'actual: {next(iter(defined))}'")
        if len(self.actual) > 1:
            again = self.actual[1]
            raise self.error(f"the actual event is already named on line {self.actual[0].line}"
                             "; keep one 'actual:' line", again.line, 1)
        arrows: dict[str, list[tuple[str, str]]] = {}
        for agent, source, targets in self.arrows:
            arrows.setdefault(agent.text, []).extend((source.text, t.text) for t in targets)
        post = self.assignments(defined)
        events = tuple(Event(name.text, pre, post.get(name.text, ()))
                       for name, pre in self.events)
        ranks = self.orders(defined, set(arrows))
        relations = tuple((_agent(a), tuple(pairs)) for a, pairs in arrows.items())
        try:
            if ranks:
                return RankedEvents(events, tuple(partitions), self.actual[0].text, relations,
                                    ranks=ranks)
            return EventModel(events, tuple(partitions), self.actual[0].text, relations)
        except EventModelError as e:
            raise self.placed(e) from None

    def placed(self, error: EventModelError) -> EventFileError:
        """The event model's error at the name it is about, as written: the second of two
        (an event defined twice, an event twice in an agent's classes, an atom assigned
        twice), else the first."""
        written: dict[tuple[str, ...], list[Token]] = {}
        for name, _ in self.events:
            written.setdefault(("event", name.text), []).append(name)
        for agent, classes in self.partitions:
            written.setdefault(("agent", agent.text), []).append(agent)
            written.setdefault(("partitions", agent.text), []).append(agent)
            for name in (name for block in classes for name in block):
                written.setdefault(("member", agent.text, name.text), []).append(name)
        for agent, source, targets in self.arrows:
            written.setdefault(("arrows", agent.text), []).append(agent)
            for name in (source, *targets):
                written.setdefault(("arrow", agent.text, name.text), []).append(name)
        for event, changes in self.posts:
            for atom, _ in changes:
                written.setdefault(("post", event.text, atom.text), []).append(atom)
        for actual in self.actual:
            written.setdefault(("actual", actual.text), []).append(actual)
        where = written.get(error.about)
        if not where:
            return self.at_end(str(error))
        if error.about[0] in ("event", "partitions", "member", "post") and len(where) > 1:
            problem, _, fix = str(error).partition("; ")
            first, token = where[0], where[1]
            again = "" if first.line == token.line else f" (the first on line {first.line})"
            return self.error(f"{problem}{again}", token.line, token.column, fix=fix)
        heads = written.get(("agent", error.about[-1]))
        if error.about[0] == "arrows" and heads:  # classes and arrows: say where each is
            problem, _, fix = str(error).partition("; ")
            return self.error(f"{problem} (its classes on line {heads[0].line}, arrows here)",
                              where[0].line, where[0].column, fix=fix)
        return self.error(str(error), where[0].line, where[0].column)

    def orders(self, defined: dict[str, Token], with_arrows: set[str]
               ) -> tuple[tuple[Agent, tuple[int, ...]], ...]:
        """Each ordering agent's rank per event from its 'ranks:' lines: every event once."""
        ranks: dict[str, dict[str, int]] = {}
        where: dict[str, Token] = {}
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
        return tuple((_agent(a), tuple(placed[n] for n in defined))
                     for a, placed in ranks.items())

    def defined(self, name: Token, defined: dict[str, Token]) -> None:
        """Refuse a name no 'event' line defines, listing those that do."""
        if name.text not in defined:
            raise self.error(f"no event is named {name.text!r}; the events are "
                             f"{', '.join(defined)}", name.line, name.column)

    def assignments(self, defined: dict[str, Token]
                    ) -> dict[str, tuple[tuple[Atom, Formula], ...]]:
        """Each event's assignments, at most one 'post' line per event."""
        found: dict[str, tuple[tuple[Atom, Formula], ...]] = {}
        for event, changes in self.posts:
            self.defined(event, defined)
            if event.text in found:
                raise self.error(f"event {event.text} already has its 'post' line; put its "
                                 "assignments on one line", event.line, event.column)
            for atom, _ in changes:
                if self.atoms is not None and Atom(atom.text) not in self.atoms:
                    known = ", ".join(str(a) for a in self.atoms[:8])
                    raise self.error(f"atom {atom.text} is not the model's (its atoms: "
                                     f"{known}); add it to the model's 'atoms:' line or fix "
                                     "the spelling", atom.line, atom.column)
            found[event.text] = tuple((Atom(atom.text), value) for atom, value in changes)
        return found
