"""Errors a user of the model checker can meet, all ValueErrors so callers may catch broadly,
except :class:`EvaluationStopped`, which is no mistake of the user's."""


#: The most characters of a user's text a message quotes: a formula of 100 KB (an event written
#: on one line, an announcement) came back whole, a wall of text for one line.
QUOTE_LIMIT = 100


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """A user's text (a formula, an event on one line) as a message quotes it: in quotes,
    escaped, and past ``limit`` characters cut to its start, an ellipsis and its length."""
    shown = repr(str(text))
    return shown if len(shown) <= limit else f"{shown[:limit]}…' ({len(str(text)):,} characters)"


class TextError(ValueError):
    """A user's text that cannot be read (a formula, a model or event file, a model's JSON):
    the one error of every reader, so each says where and what the same way. ``source`` is the
    file's name (None for a text given directly); the place is ``line`` and ``column``
    (1-based), or for a JSON model's content the ``field``'s path (``worlds[3].true``);
    ``problem`` is what is wrong and ``fix`` what to change, one line together (``message``).
    ``text``, when given, is the text itself: ``str()`` then shows its line under the message
    with a caret at the column (a formula typed alone; a file's line is shown by its viewer).

    Without ``fix``, ``message`` is read as every message here is written: the problem, ``;``
    and the fix."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 source: str | None = None, *, fix: str | None = None,
                 field: str | None = None, text: str | None = None) -> None:
        if fix is None:
            problem, _, fix = message.partition("; ")
        else:
            problem = message
        self.problem = problem
        self.fix = fix
        self.message = f"{problem}; {fix}" if fix else problem
        self.line = line
        self.column = column
        self.source = source
        self.field = field
        self.text = text
        super().__init__(self.headline())

    def place(self) -> str:
        """Where the mistake is: ``line 3, column 7`` or a JSON field's path."""
        if self.line is not None:
            return f"line {self.line}, column {self.column}"
        return self.field or ""

    def headline(self) -> str:
        """The one line: the file, the place, the problem and the fix."""
        where = ": ".join(part for part in (self.source, self.place()) if part)
        return f"{where}: {self.message}" if where else self.message

    def excerpt(self) -> tuple[str, int]:
        """The part of the text's line an error shows, and where the caret goes in it
        (:data:`CONTEXT` characters each side, ``…`` where the line is cut)."""
        lines = (self.text or "").split("\n")
        row = lines[min(max((self.line or 1) - 1, 0), len(lines) - 1)]
        at = (self.column or 1) - 1
        start = max(0, at - CONTEXT)
        end = min(len(row), at + CONTEXT)
        head = "…" if start else ""
        return head + row[start:end] + ("…" if end < len(row) else ""), at - start + len(head)

    def __str__(self) -> str:
        if self.text is None:
            return self.headline()
        shown, caret = self.excerpt()
        return f"{self.headline()}\n  {shown}\n  {' ' * caret}^"


#: How much of a line an error shows on each side of its column: a formula pasted by mistake
#: (thousands of characters) must not come back as a wall of text.
CONTEXT = 30


class FormulaError(TextError):
    """A malformed formula (:func:`kripke.language.parser.parse`): where, what was expected and
    what to write; alone, ``str()`` shows the formula around the column with a caret."""


class ModelError(ValueError):
    """The model cannot answer: an unknown agent or atom, a world out of range, bad arrays."""


class AnnouncementError(ValueError):
    """A public announcement is false at the actual world, so it could not truthfully be made."""

    def __init__(self, formula: object) -> None:
        self.formula = formula
        super().__init__(
            f"cannot announce {_formula(formula)}: it is false at the actual world "
            "(a truthful public announcement never removes the actual world)"
        )


class UpdateError(AnnouncementError):
    """An event model's actual event cannot happen at the actual world (its precondition is
    false there): the product update would remove the actual world, as an untruthful
    announcement would."""

    def __init__(self, event: str, precondition: object) -> None:
        self.event = event
        self.formula = precondition
        ValueError.__init__(
            self, f"cannot update with event {quoted(event)}: its precondition "
            f"{_formula(precondition)} is "
            "false at the actual world (make another event the actual one)"
        )


def _formula(formula: object) -> str:
    """A formula in a message: as written when short, else quoted and cut (:func:`quoted`)."""
    text = str(formula)
    return text if len(text) <= QUOTE_LIMIT else quoted(text)


class ModelTooLargeError(ValueError):
    """Drawing (or listing) was asked for more worlds than a picture (or a list) can hold: a
    symbolic model raises it too, whenever a question needs its states one by one."""

    def __init__(self, n_worlds: int, max_worlds: int, agent: object = None, *,
                 task: str = "to draw", advice: str | None = None) -> None:
        self.n_worlds = n_worlds
        self.max_worlds = max_worlds
        if agent is None:
            what = f"the model has {n_worlds:,} worlds"
            advice = advice or "draw the worlds one agent considers possible (agent=...)"
        else:
            what = f"agent {agent!r} considers {n_worlds:,} worlds possible"
            advice = advice or "draw fewer worlds (restrict the model)"
        super().__init__(
            f"{what}, more than max_worlds={max_worlds:,} {task}; {advice} "
            "or announce more first"
        )


class TooMuchWorkError(ValueError):
    """A formula whose evaluation would take more than the checker's budget
    (:mod:`kripke.budget`): refused before any world is looked at."""

    def __init__(self, steps: int, limit: int, n_worlds: int, *,
                 task: str = "this formula") -> None:
        self.steps = steps
        self.limit = limit
        super().__init__(
            f"{task} is too much work over {n_worlds:,} worlds (about {steps / 1e9:,.0f} "
            f"s; the limit is {limit / 1e9:,.0f} s): use a shorter formula with fewer C, E and "
            "D operators, or restrict the model first"
        )


class EvaluationStopped(Exception):
    """The caller stopped an evaluation before it finished (:func:`kripke.budget.stop_when`: a
    page whose tab closed, or whose formula changed, no longer wants the answer).

    Not a ValueError: code that shows a user's mistakes as messages catches ValueError, and must
    not swallow a stop and go on working for nobody."""

    def __init__(self) -> None:
        super().__init__("the evaluation was stopped before it finished: its answer is no "
                         "longer wanted")
