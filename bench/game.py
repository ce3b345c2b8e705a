"""Games per second on europe24: the simplified game without Mesa, with the baseline policy
through the one game loop (issue 2's figure; the state keeps its shared model and makes its
announcements), and whole
``TTRModel`` games (issue 4's figures; past the explicit limit on the symbolic backend, issue
15), on one core; and 4-player standard games on the USA board with the four strategy agents and
with four baseline players (issue 13's figure: the pure game function the batches and the design
lab run); and the open game on the 4 × 4 deal, per turn, on both backends (issue 47).

Run: ``ttr-kripke bench game [--seconds S] [--skip-4x4]``.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

from agents.model import TTRModel
from agents.policies import baseline
from agents.standard_game import PAPERS_LINEUP, StandardSpec, play_standard_game
from agents.tables import Table
from bench.report import Report
from boards.loader import load_board
from game.fields import argument, seconds
from game.play import play, seeded
from game.rules import Rules
from game.state import GameState

BOARD = "europe24"
#: The open game's line-up of the 4 × 4 rows: each of its kinds and the baseline.
OPEN_LINEUP = "believer,bluffer,sceptic,baseline"


def engine_games(players: int, seconds: float) -> tuple[int, float]:
    """The game's state + baseline policy through the one game loop, no Mesa: the rules' own
    speed (the state's shared model and announcements included)."""
    rules = Rules(load_board(BOARD), players=players, tickets_each=2)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, rng = seeded(partial(GameState, rules), games)
        play(state, [baseline] * players, rng)
        games += 1
    return games, time.perf_counter() - start


def model_games(kinds: str, players: int, tickets: int, seconds: float,
                at_least: int = 1, board: str = BOARD,
                backend: str = "auto") -> tuple[int, float]:
    """Whole TTRModel games: policy, engine, announcements and data collection."""
    games, start = 0, time.perf_counter()
    while games < at_least or time.perf_counter() - start < seconds:
        TTRModel(board=board, players=players, tickets_each=tickets, agent_kinds=kinds,
                 rng=games, backend=backend).run()
        games += 1
    return games, time.perf_counter() - start


def open_turns(backend: str) -> tuple[int, float, float]:
    """One seeded 4 × 4 open game (believer, bluffer, sceptic, baseline): its turns, the mean
    and the slowest seconds per turn (each claim a rank shift over the 63,063,000 deals, each
    view's belief read from the ranks, each block announcing ``B_b p(a,t)``)."""
    model = TTRModel(board=BOARD, players=4, tickets_each=4, agent_kinds=OPEN_LINEUP, rng=1,
                     backend=backend, variant="open")
    times = []
    while model.running:
        start = time.perf_counter()
        model.step()
        times.append(time.perf_counter() - start)
    return len(times), sum(times) / len(times), max(times)


def standard_games(lineup: tuple[str, ...], seconds: float) -> tuple[int, float]:
    """Whole standard games through ``play_standard_game``, seats rotated."""
    spec = StandardSpec(board="usa", lineup=lineup)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_standard_game(spec.rotated(games % len(lineup)), games)
        games += 1
    return games, time.perf_counter() - start


def main(argv: list[str]) -> Report:
    parser = argparse.ArgumentParser(prog="ttr-kripke bench game", description=__doc__)
    parser.add_argument("--seconds", type=argument(seconds, "seconds"), default=5.0,
                        help="time per row (default 5)")
    parser.add_argument("--skip-4x4", action="store_true", help="leave out the 63M-world game")
    args = parser.parse_args(argv)
    rows = []
    for players in (2, 3, 4):
        n, dt = engine_games(players, args.seconds)
        rows.append((f"GameState, baseline, {players}×2", n, f"{n / dt:.0f}", "≥ 200 games/s"))
    for kinds, players, tickets, goal in [("baseline", 3, 2, ""), ("epistemic", 2, 2, ""),
                                          ("epistemic", 3, 2, "≥ 50 games/s"),
                                          ("epistemic", 4, 2, ""), ("epistemic", 3, 3, ""),
                                          ("epistemic", 4, 3, "")]:
        n, dt = model_games(kinds, players, tickets, args.seconds)
        rows.append((f"TTRModel, {kinds}, {players}×{tickets}", n, f"{n / dt:.1f}", goal))
    for name, lineup, goal in [(", ".join(PAPERS_LINEUP), PAPERS_LINEUP,
                                "≥ 30 games/s"),
                               ("4 × baseline", ("baseline",) * 4, "")]:
        n, dt = standard_games(lineup, args.seconds)
        rows.append((f"standard USA 4p, {name}", n, f"{n / dt:.1f}", goal))
    if not args.skip_4x4:
        n, dt = model_games("epistemic", 4, 4, 0, at_least=1)
        rows.append(("TTRModel, epistemic, 4×4 (63,063,000 worlds)", n,
                     f"{dt:.1f} s per game", "≤ 120 s per game"))
    # the open game's ranked deal (issue 47); --skip-4x4 leaves out the list of 63M deals
    for backend in ("symbolic",) if args.skip_4x4 else ("explicit", "symbolic"):
        turns, mean, slowest = open_turns(backend)
        rows.append((f"TTRModel, open, {OPEN_LINEUP}, 4×4 {backend}, per turn", 1,
                     f"{mean:.2f} s per turn ({turns} turns, slowest {slowest:.1f} s)",
                     "≤ 1 s per turn"))
    # Past the explicit limit the shared model is symbolic (issue 15): 3·10¹¹ deals of 20 of
    # the USA board's tickets; and the 4×4 game on the symbolic backend, to compare.
    for label, board, players, tickets, backend in [
            ("4×4 symbolic", BOARD, 4, 4, "symbolic"),
            ("5×3 symbolic (168,168,000 deals)", BOARD, 5, 3, "auto"),
            ("5×4 symbolic, usa (305,540,235,000 deals)", "usa", 5, 4, "auto")]:
        n, dt = model_games("epistemic", players, tickets, args.seconds, at_least=3,
                            board=board, backend=backend)
        rows.append((f"TTRModel, epistemic, {label}", n, f"{dt / n:.2f} s per game", ""))
    return Report((Table.of(("case", "games", "games/s", "goal"), rows),))
