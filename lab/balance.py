"""Win-rate balancing (Smith & Anton 2022): change a board's features so that a line-up of agents
wins as often as a desired distribution says, i.e. minimise the win-rate distance.

Features, in two phases as in the paper: (1) ticket values and doubles (each double kept or made
single), (2) connection lengths and colours. ``restricted`` keeps every length within ±1 of the
original (the paper's restricted mode); otherwise a length may move by up to 2 (1 to 6 trains).

The search is the paper's simplified Monte Carlo tree search: each level of the tree is one
feature (in a seeded random order within its phase); the children of a node are that feature's
candidate values, the unchanged value among them, and the search descends into the best child
without coming back. The paper estimated each child with 20 games and kept the lowest; at that
size a distance's standard error (0.05-0.1) is as large as most features' effect, so the search
followed noise (our run of it ended at 0.297 against the original's 0.284). Here each level is
a race (:mod:`lab.race`): all children are played on the *same* seeds (common random numbers),
a change is kept only when it beats the unchanged board by more than its noise (the paired
difference's standard error, at level ``alpha``), and an undecided race doubles its games up
to ``max_games``. Every level
gets new seeds, so no feature is tuned to one set of deals. A full tree search (UCT over
combinations of features) would need far more than the paper's 48 hours here; the greedy
descent is what their "simplified" search is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from agents.standard_batch import kind_order
from boards import COLOURS, GREY, Board, Connection, Ticket
from lab.cluster import Workers
from lab.games import LabSpec, lab_jobs, play_lab_game
from lab.race import Rule, race
from lab.runner import run_jobs

MAX_LENGTH = 6


@dataclass(frozen=True)
class Feature:
    """One level of the search: what it changes and the candidate values."""

    phase: int
    kind: str  # "ticket", "double", "length", "colour"
    key: str  # the ticket or connection it is about (names, so it survives renumbering)

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"


def _pair_key(c: Connection) -> str:
    return "–".join(sorted((c.a, c.b)))


def _renumber(connections: Sequence[Connection]) -> tuple[Connection, ...]:
    return tuple(replace(c, id=i) for i, c in enumerate(connections))


def features(board: Board, phase: int) -> list[Feature]:
    if phase == 1:
        return ([Feature(1, "ticket", f"{t.a}–{t.b}") for t in board.tickets]
                + [Feature(1, "double", _pair_key(c)) for c in board.connections
                   if c.pair is not None and board.double_mates[c.id] > c.id])
    pairs = dict.fromkeys(_pair_key(c) for c in board.connections)
    return ([Feature(2, "length", k) for k in pairs]
            + [Feature(2, "colour", f"{_pair_key(c)}#{i}") for c in board.connections
               for i in [_segment(board, c)]])


def _segment(board: Board, c: Connection) -> int:
    """0 for a single connection or a double's first segment, 1 for its second."""
    return int(c.pair is not None and board.double_mates[c.id] < c.id)


def _find(board: Board, key: str, segment: int = 0) -> Connection:
    return next(c for c in board.connections
                if _pair_key(c) == key and _segment(board, c) == segment)


def candidates(board: Board, original: Board, feature: Feature, restricted: bool
               ) -> list[tuple[str, Board]]:
    """(value, board) for each candidate of ``feature``, the unchanged board first."""
    out: list[tuple[str, Board]] = []
    if feature.kind == "ticket":
        k = next(i for i, t in enumerate(board.tickets) if f"{t.a}–{t.b}" == feature.key)
        v = board.tickets[k].points
        for value in (v, v - 2, v + 2):
            if value >= 1:
                tickets = list(board.tickets)
                tickets[k] = Ticket(k, tickets[k].a, tickets[k].b, value)
                out.append((str(value), replace(board, tickets=tuple(tickets))))
    elif feature.kind == "double":
        first = _find(board, feature.key)
        second = board.connections[board.double_mates[first.id]] if first.pair is not None \
            else None
        out.append(("double" if second else "single", board))
        if second is not None:
            kept = [replace(c, pair=None) if c.id == first.id else c
                    for c in board.connections if c.id != second.id]
            out.append(("single", replace(board, connections=_renumber(kept))))
    elif feature.kind == "length":
        now = _find(board, feature.key).length
        was = _find(original, feature.key).length
        reach = 1 if restricted else 2
        longest = max(MAX_LENGTH, was)  # a board's own longer connections may stay as long
        for value in sorted(range(now - reach, now + reach + 1),
                            key=lambda v: (v != now, abs(v - now), v)):
            if value == now or (1 <= value <= longest and (not restricted or
                                                           abs(value - was) <= 1)):
                conns = tuple(replace(c, length=value) if _pair_key(c) == feature.key else c
                              for c in board.connections)
                out.append((str(value), replace(board, connections=conns)))
    else:  # colour: the current one, grey, and the least used colour free around it
        key, segment = feature.key.split("#")
        conn = _find(board, key, int(segment))
        near = {c.colour for c in board.connections if c.id != conn.id
                and {c.a, c.b} & {conn.a, conn.b}}
        used = {col: sum(c.colour == col for c in board.connections) for col in COLOURS}
        free = [col for col in COLOURS if col not in near and col != conn.colour]
        options = [conn.colour, GREY] + ([min(free, key=lambda col: (used[col], col))]
                                          if free else [])
        for colour in dict.fromkeys(options):
            conns = tuple(replace(c, colour=colour) if c.id == conn.id else c
                          for c in board.connections)
            out.append((colour, replace(board, connections=conns)))
    return out


#: The race each level runs unless told otherwise (20 games first, as the paper; up to 320).
RULE = Rule()


@dataclass(frozen=True)
class Step:
    """One level of the search: the feature, what each candidate measured, what was kept, the
    kept change's difference from the unchanged board and its standard error, and the games
    each candidate played."""

    index: int
    phase: int
    feature: str
    chosen: str
    distance: float  # the chosen candidate's estimate
    unchanged: float  # the unchanged board's estimate on the same games
    tried: dict[str, float]
    stderr: float = 0.0
    games: int = 0


def win_shares(spec: LabSpec, boards: Sequence[Board], workers: Workers, first: int,
               which: Sequence[int], seeds: Sequence[int]) -> list[np.ndarray]:
    """The games of ``boards[i]`` for each i in ``which`` on ``seeds`` (consecutive, from a
    level whose seeds start at ``first``; seats rotated by the seed's place there, so a race
    that grows keeps the rotation even): per game, each agent kind's share of the win."""
    kinds = kind_order([spec.lineup])
    start = seeds[0] - first if len(seeds) else 0
    level = range(first, first + start + len(seeds))
    jobs = [job for i in which for job in lab_jobs(spec.with_board(boards[i]), level)[start:]]
    games = iter(run_jobs(play_lab_game, jobs, workers.executor, workers.count))
    out = []
    for _ in which:
        shares = np.zeros((len(seeds), len(kinds)))
        for row in shares:
            game = next(games)
            for kind, win in zip(game.lineup, game.wins, strict=True):
                row[kinds.index(kind)] += win
        out.append(shares)
    return out


def balance(spec: LabSpec, desired: Sequence[float], workers: Workers, rule: Rule = RULE,
            seed: int = 0, restricted: bool = False,
            on_step: Callable[[Step, Board], None] | None = None,
            done: Sequence[tuple[str, str]] = ()) -> Board:
    """The balanced board (see the module's docstring); ``on_step`` hears of every level.
    ``done``: (feature, value chosen) of the first levels of an earlier run with the same
    options (its steps file), taken again without playing, so an interrupted run resumes;
    ValueError if they are not this search's levels."""
    original = spec.loaded()
    board = original
    rng = random.Random(seed)
    index = 0
    for phase in (1, 2):
        order = features(board, phase)
        rng.shuffle(order)
        for feature in order:
            options = candidates(board, original, feature, restricted)
            if index < len(done):
                name, value = done[index]
                chosen = dict(options).get(value)
                if name != str(feature) or chosen is None:
                    raise ValueError(f"level {index} of the earlier run is {name} = {value}, "
                                     f"but this search's level {index} is {feature}")
                board = chosen
                index += 1
                continue
            first = seed * 1_000_000 + index * rule.max_games
            play = partial(win_shares, spec, [b for _, b in options], workers, first)
            result = race(len(options), play, desired, range(first, first + rule.max_games),
                          rule, bootstrap_seed=index)
            board = options[result.winner][1]
            step = Step(index, phase, str(feature), options[result.winner][0],
                        result.distances[result.winner], result.distances[0],
                        {v: s for (v, _), s in zip(options, result.distances, strict=True)},
                        result.stderr, result.games)
            if on_step is not None:
                on_step(step, board)
            index += 1
    return replace(board, name=f"{original.name}-balanced",
                   title=f"{original.title}, balanced{' (restricted)' if restricted else ''}")


def levels(original: Board, board: Board) -> int:
    """How many levels the search of ``original`` has, now that it has reached ``board``: a
    double made single in phase 1 takes a colour level out of phase 2."""
    return len(features(original, 1)) + len(features(board, 2))


def random_board(original: Board, seed: int, restricted: bool = False) -> Board:
    """A board with the same features drawn at random (the paper's random boards): ticket
    values within the deck's range, each double kept or not, lengths within reach of the
    original, any colour."""
    rng = random.Random(seed)
    low, high = min(t.points for t in original.tickets), max(t.points for t in original.tickets)
    tickets = tuple(replace(t, points=rng.randint(low, high)) for t in original.tickets)
    reach = 1 if restricted else 2
    length = {}
    for c in original.connections:
        key = _pair_key(c)
        if key not in length:
            length[key] = min(MAX_LENGTH, max(1, c.length + rng.randint(-reach, reach)))
    kept = []
    for c in original.connections:
        if c.pair is not None and original.double_mates[c.id] < c.id and rng.random() < 0.5:
            continue  # the second segment dropped: single
        kept.append(replace(c, length=length[_pair_key(c)], colour=rng.choice([*COLOURS, GREY])))
    mates = {c.pair for c in kept if c.pair is not None}
    paired = [replace(c, pair=None) if c.pair in mates and sum(
        d.pair == c.pair for d in kept) == 1 else c for c in kept]
    return replace(original, name=f"{original.name}-random", title=f"{original.title}, random",
                   tickets=tickets, connections=_renumber(paired))
