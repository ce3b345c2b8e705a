"""What the worlds card says about belief, for a game whose model orders the deals (the open
game, ``design/open-game.md``): knowledge is the player's class, belief its most plausible
deals; what the player believes without knowing it; and, at the step where it happens, a false
belief a bluff planted and a belief the facts revised.

The picture's side (shades, rings, the dropped belief fading) is ``app.worlds.ranks``; this
module picks the two steps to compare (the moment on screen and the one before it on the
timeline) and says in words what changed. What a player's view says is only what that player
may see: its own beliefs, never whether they are true (it cannot know; saying so would leak
the deal). The outside view, the teacher's, names a false belief as false.

Beliefs are the model's own answers on either backend (its believed and known atoms, the
values ``B_i p(a,t)`` and ``K_i p(a,t)`` have in the formula box); the picture's levels need a
model that lists its deals (``app.worlds.ranks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol, runtime_checkable

from agents.model import TTRModel
from agents.timeline import Timeline
from app.web.components.style import player_ink, player_name
from app.worlds.layout import Picture
from app.worlds.ranks import (
    Plausibility,
    Revision,
    believed_tiles,
    plausibility,
    revision,
    shaded,
)
from game.knowledge import AnnouncementKind
from kripke.language.formula import Agent, Atom


@dataclass(frozen=True)
class Fact:
    """``holder`` holds ``ticket``, as some player believes it, and whether it is true."""

    holder: int
    ticket: int
    true: bool


@dataclass(frozen=True)
class BeliefStep:
    """One player's belief at the moment on screen and at the moment before it."""

    player: int
    now: Plausibility | None
    before: Plausibility | None
    believed: tuple[Fact, ...]  # believed now without being known
    believed_before: tuple[Fact, ...]
    revised: Revision | None

    def picture(self, picture: Picture, layout: object, model: Any) -> Picture:
        """``picture`` (of ``model``, drawn by ``layout``) shaded for this player, and on a
        summary its believed deals' tiles ringed (``app.worlds.ranks``)."""
        return believed_tiles(shaded(picture, self.now, self.before,
                                     name=player_name(self.player)), layout, model, self.player)


def believed_facts(model: Any, player: int) -> tuple[Fact, ...]:
    """What ``player`` believes another player holds and does not know: the atoms
    ``p(a,t)`` true in every deal it finds most plausible and not in its whole class (the
    model's own ``believed_atoms`` and ``known_atoms``, one pass each on either backend; a
    formula per ticket took 3.7 s on a 4 × 4 game held as diagrams), each with whether it is
    true."""
    known = model.known_atoms(player)
    found = [Fact(int(holder), int(ticket), model.holds(atom))
             for atom, value in model.believed_atoms(player).items()
             if value and not known.get(atom) and atom.name == "p"
             for holder, ticket in [atom.args] if int(holder) != player]
    return tuple(sorted(found, key=lambda f: (f.holder, f.ticket)))


@runtime_checkable
class _Ordered(Protocol):
    """A model with a plausibility order, on either backend (the open game's ranked deal)."""

    def is_flat(self) -> bool: ...

    def believed_atoms(self, agent: Agent) -> dict[Atom, bool]: ...


def belief_step(game: TTRModel, timeline: Timeline, player: int) -> BeliefStep | None:
    """``player``'s belief now and one moment back, or None if the model orders no deals
    (belief is then knowledge, and the picture and the words stay as they were). A model
    held as diagrams (a 4 × 4 game) lists no worlds: its beliefs are said, from formulas, but
    neither drawn nor compared world by world, so no revision is named there."""
    if not isinstance(game.worlds, _Ordered):
        return None
    now = plausibility(game.worlds, player)
    at = timeline.position
    earlier = timeline.moments[at - 1].snapshot.state.worlds if at > 0 else None
    before = None if earlier is None else plausibility(earlier, player)
    return BeliefStep(
        player, now, before, believed_facts(game.worlds, player),
        () if earlier is None else believed_facts(earlier, player), revision(before, now))


def _ticket(game: TTRModel, ticket: int) -> str:
    t = game.board.tickets[ticket]
    return f"t{ticket} {t.a}–{t.b}"


def _who(player: int) -> str:
    return f"<b style='color:{player_ink(player)}'>{escape(player_name(player))}</b>"


def _facts(game: TTRModel, facts: Sequence[Fact], tense: str, outside: bool) -> str:
    """``player 0 holds t5 Boston–Miami`` joined; in the outside view a false one says so."""
    said = [f"{_who(f.holder)} {tense} {escape(_ticket(game, f.ticket))}"
            + ("" if f.true or not outside else " <b data-testid='false-belief'>(false)</b>")
            for f in facts]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def what_happened(game: TTRModel, timeline: Timeline) -> str:
    """The hard information of the moment on screen, in words: a ticket finished, a block
    declared, an outside announcement."""
    moment = timeline.moments[timeline.position]
    if moment.announcement is not None:
        return f"the teacher announced {escape(moment.announcement.text)}"
    if not game.history:
        return "the deal"
    turn = game.history[-1]
    said = [f"{_who(turn.player)} finished {escape(_ticket(game, t))}" for t in turn.completed]
    if turn.block is not None:
        victim, ticket = turn.block
        said.append(f"{_who(turn.player)} declared a block of {_who(victim)}'s "
                    f"{escape(_ticket(game, ticket))}")
    return " and ".join(said) or "this turn's news"


def bluffed(game: TTRModel, timeline: Timeline) -> int | None:
    """The player whose claim in the moment on screen was a bluff, else None: a claim whose
    inference (the rank shift's formula) is false at the actual deal, read on the model before
    it. Only the outside view may say so: a player cannot tell a bluff from an honest claim."""
    moment = timeline.moments[timeline.position]
    if moment.announcement is not None or not game.history or timeline.position == 0:
        return None
    turn = game.history[-1]
    earlier = timeline.moments[timeline.position - 1].snapshot.state.worlds
    for made in turn.announcements:
        if made.kind == AnnouncementKind.SHIFT and not earlier.holds(made.formula):
            return turn.player
    return None


def news_html(step: BeliefStep, game: TTRModel, timeline: Timeline, outside: bool) -> str:
    """What the worlds card says, above the picture, about the player's belief at this moment:
    what changed since the moment before (a belief revised, a belief planted, a bluff in the
    outside view), else what it believes now without knowing it."""
    who = _who(step.player)
    now = _facts(game, step.believed, "holds", outside) or "only what it knows"
    if step.revised is not None:
        was = [f for f in step.believed_before if f not in step.believed]
        held = _facts(game, was, "held", outside) or "in deals now ruled out"
        return (f"<span data-testid='belief-revised'>{who} believed {held}; "
                f"{what_happened(game, timeline)}: <b>belief revised</b>. Every deal it "
                "believed in is ruled out (dashed rings, fading); now it believes "
                f"{now}.</span>")
    bluffer = bluffed(game, timeline) if outside else None
    bluff = "" if bluffer is None else (
        f"<span data-testid='bluff'>{_who(bluffer)}'s claim was a <b>bluff</b> (the actual "
        "deal does not explain it)</span>")
    new = [f for f in step.believed if f not in step.believed_before]
    if new:
        planted = outside and any(not f.true for f in new)
        return (f"{bluff}{': ' if bluff else ''}<span data-testid="
                f"'{'belief-planted' if planted else 'belief-new'}'>"
                + ("a false belief planted. " if planted else "")
                + f"{who} now believes {_facts(game, new, 'holds', outside)}"
                + ("" if planted else ", from the claims: a belief, not knowledge")
                + ".</span>")
    said = f"{bluff}. " if bluff else ""
    if step.believed:
        said += (f"<span data-testid='belief-now'>{who} believes, without knowing it: "
                 f"{now}.</span>")
    return said

def _sample(x: float, level: int, belief: str = "") -> str:
    """One world as the picture draws it at ``level``, ringed as ``belief`` says."""
    r = 6.0 * (1.0, 0.86, 0.74, 0.64)[level]
    ring = "" if not belief else (
        f'<circle class="bel{" dropped" if belief == "dropped" else ""}" cx="{x}" cy="10" '
        f'r="{9}"/>')
    return (f'<g class="w lv{level}"><circle class="base" cx="{x}" cy="10" r="{r:.1f}"/>'
            f"{ring}</g>")


def belief_legend(picture: Picture, player: int) -> str:
    """The key to the shades and rings, when the picture draws them: small worlds drawn as
    the picture draws them (its style sheet is the page's, light or dark)."""
    levels = any(m.level for m in picture.marks)
    ringed = any(m.belief == "believed" and not m.tile for m in picture.marks)
    tiles = any(m.belief == "believed" and m.tile for m in picture.marks)
    dropped = any(m.belief == "dropped" for m in picture.marks)
    if not (levels or ringed or tiles or dropped):
        return ""
    parts = []
    if levels:
        dots = "".join(_sample(10 + 20 * i, i) for i in range(4))
        parts.append(f"<svg class='ttr-pic' viewBox='0 0 80 20' width='80' height='20' "
                     f"style='vertical-align:middle;background:none'>{dots}</svg> "
                     f"more plausible for {escape(player_name(player))}, bigger and darker "
                     "(fewer claims left unexplained)")
    if ringed:
        parts.append("<svg class='ttr-pic' viewBox='0 0 20 20' width='20' height='20' "
                     f"style='vertical-align:middle;background:none'>{_sample(10, 0, 'believed')}"
                     "</svg> believed: the most plausible deals of its class")
    if tiles:
        parts.append("<svg class='ttr-pic' viewBox='0 0 20 20' width='20' height='20' "
                     "style='vertical-align:middle;background:none'><g class='w'>"
                     "<rect class='base' x='5' y='5' width='10' height='10'/>"
                     "<rect class='bel' x='1.5' y='1.5' width='17' height='17' rx='3'/></g>"
                     "</svg> a ringed tile: it holds deals believed in")
    if dropped:
        parts.append("<svg class='ttr-pic' viewBox='0 0 20 20' width='20' height='20' "
                     f"style='vertical-align:middle;background:none'>{_sample(10, 0, 'dropped')}"
                     "</svg> believed until this step")
    who = escape(player_name(player))
    return ("<div data-testid='belief-legend'>" + "; ".join(parts)
            + f". Knowledge is the class: {who} knows what holds in every deal of it. Belief "
            "is its most plausible deals: it believes what holds in the ringed ones.</div>")


#: The formula box's hint in a game whose model orders the deals: belief first, beside
#: knowledge, as the open game sets them apart.
BELIEF_HINT = ("Type a formula, e.g. <code>B_0 p(1,7)</code>: player 0 believes that player 1 "
               "holds ticket 7 (it holds in the deals player 0 finds most plausible); "
               "<code>K_0 p(1,7)</code>: it knows it (in every deal of its class).")


def belief_examples(game: TTRModel) -> list[str]:
    """Belief formulas about this game's deal, when its model orders the deals (none
    otherwise: there ``B_i`` is ``K_i``): belief, belief without knowledge, conditional
    belief."""
    if plausibility(game.worlds, 0) is None:
        return []
    tickets = game.state.tickets
    t1, t2 = tickets[1][0].id, tickets[2 % len(tickets)][0].id
    return [f"B_0 p(1,{t1})", f"B_0 p(1,{t1}) & ~K_0 p(1,{t1})",
            f"B_0[~p(1,{t1})] p(2,{t2})"]
