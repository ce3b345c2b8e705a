"""What may name an agent, in every format that carries one (the text format, JSON); what no
name may hold, and when two names look alike, is :mod:`lookalikes`' (the boards' rule too).

One rule for both readers, so a name the text format refuses cannot come in through a JSON file
or a share link and then reach a page, an SVG or a TikZ file that trusted the reader.
"""

from __future__ import annotations

import re

#: Words that start a line of the text format, so no agent may be called so.
KEYWORDS = ("agents", "atoms", "world", "actual")
#: An agent: letters, digits, ``_`` and ``'`` starting with a letter, or a number.
AGENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*|[0-9]+")
#: Said wherever an agent's name is refused.
AGENT_RULE = ("an agent is a name of letters, digits, _ and ' starting with a letter (alice, "
              "a1), or a number (0)")


def agent_problem(agent: object) -> str | None:
    """Why ``agent`` cannot name an agent, or None when it can (a whole number or a name
    :data:`AGENT` matches that is no keyword)."""
    if isinstance(agent, bool) or not isinstance(agent, int | str):
        return f"{agent!r} cannot name an agent: {AGENT_RULE}"
    if isinstance(agent, int):
        return None if agent >= 0 else f"{agent!r} cannot name an agent: {AGENT_RULE}"
    if not AGENT.fullmatch(agent):
        return f"{agent[:40]!r} cannot name an agent: {AGENT_RULE}"
    if agent in KEYWORDS:
        return f"an agent cannot be called {agent!r}, a word of the format; rename it"
    return None
