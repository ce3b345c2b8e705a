"""Win-rate balancing (Smith & Anton 2022): change a board's features so that a line-up of agents
wins as often as a desired distribution says, i.e. minimise the win-rate distance.

Features, in two phases as in the paper: (1) ticket values and doubles (each double kept or made
single), (2) connection lengths and colours. ``restricted`` keeps every length within ±1 of the
original (the paper's restricted mode); otherwise a length may move by up to 2 (1 to 6 trains).

The paper's search is a simplified Monte Carlo tree search: one level per feature, 20 games per
candidate, the lowest kept. Two things stopped it from working here. At 20 games a distance's
standard error (0.05-0.1) is as large as most features' effect, so it followed noise (our run of
it ended at 0.297 against the original's 0.284). And one feature's effect (a ticket 2 points up)
is so small that no affordable number of games tells it from noise, while the same change made
to many features at once is large: every length one train longer moved Hungry's win ratio from
0.12 to 0.25 over 300 games, every length one shorter moved the distance from 0.32 to 0.48.

So each level changes a *group* of features of one kind together, coarse to fine
(:func:`plan`): first every ticket (all values 2 up, or 2 down), every double, every length,
every colour; then each half of them, each quarter, down to groups of :data:`FINEST` (1: down to
each feature on its own). A coarse level finds the direction a kind should move; the finer ones
undo it where it overshoots. Each level is a race (:mod:`lab.race`): all candidates are played
on the *same* seeds (common random numbers), a change is kept only when it beats the unchanged
board by more than its noise (the paired difference's standard error, at level ``alpha``), and an
undecided race doubles its games up to ``max_games``. Every level gets new seeds, so no change is
tuned to one set of deals. The descent never comes back up the tree, as the paper's simplified
search; a full tree search over combinations would need far more than its 48 hours.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from agents.standard_batch import kind_order
from boards import COLOURS, GREY, Board, Connection
from lab.cluster import Workers
from lab.games import LabSpec, lab_jobs, play_lab_game
from lab.race import Rule, race
from lab.runner import run_jobs

MAX_LENGTH = 6


#: The kinds of feature each phase changes, in the order a level of one depth takes them.
KINDS = {1: ("ticket", "double"), 2: ("length", "colour")}
#: Features in a group of the finest levels at least (see :func:`groups`).
FINEST = 2


@dataclass(frozen=True)
class Feature:
    """One level of the search: a group of features of one kind (tickets, doubles, lengths or
    colours), changed together; ``depth`` 0 is every feature of the kind, each further depth
    halves the groups of the one before."""

    phase: int
    kind: str  # "ticket", "double", "length", "colour"
    keys: tuple[str, ...]  # the tickets or connections it is about (names survive renumbering)
    depth: int = 0
    part: int = 0

    def __str__(self) -> str:
        if len(self.keys) == 1:
            return f"{self.kind} {self.keys[0]}"
        return f"{self.kind} group {self.depth}.{self.part + 1} ({len(self.keys)} {self.kind}s)"


def _pair_key(c: Connection) -> str:
    return "–".join(sorted((c.a, c.b)))


def _renumber(connections: Sequence[Connection]) -> tuple[Connection, ...]:
    return tuple(replace(c, id=i) for i, c in enumerate(connections))


def keys(board: Board, kind: str) -> list[str]:
    """The names of ``board``'s features of one kind, in the board's order."""
    if kind == "ticket":
        return [f"{t.a}–{t.b}" for t in board.tickets]
    if kind == "double":
        return [_pair_key(c) for c in board.connections
                if c.pair is not None and board.double_mates[c.id] > c.id]
    if kind == "length":
        return list(dict.fromkeys(_pair_key(c) for c in board.connections))
    return [f"{_pair_key(c)}#{_segment(board, c)}" for c in board.connections]


def groups(names: Sequence[str], finest: int = FINEST) -> list[tuple[int, int, tuple[str, ...]]]:
    """(depth, part, names) of every group, coarse to fine: all the names, then halves, and so
    on while a half keeps at least ``finest`` names (1: down to each name on its own)."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    level = [tuple(names)] if names else []
    depth = 0
    while level:
        out += [(depth, part, group) for part, group in enumerate(level)]
        level = [half for group in level if len(group) // 2 >= finest
                 for half in (group[:len(group) - len(group) // 2],
                              group[len(group) - len(group) // 2:])]
        depth += 1
    return out


def plan(board: Board, phase: int, rng: random.Random, finest: int = FINEST) -> list[Feature]:
    """The levels of one phase: each kind's features in a seeded random order, cut into groups
    (:func:`groups`), every kind's groups of one depth before any of the next depth."""
    levels = []
    for order, kind in enumerate(KINDS[phase]):
        names = keys(board, kind)
        rng.shuffle(names)
        levels += [(depth, order, part, Feature(phase, kind, group, depth, part))
                   for depth, part, group in groups(names, finest)]
    return [feature for *_, feature in sorted(levels, key=lambda level: level[:3])]


def _segment(board: Board, c: Connection) -> int:
    """0 for a single connection or a double's first segment, 1 for its second."""
    return int(c.pair is not None and board.double_mates[c.id] < c.id)


def _find(board: Board, key: str, segment: int = 0) -> Connection:
    return next(c for c in board.connections
                if _pair_key(c) == key and _segment(board, c) == segment)


def candidates(board: Board, original: Board, feature: Feature, restricted: bool
               ) -> list[tuple[str, Board]]:
    """(name, board) for each candidate of ``feature``, the unchanged board first; a change
    that would leave every feature of the group as it is is no candidate."""
    out: list[tuple[str, Board]] = [("unchanged", board)]
    group = set(feature.keys)
    if feature.kind == "ticket":  # every value of the group 2 up, or 2 down (never below 1)
        for name, delta in (("+2", 2), ("-2", -2)):
            tickets = tuple(replace(t, points=t.points + delta)
                            if f"{t.a}–{t.b}" in group and t.points + delta >= 1 else t
                            for t in board.tickets)
            if tickets != board.tickets:
                out.append((name, replace(board, tickets=tickets)))
    elif feature.kind == "double":  # every double of the group made single
        seconds = {board.double_mates[c.id] for c in board.connections
                   if c.pair is not None and board.double_mates[c.id] > c.id
                   and _pair_key(c) in group}
        if seconds:
            firsts = {board.double_mates[s] for s in seconds}
            kept = [replace(c, pair=None) if c.id in firsts else c
                    for c in board.connections if c.id not in seconds]
            out.append(("single", replace(board, connections=_renumber(kept))))
    elif feature.kind == "length":  # every length of the group 1 up, or 1 down
        reach = 1 if restricted else 2
        for name, delta in (("+1", 1), ("-1", -1)):
            lengths = {}
            for key in feature.keys:
                now, was = _find(board, key).length, _find(original, key).length
                value = now + delta
                # a board's own longer connections may stay as long
                if 1 <= value <= max(MAX_LENGTH, was) and abs(value - was) <= reach:
                    lengths[key] = value
            if lengths:
                conns = tuple(replace(c, length=lengths[_pair_key(c)])
                              if _pair_key(c) in lengths else c for c in board.connections)
                out.append((name, replace(board, connections=conns)))
    else:  # colours: every track of the group grey, or each the least used colour free near it
        for name in ("grey", "apart"):
            tracks = list(board.connections)
            for key in feature.keys:
                pair, segment = key.split("#")
                conn = tracks[_find(board, pair, int(segment)).id]
                tracks[conn.id] = replace(conn, colour=GREY if name == "grey"
                                         else _apart(tracks, conn))
            if tuple(tracks) != board.connections:
                out.append((name, replace(board, connections=tuple(tracks))))
    return out


def _apart(conns: Sequence[Connection], conn: Connection) -> str:
    """The least used colour that no other connection at ``conn``'s cities has (its own colour
    when every colour is taken there)."""
    near = {c.colour for c in conns if c.id != conn.id and {c.a, c.b} & {conn.a, conn.b}}
    used = {col: sum(c.colour == col for c in conns) for col in COLOURS}
    free = [col for col in COLOURS if col not in near]
    return min(free, key=lambda col: (used[col], col)) if free else conn.colour


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
            done: Sequence[tuple[str, str]] = (), finest: int = FINEST) -> Board:
    """The balanced board (see the module's docstring); ``on_step`` hears of every level.
    ``done``: (feature, value chosen) of the first levels of an earlier run with the same
    options (its steps file), taken again without playing, so an interrupted run resumes;
    ValueError if they are not this search's levels."""
    original = spec.loaded()
    board = original
    rng = random.Random(seed)
    index = 0
    for phase in (1, 2):
        for feature in plan(board, phase, rng, finest):
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
            if len(options) == 1:  # nothing of the group left to change: no games
                step = Step(index, phase, str(feature), "unchanged", math.nan, math.nan,
                            {"unchanged": math.nan})
            else:
                first = seed * 1_000_000 + index * rule.max_games
                play = partial(win_shares, spec, [b for _, b in options], workers, first)
                result = race(len(options), play, desired,
                              range(first, first + rule.max_games), rule, bootstrap_seed=index)
                board = options[result.winner][1]
                step = Step(index, phase, str(feature), options[result.winner][0],
                            result.distances[result.winner], result.distances[0],
                            {v: d for (v, _), d in zip(options, result.distances, strict=True)},
                            result.stderr, result.games)
            if on_step is not None:
                on_step(step, board)
            index += 1
    return replace(board, name=f"{original.name}-balanced",
                   title=f"{original.title}, balanced{' (restricted)' if restricted else ''}")


def levels(original: Board, board: Board, finest: int = FINEST) -> int:
    """How many levels the search of ``original`` has, now that it has reached ``board``: a
    double made single in phase 1 takes a colour out of phase 2."""
    return sum(len(groups(keys(b, kind), finest))
               for phase, b in ((1, original), (2, board)) for kind in KINDS[phase])


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
