"""One colour per agent, by its place among the model's agents, for every picture of a model:
the web page's players (board, worlds picture, tables) and the TikZ slides
(:func:`app.worlds.tikz.to_tikz`) take theirs from here, so a student follows one colour from
the screen to the slide.

None of the colours is a Ticket to Ride card colour (a claimed connection, drawn in its
owner's colour, never looks like an unclaimed one), nor the formula's blue, and each is dark
enough to print. Eight, so eight muddy children each have their own; chosen for colour-blind
readers too: any two differ by a CIE76 distance of 30 or more, and of 13 or more as a
protanope, deuteranope or tritanope sees them (``tests/test_puzzle_layouts.py`` checks).
"""

from __future__ import annotations

AGENT_COLOURS: tuple[str, ...] = ("#8e24aa", "#00897b", "#6d4c41", "#d81b60", "#9e9d24",
                                  "#33691e", "#aa00ff", "#880e4f")


def agent_colour(place: int) -> str:
    """The colour of the agent at ``place`` among its model's agents (the palette repeats)."""
    return AGENT_COLOURS[place % len(AGENT_COLOURS)]
