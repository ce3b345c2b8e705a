"""Stored game logs: seeded games recorded once, which must come out the same whenever the code
changes without meaning to change play (policies moved onto per-player views, refactors).

Regenerate them, when a change *means* to change play (new rules, a rebuilt board), with one
command from the repository root:

    .venv/bin/python tests/stored_logs.py

Each fixture is a small game: a few dozen turns, a few kilobytes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import log  # noqa: E402
from agents.model import TTRModel  # noqa: E402
from agents.standard_game import StandardSpec, play_standard  # noqa: E402
from game.log import event_to_json, header, write_log  # noqa: E402

FOLDER = Path(__file__).parent / "data" / "logs"

#: name -> TTRModel settings (simplified game, europe24) or a standard spec and seed.
SIMPLIFIED: dict[str, dict[str, Any]] = {
    "simplified-3p-mixed": dict(players=3, tickets_each=2,
                                agent_kinds="epistemic,baseline,random", rng=7),
    "simplified-4p-epistemic": dict(players=4, tickets_each=2, agent_kinds="epistemic",
                                    rng=11),
    "simplified-2p-baseline": dict(players=2, tickets_each=3,
                                   agent_kinds="baseline,epistemic", rng=3),
}
STANDARD: dict[str, tuple[StandardSpec, int]] = {
    "standard-usa-4p": (StandardSpec(board="usa", lineup=("osta", "pa", "lrja", "ha")), 5),
}


def simplified_game(name: str) -> TTRModel:
    model = TTRModel(board="europe24", **SIMPLIFIED[name])
    model.run()
    return model


def standard_records(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    spec, seed = STANDARD[name]
    state, _ = play_standard(spec, seed)
    return header(state, agents=list(spec.lineup), game_seed=seed), [
        event_to_json(e) for e in state.history]


def write_all() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in SIMPLIFIED:
        log.save(simplified_game(name), FOLDER / f"{name}.jsonl")
    for name in STANDARD:
        write_log(FOLDER / f"{name}.jsonl", *standard_records(name))
    print(f"wrote {len(SIMPLIFIED) + len(STANDARD)} logs to {FOLDER}")


if __name__ == "__main__":
    write_all()
