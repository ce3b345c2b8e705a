"""The teaching panels: game status, event log, knowledge table, scores and one player's hand.

Each is a pure ``*_html`` function of the model (tested without a browser) wrapped in a small
component. In a player's perspective the panels show only what that player can see: its own
hand and tickets, public facts, and its own knowledge -- never the actual deal.
"""

from __future__ import annotations

from html import escape

import solara
from mesa.visualization.utils import update_counter

from agents.model import TTRModel, TurnRecord
from app.web.components.session import DemoModel
from app.web.components.style import player_ink, player_name, swatch
from boards import CARD_INKS
from game.cards import CARD_NAMES
from game.knowledge import Announcement
from game.table import END_REASONS

TABLE = "border-collapse:collapse;width:100%;font-size:13px"
CELL = "padding:3px 6px;border-bottom:1px solid rgba(128,128,128,.25);text-align:left"


def who(player: int) -> str:
    return (f"<span style='white-space:nowrap'>{swatch(player)}"
            f"<b style='color:{player_ink(player)}'>{player_name(player)}</b></span>")


def winner_text(model: TTRModel) -> str:
    """Who won, with the score; a tie names everyone on the top score."""
    scores = model.state.scores()
    best = max(scores)
    top = [p for p, score in enumerate(scores) if score == best]
    if len(top) == 1:
        return f"<b>{who(top[0])} wins</b> with {best} points."
    return "<b>A tie</b> on " + f"{best} points between " + " and ".join(who(p) for p in top) \
        + "."


def status_html(model: TTRModel, notice: str = "") -> str:
    """Where the game stands, and ``notice``: why the game differs from the settings asked
    for (``DemoModel.notice``)."""
    state = model.state
    if state.end_reason:
        where = (f"Game over after {state.turn} turns: {escape(END_REASONS[state.end_reason])}. "
                 f"<span data-testid='winner'>{winner_text(model)}</span>")
    else:
        where = f"Turn {state.turn}: {who(state.current)} to move."
    return (f"{where} <span style='margin-left:1.5em'>Possible deals: "
            f"<b data-testid='status-worlds'>{model.world_count:,}</b> of "
            f"{model.initial_worlds:,}</span>"
            + (f"<div style='color:#e65100'>{escape(notice)}</div>" if notice else ""))


def _turn_html(model: TTRModel, turn: TurnRecord) -> str:
    actions = "; ".join(escape(a) for a in turn.actions)
    lines = [f"<div><b>Turn {turn.turn}</b> {who(turn.player)} ({turn.kind}): {actions}</div>"]
    lines += [announcement_html(a) for a in turn.announcements]
    for t in turn.completed:
        lines.append(f"<div style='margin-left:1em'>finished ticket "
                     f"{escape(str(model.board.tickets[t]))}</div>")
    if turn.end_reason:
        lines.append(f"<div><b>Game over:</b> {escape(END_REASONS[turn.end_reason])}</div>")
    shade = "rgba(255,213,79,.15)" if turn.announcements else "transparent"
    return (f"<div style='padding:4px 6px;border-bottom:1px solid rgba(128,128,128,.25);"
            f"background:{shade}'>" + "".join(lines) + "</div>")


def announcement_html(a: Announcement) -> str:
    """One announcement: who made it (the game's own are the table's, an outside one names
    its maker), the formula, and how many worlds went."""
    removed = (f"removed {a.removed:,} world{'s' * (a.removed != 1)} "
               f"({a.worlds_before:,} → {a.worlds_after:,})" if a.removed
               else f"removed no world ({a.worlds_after:,} left)")
    said = f"<b>{escape(a.by)} announced</b>" if a.by else f"announce ({a.kind})"
    return (f"<div style='margin-left:1em' data-testid='announcement'>{said} "
            f"<code style='background:rgba(63,81,181,.12);padding:1px 4px'>{escape(a.text)}</code> "
            f"<span style='{'color:#e53935' if a.removed else 'opacity:.7'}'>{removed}</span>"
            "</div>")


def log_html(model: TTRModel) -> str:
    """Newest turn first; every announcement as the formula announced and what it removed."""
    deal = (f"<div style='padding:4px 6px'><b>Deal</b>: {model.initial_worlds:,} possible deals; "
            "each player sees only its own tickets." + "".join(
                announcement_html(a) for a in model.opening) + "</div>")
    return "".join(_turn_html(model, t) for t in reversed(model.history)) + deal


def _ticket_name(model: TTRModel, ticket: int) -> str:
    return f"t{ticket} {escape(str(model.board.tickets[ticket]))}"


def knowledge_html(model: TTRModel, perspective: int | None = None) -> str:
    """Per dealt ticket and agent: the holder the agent knows, or the holders it still allows.

    The outside view shows every agent and the real holder; a player's view only that player.
    At the end of the game every ticket is revealed (as in the real game), so the table then
    says who held each one instead of what was still unknown.
    """
    players = range(model.rules.players)
    over = model.state.end_reason is not None
    agents = list(players) if perspective is None else [perspective]
    holder = {t.id: p for p in players for t in model.state.tickets[p]}
    head = "".join(f"<th style='{CELL}'>{who(a)} knows</th>" for a in agents)
    if perspective is None:
        head += f"<th style='{CELL}'>real holder</th>"
    rows = []
    for t in sorted(holder):
        cells = []
        for a in agents:
            h = model.state.knowledge(a)
            known = h.known(t)
            if over:
                mine = " (mine)" if holder[t] == a else ""
                text = (f"<b style='color:{player_ink(holder[t])}'>held by {holder[t]}</b>"
                        f"{mine}" + ("" if known is not None else
                                     " <span style='opacity:.7'>(revealed at the end)</span>"))
                known = holder[t]
            elif known == a:
                text = "mine"
            elif known is not None:
                text = f"<b style='color:{player_ink(known)}'>held by {known}</b>"
            else:
                text = "<span style='opacity:.7'>" + " or ".join(
                    str(p) for p in sorted(h.possible[t])) + "?</span>"
            cells.append(f"<td style='{CELL}' data-known='{known is not None}'>{text}</td>")
        if perspective is None:
            cells.append(f"<td style='{CELL}'>{swatch(holder[t])}{holder[t]}</td>")
        rows.append(f"<tr><td style='{CELL}'>{_ticket_name(model, t)}</td>{''.join(cells)}</tr>")
    final = ("<div data-testid='knowledge-final' style='margin-bottom:4px'>The game is over: "
             "every ticket has been revealed.</div>" if over else "")
    return (f"{final}<table style='{TABLE}'><tr><th style='{CELL}'>ticket</th>"
            f"{head}</tr>{''.join(rows)}</table>")


def scores_html(model: TTRModel, perspective: int | None = None) -> str:
    """Scores and public counts; tickets are shown only where the viewer may see them (all of
    them once the game is over, as at the end of a real game)."""
    state = model.state
    # every column but the tickets on one line: 'trains' and 'epistemic' do not break in two
    head = "".join(f"<th style='{CELL};white-space:nowrap'>{h}</th>" for h in
                   ("player", "kind", "trains", "cards", "routes", "tickets ±", "score",
                    "tickets"))
    rows = []
    for p, seat in enumerate(model.seats):
        parts = state.score_parts(p)
        revealed = perspective in (None, p) or state.end_reason is not None
        if revealed:
            tickets = ", ".join(escape(str(t)) + (" ✓" if t.id in state.finished[p] else "")
                                for t in state.tickets[p])
        else:
            done = [t for t in state.tickets[p] if t.id in state.finished[p]]
            hidden = len(state.tickets[p]) - len(done)
            tickets = ", ".join([escape(str(t)) + " ✓" for t in done]
                                + ([f"{hidden} hidden"] if hidden else []))
        # unfinished tickets are private until the game ends: only their holder sees them
        minus, total = (parts.unfinished, parts.total) if revealed else ("?", "?")
        values = (who(p), seat.kind, state.trains[p], sum(state.hands[p]), parts.connections,
                  f"+{parts.finished} −{minus}", f"<b>{total}</b>", tickets)
        rows.append("<tr>" + "".join(
            f"<td style='{CELL}{'' if i == len(values) - 1 else ';white-space:nowrap'}'>{v}</td>"
            for i, v in enumerate(values)) + "</tr>")
    return f"<table style='{TABLE}'><tr>{head}</tr>{''.join(rows)}</table>"


def hand_html(model: TTRModel, player: int) -> str:
    """One player's train cards (coloured chips), its tickets, and the opponents' tickets it
    knows (the knowledge its blocks may act on)."""
    hand = model.state.hands[player]
    chips = "".join(
        f"<span style='display:inline-block;margin:2px;padding:2px 8px;border-radius:10px;"
        f"border:1px solid #616161;background:{CARD_INKS[name]};"
        f"color:{'#fff' if name in ('black', 'blue', 'locomotive', 'red', 'green') else '#000'}'>"
        f"{name} × {n}</span>"
        for name, n in zip(CARD_NAMES, hand, strict=True) if n)
    done = model.state.finished[player]
    tickets = "".join(f"<li>{_ticket_name(model, t.id)}{' ✓ finished' * (t.id in done)}</li>"
                      for t in model.state.tickets[player])
    known = model.state.known(player)
    knows = ", ".join(f"{who(p)} holds {_ticket_name(model, t)}" for p, t in sorted(known))
    return (f"<div>{who(player)}'s train cards: {chips or 'none'}</div>"
            f"<div style='margin-top:4px'>Tickets:<ul style='margin:0'>{tickets}</ul></div>"
            f"<div style='margin-top:4px'>Knows of its opponents: "
            f"{knows or 'no ticket yet'}.</div>")


@solara.component
def Status(model: DemoModel):
    update_counter.get()
    solara.HTML(tag="div", unsafe_innerHTML=status_html(model, model.notice),
                attributes={"data-testid": "status"},
                style="font-size:14px;padding:3px 10px;border-radius:6px;"
                      "background:rgba(120,144,156,.18)")


@solara.component
def EventLog(model: TTRModel):
    update_counter.get()
    with solara.Card("Event log (newest first)", margin=0):
        solara.HTML(tag="div", unsafe_innerHTML=log_html(model),
                    attributes={"data-testid": "event-log"},
                    style="max-height:420px;overflow-y:auto;font-size:13px")


@solara.component
def KnowledgeTable(model: TTRModel, perspective: int | None = None):
    update_counter.get()
    title = "Who knows which ticket" if perspective is None else \
        f"What {player_name(perspective)} knows of the tickets"
    with solara.Card(title, margin=0):
        solara.HTML(tag="div", unsafe_innerHTML=knowledge_html(model, perspective),
                    attributes={"data-testid": "knowledge"})


@solara.component
def Scores(model: TTRModel, perspective: int | None = None):
    update_counter.get()
    with solara.Card("Scores", margin=0):
        solara.HTML(tag="div", unsafe_innerHTML=scores_html(model, perspective),
                    attributes={"data-testid": "scores"})


@solara.component
def Hand(model: TTRModel, player: int):
    update_counter.get()
    with solara.Card(f"{player_name(player).capitalize()}'s hand", margin=0):
        solara.HTML(tag="div", unsafe_innerHTML=hand_html(model, player),
                    attributes={"data-testid": "hand"})
