"""The four strategy agents as the authors' published engine plays them (Silva et al. 2017,
github fernandomsilva/Ticket-to-Ride-Engine, Python 2.7): the ``engine`` source of
``--strategies``, decision for decision, its bugs included, so that its published figures can
be reproduced on our rules. :mod:`agents.strategies` holds the ``described`` source (what the
papers say the agents do); the design note (``shared/design/standard-game.md``) explains why
both exist. Nothing of the engine's code is copied: each rule below is what its code does,
written again against our :class:`game.view.PlayerView`.

The engine's agents keep state between turns (Hungry's stored threshold and plan, the One Step
Thinker's and Long Route Junkie's current objective, the points on the board when they last
planned). Here each seat gets a :class:`SeatMemory` of its own, written only by that seat's
policy from its own views, so a policy still sees nothing its player does not (the engine's
agents read the whole game object, but what they use of it is public or their own, except the
ticket pile, of which they read only whether it is empty).

What the engine does that we reproduce:

- **Fewest-hop paths** for One Step, Path and Long Route Junkie (``nx.shortest_path`` without
  weights) over free connections and the player's own; Hungry uses fewest-trains paths.
- **Hungry's stored threshold:** after choosing tickets it stores the trains needed by the
  *last* set it evaluated (all the offered tickets), not by the set it kept, and draws tickets
  whenever that number is below its trains minus 8, at any time of the game. Its plan is
  recomputed only when the points on the board have grown past a running sum that a ticket
  choice inflates by the other players' points (so after a mid-game choice it plays a stale
  plan for a while). Its plan: the two farthest ticket cities, then each other city attached to
  whichever end the search last chose (the engine never resets its running minimum between
  cities), the two ends joined last; doubles take the colour the plan needs least.
- **Hungry's draws:** the most plentiful face-up colour if its plan needs that colour (the test
  for its most needed colour compares upper- with lower-case names and never holds), else the
  pile. It claims a plan connection in its colour, a grey one with any colour the plan needs
  none of, and with no plan the longest it can pay for.
- **Path's least-valuable pick:** with no ticket left it ranks free connections by their
  points in a min-queue, so it claims the *least* valuable connection it can pay for first. It
  ranks a connection on several tickets' paths once per ticket (not summed), ties broken by the
  cities' names. It never takes a face-up card (it compares ``'RED'`` with ``'red'``).
- **One Step's kept ticket:** its ticket evaluation calls a method the graph does not have, so
  every offer falls to "least worst": it keeps the single least valuable ticket of each draw.
  The Long Route Junkie evaluates its setup tickets the same way and keeps the two least
  valuable. One Step draws tickets when it has no objective while every player has 8 trains.
- **Blind draws:** One Step and the Long Route Junkie take a face-up card of their objective's
  colour, else a face-up locomotive, else the pile; for a grey objective their test for the
  colour held most compares a name with a (name, count) pair, so they take a locomotive or the
  pile.
- **The engine's colour order when paying:** claims are listed per city pair in the order red,
  orange, blue, pink, white, yellow, black, green, each paid with that colour's cards first,
  locomotives for the rest; the agents take the first listed claim that serves them.
- Python 2's dict order where the engine picks "the first maximum" of a hand or a colour table
  (blue, pink, black, yellow, orange, green, white, locomotive, red for hands and the face-up
  row; blue, pink, green, yellow, grey, orange, black, white, locomotive, red for Hungry's
  colour needs).
- **The order the engine walked its graphs** (:mod:`agents.py2order`: Python 2.7's hash order
  of the city names and networkx 2.2's structures on top of it): the board loaded as the
  engine's map file lists it (its USA file's city order, the connections in ours); the joint
  graph built as ``free_routes_graph`` walks the board, the player's own connections added
  last in the order it claimed them; fewest-hop paths as networkx's bidirectional search
  finds them; the first longest free connection of ``chooseMaxRoute``; the set order of a
  double's two colours; the order ``get_possible_moves`` lists claims in; Hungry's set of
  ticket cities, its sets of plan ends, its dict of plan connections and its Dijkstra paths
  (networkx's heap, ties to the first pushed). Checked against Python 2.7.18 with networkx 2.2
  on the engine's own code: the same path for each of the 30 USA tickets on 40 random
  ownerships (1,200 of 1,200), and the same Hungry plan (points, trains, connections per
  colour) for 480 of 480 city lists on 60 random ownerships.

What is not reproduced (**approximation:**):

- The engine's ticket pile is a dict keyed by card objects, which Python 2 orders by memory
  address: which ticket a draw deals is not a function of the seed even in the engine, and
  ours deals from our own seeded pile.
- Where the engine would crash or abort a game (Path returning no move when the pile is empty,
  One Step asked for tickets it can no longer draw), the agent takes a random legal action.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from agents.py2order import Py2Graph, Py2Order, cheapest_path, fewest_hops
from boards import Board, Ticket
from game.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets
from game.cards import CARD_NAMES, LOCO, card_index, colour_of
from game.distances import INF, Distances
from game.view import PlayerView

#: The engine's one grey key in its colour tables (our grey connections have no card).
GREY = -1
RED, ORANGE, YELLOW, GREEN, BLUE, PINK, BLACK, WHITE = (
    card_index(c) for c in ("red", "orange", "yellow", "green", "blue", "pink", "black", "white"))
#: ``get_possible_moves`` tries the colours in this order for every city pair.
PAY_ORDER = (RED, ORANGE, BLUE, PINK, WHITE, YELLOW, BLACK, GREEN)
#: Python 2's iteration order of the engine's card dicts (hands, the face-up row).
HAND_ORDER = (BLUE, PINK, BLACK, YELLOW, ORANGE, GREEN, WHITE, LOCO, RED)
#: Python 2's iteration order of Hungry's ``colors_needed`` table.
NEEDS_ORDER = (BLUE, PINK, GREEN, YELLOW, GREY, ORANGE, BLACK, WHITE, LOCO, RED)
#: One Step draws tickets only while every player has this many trains (``min_trains_threshold``).
TICKET_DRAW_TRAINS = 8
#: Hungry draws tickets while its stored threshold is below its trains minus this.
HUNGRY_MARGIN = 8
#: Hungry prefers sets whose plan leaves this many trains spare.
HUNGRY_KEEP_MARGIN = 5
#: The Long Route Junkie plans over connections at least this long.
LONG = 3

Pair = tuple[str, str]


@dataclass
class SeatMemory:
    """What one seat's engine agent remembers between its turns (mutable, owned by the seat,
    written only from that seat's views): the order it kept its tickets (the engine's hand
    order) and claimed its connections (the order of its ``player_graph``), the board's
    points when it last planned, and its plan or objective."""

    kept: list[int] = field(default_factory=list)
    claimed: list[int] = field(default_factory=list)  # own connections, in claim order
    previous_points: int = 0
    objective: Objective | None = None
    needs: dict[int, int] | None = field(default_factory=dict)  # Hungry: trains per colour
    routes: dict[int, list[Pair]] | None = field(default_factory=dict)  # Hungry: plan pairs
    threshold: float | None = 0.0  # Hungry: trains of the last ticket set it evaluated


@dataclass(frozen=True)
class Objective:
    """One Step's or the Long Route Junkie's next target: a city pair and the colour to
    collect for it (``GREY`` for a grey one), or a ticket draw; ``pair`` is ``None`` when
    nothing is left to aim at."""

    pair: Pair | None
    colour: int | None
    draw_tickets: bool = False


# ----- the engine's picture of the board --------------------------------------------------------


def pair_of(view: PlayerView, connection: int) -> Pair:
    c = view.board.connections[connection]
    return (c.a, c.b) if c.a.upper() <= c.b.upper() else (c.b, c.a)


_KEPT: dict[tuple[str, int], tuple[Board, object]] = {}
#: Tables kept at once, per board: asked for several times a turn, but a search plays board
#: after board, and tables kept for every one of them would grow without end.
KEPT_TABLES = 24


def per_board[T](what: str, board: Board, make: Callable[[], T]) -> T:
    """``make()``'s table of ``what`` for ``board``, made once while it is kept (boards are
    immutable, so one is known by its identity; all are dropped once too many are kept)."""
    key = (what, id(board))
    hit = _KEPT.get(key)
    if hit is None or hit[0] is not board:
        if len(_KEPT) >= KEPT_TABLES:
            _KEPT.clear()
        hit = _KEPT[key] = (board, make())
    return cast(T, hit[1])


def pairs(view: PlayerView) -> dict[Pair, list[int]]:
    """Every city pair and its segments, in the order the board lists them."""
    def make() -> dict[Pair, list[int]]:
        out: dict[Pair, list[int]] = {}
        for c in view.board.connections:
            out.setdefault(pair_of(view, c.id), []).append(c.id)
        return out
    return per_board("pairs", view.board, make)


#: The engine's USA map file (``gameContent/usa.txt``) lists its cities in this order; its board
#: graph's nodes were added in it, and where two names collide in Python 2's hash table the
#: first added keeps the slot. Other boards are taken in their own city order.
ENGINE_USA_CITIES = (
    "VANCOUVER", "CALGARY", "WINNIPEG", "SAULT ST. MARIE", "MONTREAL", "SEATTLE", "TORONTO",
    "BOSTON", "HELENA", "DULUTH", "PORTLAND", "NEW YORK", "PITTSBURGH", "CHICAGO", "OMAHA",
    "WASHINGTON", "SAINT LOUIS", "KANSAS CITY", "DENVER", "SALT LAKE CITY", "SAN FRANCISCO",
    "RALEIGH", "NASHVILLE", "LITTLE ROCK", "OKLAHOMA CITY", "SANTA FE", "LAS VEGAS",
    "LOS ANGELES", "PHOENIX", "EL PASO", "DALLAS", "ATLANTA", "CHARLESTON", "MIAMI",
    "NEW ORLEANS", "HOUSTON")

def board_graph(view: PlayerView) -> tuple[Py2Graph, dict[frozenset[str], Pair]]:
    """The engine's board graph (``loadMap``: every city, then every connection in the file's
    order) and, per city pair in the order its ``edges()`` lists them, the way round
    ``get_possible_moves`` names it (from the city ``edges()`` meets first), which is how a
    claim enters the player's graph."""
    board = view.board

    def make() -> tuple[Py2Graph, dict[frozenset[str], Pair]]:
        names = {c.upper(): c for c in board.city_names}
        order = ([names[c] for c in ENGINE_USA_CITIES] if set(names) == set(ENGINE_USA_CITIES)
                 else list(board.city_names))
        graph = Py2Graph(multi=True)
        for city in order:
            graph.add_node(city)
        for c in board.connections:
            graph.add_edge(c.a, c.b, c.id)
        return graph, {frozenset(e): e for e in graph.edges()}
    return per_board("board graph", board, make)


def free_graph(view: PlayerView, min_length: int = 0) -> Py2Graph:
    """The agents' ``free_routes_graph``: the board walked in networkx's order, every free
    segment of a pair at least ``min_length`` long (none of a pair once one is taken, with
    fewer than 4 players), added as the walk meets it."""
    board, _ = board_graph(view)
    conns, owner = view.board.connections, view.owner
    out = Py2Graph(multi=True)
    visited: set[str] = set()
    for a in board.nodes:
        for b in board.neighbours(a):
            if b in visited:
                continue
            segs = [s for s in board.edges_of(a, b) if s is not None]
            if view.rules.doubles_both_usable or all(owner[s] is None for s in segs):
                for s in segs:
                    if owner[s] is None and conns[s].length >= min_length:
                        out.add_edge(a, b, s)
        visited.add(a)
    return out


@dataclass(frozen=True)
class Joint:
    """The engine's ``joint_graph``: free segments (all of a pair closed once one is taken
    with fewer than 4 players), those at least ``min_length`` long, and the player's own;
    ``graph`` is the same as networkx held it (own connections added last, in the order the
    player claimed them, as edges of no segment)."""

    free: dict[Pair, list[int]]
    own: set[Pair]
    order: tuple[Pair, ...]  # the pairs it holds (free or own), in board order
    graph: Py2Graph

    def cities(self) -> set[str]:
        return {c for p in self.order for c in p}


def joint(view: PlayerView, memory: SeatMemory, min_length: int = 0) -> Joint:
    free: dict[Pair, list[int]] = {}
    own: set[Pair] = set()
    order: list[Pair] = []
    conns = view.board.connections
    for pair, segs in pairs(view).items():
        owners = [view.owner[s] for s in segs]
        if view.player in owners:
            own.add(pair)
        if view.rules.doubles_both_usable or all(o is None for o in owners):
            usable = [s for s in segs
                      if view.owner[s] is None and conns[s].length >= min_length]
            if usable:
                free[pair] = usable
        if pair in own or pair in free:
            order.append(pair)
    graph = free_graph(view, min_length)
    _, named = board_graph(view)
    mine = Py2Graph(multi=False)
    for c in memory.claimed:
        mine.add_edge(*named[frozenset((conns[c].a, conns[c].b))])
    for a, b in mine.edges():
        graph.add_edge(a, b, None)
    return Joint(free, own, tuple(order), graph)


def key(a: str, b: str) -> Pair:
    return (a, b) if a.upper() <= b.upper() else (b, a)


def board_points(view: PlayerView) -> int:
    """All players' points so far (the engine's ``players[i].points``: connections only)."""
    points, conns = view.board.route_points, view.board.connections
    return sum(points[conns[c].length] for c, o in enumerate(view.owner) if o is not None)


def first_max(order: Sequence[int], count: Callable[[int], float]) -> int:
    """Python's ``max``: the first of ``order`` with the highest count."""
    return max(order, key=lambda c: (count(c), -order.index(c)))


@dataclass(frozen=True)
class EngineClaim:
    pair: Pair
    colour: int
    claim: Claim


def claim_moves(view: PlayerView, only: Pair | None = None) -> Iterator[EngineClaim]:
    """The engine's claim moves in its order (of the pair ``only`` if given): per city pair in
    the order its board graph's ``edges()`` lists them, per colour of :data:`PAY_ORDER`, the
    first free segment of that colour or grey, paid with that colour first and locomotives
    for the rest (only those our rules allow)."""
    if view.drawn or view.offer:
        return
    hand, conns, owner, trains = view.hand, view.board.connections, view.owner, view.my_trains
    table = candidates(view)
    legal: dict[int, list[Claim]] = {}
    every = [key(*e) for e in board_graph(view)[1].values()] if only is None else [only]
    for pair in every:
        for colour, segs in table[pair]:
            seg = next((s for s in segs if owner[s] is None), None)
            if seg is None:
                continue
            length = conns[seg].length
            if hand[colour] + hand[LOCO] < length or trains < length:
                continue
            cards = min(hand[colour], length)
            claim = Claim(seg, colour if cards else None, length - cards)
            if seg not in legal:
                legal[seg] = view.payments(seg)
            if claim in legal[seg]:
                yield EngineClaim(pair, colour, claim)


def candidates(view: PlayerView) -> dict[Pair, list[tuple[int, list[int]]]]:
    """Per city pair, per colour of :data:`PAY_ORDER`, the segments ``get_free_connection``
    looks at for it (that colour or grey, in board order)."""
    conns = view.board.connections

    def make() -> dict[Pair, list[tuple[int, list[int]]]]:
        return {pair: [(colour, segs_of) for colour in PAY_ORDER
                       if (segs_of := [s for s in segs
                                       if colour_of(conns[s].colour) in (colour, None)])]
                for pair, segs in pairs(view).items()}
    return per_board("candidates", view.board, make)


def face_up(view: PlayerView, card: int) -> DrawFaceUp | None:
    """The draw of a face-up ``card`` if the player may take it now."""
    return next((DrawFaceUp(s) for s in view.face_up_slots() if view.face_up[s] == card), None)


def hand_order_tickets(view: PlayerView, memory: SeatMemory) -> list[Ticket]:
    """The player's tickets in the order it kept them (the engine's hand order)."""
    by_id = {t.id: t for t in view.tickets}
    ordered = [by_id[i] for i in memory.kept if i in by_id]
    return ordered + [t for t in view.tickets if t.id not in memory.kept]


def keep(memory: SeatMemory, tickets: Sequence[Ticket]) -> KeepTickets:
    memory.kept.extend(t.id for t in tickets)
    return KeepTickets(tuple(sorted(t.id for t in tickets)))


def offers(view: PlayerView) -> list[tuple[Ticket, ...]]:
    """The engine's ``chooseDestinationCards`` moves: sets of the offer, smallest first."""
    return [chosen for size in range(view.keep_at_least, len(view.offer) + 1)
            for chosen in itertools.combinations(view.offer, size)]


def least_points(view: PlayerView) -> tuple[Ticket, ...]:
    """The first set with the fewest points (the engine's ``least_worst_move``)."""
    return min(offers(view), key=lambda s: sum(t.points for t in s))


def joined(view: PlayerView, ticket: Ticket) -> bool:
    return ticket.id in view.finished


def random_move(view: PlayerView, rng: random.Random) -> Action:
    return rng.choice(view.legal_actions())


# ----- Hungry -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Hungry's ``generate_game_plan``: the points of the connections to claim, the trains
    they need (every colour summed), their city pairs per colour, the trains per colour."""

    points: int
    trains: int
    routes: dict[int, list[Pair]]
    needs: dict[int, int]


def city_set(cities: Iterable[str]) -> Py2Order[str]:
    """``set(cities)`` in Python 2.7's order."""
    out: Py2Order[str] = Py2Order(upper=True)
    for c in cities:
        out.add(c)
    return out


def hungry_plan(view: PlayerView, dist: Distances, graph: Joint, cities: Sequence[str]
                ) -> Plan | None:
    """The engine's ``generate_game_plan`` for ``cities`` (bugs included, see the module
    notes), ``None`` where the engine returns ``[None] * 4`` (a city joined to nothing). Its
    sets of cities, its dict of the plan's connections and its Dijkstra paths keep the
    engine's orders (:mod:`agents.py2order`), which decide its ties."""
    nx_graph, conns = graph.graph, view.board.connections

    def length(x: str, y: str) -> float | None:
        if x not in nx_graph or y not in nx_graph:
            return None
        d = dist.cost(x, y)
        return None if d == INF else d

    def weight(x: str, y: str) -> float:
        return min(0 if s is None else conns[s].length for s in nx_graph.edges_of(x, y))

    start, end = city_set(()), city_set(())
    longest = 0.0
    for i, x in enumerate(cities):
        for y in cities[i + 1:]:
            d = length(x, y)
            if d is not None and d > longest:
                longest, start, end = d, city_set((x,)), city_set((y,))
    routes: Py2Order[str] = Py2Order(upper=True)  # routes_dict: its keys, in its order
    joins: dict[str, list[str]] = {}

    def add_path(x: str, y: str) -> None:
        path = cheapest_path(nx_graph, x, y, weight) or []
        for a, b in itertools.pairwise(path):
            low, high = (b, a) if a.upper() > b.upper() else (a, b)
            if low not in joins and high not in joins:
                routes.add(low)
                joins[low] = [high]
            elif low in joins:
                if high not in joins[low]:
                    joins[low].append(high)
            elif low not in joins[high]:
                joins[high].append(low)

    best: float | None = None
    which: tuple[str, str] | None = None
    where = ""
    for x in list(city_set(cities).difference(start).difference(end)):
        for side, ends in (("start", start), ("end", end)):
            for y in ends:
                d = length(x, y)
                if d is not None and (best is None or d < best):
                    best, which, where = d, (x, y), side
        if not where or which is None:
            return None
        if where == "start":
            start = start.union(city_set((x,)))
        else:
            end = end.union(city_set((x,)))
        add_path(x, which[1])
    best, which = None, None
    for x in start:
        for y in end:
            d = length(x, y)
            if d is not None and (best is None or d < best):
                best, which = d, (x, y)
    if which is not None:
        add_path(*which)
    return plan_colours(view, graph, [key(a, b) for a in routes for b in joins[a]])


def plan_colours(view: PlayerView, graph: Joint, routes: Sequence[Pair]) -> Plan:
    """Sum a plan's connections per colour: single ones first, then each double in the colour
    the plan needs none of yet, else the one it needs least (the engine's ``double_opt``)."""
    conns, points = view.board.connections, view.board.route_points
    needs = dict.fromkeys(NEEDS_ORDER, 0)
    by_colour: dict[int, list[Pair]] = {c: [] for c in NEEDS_ORDER if c != LOCO}
    total = 0
    doubles: list[tuple[Pair, list[int]]] = []
    for pair in routes:
        free = graph.free.get(pair, [])
        edges = len(free) + (pair in graph.own)
        if edges > 1:
            if pair not in graph.own:
                doubles.append((pair, free))
        elif free:
            colour = colour_of(conns[free[0]].colour)
            c = GREY if colour is None else colour
            needs[c] += conns[free[0]].length
            by_colour[c].append(pair)
            total += points[conns[free[0]].length]
    for pair, free in doubles:
        options = [(GREY if (k := colour_of(conns[s].colour)) is None else k, conns[s].length)
                   for s in free]
        chosen = next(((c, n) for c, n in options if needs[c] == 0), None)
        if chosen is None:
            chosen = min(options, key=lambda o: needs[o[0]])
        needs[chosen[0]] += chosen[1]
        by_colour[chosen[0]].append(pair)
        total += points[chosen[1]]
    return Plan(total, sum(needs.values()), by_colour, needs)


def ha_engine(view: PlayerView, rng: random.Random, memory: SeatMemory) -> Action:
    """Hungry as ``hungryAgent.decide`` plays it (see the module notes for its bugs)."""
    dist = view.distances()
    graph = joint(view, memory)
    present = graph.cities()
    cities: list[str] = []
    held_points = 0
    for t in hand_order_tickets(view, memory):
        if t.a in present and t.b in present:
            cities += [t.a, t.b]
            held_points += t.points
    trains = view.my_trains
    if view.offer:
        return hungry_keep(view, dist, graph, memory, cities, held_points)
    total = board_points(view)
    if memory.previous_points < total:
        plan = hungry_plan(view, dist, graph, list(dict.fromkeys(cities)))
        memory.needs = plan.needs if plan else None
        memory.routes = plan.routes if plan else None
        memory.previous_points = total
    threshold = memory.threshold
    if (threshold is None or threshold < trains - HUNGRY_MARGIN) and view.can_draw_tickets \
            and not view.drawn:
        return DrawTickets()
    moves = list(claim_moves(view))
    routes, needs = memory.routes, memory.needs
    if not routes or not any(routes.values()):
        if moves:
            conns = view.board.connections
            return max(moves, key=lambda m: (conns[m.claim.connection].length,
                                             -moves.index(m))).claim
    else:
        for m in moves:
            if m.pair in routes.get(m.colour, ()):
                return m.claim
            if m.pair in routes[GREY] and needs is not None and needs.get(m.colour, 0) <= 0:
                return m.claim
    counts = [view.face_up.count(c) for c in range(LOCO + 1)]
    plenty = first_max(HAND_ORDER, lambda c: counts[c])
    if needs is not None:
        most_needed = first_max(NEEDS_ORDER, lambda c: needs.get(c, 0))
        if needs.get(plenty, 0) > 0 and (take := face_up(view, plenty)):
            return take
        if most_needed == GREY and counts[plenty] > 1 and (take := face_up(view, plenty)):
            return take
    if view.can_draw_deck:
        return DrawDeck()
    return random_move(view, rng)


def hungry_keep(view: PlayerView, dist: Distances, graph: Joint, memory: SeatMemory,
                cities: list[str], held_points: int) -> Action:
    """The engine's ticket choice: the best points per train among sets leaving 5 trains
    spare, overwritten by any later set that fits in the trains with the fewest trains so far;
    the stored threshold is the trains of the *last* set evaluated."""
    trains = view.my_trains
    best_ratio = 0.0
    tightest = float(trains)
    best: tuple[tuple[Ticket, ...], Plan] | None = None
    last: Plan | None = None
    for chosen in offers(view):
        names = list(city_set([*cities, *(c for t in chosen for c in (t.a, t.b))]))
        plan = hungry_plan(view, dist, graph, names)
        last = plan
        if plan is None:
            continue  # the engine's fitness 0 never beats a ratio; None fits no bound
        points = held_points + sum(t.points for t in chosen)
        fitness = (points + plan.points) / plan.trains if plan.trains else INF
        if plan.trains <= trains - HUNGRY_KEEP_MARGIN:
            if fitness > best_ratio:
                best_ratio, best = fitness, (chosen, plan)
        elif plan.trains <= trains and plan.trains < tightest:
            tightest, best = plan.trains, (chosen, plan)
    if best is None:
        return keep(memory, least_points(view))
    memory.needs, memory.routes = best[1].needs, best[1].routes
    memory.threshold = None if last is None else float(last.trains)
    if view.setup:
        memory.previous_points += 0  # the others' points, none yet at setup
    else:
        others = board_points(view) - own_points(view)
        memory.previous_points += others
    return keep(memory, best[0])


def own_points(view: PlayerView) -> int:
    points, conns = view.board.route_points, view.board.connections
    return sum(points[conns[c].length] for c, o in enumerate(view.owner) if o == view.player)


# ----- One Step Thinker and Long Route Junkie -----------------------------------------------------


def objective(view: PlayerView, memory: SeatMemory, min_length: int, draws_tickets: bool
              ) -> Objective:
    """``generate_game_plan`` of One Step and the Long Route Junkie: the first pair it lacks
    on a fewest-hop path of its most valuable unfinished ticket, else tickets (One Step, while
    every player has 8 trains), else the longest free connection it has trains for."""
    graph = joint(view, memory, min_length)
    todo = [t for t in hand_order_tickets(view, memory) if not joined(view, t)
            and fewest_hops(graph.graph, t.a, t.b) is not None]
    if todo:
        ticket = max(todo, key=lambda t: (t.points, -todo.index(t)))
        cities = fewest_hops(graph.graph, ticket.a, ticket.b) or []
        conns = view.board.connections
        for a, b in itertools.pairwise(cities):
            segs = graph.graph.edges_of(a, b)
            if None in segs:  # the player's own
                continue
            names: Py2Order[str] = Py2Order()  # the engine's set of the pair's colour names
            for s in segs:
                assert s is not None
                colour = colour_of(conns[s].colour)
                names.add("gray" if colour is None else CARD_NAMES[colour])
            order = (HAND_ORDER if "gray" in names
                     else [card_index(n) for n in names])
            return Objective(key(a, b), first_max(order, lambda c: view.hand[c]))
    if draws_tickets and min(view.trains) >= TICKET_DRAW_TRAINS and view.ticket_pile_size:
        return Objective(None, None, draw_tickets=True)
    return longest_free(view, grey_in_hand=10 if draws_tickets else 15)


def longest_free(view: PlayerView, grey_in_hand: int) -> Objective:
    """``chooseMaxRoute``: the longest free connection within the player's trains, ties to the
    one its hand pays best (the engine's ``rank``; a grey one the hand pays without
    locomotives ranks ``grey_in_hand``: 10 for One Step, 15 for the Long Route Junkie), then
    to the first that networkx's walk of the free graph meets."""
    graph = free_graph(view)
    conns = view.board.connections
    segs = [s for a in graph.nodes for b in graph.neighbours(a) for s in graph.edges_of(a, b)
            if s is not None and conns[s].length <= view.my_trains]
    if not segs:
        return Objective(None, None)
    longest = max(conns[s].length for s in segs)
    hand = view.hand
    most = max(hand[c] for c in range(LOCO))

    def rank(s: int) -> int:
        colour, length = colour_of(conns[s].colour), conns[s].length
        held = most if colour is None else hand[colour]
        if held >= length:
            return grey_in_hand if colour is None else 10
        if held + hand[LOCO] >= length:
            return 9
        return (10 if colour is None else 9) - length + most

    tied = [s for s in segs if conns[s].length == longest]
    best = max(tied, key=lambda s: (rank(s), -tied.index(s)))
    colour = colour_of(conns[best].colour)
    return Objective(pair_of(view, best), GREY if colour is None else colour)


def objective_agent(view: PlayerView, rng: random.Random, memory: SeatMemory,
                    min_length: int, draws_tickets: bool) -> Action:
    """``decide`` of One Step and the Long Route Junkie once the tickets are chosen."""
    total = board_points(view)
    if memory.previous_points < total:
        memory.objective = objective(view, memory, min_length, draws_tickets)
        memory.previous_points = total
    goal = memory.objective
    if goal is None:  # only before the first plan, which the line above always makes
        goal = memory.objective = objective(view, memory, min_length, draws_tickets)
    if goal.draw_tickets:
        memory.previous_points = -1
        return DrawTickets() if view.can_draw_tickets else random_move(view, rng)
    if goal.pair is not None:
        for m in claim_moves(view, goal.pair):
            return m.claim
        if goal.colour != GREY and goal.colour is not None and (
                take := face_up(view, goal.colour)):
            return take
        if take := face_up(view, LOCO):
            return take
        if view.can_draw_deck:
            return DrawDeck()
    draws = [a for a in view.legal_actions() if isinstance(a, DrawFaceUp | DrawDeck)]
    return rng.choice(draws) if draws else random_move(view, rng)


def osta_engine(view: PlayerView, rng: random.Random, memory: SeatMemory) -> Action:
    """One Step Thinker as ``oneStepThinkerAgent.decide`` plays it: keeps its three setup
    tickets, later the single least valuable of each draw."""
    if view.offer:
        if view.setup:
            return keep(memory, view.offer)
        memory.previous_points = -1
        return keep(memory, least_points(view))
    return objective_agent(view, rng, memory, 0, draws_tickets=True)


def lrja_engine(view: PlayerView, rng: random.Random, memory: SeatMemory) -> Action:
    """Long Route Junkie as ``longRouteJunkieAgent.decide`` plays it: keeps the two least
    valuable setup tickets, plans over connections of 3 trains or more (fewer only once its
    trains are fewer), never draws tickets."""
    if view.offer:
        memory.previous_points = -1
        return keep(memory, least_points(view))
    return objective_agent(view, rng, memory, min(LONG, view.my_trains), draws_tickets=False)


# ----- Path agent -------------------------------------------------------------------------------


def pa_engine(view: PlayerView, rng: random.Random, memory: SeatMemory) -> Action:
    """Path agent as ``pathAgent.decide`` plays it: keeps all its tickets, queues the pairs it
    lacks on fewest-hop paths of its unfinished tickets by -(points + 2 × the ticket's points)
    (once per ticket, ties by city names), with none left every free pair by +points (least
    valuable first), claims the first queued pair it can pay in the colour it holds most, else
    draws from the pile."""
    if view.offer:
        return keep(memory, view.offer)
    graph = joint(view, memory)
    conns, points, trains = view.board.connections, view.board.route_points, view.my_trains
    every = pairs(view)
    queue: list[tuple[int, str, str]] = []
    for t in hand_order_tickets(view, memory):
        if joined(view, t):
            continue
        cities = fewest_hops(graph.graph, t.a, t.b) or []
        for a, b in itertools.pairwise(cities):
            if key(a, b) in graph.own:
                continue
            length = conns[every[key(a, b)][0]].length
            if length < trains:
                queue.append((-(points[length] + 2 * t.points), a.upper(), b.upper()))
    names = {c.upper(): c for c in view.board.city_names}
    if not queue:
        for (a, b), segs in graph.free.items():
            for s in segs:
                if conns[s].length < trains:
                    queue += [(points[conns[s].length], a.upper(), b.upper()),
                              (points[conns[s].length], b.upper(), a.upper())]
    for _, a, b in sorted(queue):
        pair = key(names[a], names[b])
        segs = graph.free.get(pair, [])
        colours = [colour_of(conns[s].colour) for s in segs]
        order = list(PAY_ORDER) if None in colours else [c for c in colours if c is not None]
        most = order[0]
        for c in order:
            if view.hand[c] > view.hand[most]:
                most = c
        mine = list(claim_moves(view, pair))
        if mine:
            return next((m.claim for m in mine if m.colour == most), mine[0].claim)
    if view.can_draw_deck:
        return DrawDeck()
    return random_move(view, rng)


# ----- the source -------------------------------------------------------------------------------

EnginePolicy = Callable[[PlayerView, random.Random, SeatMemory], Action]


class EngineSeat:
    """One seat's engine agent: its policy and the memory only it writes, as a
    ``(view, rng) -> action`` callable (one per seat per game)."""

    def __init__(self, policy: EnginePolicy) -> None:
        self._policy = policy
        # One Step and the Long Route Junkie start at -1 (plan on their first turn), Hungry
        # at 0 (it plays the plan of its setup choice until someone claims).
        self.memory = SeatMemory(previous_points=0 if policy is ha_engine else -1)

    def __call__(self, view: PlayerView, rng: random.Random) -> Action:
        # its own claims since its last turn (one at most), in the order it made them
        claimed = self.memory.claimed
        claimed += [c for c, o in enumerate(view.owner) if o == view.player and c not in claimed]
        return self._policy(view, rng, self.memory)
