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
tuned to one set of deals.

A descent from the original only finds what lies downhill of it, and a board's features interact
(with the engine's agents, every ticket worth twice as much takes the Long Route Junkie from 0.42
to 0.24 and lifts Hungry to 0.36). So the search may first screen random boards (``screen``):
successive halving over the original and them picks one, and a race on new seeds starts the
descent from it only when it is nearer than the original by more than its noise.

Each level keeps pure noise at most ``alpha`` of the time, but a search has many levels, and
their few false steps add up: a described-agents run with ten screens kept, at its 12th level,
"every double single" (0.272 against the original's 0.394 over 320 games, an unlucky set for the
original) and ended at 0.307 over 1,000 new games where the original measures 0.245. So the last
level races the search's board against the original on seeds of its own (up to
:data:`SCREEN_RACE` times a level's games), and the original is what the search returns unless
its board is nearer by more than its noise.

The descent never comes back up the tree, as the paper's simplified search; a full tree search
over combinations would need far more than its 48 hours.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from agents.kinds import seat_jobs
from agents.standard_batch import kind_order
from boards import COLOURS, GREY, Board, Connection
from lab.cluster import Workers
from lab.games import LabSpec, play_lab_game
from lab.race import Rule, halving, halving_seeds, race
from lab.runner import run_jobs

MAX_LENGTH = 6


#: The kinds of feature each phase changes, in the order a level of one depth takes them.
KINDS = {1: ("ticket", "double"), 2: ("length", "colour")}
#: Features in a group of the finest levels at least (see :func:`groups`). Groups of fewer
#: than 32 on the USA map move the distance by about 0.02, below a 320-game race's noise: the
#: engine run that went down to 8 had all its 34 levels undecided (28 min for nothing).
FINEST = 32


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
    """The levels of one phase: each kind's features in order of their value (see
    :func:`value`; equal ones in a seeded random order), cut into groups (:func:`groups`),
    every kind's groups of one depth before any of the next depth. Sorted, a half is a
    direction a designer would name: the cheap tickets up and the dear ones down, the short
    connections longer. A random cut mixes both ends, and its moves cancel out."""
    levels = []
    for order, kind in enumerate(KINDS[phase]):
        names = keys(board, kind)
        rng.shuffle(names)
        names.sort(key=partial(value, board, kind))  # stable: equal values stay shuffled
        levels += [(depth, order, part, Feature(phase, kind, group, depth, part))
                   for depth, part, group in groups(names, finest)]
    return [feature for *_, feature in sorted(levels, key=lambda level: level[:3])]


def value(board: Board, kind: str, key: str) -> int:
    """What orders a kind's features in :func:`plan`: a ticket's points, a connection's (or a
    double's) length; colours have none (0)."""
    if kind == "ticket":
        return next(t.points for t in board.tickets if f"{t.a}–{t.b}" == key)
    if kind in ("length", "double"):
        return _find(board, key).length
    return 0


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
                conns = tuple(_resized(c, lengths[_pair_key(c)])
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
#: Random boards a screen may have (the seeds of one round's boards).
MAX_SCREEN = 1000
#: The share of a blend's features drawn again at random (:func:`blend`).
BLEND = 0.25
#: The screen's race starts at the levels' most games and may play this many times more: a
#: random board and the original share less of their noise than a board and its own small
#: change (the first engine run's screen chose a board at 0.15 over 1,280 games that an
#: undecided race of 320 could not tell from the original's 0.28).
SCREEN_RACE = 4


def unlike(rule: Rule) -> Rule:
    """The race between two unlike boards (a screen's choice against the board so far, the
    search's board against the original): from ``rule``'s most games up to
    :data:`SCREEN_RACE` times as many."""
    return Rule(rule.max_games, SCREEN_RACE * rule.max_games, rule.alpha)


#: The last level: the search's board raced against the original on seeds of its own.
CHECK = "check: the balanced board against the original"


def check_seeds(seed: int) -> int:
    """The first seed of the last level's race: above every screen's and level's seeds, below
    the confirmation's (``(seed + 1) * 1_000_000 + 500_000``)."""
    return (seed + 1) * 1_000_000 + 400_000


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
    jobs = [job for i in which for job in seat_jobs(spec.with_board(boards[i]), level)[start:]]
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


def screened(original: Board, board: Board, seed: int, count: int, restricted: bool,
             round_: int = 0) -> list[tuple[str, Board]]:
    """One screen's candidates: the board so far ("unchanged") and, in the first round,
    ``count`` random boards (:func:`random_board`), in later rounds ``count`` blends of the
    board so far with random ones (:func:`blend`), all on seeds the comparison's random boards
    never use."""
    first = (seed + 1) * 1_000_000 + round_ * MAX_SCREEN
    if round_ == 0:
        return [("unchanged", board)] + [
            (f"random {k + 1}", random_board(original, first + k, restricted))
            for k in range(count)]
    return [("unchanged", board)] + [
        (f"blend {k + 1}", blend(board, original, first + k, BLEND, restricted))
        for k in range(count)]


def screen_name(count: int, round_: int = 0) -> str:
    if round_ == 0:
        return f"screen of {count} random boards"
    return f"screen {round_ + 1}: {count} blends with random boards"


def balance(spec: LabSpec, desired: Sequence[float], workers: Workers, rule: Rule = RULE,
            seed: int = 0, restricted: bool = False,
            on_step: Callable[[Step, Board], None] | None = None,
            done: Sequence[tuple[str, str]] = (), finest: int = FINEST, screen: int = 0,
            on_round: Callable[[int, int], None] | None = None, rounds: int = 1) -> Board:
    """The balanced board (see the module's docstring); ``on_step`` hears of every level.
    ``screen`` > 0 starts the descent from the best of the original and that many random
    boards: a successive halving (:func:`lab.race.halving`) chooses one, and a race on new
    seeds (from ``rule.max_games`` games up to :data:`SCREEN_RACE` times as many) keeps it
    only when it beats the original by more than its noise (level 0). Each further of
    ``rounds`` screens as many blends of the board so far with random boards the same way;
    ``on_round`` hears of each round of the halving. The last level (phase 3, :data:`CHECK`)
    keeps the search's board only when a race on new seeds finds it nearer than the original
    by more than its noise.
    ``done``: (feature, value chosen) of the first levels of an earlier run with the same
    options (its steps file), taken again without playing, so an interrupted run resumes;
    ValueError if they are not this search's levels."""
    original = spec.loaded()
    board = original
    rng = random.Random(seed)
    index = 0

    def redo(name: str, options: list[tuple[str, Board]]) -> Board:
        """Level ``index`` of the earlier run, taken again."""
        was, value = done[index]
        chosen = dict(options).get(value)
        if was != name or chosen is None:
            raise ValueError(f"level {index} of the earlier run is {was} = {value}, "
                             f"but this search's level {index} is {name}")
        return chosen

    def raced(phase: int, name: str, options: list[tuple[str, Board]], challengers: list[int],
              first: int, level: Rule = rule) -> tuple[Step, Board]:
        """Level ``index``: a race of the unchanged board (options[0]) and ``challengers`` on
        the seeds from ``first``."""
        which = [0, *challengers]
        play = partial(win_shares, spec, [options[i][1] for i in which], workers, first)
        result = race(len(which), play, desired, range(first, first + level.max_games), level,
                      bootstrap_seed=index)
        chosen = which[result.winner]
        tried = {options[i][0]: d for i, d in zip(which, result.distances, strict=True)}
        return Step(index, phase, name, options[chosen][0], result.distances[result.winner],
                    result.distances[0], tried, result.stderr, result.games), options[chosen][1]

    def ended(step: Step, kept: Board) -> None:
        nonlocal board, index
        board = kept
        if on_step is not None:
            on_step(step, board)
        index += 1

    for round_ in range(rounds if screen else 0):
        name = screen_name(screen, round_)
        options = screened(original, board, seed, screen, restricted, round_)
        if index < len(done):
            board = redo(name, options)
            index += 1
            continue
        halved = halving_seeds(len(options), rule.games)
        first = seed * 1_000_000 + 600_000 + round_ * (halved + unlike(rule).max_games)
        play = partial(win_shares, spec, [b for _, b in options], workers, first)
        best, measured = halving(len(options), play, desired, range(first, first + halved),
                                 rule.games, on_round)
        tried = {label: d for (label, _), d in zip(options, measured, strict=True)}
        if best == 0:
            ended(Step(index, 0, name, "unchanged", measured[0], measured[0], tried), board)
        else:  # two unlike boards share less of their noise: a longer race
            step, kept = raced(0, name, options, [best], first + halved, unlike(rule))
            ended(replace(step, tried=tried | {f"{k} raced": d
                                               for k, d in step.tried.items()}), kept)
    for phase in (1, 2):
        for feature in plan(board, phase, rng, finest):
            options = candidates(board, original, feature, restricted)
            if index < len(done):
                board = redo(str(feature), options)
                index += 1
            elif len(options) == 1:  # nothing of the group left to change: no games
                ended(Step(index, phase, str(feature), "unchanged", math.nan, math.nan,
                           {"unchanged": math.nan}), board)
            else:
                ended(*raced(phase, str(feature), options, list(range(1, len(options))),
                             seed * 1_000_000 + index * rule.max_games))
    options = [("original", original), ("balanced", board)]
    if index < len(done):
        board = redo(CHECK, options)
    elif board == original:  # nothing kept: nothing to check
        ended(Step(index, 3, CHECK, "original", math.nan, math.nan, {"original": math.nan}),
              original)
    else:
        ended(*raced(3, CHECK, options, [1], check_seeds(seed), unlike(rule)))
    return replace(board, name=f"{original.name}-balanced",
                   title=f"{original.title}, balanced{' (restricted)' if restricted else ''}")


def levels(start: Board, board: Board, finest: int = FINEST, screen: int = 0,
           rounds: int = 1) -> int:
    """How many levels the search has, now that it has reached ``board`` from ``start`` (the
    board the screen chose, else the original): a double made single in phase 1 takes a
    colour out of phase 2; the check against the original is the last."""
    return rounds * (screen > 0) + 1 + sum(len(groups(keys(b, kind), finest))
                                     for phase, b in ((1, start), (2, board))
                                     for kind in KINDS[phase])


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
        kept.append(_resized(c, length[_pair_key(c)], colour=rng.choice([*COLOURS, GREY])))
    return replace(original, name=f"{original.name}-random", title=f"{original.title}, random",
                   tickets=tickets, connections=_unpaired(kept))


def _resized(c: Connection, length: int, **changes: Any) -> Connection:
    """``c`` at a new length (and other changes): a ferry needs at most as many locomotives as
    it is long, so a shortened ferry needs fewer (europe24's two-long London–Amsterdam ferry
    made one long kept its 2 and the board format refused the lab's own board)."""
    return replace(c, length=length, ferry=min(c.ferry, length), **changes)


def _unpaired(kept: Sequence[Connection]) -> tuple[Connection, ...]:
    """``kept`` renumbered, a double whose second segment was dropped made single."""
    count = Counter(c.pair for c in kept if c.pair is not None)
    return _renumber([replace(c, pair=None) if c.pair is not None and count[c.pair] == 1 else c
                      for c in kept])


def blend(board: Board, original: Board, seed: int, share: float = 0.25,
          restricted: bool = False) -> Board:
    """``board`` with each of its features (a ticket's value, a double kept or single, a
    length, a track's colour) drawn again as :func:`random_board` draws it, each with
    probability ``share``: a later screen's candidate, far enough from ``board`` that a few
    hundred games can tell them apart, near enough to keep what made it good."""
    other = random_board(original, seed, restricted)
    rng = random.Random(f"blend {seed}")

    def pick(sources: Sequence[dict[Any, Any]], key: Any) -> Any:
        """The board's value of ``key``, or with probability ``share`` the random board's
        (either one's when only one has it)."""
        mine, theirs = sources
        first, second = (theirs, mine) if rng.random() < share else (mine, theirs)
        return first[key] if key in first else second[key]

    points = [{f"{t.a}–{t.b}": t.points for t in b.tickets} for b in (board, other)]
    tickets = tuple(replace(t, points=pick(points, f"{t.a}–{t.b}")) for t in original.tickets)
    lengths = [{_pair_key(c): c.length for c in b.connections} for b in (board, other)]
    colours = [{(_pair_key(c), _segment(b, c)): c.colour for c in b.connections}
               for b in (board, other)]
    doubled = [{_pair_key(c): True for c in b.connections if _segment(b, c)}
               for b in (board, other)]
    length = {key: pick(lengths, key) for key in lengths[0]}  # once a pair: a double's two
    kept = []                                                  # segments are equally long
    for c in original.connections:
        key, segment = _pair_key(c), _segment(original, c)
        if segment and not pick([d | {key: d.get(key, False)} for d in doubled], key):
            continue
        kept.append(_resized(c, length[key], colour=pick(colours, (key, segment))))
    return replace(board, tickets=tickets, connections=_unpaired(kept))
