"""Soak: many seeded games of each rule set, every action checked against the rules' invariants
restated from scratch, every game played twice (same seed, same log) and its log replayed.

Line-ups, sizes and boards rotate with the seed: the simplified game (and the open one, its
variant) with 2-5 players, 1-3 tickets each (2 players) or 1-2 (more), each seat one of the
agent kinds; the standard game with
2-5 players of the strategy agents; both on europe24 and usa. After every action: the train cards
are conserved colour by colour (the tunnel's paid cards counted), trains left are the start
less what the player owns, no connection changes hands, no player holds both halves of a
double (and a double is used once where the rules say so), the face-up row is whole and holds
too many locomotives only when the cards left cannot make a better row, every score equals one
recomputed from the owned connections and the tickets they join, and the tickets are
conserved. Goal: no violation.

Run: ``ttr-kripke bench soak --games N`` (N of each rule set). Ctrl-C prints the tally of the
games finished so far.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from agents.kinds import AgentKind, standard_kinds
from agents.log import records, replay_log, save
from agents.model import TTRModel
from agents.standard_game import StandardSpec, play_standard
from agents.tables import Table
from bench.report import Report
from game.cards import LOCO
from game.log import event_to_json, header, replay_states, start
from game.standard_state import StandardState
from game.table import Event, TableState
from lab.cluster import open_workers
from lab.runner import run_jobs

RULE_SETS = ("simplified", "open", "standard")
SIMPLIFIED_KINDS = tuple(AgentKind)
STANDARD_KINDS = standard_kinds()
BOARDS = ("europe24", "usa")


@dataclass(frozen=True)
class Soaked:
    """One game's tally: actions checked and the violations found (each named)."""

    rules: str
    seed: int
    actions: int
    violations: tuple[str, ...]


def lineup(kinds: tuple[str, ...], players: int, seed: int) -> list[str]:
    pick = random.Random(f"soak lineup {seed}")
    return [pick.choice(kinds) for _ in range(players)]


class Checker:
    """The invariants, restated from the rules and checked after each action of one game."""

    def __init__(self, state: TableState, where: str) -> None:
        self.where = where
        self.actions = 0
        self.violations: list[str] = []
        self.cards = self._cards(state)
        self.owner = list(state.owner)
        self.tickets = self._tickets(state)

    def check(self, state: TableState, event: Event) -> None:
        self.actions += 1
        at = f"{self.where}, event {event.index}"
        rules, board = state.rules, state.board
        found = []
        if self._cards(state) != self.cards:
            found.append("train cards not conserved")
        changed = [c for c, (a, b) in enumerate(zip(self.owner, state.owner, strict=True))
                   if a != b]
        if any(self.owner[c] is not None for c in changed):
            found.append("a connection changed hands")
        self.owner = list(state.owner)
        for p in range(rules.players):
            used = sum(c.length for c in board.connections if state.owner[c.id] == p)
            if state.trains[p] != rules.start_trains - used:
                found.append(f"player {p} has {state.trains[p]} trains, not "
                             f"{rules.start_trains - used}")
        halves = Counter((c.pair, state.owner[c.id]) for c in board.connections
                         if c.pair is not None and state.owner[c.id] is not None)
        if max(halves.values(), default=0) > 1:
            found.append("a player holds both halves of a double")
        if not rules.doubles_both_usable and max(Counter(
                c.pair for c in board.connections
                if c.pair is not None and state.owner[c.id] is not None).values(), default=0) > 1:
            found.append("a double used twice where the rules allow one")
        found += self._row(state)
        found += self._scores(state)
        if self._tickets(state) != self.tickets:
            found.append("tickets not conserved")
        self.violations += [f"{at}: {v}" for v in found]

    @staticmethod
    def _cards(state: TableState) -> Counter[int]:
        held = Counter(state.pile) + Counter(state.discard) + Counter(
            c for c in state.face_up if c is not None)
        for hand in state.hands:
            held += Counter({c: n for c, n in enumerate(hand) if n})
        tunnel = getattr(state, "tunnel", None)
        if tunnel is not None:
            held += Counter(tunnel.paid)
        return held

    @staticmethod
    def _tickets(state: TableState) -> Counter[int]:
        if isinstance(state, StandardState):
            return Counter([*(t.id for held in state.tickets for t in held),
                            *(t for offer in state.offers for t in offer), *state.ticket_pile])
        return Counter(t.id for held in state.tickets for t in held)

    @staticmethod
    def _row(state: TableState) -> list[str]:
        row, limit = state.face_up, state.rules.face_up_locomotive_limit
        found = []
        if len(row) != state.rules.face_up:
            found.append(f"the face-up row has {len(row)} places")
        if None in row and (state.pile or state.discard):
            found.append("an empty face-up place while cards are left")
        if sum(c == LOCO for c in row) >= limit:
            spare = sum(c != LOCO for c in [*state.pile, *state.discard, *row] if c is not None)
            if spare >= len(row) - limit + 1:
                found.append(f"{limit} or more face-up locomotives though a new row could be "
                             "laid")
        return found

    @staticmethod
    def _scores(state: TableState) -> list[str]:
        board, rules = state.board, state.rules
        found = []
        for p in range(rules.players):
            parts = state.score_parts(p)
            mine = [c for c in board.connections if state.owner[c.id] == p]
            connections = sum(board.route_points[c.length] for c in mine)
            joined_ids: set[int] | frozenset[int]
            if isinstance(state, StandardState) and state.rules.stations:
                joined_ids = state.final_finished(p)  # stations borrow others' connections
            else:
                joined_ids = {t.id for t in state.tickets[p] if _joined(mine, t.a, t.b)}
            done = sum(t.points for t in state.tickets[p] if t.id in joined_ids)
            missed = sum(t.points for t in state.tickets[p] if t.id not in joined_ids)
            total = connections + done - missed
            if isinstance(state, StandardState):
                total += parts.total - (parts.connections + parts.finished - parts.unfinished)
            if parts.connections != connections or parts.total != total:
                found.append(f"player {p} scores {parts.total}, recomputed {total}")
        return found


def _joined(owned: list, a: str, b: str) -> bool:
    """Whether the owned connections join cities ``a`` and ``b`` (union-find)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for c in owned:
        parent[root(c.a)] = root(c.b)
    return root(a) == root(b)


def soak_simplified(seed: int, variant: str = "simplified") -> Soaked:
    """One game of the simplified game, or of its ``variant`` the open game."""
    players = 2 + seed % 4
    tickets = 1 + (seed // 4) % (3 if players == 2 else 2)
    board = BOARDS[(seed // 12) % len(BOARDS)]
    kinds = lineup(SIMPLIFIED_KINDS, players, seed)
    where = f"{variant} seed {seed}"

    def played() -> tuple[TTRModel, Checker]:
        model = TTRModel(board=board, players=players, tickets_each=tickets,
                         agent_kinds=kinds, rng=seed, variant=variant)
        checker = Checker(model.state, where)
        model.on_event = checker.check
        model.run()
        return model, checker

    model, checker = played()
    again, _ = played()
    if list(records(again)) != list(records(model)):
        checker.violations.append(f"{where}: the same seed played another game")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        save(model, path)
        try:
            replayed = replay_log(path)
            if replayed.state.scores() != model.state.scores() or replayed.worlds is None or \
                    replayed.worlds.n_worlds != model.world_count:
                checker.violations.append(f"{where}: the log replays elsewhere")
        except ValueError as e:
            checker.violations.append(f"{where}: the log does not replay: {e}")
    return Soaked(variant, seed, checker.actions, tuple(checker.violations))


def soak_standard(seed: int) -> Soaked:
    players = 2 + seed % 4
    spec = StandardSpec(board=BOARDS[(seed // 4) % len(BOARDS)],
                        lineup=tuple(lineup(STANDARD_KINDS, players, seed)))
    state, _ = play_standard(spec, seed)
    again, _ = play_standard(spec, seed)
    where = f"standard seed {seed}"
    events = [event_to_json(e) for e in state.history]
    violations = [] if [event_to_json(e) for e in again.history] == events else \
        [f"{where}: the same seed played another game"]
    head = header(state, agents=list(spec.lineup), game_seed=seed)
    checker = Checker(start(head), where)  # the game as dealt
    try:  # the log replayed action by action, each state checked
        final = None
        for final, event in replay_states(head, events):
            checker.check(final, event)
        if final is None or final.scores() != state.scores():
            violations.append(f"{where}: the log replays to other scores")
    except ValueError as e:
        violations.append(f"{where}: the log does not replay: {e}")
    return Soaked("standard", seed, checker.actions, tuple(violations + checker.violations))


SOAKERS: dict[str, Callable[[int], Soaked]] = {"simplified": soak_simplified,
                                               "open": partial(soak_simplified, variant="open"),
                                               "standard": soak_standard}


def soak_game(rules: str, seed: int) -> Soaked:
    """One soaked game (module level: workers unpickle it)."""
    return SOAKERS[rules](seed)


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench soak", description=__doc__)
    parser.add_argument("--games", type=int, default=200,
                        help="games of each rule set (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--workers", type=int, default=1,
                        help="1 plays here (default); N a local Dask cluster of N workers")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seed < 0 or args.workers < 1:
        parser.error("--games and --workers must be at least 1, --seed at least 0")
    jobs = [(rules, seed) for seed in range(args.seed, args.seed + args.games)
            for rules in RULE_SETS]
    tally = {rules: Tally() for rules in RULE_SETS}
    began = time.perf_counter()
    interrupted = False
    with open_workers(0 if args.workers == 1 else args.workers) as workers:
        try:
            for game in run_jobs(soak_game, jobs, workers.executor, workers.count,
                                 progress=None if args.no_progress else "games"):
                tally[game.rules].add(game)
        except KeyboardInterrupt:  # the games finished so far are the tally
            interrupted = True
    seconds = time.perf_counter() - began
    shown = [v for t in tally.values() for v in t.shown]
    table = Table.of(
        ("rules", "games", "actions checked", "violations", "games/s", "goal", "status"),
        [(rules, f"{t.games:,}", f"{t.actions:,}", f"{t.violations:,}",
          f"{t.games / seconds:.1f}", "0 violations",
          "met" if t.violations == 0 and t.games else "NOT MET")
         for rules, t in tally.items()],
        after=("", f"{workers.where}; games/s is each rule set's games over the whole run "
               f"({seconds:.1f} s); every game also played twice (same log) and its log "
               "replayed", *(f"  {v}" for v in shown)))
    errors = (f"interrupted: the tally is of the {sum(t.games for t in tally.values()):,} "
              f"games finished of {len(jobs):,}",) if interrupted else ()
    return Report((table,), errors, 1 if shown else (130 if interrupted else 0))


@dataclass
class Tally:
    """One rule set's games so far, folded as they arrive (a long soak keeps no list of them);
    the first few violations are kept to show."""

    games: int = 0
    actions: int = 0
    violations: int = 0
    shown: list[str] = field(default_factory=list)

    def add(self, game: Soaked) -> None:
        self.games += 1
        self.actions += game.actions
        self.violations += len(game.violations)
        self.shown += game.violations[:SHOWN - len(self.shown)]


#: Violations printed per rule set.
SHOWN = 10
