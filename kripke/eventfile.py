"""Event models written by hand: a small line-oriented text a teacher can type.

::

    # Alice reads a letter saying whether p; Bob sees her read it
    event yes: pre p
    event no: pre ~p
    alice: {yes} {no}
    actual: yes

One line per event (``event NAME: pre FORMULA``, the formula in the syntax of
:func:`kripke.parse`), one line per agent that tells some events apart (``AGENT: {e1 e2}
{e3}``: its classes, each event in exactly one; an agent without a line tells none apart), and
``actual: NAME``. ``#`` starts a comment; blank lines are skipped. ``str(event_model)`` writes
this text back. A mistake raises :class:`EventFileError`, which names the line and column.
"""

from __future__ import annotations

import re

from kripke.events import Event, EventModel
from kripke.formula import Agent
from kripke.parser import FormulaError, parse

_NAME = r"[A-Za-z_][A-Za-z0-9_']*"
_EVENT = re.compile(rf"event\s*(?P<name>{_NAME})?\s*(?P<colon>:)?\s*(?P<pre>pre\b)?")
_KEY = re.compile(rf"(?P<key>{_NAME}|[0-9]+)\s*:")
_CLASS = re.compile(r"\{(?P<inside>[^{}]*)\}")
_SHAPES = "'event NAME: pre FORMULA', 'AGENT: {e1 e2} {e3}' or 'actual: NAME'"


class EventFileError(ValueError):
    """A mistake in an event model's text, at a line and column (both from 1)."""

    def __init__(self, message: str, line: int, column: int, text: str) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        super().__init__(f"line {line}, column {column}: {message}")

    def __str__(self) -> str:
        return (f"line {self.line}, column {self.column}: {self.message}\n"
                f"  {self.text}\n  {' ' * (self.column - 1)}^")


def _agent(text: str) -> Agent:
    return int(text) if text.isdigit() else text


def parse_event_model(text: str) -> EventModel:
    """The event model a text describes (see the module's docstring for the syntax)."""
    events: list[Event] = []
    where: dict[str, int] = {}  # event name -> line
    partitions: list[tuple[Agent, tuple[tuple[str, ...], ...]]] = []
    agent_at: dict[str, tuple[int, int, str]] = {}  # agent -> (line, column, text)
    actual: tuple[str, int, int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        start = len(line) - len(line.lstrip())

        def fail(message: str, column: int, *, at: str = raw, row: int = number) -> EventFileError:
            return EventFileError(message, row, column + 1, at)

        if not line.strip():
            continue
        body = line[start:]
        if body.startswith("event") and (len(body) == 5 or not body[5].isalnum()
                                         and body[5] not in "_'"):
            match = _EVENT.match(body)
            assert match is not None  # every part of the pattern is optional
            name = match.group("name")
            if name is None:
                raise fail("expected an event name after 'event'",
                           start + len(body) - len(body[5:].lstrip()))
            if match.group("colon") is None:
                raise fail(f"expected ':' after the event name {name!r}",
                           start + match.end("name"))
            if match.group("pre") is None:
                after_colon = body[match.end("colon"):]
                raise fail("expected 'pre' and the event's precondition after ':'",
                           start + len(body) - len(after_colon.lstrip()))
            if name in where:
                raise fail(f"event {name!r} is already defined on line {where[name]}",
                           start + match.start("name"))
            formula_at = start + match.end()
            try:
                precondition = parse(line[formula_at:])
            except FormulaError as e:
                raise fail(e.message, formula_at + e.position) from None
            where[name] = number
            events.append(Event(name, precondition))
            continue
        key = _KEY.match(body)
        if key is None:
            raise fail(f"expected {_SHAPES}", start)
        after = start + key.end()
        if key.group("key") == "actual":
            value = line[after:].strip()
            if actual is not None:
                raise fail(f"the actual event is already given on line {actual[1]}", start)
            if not re.fullmatch(_NAME, value):
                raise fail("expected the name of the actual event after 'actual:'",
                           after + len(line[after:]) - len(line[after:].lstrip()))
            actual = (value, number, after + line[after:].index(value), raw)
            continue
        agent = key.group("key")
        if agent in agent_at:
            raise fail(f"agent {agent} already has a partition on line {agent_at[agent][0]}",
                       start)
        classes: list[tuple[str, ...]] = []
        position = after
        while position < len(line):
            if line[position].isspace():
                position += 1
                continue
            block = _CLASS.match(line, position)
            if block is None:
                what = ("a class that is never closed with '}'" if line[position] == "{"
                        else "classes written as {e1 e2}")
                raise fail(f"expected {what}", position)
            found = list(re.finditer(r"\S+", block.group("inside")))
            names = [m.group() for m in found]
            if not names:
                raise fail("an empty class: put at least one event in it", position)
            for k, (name, m) in enumerate(zip(names, found, strict=True)):
                column = block.start("inside") + m.start()
                if name not in where:
                    raise fail(f"no event is named {name!r} (events are defined before the "
                               "partitions)", column)
                if any(name in c for c in classes) or name in names[:k]:
                    raise fail(f"event {name!r} is in two of agent {agent}'s classes", column)
            classes.append(tuple(names))
            position = block.end()
        if not classes:
            raise fail(f"expected agent {agent}'s classes, such as {{e1 e2}} {{e3}}", after)
        left_out = [e.name for e in events if not any(e.name in c for c in classes)]
        if left_out:
            raise fail(f"agent {agent}'s partition leaves out {', '.join(left_out)}: put each "
                       "event in exactly one class", start)
        agent_at[agent] = (number, start, raw)
        partitions.append((_agent(agent), tuple(classes)))
    last = len(text.splitlines()) or 1
    if not events:
        raise EventFileError("no events: define one with 'event NAME: pre FORMULA'", last, 1,
                             text.splitlines()[-1] if text.splitlines() else "")
    if actual is None:
        raise EventFileError("no 'actual: NAME' line: name the actual event", last, 1,
                             text.splitlines()[-1])
    name, row, column, raw = actual
    if name not in where:
        raise EventFileError(f"the actual event {name!r} is not defined; the events are "
                             f"{', '.join(where)}", row, column + 1, raw)
    for agent, (row, column, raw) in agent_at.items():
        covered = sum(len(c) for a, cs in partitions if str(a) == agent for c in cs)
        if covered != len(events):  # an event defined after the agent's line
            raise EventFileError(f"agent {agent}'s partition leaves out events defined after "
                                 "it: put the partitions after every event", row, column + 1,
                                 raw)
    return EventModel(tuple(events), tuple(partitions), name)
