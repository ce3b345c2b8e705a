"""Models a teacher writes by hand: a line-oriented text format, read (:func:`load_model`) and
written (:func:`dump_model`) so that a model written out and read back is the same model.

::

    # Alice knows p, Bob does not
    agents: alice bob
    world w1: p q          # the atoms true in w1
    world w2: q
    world w3:              # none true
    alice: {w1} {w2 w3}    # the worlds alice cannot tell apart, class by class
    bob observes: q        # or: bob tells worlds apart by the atoms q
    alice ranks: w2 < w3   # optional: in alice's class {w2 w3}, w2 is the more plausible
    actual: w1

Lines may come in any order; ``#`` starts a comment. A world an agent's classes leave out is a
class of its own (the agent tells it from every other world), as in a textbook drawing, where
no edge means "told apart"; an agent without a line is an error, since it is nearly always an
oversight (``alice:`` alone says that alice tells every world apart). ``atoms:`` is optional;
given, it lists every atom (also those false everywhere), in the model's order, and a spelling
outside it is an error; without it the atoms are those the worlds name, sorted.
Names with spaces or commas are quoted: ``world "July 16": ...``.
``AGENT ranks: w1 < w2 = w3`` orders one class of the agent, most plausible first (``=``: as
plausible); a class without such a line has its worlds equally plausible, and any order makes
the model a :class:`~kripke.explicit.plausibility.PlausibilityModel` (belief ``B_a``,
conditional and safe belief, upgrades).

Every mistake is a :class:`ModelFileError` with the 1-based line and column and a message that
says what to change. :func:`load_model` also reads the JSON that :mod:`kripke.files.exchange` writes
(the web page's "model JSON" too), telling the two apart by the first character; a mistake in
its content names the field by its path (``worlds[3].true``) instead of a line and column.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

import numpy as np

from kripke.errors import ModelError, ModelTooLargeError, quoted
from kripke.events.model import EventModel
from kripke.explicit.access import Access
from kripke.explicit.belief import BeliefModel, relation_matrix
from kripke.explicit.model import KripkeModel
from kripke.explicit.plausibility import PlausibilityModel, chain
from kripke.files.exchange import from_json
from kripke.files.reader import LineReader, ModelFileError, read_source
from kripke.language.formula import Agent, Atom
from kripke.language.names import AGENT as _AGENT
from kripke.language.names import KEYWORDS
from kripke.language.parser import MAX_DIGITS
from kripke.language.tokens import WORD, Line, Token
from kripke.parts import Drawn
from lookalikes.characters import character_problem, shown
from lookalikes.skeleton import confusable_form, first_lookalike, looks_like

#: The most worlds :func:`dump_model` writes (as many as a JSON file holds).
MAX_WORLDS = 100_000

_NAME = f'(?:"[^"]*"|{WORD.pattern})'
_KEYWORD_LINE = re.compile(r"\s*(agents|atoms|actual)\s*:")
_WORLD_LINE = re.compile(rf"\s*world\s+({_NAME})\s*:")
_OBSERVES_LINE = re.compile(rf"\s*({_NAME})\s+observes\s*:")
_RANKS_LINE = re.compile(rf"\s*({_NAME})\s+ranks\s*:")
_AGENT_LINE = re.compile(rf"\s*({_NAME})\s*:")
_LINES = ("a line is one of 'agents: a b', 'atoms: p q', 'world w1: p q', 'a: {w1 w2} {w3}', "
          "'a: w1 -> w2 w3', 'a observes: p', 'a ranks: w1 < w2' or 'actual: w1'")


class NamedModel(KripkeModel):
    """A Kripke model whose worlds keep the names their author gave them (by world id, so the
    names survive announcements); :meth:`world_label` is the name, so explanations, drawings
    and exports show it."""

    names: dict[int, str]

    @classmethod
    def named(cls, model: KripkeModel, names: Sequence[str]) -> NamedModel:
        """``model`` (a plain :class:`KripkeModel`) with a name for each world, in order."""
        if type(model) is not KripkeModel:  # a subclass's own rules (a deal's ids) would go
            raise ModelError(f"only a plain KripkeModel takes names, not a {type(model).__name__}")
        if len(names) != model.n_worlds:
            raise ModelError(f"{len(names)} names for {model.n_worlds} worlds")
        new = cls.__new__(cls)
        new.__dict__.update(model.__dict__)
        new.names = dict(zip(model.world_ids.tolist(), names, strict=True))
        return new

    def world_name(self, world: int | None = None) -> str:
        """The name of a world (by index; default: the actual one)."""
        return self.names[self.world_id(self._world(world))]

    def world_label(self, world: int | None = None) -> str:
        return self.world_name(world)

    def update(self, events: EventModel) -> KripkeModel | BeliefModel:
        """The product update (:meth:`KripkeModel.update`) with the worlds still named (an
        event with arrows gives a :class:`BeliefModel`, which keeps names itself): when
        no world splits, each keeps its name (as after an announcement); when worlds split,
        the pair (w, e) is named ``w·e``, the world's name and the event's, as a textbook
        writes it (with ``'`` added in the rare case that such a name is taken already)."""
        product = super().update(events)
        if type(product) is not KripkeModel:  # a belief or plausibility model names its own
            return product
        split = self.splits(events)
        names: list[str] = []
        taken: set[str] = set()
        for world_id in product.world_ids.tolist():
            # the ids of KripkeModel.update: id(w) · |E| + e when worlds split, else id(w)
            old, event = divmod(world_id, len(events.events)) if split else (world_id, -1)
            name = f"{self.names[old]}·{events.names[event]}" if split else self.names[old]
            while name in taken:
                name += "'"
            taken.add(name)
            names.append(name)
        return NamedModel.named(product, names)


@dataclass(frozen=True)
class _Line:
    """A line read: its kind ('agents', 'atoms', 'actual', 'world', 'classes', 'observes',
    'arrows': words are the world the arrows leave, then those they reach; 'ranks': classes
    are the levels of an order, most plausible first; 'agent' until its tokens say whether
    classes or arrows), the name before the colon (a world's or an agent's), the tokens
    after the colon (``rest``, read from ``start`` of the line ``text``) and what they say."""

    number: int
    kind: str
    head: Token | None
    text: str
    start: int
    rest: Line
    words: tuple[Token, ...] = ()
    classes: tuple[tuple[Token, ...], ...] = ()


def starter_models() -> dict[str, str]:
    """The textbook models shipped with the package (``kripke/models/*.kripke``), by file
    stem, as text: a page offers them as starters, a test loads them."""
    folder = resources.files("kripke") / "models"
    return {entry.name.removesuffix(".kripke"): entry.read_text(encoding="utf-8")
            for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.name.endswith(".kripke")}


def load_model(source: str | os.PathLike[str]) -> KripkeModel | BeliefModel:
    """The model in a file (a path) or in a text: the hand-written format or the JSON of
    :mod:`kripke.files.exchange`. A ``str`` of one line is a path when such a file exists or it
    ends in ``.kripke`` or ``.json``; a :class:`~pathlib.Path` always is.

    A mistake in the text is a :class:`ModelFileError` (with its line and column); a file
    that cannot be read (missing, not text) is a :class:`ModelError` naming it."""
    text, origin = read_source(source)
    if text.lstrip().startswith("{"):
        return _from_json_text(text, origin)
    return parse_model(text, origin)


def _from_json_text(text: str, origin: str | None) -> KripkeModel | BeliefModel:
    """A model from the JSON of :func:`kripke.files.exchange.to_json`, its worlds named by their
    labels when these are distinct names (a hand-written model saved by the page)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ModelFileError(f"not valid JSON: {e.msg}; a model file is JSON as "
                             "ttr-kripke writes it or the hand-written format", e.lineno,
                             e.colno, origin) from None
    except RecursionError:  # json nests by recursion: '[' × 1,500 is no model
        raise ModelFileError("the JSON is nested too deeply to be a model; a model file is "
                             "JSON as ttr-kripke writes it or the hand-written format",
                             source=origin) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise ModelFileError("the JSON holds a number of thousands of digits; a model file's "
                             "numbers are world ids and observation keys",
                             source=origin) from None
    if isinstance(data, dict) and "error" in data and "worlds" not in data:
        raise ModelFileError(f"this file holds no model, only the exporter's message: "
                             f"{data['error']}", source=origin)
    try:
        model = from_json(data)
        labels = [unicodedata.normalize("NFC", str(w.get("label", "")))
                  for w in data["worlds"]]
    except ModelFileError as e:  # a field named by its path
        raise ModelFileError(e.problem, source=origin, fix=e.fix, field=e.field) from None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as e:
        # ModelError says what is wrong; anything else is a shape from_json did not foresee
        message = str(e) if isinstance(e, ModelError) else f"model file is malformed: {e}"
        raise ModelFileError(message, source=origin) from None
    if isinstance(model, BeliefModel | PlausibilityModel):  # it keeps its names itself
        return model
    if len(set(labels)) == len(labels) and all(_writable(label) for label in labels) and \
            first_lookalike(labels) is None:  # else the labels describe, not name, the worlds
        return NamedModel.named(model, labels)
    return model


def parse_model(text: str, source: str | None = None
                ) -> NamedModel | PlausibilityModel | BeliefModel:
    """The model written in the hand-written format; :class:`ModelFileError` at the first
    mistake (``source``, a file name, is put in front of its message)."""
    return _Reader(text, source).model()


class _Reader(LineReader[ModelFileError]):
    """Reads the lines (syntax errors stop it at once, in file order), then checks that the
    names they use agree and builds the model."""

    failure = ModelFileError
    noun = "world"

    def __init__(self, text: str, source: str | None) -> None:
        # NFC: "é" typed as one character or as e and an accent is one name, as a reader sees
        super().__init__(unicodedata.normalize("NFC", text), source)
        # each line is read once into tokens; then the names declared (which a suggested fix
        # may name: none a line will refuse, a control character, say) are known before any
        # line's tokens are read as classes, arrows or an order
        scanned = [line for number, raw in enumerate(self.text_lines, start=1)
                   if (line := self.scanned(number, raw)) is not None]
        self.declared = [line.head.text for line in scanned
                         if line.kind == "world" and line.head is not None
                         and character_problem(line.head.text) is None]
        self.agents_declared = [word.text for line in scanned if line.kind == "agents"
                                for word in line.rest.tokens
                                if word.kind == "name" and _AGENT.fullmatch(word.text)]
        self.lines = [self.line(line) for line in scanned]

    # --- one line ------------------------------------------------------------------------

    def scanned(self, number: int, raw: str) -> _Line | None:
        """The line's kind, its head and its tokens; None for a blank line or a comment."""
        order = False
        head = None
        if match := _KEYWORD_LINE.match(raw):
            kind = match.group(1)
        elif match := _WORLD_LINE.match(raw):
            kind = "world"
        elif match := _RANKS_LINE.match(raw):
            kind, order = "ranks", True
        elif match := _OBSERVES_LINE.match(raw):
            kind = "observes"
        elif match := _AGENT_LINE.match(raw):
            kind = "agent"
        else:
            self.unreadable(number, raw)
            return None
        if match.re is not _KEYWORD_LINE:
            head = self.word(match.group(1), number, match.start(1))
            if kind == "agent" and head.text == "world":
                raise self.error("a world line needs the world's name: 'world w1: p q'",
                                 number, match.end(), fix="write 'world w1: p q'")
        return _Line(number, kind, head, raw, match.end(),
                     self.rest(number, raw, match.end(), order))

    def unreadable(self, number: int, raw: str) -> None:
        """A line no head fits: blank or a comment (nothing said), else the error."""
        tokens = self.rest(number, raw, 0).tokens
        if not tokens:
            return
        column = tokens[0].column
        if tokens[0].text == "world":
            raise self.error("a world line is 'world', the name, ':' and the atoms true "
                             "there", number, column, fix="write 'world w1: p q'")
        if not any(token.kind == ":" for token in tokens):
            raise self.error(f"no ':' in this line; {_LINES}", number, column)
        raise self.error(f"cannot read this line; {_LINES}", number, column)

    def line(self, line: _Line) -> _Line:
        """The line's tokens read as its kind says, each of its names one that holds nothing
        a reader cannot see and looks like no other
        (:func:`lookalikes.characters.character_problem`)."""
        read = self.read_line(line)
        for word in (read.head, *read.words, *(w for c in read.classes for w in c)):
            if word is not None and (problem := character_problem(word.text)):
                raise self.error(problem, line.number, word.column)
        return read

    def read_line(self, line: _Line) -> _Line:
        number, tokens = line.number, line.rest.tokens
        if line.kind == "ranks" and line.head is not None:
            return replace(line, classes=self.chain(line.rest, number, line.head.text))
        if line.kind != "agent" or line.head is None:
            return replace(line, words=self.words(tokens))
        if any(token.kind == "->" for token in tokens):
            return replace(line, kind="arrows",
                           words=self.arrow_list(line.rest, number, line.head.text))
        return replace(line, kind="classes",
                       classes=self.classes(line.rest, line.text, line.start, line.head.text))

    def spelled(self, name: str) -> str:
        return _name(name)

    # --- the model -------------------------------------------------------------------------

    def single(self, kind: str) -> _Line | None:
        """The one line of a kind that may appear once."""
        lines = [line for line in self.lines if line.kind == kind]
        if len(lines) > 1:
            raise self.error(f"a second '{kind}:' line (the first is line {lines[0].number}); "
                             "keep one", lines[1].number, 1)
        return lines[0] if lines else None

    def agents(self) -> tuple[_Line, list[Agent], dict[str, Token]]:
        """The agents line, the agents (numbers as ints, as in ``K_0``) and where each is named
        (by the agent's text: ``07`` is agent 7, as ``K_07`` is)."""
        line = self.single("agents")
        if line is None:
            raise self.at_end("no 'agents:' line; name the agents, e.g. 'agents: a b'")
        if not line.words:
            raise self.error("no agents named; name them, e.g. 'agents: a b'", line.number,
                             line.rest.end)
        agents: list[Agent] = []
        seen: dict[str, Token] = {}
        for word in line.words:
            if not _AGENT.fullmatch(word.text):
                raise self.error(f"{word.text!r} cannot name an agent: an agent is a name "
                                 "of letters, digits, _ and ' starting with a letter (alice, "
                                 "a1), or a number (0)", line.number, word.column)
            if word.text in KEYWORDS:
                raise self.error(f"an agent cannot be called {word.text!r}, a word of the "
                                 "format; rename it", line.number, word.column)
            if len(word.text) > MAX_DIGITS and word.text.isdigit():  # int() would give advice
                raise self.error(f"an agent numbered with {len(word.text):,} digits; agents are "
                                 f"numbered with at most {MAX_DIGITS}", line.number, word.column)
            agent = _agent(word.text)
            if str(agent) in seen:
                raise self.error(f"agent {agent} is named twice; name it once",
                                 line.number, word.column)
            seen[str(agent)] = word
            agents.append(agent)
        self.distinct(((w.text, w) for w in line.words), "agent")
        return line, agents, seen

    def atom(self, word: Token, line: int) -> Atom:
        try:
            return Atom(word.text)
        except (ValueError, TypeError):
            raise self.error(
                f"{word.text!r} is not an atom: an atom is a name of letters, digits, _ and ' "
                "starting with a letter, with arguments if you like (p, rain, p(0,3)); "
                "K_..., M_..., E_..., C_..., D_..., K M E C D, true, false, not, and, or "
                "are taken by formulas", line, word.column) from None

    def model(self) -> NamedModel | PlausibilityModel | BeliefModel:
        agents_line, agents, agent_words = self.agents()
        declared = self.declared_atoms()
        names, true_sets = self.worlds(declared)
        order = list(declared) if declared is not None else \
            sorted(set().union(*true_sets), key=str)
        index = {name: i for i, name in enumerate(names)}
        observations = self.observations(agent_words, index, true_sets, set(order))
        arrows = self.relations(agent_words, index, observations)
        for agent, word in agent_words.items():
            if agent not in observations and agent not in arrows:
                first, *rest = self.examples(2)
                raise self.error(
                    f"agent {agent} has no line; write '{agent}: {{{' '.join(self.examples(2))}}}'"
                    f" (the worlds {agent} cannot tell apart), '{agent} observes: "
                    f"{order[0] if order else 'p'}' or '{agent}: {first} -> "
                    f"{' '.join(rest) or first}' (from {first}, {agent} considers "
                    f"{' '.join(rest) or first} possible) ('{agent}:' alone: {agent} tells "
                    "every world apart)", agents_line.number, word.column)
        valuation = {atom: [atom in true for true in true_sets] for atom in order}
        ranks = self.ranks(agent_words, index, observations)
        if arrows:  # some agent believes: its arrows, the others their classes
            if ranks:
                line = next(line for line in self.lines if line.kind == "ranks")
                raise self.error("an order ranks the worlds of an agent's classes, and this "
                                 "model has arrows (a belief model); write every agent's "
                                 "classes to order them, or remove the 'ranks:' lines",
                                 line.number, 1)
            n = len(true_sets)
            relations = {a: relation_matrix(arrows[str(a)], n) if str(a) in arrows
                         else Access.partition(np.array(observations[str(a)]))
                         for a in agents}
            return BeliefModel(valuation, relations, self.actual(index), n_worlds=n,
                               names=names)
        model = KripkeModel(valuation, {a: observations[str(a)] for a in agents},
                            self.actual(index),
                            n_worlds=len(true_sets))
        named = NamedModel.named(model, names)
        if not ranks:
            return named
        return PlausibilityModel.of(named, {_agent(a): r for a, r in ranks.items()})

    def declared_atoms(self) -> dict[Atom, Token] | None:
        """The atoms of the 'atoms:' line, in its order; None without one."""
        line = self.single("atoms")
        if line is None:
            return None
        declared: dict[Atom, Token] = {}
        for word in line.words:
            atom = self.atom(word, line.number)
            if atom in declared:
                raise self.error(f"atom {atom} is listed twice; list it once", line.number,
                                 word.column)
            declared[atom] = word
        self.distinct(((str(a), w) for a, w in declared.items()), "atom")
        return declared

    def worlds(self, declared: dict[Atom, Token] | None) -> tuple[list[str], list[set[Atom]]]:
        """The worlds' names and the atoms true in each, in file order."""
        names: list[str] = []
        where: dict[str, int] = {}  # world name -> its line
        true_sets: list[set[Atom]] = []
        atoms: list[tuple[str, Token]] = []  # each atom where it is written
        for line in self.lines:
            if line.kind != "world" or line.head is None:
                continue
            name = line.head.text
            if name in where:
                raise self.error(f"a second world named {name} (the first is on line "
                                 f"{where[name]}); give each world its own name",
                                 line.number, line.head.column)
            where[name] = line.number
            names.append(name)
            true = set()
            for word in line.words:
                atom = self.atom(word, line.number)
                if declared is not None and atom not in declared:
                    atoms_line = self.single("atoms")
                    raise self.error(f"atom {atom} is not among the atoms on line "
                                     f"{atoms_line.number if atoms_line else 0}; add it there "
                                     "or fix the spelling", line.number, word.column)
                true.add(atom)
                atoms.append((str(atom), word))
            true_sets.append(true)
        if not names:
            raise self.at_end("no worlds; add one line per world, e.g. 'world w1: p q'")
        self.distinct(((line.head.text, line.head) for line in self.lines
                       if line.kind == "world" and line.head is not None), "world")
        self.distinct(atoms, "atom")
        return names, true_sets

    def observations(self, agent_words: dict[str, Token], index: dict[str, int],
                     true_sets: list[set[Atom]], vocabulary: set[Atom]) -> dict[str, list[int]]:
        """Each agent's key per world (by the agent's text), from its classes or the atoms it
        observes: worlds with equal keys are those it cannot tell apart."""
        observations: dict[str, list[int]] = {}
        first_line: dict[str, int] = {}
        for line in self.lines:
            if line.kind not in ("classes", "observes") or line.head is None:
                continue
            agent = self.known_agent(line.head, line.number, agent_words)
            if agent in first_line:
                raise self.error(f"a second line for agent {agent} (the first is line "
                                 f"{first_line[agent]}); give each agent one line",
                                 line.number, line.head.column)
            first_line[agent] = line.number
            if line.kind == "observes":
                seen = [self.observed(word, line.number, vocabulary) for word in line.words]
                numbering: dict[tuple[bool, ...], int] = {}
                observations[agent] = [numbering.setdefault(tuple(a in true for a in seen),
                                                            len(numbering))
                                       for true in true_sets]
            else:
                observations[agent] = self.partition(line, index, agent)
        return observations

    def relations(self, agent_words: dict[str, Token], index: dict[str, int],
                  observations: dict[str, list[int]]) -> dict[str, list[tuple[int, int]]]:
        """Each agent's arrows (by the agent's text) from its arrow lines, several a line's
        worth per agent; an agent with classes or 'observes:' too is refused."""
        arrows: dict[str, list[tuple[int, int]]] = {}
        classes_line = {str(_agent(line.head.text)): line for line in self.lines
                        if line.kind in ("classes", "observes") and line.head is not None}
        for line in self.lines:
            if line.kind != "arrows" or line.head is None:
                continue
            agent = self.known_agent(line.head, line.number, agent_words)
            if agent in observations:
                other = classes_line[agent]
                written = "'observes:'" if other.kind == "observes" else "classes"
                raise self.error(
                    f"agent {agent} has {written} on line {other.number} and arrows here; "
                    f"give {agent} one or the other: arrows (belief) or classes "
                    "(knowledge), and remove the other line", line.number, line.head.column)
            worlds = []
            for word in line.words:
                if word.text not in index:
                    raise self.unknown_world(word, index, f"in {agent}'s arrows")
                worlds.append(index[word.text])
            arrows.setdefault(agent, []).extend((worlds[0], v) for v in worlds[1:])
        return arrows

    def ranks(self, agent_words: dict[str, Token], index: dict[str, int],
              observations: dict[str, list[int]]) -> dict[str, list[int]]:
        """Each ordered agent's rank per world (by the agent's text), from its 'ranks:'
        lines, one per class: every world of the class once, the class's worlds only."""
        ranks: dict[str, list[int]] = {}
        placed: dict[tuple[str, str], int] = {}  # (agent, world) -> the line ranking it
        for line in self.lines:
            if line.kind != "ranks" or line.head is None:
                continue
            agent = self.known_agent(line.head, line.number, agent_words)
            keys = observations.get(agent)
            column = ranks.setdefault(agent, [0] * len(index))
            first = line.classes[0][0]
            for level, words in enumerate(line.classes):
                for word in words:
                    if word.text not in index:
                        raise self.error(f"unknown world {word.text!r} in {agent}'s order; "
                                         f"declare it with 'world {word.text}: ...' or fix "
                                         "the spelling", line.number, word.column)
                    if (agent, word.text) in placed:
                        raise self.error(
                            f"world {word.text} is ranked twice for {agent} (also on line "
                            f"{placed[agent, word.text]}); an order names each world once, "
                            "so keep one place for it", line.number, word.column)
                    if keys is not None and keys[index[word.text]] != keys[index[first.text]]:
                        raise self.error(
                            f"{word.text} is not in {agent}'s class of {first.text}: an order "
                            f"ranks one class; give each class its own '{agent} ranks:' line",
                            line.number, word.column)
                    placed[agent, word.text] = line.number
                    column[index[word.text]] = level
            if keys is not None:
                left = [w for w, i in index.items()
                        if keys[i] == keys[index[first.text]] and (agent, w) not in placed]
                if left:
                    raise self.error(
                        f"{agent}'s order leaves out {', '.join(left)} of the same class; an "
                        f"order ranks every world of the class: add it ('= {left[0]}' as "
                        f"plausible as the last, '< {left[0]}' less plausible)", line.number,
                        line.rest.end)
        return ranks

    def known_agent(self, head: Token, line: int, agent_words: dict[str, Token]) -> str:
        """The agent a line is about (by its text), refused when not on the 'agents:' line."""
        agent = str(_agent(head.text))
        if agent not in agent_words:
            raise self.error(f"unknown agent {quoted(agent)}: it is not on the 'agents:' line; add "
                             "it there or fix the spelling", line, head.column)
        return agent

    def observed(self, word: Token, line: int, vocabulary: set[Atom]) -> Atom:
        atom = self.atom(word, line)
        if atom not in vocabulary:
            raise self.error(f"atom {atom} is true in no world and not listed on an 'atoms:' "
                             "line; fix the spelling, or list it on 'atoms:' if it is false "
                             "everywhere", line, word.column)
        return atom

    def partition(self, line: _Line, index: dict[str, int], agent: str) -> list[int]:
        """One key per world: its class's number; a world left out is a class of its own."""
        keys = [len(line.classes) + i for i in range(len(index))]
        placed: dict[str, Token] = {}
        for number, members in enumerate(line.classes):
            for word in members:
                if word.text not in index:
                    raise self.unknown_world(word, index, f"in {agent}'s classes")
                if word.text in placed:
                    raise self.error(
                        f"world {word.text} is in two of {agent}'s classes (also at column "
                        f"{placed[word.text].column}); a world belongs to one class: merge "
                        "the two classes or remove it from one", line.number, word.column)
                placed[word.text] = word
                keys[index[word.text]] = number
        return keys

    def actual(self, index: dict[str, int]) -> int:
        line = self.single("actual")
        if line is None:
            raise self.at_end(f"no actual world; add a line such as "
                              f"'actual: {self.examples(1)[0]}'")
        if len(line.words) != 1:
            column = line.words[1].column if line.words else line.rest.end
            raise self.error(f"'actual:' names one world, e.g. 'actual: {self.examples(1)[0]}'",
                             line.number,
                             column)
        word = line.words[0]
        if word.text not in index:
            raise self.lookalike_world(word, index, "as the actual world") or self.error(
                f"the actual world {shown(word.text)} is not among the worlds; declare it with "
                "'world ...:' or fix the spelling", line.number, word.column)
        return index[word.text]

    def unknown_world(self, word: Token, index: dict[str, int], where: str) -> ModelFileError:
        """The error for a world no line declares (in a class or an arrow): the declared world
        it looks like, if one does, else how to declare it."""
        known = ", ".join(list(index)[:8]) + (", ..." if len(index) > 8 else "")
        return self.lookalike_world(word, index, where) or self.error(
            f"unknown world {shown(word.text)} {where}; declare it with 'world "
            f"{_name(word.text)}: ...' or fix the spelling (worlds: {known})", word.line,
            word.column)

    def lookalike_world(self, word: Token, index: dict[str, int], where: str
                        ) -> ModelFileError | None:
        """The error for a name that is no declared world's but looks like one (a Cyrillic 'а'
        typed for a Latin 'a'), or None."""
        for name in index:
            if confusable_form(name) == confusable_form(word.text):
                return self.error(f"{looks_like(word.text, name)} {where}, but is not the "
                                  f"declared world {shown(name)}; write {shown(name)}",
                                  word.line, word.column)
        return None


def _agent(text: str) -> Agent:
    """An agent as formulas name it: digits are the number (``K_07`` is agent 7); too many
    for a number (which the agents line refuses) stay a name no agent has."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS else text


def _relation_lines(model: Drawn, agent: Agent, shown: list[str]
                    ) -> list[str]:
    """An agent's line(s): its classes when its relation is a partition (read off a belief
    model's classes when it keeps them), else its arrows."""
    if isinstance(model, BeliefModel) and model.access(agent).is_partition:
        keys = model.access(agent).labels.tolist()
    elif isinstance(model, BeliefModel) and _arrows_written(model, agent):
        targets: dict[int, list[str]] = {}
        for w, v in model.arrows(agent):
            targets.setdefault(w, []).append(shown[v])
        return [f"{agent}: {shown[w]} -> {' '.join(vs)}" for w, vs in targets.items()] or \
            [f"# {agent} has no arrows", f"{agent}: {shown[0]} ->"]
    elif isinstance(model, KripkeModel):
        keys = model.observation(agent).tolist()
    else:  # arrows that happen to be a partition: each world's class by its least member
        keys = [min(model.possible_worlds(agent, w).tolist()) for w in range(model.n_worlds)]
    classes: dict[int, list[str]] = {}
    for i, key in enumerate(keys):
        classes.setdefault(key, []).append(shown[i])
    return [f"{agent}: " + " ".join("{" + " ".join(c) + "}" for c in classes.values())]


def _arrows_written(model: BeliefModel, agent: Agent) -> bool:
    """Whether the agent's relation is written as arrows: it is not S5, or telling would take
    more than the frame-class bound (:data:`kripke.explicit.belief.MAX_FRAME_WORK`)."""
    try:
        return model.frame_class(agent) != "S5"
    except ModelError:
        return True


def _order_lines(model: PlausibilityModel, shown: list[str]) -> list[str]:
    """Each agent's order, a line per class whose worlds are not all equally plausible."""
    lines = []
    for agent in model.agents:
        keys, level = model.observation(agent), model.level(agent)
        for key in dict.fromkeys(keys.tolist()):
            members = np.flatnonzero(keys == key)
            if np.any(level[members] > 0):
                lines.append(f"{agent} ranks: "
                             f"{chain([shown[w] for w in members], level[members].tolist())}")
    return lines


# --- writing ------------------------------------------------------------------------------------

def _writable(name: str) -> bool:
    """Whether a name can be written in the format (bare or quoted): not empty, no quote,
    nothing that ends a line (``str.splitlines`` also ends lines at \\x1c, \\u2028, ...) and
    nothing the reader refuses as a lookalike."""
    return '"' not in name and name.splitlines() == [name] and character_problem(name) is None


def _name(name: str) -> str:
    """A name as written: bare when it reads back as one word, else quoted."""
    bare = WORD.fullmatch(name) and name.strip() == name and "#" not in name
    return name if bare else f'"{name}"'


def dump_model(model: Drawn,
               names: Callable[[Any, int], str] | None = None,
               max_worlds: int = MAX_WORLDS) -> str:
    """The model in the hand-written format; :func:`load_model` reads it back to the same
    worlds (in order, with these names), valuation, partitions and actual world. A belief
    model's agents are written as classes where their relation is S5 and as arrows, one line
    per world they leave, where it is not (its own names).

    ``names(model, index)`` names the worlds; by default a :class:`NamedModel`'s (or a
    plausibility model's) names, else
    ``w`` and the world's id. Refused (:class:`ModelError`) past ``max_worlds``, without an
    actual world, or when names repeat or cannot be written."""
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to write out",
                                 advice="restrict the model")
    if model.actual is None:
        raise ModelError("the model has no actual world, which a model file names; pick one "
                         "with model.at(world)")
    if isinstance(model, BeliefModel):
        written = list(model.names)
    elif names is not None:
        written = [names(model, i) for i in range(model.n_worlds)]
    elif isinstance(model, NamedModel | PlausibilityModel):
        written = [model.world_name(i) for i in range(model.n_worlds)]
    else:
        written = [f"w{i}" for i in model.world_ids.tolist()]
    seen: dict[str, int] = {}
    for i, name in enumerate(written):
        if problem := character_problem(name):
            raise ModelError(f"world {i}: {problem}")
        if not _writable(name):
            raise ModelError(f"world {i} is named {shown(name)}; a name is not empty and holds "
                             "no '\"' nor line break")
        if name in seen:
            raise ModelError(f"worlds {seen[name]} and {i} are both named {shown(name)}; give "
                             "each world its own name")
        seen[name] = i
    if (twins := first_lookalike(written)) is not None:
        raise ModelError(f"world {looks_like(*twins)}: a reader of the file could not tell "
                         "them apart; give them names that look different")
    for agent in model.agents:
        text = str(agent)
        if not _AGENT.fullmatch(text) or text in KEYWORDS:
            raise ModelError(f"agent {agent!r} cannot be written: an agent is a name of "
                             "letters, digits, _ and ' starting with a letter, or a number")
    spelt = [_name(n) for n in written]
    atoms = model.atoms
    values = [model.atom_values(a) for a in atoms]
    lines = [f"# a Kripke model of {model.n_worlds} worlds (the format of kripke/README.md)",
             f"agents: {' '.join(str(a) for a in model.agents)}",
             f"atoms: {' '.join(str(a) for a in atoms)}".rstrip()]
    for i, name in enumerate(spelt):
        true = " ".join(str(a) for a, v in zip(atoms, values, strict=True) if v[i])
        lines.append(f"world {name}: {true}".rstrip())
    for agent in model.agents:
        lines += _relation_lines(model, agent, spelt)
    if isinstance(model, PlausibilityModel):
        lines += _order_lines(model, spelt)
    lines.append(f"actual: {spelt[model.actual]}")
    return "\n".join(lines) + "\n"
