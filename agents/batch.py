"""Headless batches: many seeded games, one row per game, and the aggregate a study reports.

Each game is a pure function of its parameters and seed, so games run in worker processes in
any order and the rows still come out the same.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.model import TTRModel, game_rules
from boards import Board, load_board
from game.rules import Rules


@dataclass(frozen=True)
class GameSpec:
    """Parameters of every game in a batch; the seed varies per game. ``board`` is a shipped
    board's name, a board file's path, or a board already loaded (the cut search's)."""

    board: str | Board = "europe24"
    players: int = 3
    tickets_each: int = 2
    agent_kinds: str = "epistemic"
    trains: int | None = None
    backend: str = "auto"
    variant: str = Rules.variant  # the simplified game or the open one

    def rules(self) -> Rules:
        """The rules every game of the batch plays by (the board's default trains filled in)."""
        board = load_board(self.board) if isinstance(self.board, str) else self.board
        return game_rules(board, self.players, self.tickets_each, self.trains,
                          variant=self.variant)

    def model(self, seed: int) -> TTRModel:
        return TTRModel(board=self.board, players=self.players, tickets_each=self.tickets_each,
                        agent_kinds=self.agent_kinds, trains=self.trains, rng=seed,
                        backend=self.backend, variant=self.variant)


def play_game(spec: GameSpec, seed: int) -> dict[str, Any]:
    """Play one game to the end and summarise it as one CSV row."""
    model = spec.model(seed)
    model.run()
    state = model.state
    scores = state.scores()
    best = max(scores)
    row: dict[str, Any] = {
        "seed": seed, "board": model.board.name, "players": spec.players,
        "tickets_each": spec.tickets_each, "turns": state.turn, "end_reason": state.end_reason,
        "blocks": model.blocks,
        "giveaways": sum(a.kind == "claim" and a.removed > 0
                         for t in model.history for a in t.announcements),
        "worlds_start": model.initial_worlds, "worlds_end": model.world_count,
        "worlds_by_turn": " ".join(str(t.worlds_after) for t in model.history),
    }
    for p, seat in enumerate(model.seats):
        parts = state.score_parts(p)
        row |= {f"kind_{p}": seat.kind, f"score_{p}": parts.total,
                f"finished_{p}": len(state.finished[p]), f"blocks_{p}": seat.blocks,
                f"known_{p}": seat.known_tickets, f"win_{p}": round(
                    (scores[p] == best) / scores.count(best), 4)}
    return row


def columns(players: int) -> list[str]:
    head = ["seed", "board", "players", "tickets_each", "turns", "end_reason", "blocks",
            "giveaways", "worlds_start", "worlds_end"]
    per = [f"{name}_{p}" for p in range(players)
           for name in ("kind", "score", "finished", "blocks", "known", "win")]
    return head + per + ["worlds_by_turn"]


@dataclass(frozen=True)
class KindSummary:
    """How one agent kind did over a batch (ties share a win)."""

    kind: str
    seats: int
    win_rate: float
    mean_score: float
    mean_finished: float
    mean_blocks: float


def by_kind(rows: Sequence[dict[str, Any]]) -> list[KindSummary]:
    acc: dict[str, list[list[float]]] = defaultdict(list)
    for row in rows:
        for p in range(row["players"]):
            acc[row[f"kind_{p}"]].append([row[f"win_{p}"], row[f"score_{p}"],
                                          row[f"finished_{p}"], row[f"blocks_{p}"]])
    return [KindSummary(kind, len(v), *(sum(col) / len(v) for col in zip(*v, strict=True)))
            for kind, v in sorted(acc.items())]


def mean(rows: Iterable[dict[str, Any]], key: str) -> float:
    values = [float(r[key]) for r in rows]
    return sum(values) / len(values) if values else float("nan")
