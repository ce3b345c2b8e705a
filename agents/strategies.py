"""The four strategy agents of the playtesting papers (Silva et al. 2017, as Smith & Anton 2022
summarise them) and the simplified game's baseline adapted to the published rules, as policies
for the standard game; the table of kinds (:data:`agents.kinds.KINDS`) names them.

A policy is a pure function ``(view, rng) -> action`` of a :class:`game.view.PlayerView`: the
player's own hand and tickets and the public table, never the game state.
"Shortest" means fewest trains over free connections and the player's own (own ones cost 0),
from :mod:`game.distances`. The design note (``shared/design/standard-game.md``) fixes what each
agent does; where it leaves a choice open, the choice is written here as **Choice:**. Common
choices:

- **Choice:** ties are broken by the lowest id (ticket, connection, colour), not at random, so a
  plan stays the same from turn to turn until a claim changes the board; ``rng`` is used only by
  the baseline.
- **Choice:** a ticket "can still be finished" when its cities are joined over usable
  connections in no more trains than the player has left.
- **Choice:** to collect a colour an agent takes it face up if it lies there, else a face-up
  locomotive (first card only), else the pile (the note's One Step Thinker rule, used by all);
  for a grey connection the colour to collect is the one it holds most.
- The two halves of a double are one step of a path (paths name the lower id): an agent that
  needs one claims whichever half its hand pays and collects either half's colour, the one it
  holds more first, as a player reads "the Denver–Kansas City connection".
- **Choice:** grey connections are paid with the fewest locomotives, then the colour held most
  (the Hungry agent instead avoids colours its plan needs elsewhere, as the note says).
- **Choice:** when the rules leave an agent none of the moves its strategy names (no card and
  no ticket to draw), it takes the longest claim it can pay, else any legal action.
- **Choice:** on a board with Europe's options the agents pay a tunnel's extra cards when they
  can (else give it up) and never build stations: the note's agents play the USA map.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from boards import Ticket
from game.actions import (
    Action,
    Claim,
    DrawDeck,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelGiveUp,
)
from game.cards import LOCO, colour_of
from game.claims import hand_can_pay
from game.distances import INF, Distances
from game.view import PlayerView

#: In its opening (before its first claim) the Hungry agent draws more tickets while its plan
#: needs fewer than its trains minus this.
HUNGRY_MARGIN = 8
#: It keeps the best set of tickets among those whose plan leaves this many trains spare (the
#: authors' engine, Silva et al. 2017: "number_of_trains - 5").
HUNGRY_KEEP_MARGIN = 5
#: One Step Thinker draws tickets only while every player has at least this many trains (the
#: authors' engine, Silva et al. 2017: ``min_trains_threshold = 8``).
TICKET_DRAW_TRAINS = 8
#: The Long Route Junkie claims nothing shorter than this while it has this many trains.
LONG = 3


# ----- shared moves ---------------------------------------------------------------------------


def segments(view: PlayerView, connection: int) -> tuple[int, ...]:
    """``connection`` and, when it is half of a double, the other half if this player may take
    it: both join the same two cities in the same trains, so a plan that needs one is served by
    either, in whichever colour the hand pays (paths name one half, the lowest id)."""
    mate = view.board.double_mates.get(connection)
    if mate is not None and view.open_to_me(mate):
        return connection, mate
    return (connection,)


def pay(view: PlayerView, connection: int, avoid: Iterable[int] = ()) -> Claim | None:
    """The payment an agent makes for ``connection`` (or the other half of its double), or
    ``None`` if its hand cannot pay: the fewest locomotives, then the colour held most; colours
    in ``avoid`` only as a last resort."""
    options = [claim for s in segments(view, connection) for claim in view.payments(s)]
    if not options:
        return None
    hand, shun = view.hand, set(avoid)
    return min(options, key=lambda c: (c.colour in shun, c.locomotives,
                                       -hand[c.colour] if c.colour is not None else 0,
                                       c.colour or 0))


def colours_to_collect(view: PlayerView, connection: int, avoid: Iterable[int] = ()
                       ) -> list[int]:
    """The card colours that pay for ``connection`` or the other half of its double, the one
    held most first: a segment's own colour, or for grey the colour held most (colours in
    ``avoid`` only if nothing else is held)."""
    colours = [most_held(view, avoid) if (colour := colour_of(view.board.connections[s].colour))
               is None else colour for s in segments(view, connection)]
    return sorted(dict.fromkeys(colours), key=lambda c: -view.hand[c])


def most_held(view: PlayerView, avoid: Iterable[int] = ()) -> int:
    shun = set(avoid)
    return min(range(LOCO), key=lambda c: (c in shun, -view.hand[c], c))


def collect(view: PlayerView, colours: Sequence[int]) -> Action:
    """Draw toward ``colours`` (in order of preference): one lying face up, else a face-up
    locomotive as the whole turn (first card only), else the pile, else any face-up card."""
    slots = view.face_up_slots()
    for colour in colours:
        for s in slots:
            if view.face_up[s] == colour:
                return DrawFaceUp(s)
    for s in slots:
        if view.face_up[s] == LOCO:
            return DrawFaceUp(s)
    if view.can_draw_deck:
        return DrawDeck()
    if slots:
        return DrawFaceUp(slots[0])
    return forced(view)


def longest_payable(view: PlayerView, at_least: int = 1, by_points: bool = False
                    ) -> Claim | None:
    """The longest connection (``by_points``: the one worth most) of at least ``at_least``
    trains that the hand pays for now, lowest id on ties."""
    points = view.board.route_points
    ranked = sorted((c for c in view.board.connections
                     if c.length >= at_least and hand_can_pay(c, view.hand)),
                    key=lambda c: (-(points[c.length] if by_points else c.length), c.id))
    for conn in ranked:
        if claim := pay(view, conn.id):
            return claim
    return None


def forced(view: PlayerView) -> Action:
    """A legal action when the strategy's own moves are impossible: the longest claim, else a
    card draw, else tickets, else a pass."""
    if view.drawn == 0 and not view.offer and (claim := longest_payable(view)):
        return claim
    legal = view.legal_actions()
    for kind in (DrawFaceUp, DrawDeck, KeepTickets, DrawTickets):
        for action in legal:
            if isinstance(action, kind):
                return action
    # a claim as planned (the simplified game declares it: policies.declaring), else the
    # first legal action
    claims = view.claim_choices()
    return claims[0] if claims else legal[0] if legal else Pass()


def claim_or_collect(view: PlayerView, ranked: Sequence[int],
                     otherwise: Callable[[], Claim | None]) -> Action:
    """Claim the first of ``ranked`` the hand pays for, else collect the first one's colour;
    with nothing ranked, make the ``otherwise`` claim, else collect the colour held most."""
    if ranked:
        if view.drawn == 0:
            for c in ranked:
                if claim := pay(view, c):
                    return claim
        return collect(view, colours_to_collect(view, ranked[0]))
    if view.drawn == 0 and (claim := otherwise()):
        return claim
    return collect(view, [most_held(view)])


def workable(view: PlayerView, dist: Distances) -> list[Ticket]:
    """Unfinished tickets that can still be finished with the trains left."""
    trains = view.my_trains
    return [t for t in view.unfinished() if dist.cost(t.a, t.b) <= trains]


def cheapest_set(view: PlayerView, dist: Distances, offer: Sequence[Ticket],
                 least: int) -> tuple[int, ...]:
    """The ``least`` offered tickets that need the fewest trains (ids)."""
    ranked = sorted(offer, key=lambda t: (dist.cost(t.a, t.b), -t.points, t.id))
    return tuple(sorted(t.id for t in ranked[:least]))


def ratio_keep(view: PlayerView, dist: Distances) -> KeepTickets:
    """Keep the offered tickets with the most points per train still needed that fit in the
    trains left, best first (at least the required number)."""
    trains = view.my_trains

    def ratio(t: Ticket) -> float:
        cost = dist.cost(t.a, t.b)
        return INF if cost == 0 else t.points / cost

    kept: list[int] = []
    spent = 0.0
    for t in sorted(view.offer, key=lambda t: (-ratio(t), t.id)):
        cost = dist.cost(t.a, t.b)
        if spent + cost <= trains or len(kept) < view.keep_at_least:
            kept.append(t.id)
            spent += cost
    return KeepTickets(tuple(sorted(kept)))


def settle_tunnel(view: PlayerView) -> Action:
    """A tunnel claim asks for extra cards: every agent pays them if it can (fewest
    locomotives), else gives the tunnel up. (**Choice:** the note's agents play the USA map,
    which has no tunnels.)"""
    choices = view.tunnel_choices()
    return choices[0] if choices else TunnelGiveUp()


def keep_all(view: PlayerView) -> KeepTickets:
    return KeepTickets(tuple(t.id for t in view.offer))


# ----- One Step Thinker -----------------------------------------------------------------------


def osta(view: PlayerView, rng: random.Random) -> Action:
    """One Step Thinker: one ticket and one connection at a time.

    Keeps all three tickets at setup. Aims at its most valuable unfinished ticket that can still
    be finished and at the next connection it lacks on a shortest path for it (travelling from
    the ticket's first city); collects that connection's colour and claims it as soon as it can
    pay. Draws tickets only when no ticket is left to work on, keeping those with the most
    points per train still needed that fit in its trains. With nothing to work on it claims the
    longest connection it can pay for.

    It draws tickets only while every player has 8 trains or more (the authors' engine; in our
    games tickets drawn nearer the end lost 3.7 points each). **Choice:** the shortest path is
    the one with the fewest connections, then the lowest ids (:meth:`Distances.path`).
    """
    if view.tunnel:
        return settle_tunnel(view)
    dist = view.distances()
    if view.offer:
        return keep_all(view) if view.setup else ratio_keep(view, dist)
    work = workable(view, dist)
    if work:
        ticket = max(work, key=lambda t: (t.points, -t.id))
        target = next(c for c in dist.path(ticket.a, ticket.b) if dist.weight[c] > 0)
        # (an unfinished ticket within reach always lacks a connection on its path)
        if view.drawn == 0 and (claim := pay(view, target)):
            return claim
        return collect(view, colours_to_collect(view, target))
    if view.drawn == 0:
        if view.can_draw_tickets and min(view.trains) >= TICKET_DRAW_TRAINS:
            return DrawTickets()
        if claim := longest_payable(view):
            return claim
    return collect(view, [most_held(view)])


# ----- Path agent -----------------------------------------------------------------------------


def pa(view: PlayerView, rng: random.Random) -> Action:
    """Path agent: many tickets served by few connections.

    Keeps all tickets and never draws more. Ranks every connection it lacks on shortest paths
    of its unfinished tickets by connection points + 2 × the points of the tickets whose
    shortest paths use it, claims the best one it can pay for, else collects the colour of the
    best one. With no ticket left to work on it claims the most valuable connection it can pay
    for.

    **Choice:** "the best one it can pay for" is the highest-ranked payable one, even when a
    better one is not yet payable (it does not wait).
    """
    if view.tunnel:
        return settle_tunnel(view)
    dist = view.distances()
    if view.offer:
        return keep_all(view)
    return claim_or_collect(view, path_ranking(view, dist),
                            lambda: longest_payable(view, by_points=True))


def path_ranking(view: PlayerView, dist: Distances) -> list[int]:
    """Connections on shortest paths of workable tickets, best first (the Path agent's rank)."""
    serves: dict[int, int] = {}
    for t in workable(view, dist):
        for c in dist.on_shortest(t.a, t.b):
            serves[c] = serves.get(c, 0) + t.points
    points = view.board.route_points
    conns = view.board.connections
    return sorted(serves, key=lambda c: (-(points[conns[c].length] + 2 * serves[c]), c))


# ----- Long Route Junkie ----------------------------------------------------------------------


def lrja(view: PlayerView, rng: random.Random) -> Action:
    """Long Route Junkie: long connections above all.

    Never claims a connection shorter than 3 while it has 3 trains or more. Keeps the tickets it
    can join with long connections and never draws more. Plans its tickets' paths over
    connections of length 3 or more (and its own), claims the plan's connections, longest
    first, and with no plan left claims the longest connection it can pay for.

    **Choice:** at setup it keeps every ticket whose cities long connections join within its
    trains, and at least two: the ones needing the fewest trains over long connections, then
    over any. **Choice:** with a plan it waits for the plan's cards rather than claiming
    another long connection. **Choice:** below 3 trains it plans and claims over every length.
    """
    if view.tunnel:
        return settle_tunnel(view)
    shortest = LONG if view.my_trains >= LONG else 1
    dist = view.distances(shortest)
    if view.offer:
        return KeepTickets(long_keep(view, dist))
    return claim_or_collect(view, long_plan(view, dist),
                            lambda: longest_payable(view, at_least=shortest))


def long_keep(view: PlayerView, dist: Distances) -> tuple[int, ...]:
    trains = view.my_trains
    joinable = [t.id for t in view.offer if dist.cost(t.a, t.b) <= trains]
    if len(joinable) >= view.keep_at_least:
        return tuple(sorted(joinable))
    any_length = view.distances()
    ranked = sorted(view.offer, key=lambda t: (dist.cost(t.a, t.b), any_length.cost(t.a, t.b),
                                               t.id))
    return tuple(sorted(t.id for t in ranked[:view.keep_at_least]))


def long_plan(view: PlayerView, dist: Distances) -> list[int]:
    """Connections to claim on long-connection shortest paths of workable tickets: longest
    first, then those serving the most ticket points."""
    serves: dict[int, int] = {}
    for t in workable(view, dist):
        for c in dist.on_shortest(t.a, t.b):
            serves[c] = serves.get(c, 0) + t.points
    conns = view.board.connections
    return sorted(serves, key=lambda c: (-conns[c].length, -serves[c], c))


# ----- Hungry agent ---------------------------------------------------------------------------


def ha(view: PlayerView, rng: random.Random) -> Action:
    """Hungry agent: as many tickets as its trains allow, joined in one network.

    Its plan joins the cities of its unfinished tickets in one network (a Steiner-tree
    approximation: the two farthest cities by a shortest path, every other city attached by a
    shortest path). In its opening, before its first claim, it draws tickets while the plan
    needs fewer trains than it has minus 8 (Smith & Anton: it "takes destinations until it has
    enough to spend all its trains on them, then formulates a plan"; drawing all game long kept
    5.5 tickets a game and lost 41 ticket points), and
    keeps the set of offered tickets that gives the most points per train its plan then needs,
    among the sets whose plan leaves 5 trains spare (the margin and the points, the tickets'
    and the plan's connections', are the authors' engine's; see :func:`hungry_keep`).
    It claims the plan's connections, the ones most at risk first, then the most valuable,
    paying grey ones with a colour it does not need elsewhere in the plan.

    **Choice:** a plan connection is *at risk* when no second segment of a double would be
    left open to it if an opponent took it; **choice:** a grey connection is paid in a colour
    the plan needs elsewhere only when no other colour pays (it does not wait); **choice:** it
    collects the colours of all its
    plan's connections, in the order it would claim them (a face-up card of any of them before
    the pile); **choice:** it draws tickets only before the last round.
    """
    if view.tunnel:
        return settle_tunnel(view)
    dist = view.distances()
    if view.offer:
        return KeepTickets(hungry_keep(view, dist))
    plan, cost = hungry_plan(view, dist, view.unfinished())
    if (view.drawn == 0 and view.can_draw_tickets and not view.final_round
            and in_opening(view) and cost < view.my_trains - HUNGRY_MARGIN):
        return DrawTickets()
    if plan:
        points, conns = view.board.route_points, view.board.connections
        order = sorted(plan, key=lambda c: (not at_risk(view, c), -points[conns[c].length], c))
        needs = plan_colours(view, plan)
        if view.drawn == 0:
            for c in order:
                if claim := pay(view, c, avoid=needed_elsewhere(view, needs, c)):
                    return claim
        wanted = [colour for c in order
                  for colour in colours_to_collect(view, c, needed_elsewhere(view, needs, c))]
        return collect(view, list(dict.fromkeys(wanted)))
    if view.drawn == 0 and (claim := longest_payable(view)):
        return claim
    return collect(view, [most_held(view)])


def in_opening(view: PlayerView) -> bool:
    """The player has claimed no connection yet (the Hungry agent's time to take tickets)."""
    return view.player not in view.owner


def hungry_plan(view: PlayerView, dist: Distances,
                tickets: Iterable[Ticket]) -> tuple[list[int], float]:
    """The connections the Hungry agent still has to claim to join ``tickets`` (those it can
    still reach) in one network, and the trains they need."""
    cities = [c for t in tickets if dist.cost(t.a, t.b) < INF for c in (t.a, t.b)]
    plan = [c for c in dist.tree(cities) if dist.weight[c] > 0]
    return plan, float(sum(dist.weight[c] for c in plan))


def hungry_keep(view: PlayerView, dist: Distances) -> tuple[int, ...]:
    """The offered tickets to keep: of the sets whose plan (with the tickets held) leaves
    :data:`HUNGRY_KEEP_MARGIN` trains spare, the one with the most points per train the plan
    needs, the points being the tickets' and the plan's connections'; if none leaves that
    margin, the set whose plan needs the fewest trains within the trains left; if none fits,
    the fewest tickets needing the fewest trains."""
    held = view.unfinished()
    points = view.board.route_points
    conns = view.board.connections
    trains = view.my_trains
    best: tuple[tuple[float, int], tuple[int, ...]] | None = None
    tightest: tuple[float, tuple[int, ...]] | None = None
    for size in range(max(1, view.keep_at_least), len(view.offer) + 1):
        for chosen in itertools.combinations(view.offer, size):
            plan, cost = hungry_plan(view, dist, (*held, *chosen))
            ids = tuple(t.id for t in chosen)
            if cost <= trains - HUNGRY_KEEP_MARGIN:
                worth = (sum(t.points for t in (*held, *chosen))
                         + sum(points[conns[c].length] for c in plan))
                key = (worth / max(cost, 1.0), -size)
                if best is None or key > best[0]:
                    best = (key, ids)
            elif cost <= trains and (tightest is None or cost < tightest[0]):
                tightest = (cost, ids)
    if best is not None:
        return tuple(sorted(best[1]))
    if tightest is not None:
        return tuple(sorted(tightest[1]))
    return cheapest_set(view, dist, view.offer, view.keep_at_least)


def at_risk(view: PlayerView, connection: int) -> bool:
    """Whether an opponent's claim of ``connection`` would close it to this player: true unless
    it is half of a double whose other half stays open."""
    mate = view.board.double_mates.get(connection)
    if mate is None or not view.rules.doubles_both_usable:
        return True
    return view.owner[mate] is not None


def plan_colours(view: PlayerView, plan: Sequence[int]) -> Counter[int]:
    """How many of the plan's connections ask for each card colour (grey ones for none)."""
    conns = view.board.connections
    return Counter(colour for c in plan if (colour := colour_of(conns[c].colour)) is not None)


def needed_elsewhere(view: PlayerView, needs: Counter[int], connection: int) -> set[int]:
    """Card colours the plan's coloured connections other than ``connection`` ask for."""
    own = colour_of(view.board.connections[connection].colour)
    return {colour for colour, n in needs.items() if n > (colour == own)}


# ----- baseline -------------------------------------------------------------------------------


def baseline(view: PlayerView, rng: random.Random) -> Action:
    """The simplified game's baseline on the standard rules: keeps every ticket, never draws
    more, claims a random payable connection on its tickets' shortest paths, else draws the
    colours those paths need (a face-up locomotive first)."""
    if view.tunnel:
        return settle_tunnel(view)
    dist = view.distances()
    if view.offer:
        return keep_all(view)
    mine = sorted({c for t in workable(view, dist) for c in dist.on_shortest(t.a, t.b)})
    if view.drawn == 0:
        payable = [claim for c in mine if (claim := pay(view, c))]
        if payable:
            return rng.choice(payable)
    need = sorted({colour for c in mine for colour in colours_to_collect(view, c)})
    return collect(view, need)
