"""Decision for decision: our engine source against the authors' engine on the same positions.

Plays ``GAMES`` engine-source games (USA, one agent of each kind, seats rotated, seeds from
50,000), keeps a share of the turn starts where One Step, Path or the Long Route Junkie is to
move, asks our policy what it does there with a fresh plan, has ``engine_decisions.py`` ask
the authors' engine (Python 2.7) the same, and counts where they differ. Hungry is left out:
a fresh engine Hungry has no plan or stored threshold, so its first decision is not the one
it makes mid-game (its plan is checked on its own, see the README). Run from the project:

    .venv/bin/python docs/engine/compare_decisions.py ENGINE_CHECKOUT MAP PYTHON2 PY2LIBS \
        [GAMES] [SHARE]

with MAP as ``engine_decisions.py`` says, PYTHON2 a Python 2.7 and PY2LIBS the folder holding
its networkx 2.2 (``pip2 install --target PY2LIBS networkx==2.2``).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from agents.engine_strategies import (
    EngineSeat,
    SeatMemory,
    board_graph,
    lrja_engine,
    osta_engine,
    pa_engine,
)
from agents.kinds import seat_policies
from agents.standard_game import StandardSpec
from game.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets
from game.cards import CARD_NAMES, LOCO
from game.standard_state import StandardState
from game.view import PlayerView

POLICIES = {"osta": osta_engine, "lrja": lrja_engine, "pa": pa_engine}


def card(c: int) -> str:
    return "wild" if c == LOCO else CARD_NAMES[c]


def as_move(view: PlayerView, action: Action) -> list:
    """Our action as the engine's move: function and arguments."""
    if isinstance(action, Claim):
        conn = view.board.connections[action.connection]
        colour = None if action.colour is None else CARD_NAMES[action.colour].upper()
        return ["claimRoute", [conn.a.upper(), conn.b.upper(), colour]]
    if isinstance(action, DrawFaceUp):
        face = view.face_up[action.slot]
        assert face is not None
        return ["drawTrainCard", card(face)]
    if isinstance(action, DrawDeck):
        return ["drawTrainCard", "top"]
    if isinstance(action, DrawTickets):
        return ["drawDestinationCards", []]
    return [type(action).__name__, None]


def snapshot(view: PlayerView, kind: str, memory: SeatMemory) -> dict:
    """The position for the engine, and our decision in it with a fresh plan."""
    board, p = view.board, view.player
    claimed = memory.claimed + [c for c, o in enumerate(view.owner)
                                if o == p and c not in memory.claimed]
    fresh = SeatMemory(kept=list(memory.kept), claimed=claimed, previous_points=-1)
    ours = POLICIES[kind](view, random.Random(0), fresh)
    graph, named = board_graph(view)
    owners, mine = [], []
    for c, who in enumerate(view.owner):
        if who is not None:
            conn = board.connections[c]
            a, b = named[frozenset((conn.a, conn.b))]
            owners.append([a.upper(), b.upper(), graph.edges_of(a, b).index(c), who])
    for c in claimed:
        conn = board.connections[c]
        a, b = named[frozenset((conn.a, conn.b))]
        mine.append([a.upper(), b.upper()])
    by_id = {t.id: t for t in view.tickets}
    tickets = ([by_id[i] for i in memory.kept if i in by_id]
               + [t for t in view.tickets if t.id not in memory.kept])
    points = board.route_points
    face: Counter[str] = Counter(card(c) for c in view.face_up if c is not None)
    return {"kind": kind, "pnum": p, "owners": owners, "mine": mine,
            "hand": {card(c): view.hand[c] for c in range(LOCO + 1)},
            "tickets": [[t.a.upper(), t.b.upper(), t.points] for t in tickets],
            "trains": list(view.trains),
            "points": [sum(points[board.connections[c].length]
                           for c, o in enumerate(view.owner) if o == q)
                       for q in range(len(view.trains))],
            "face_up": dict(face), "pile": view.pile_size + view.discard_size,
            "ticket_pile": view.ticket_pile_size, "ours": as_move(view, ours)}


def positions(games: int, share: float) -> list[dict]:
    spec = StandardSpec(strategies="engine")
    out = []
    for g in range(games):
        seed, game_spec = 50_000 + g, spec.rotated(g % 4)
        rng, pick = random.Random(seed), random.Random(seed + 1)
        state = StandardState(game_spec.rules(), rng.getrandbits(32))
        seats = seat_policies("engine", game_spec.lineup)
        while not state.is_terminal():
            p = state.current
            view = state.observation(p)
            kind, seat = game_spec.lineup[p], seats[p]
            if (kind in POLICIES and isinstance(seat, EngineSeat) and not view.setup
                    and view.drawn == 0 and not view.offer and view.tunnel is None
                    and pick.random() < share):
                out.append({"seed": seed, **snapshot(view, kind, copy.deepcopy(seat.memory))})
            state.apply(seat(view, rng))
    return out


def same(ours: list, theirs: list | None) -> bool:
    if theirs is None or ours[0] != theirs[0]:
        return False
    if ours[0] == "claimRoute":
        return ({ours[1][0], ours[1][1]} == {theirs[1][0], theirs[1][1]}
                and ours[1][2] in (None, theirs[1][2].upper()))
    if ours[0] == "drawTrainCard":
        return ours[1].lower() == theirs[1].lower()
    return True


def main(argv: list[str]) -> None:
    engine, board_file, python2, libs = argv[1], argv[2], argv[3], argv[4]
    games = int(argv[5]) if len(argv) > 5 else 150
    share = float(argv[6]) if len(argv) > 6 else 0.06
    found = positions(games, share)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "positions.json"
        path.write_text(json.dumps(found))
        oracle = Path(__file__).with_name("engine_decisions.py")
        theirs = json.loads(subprocess.run(
            [python2, str(oracle), engine, str(Path(board_file).resolve()), str(path)],
            check=True, capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": str(Path(libs).resolve())}).stdout)
    tally: Counter[tuple[str, str]] = Counter()
    for s, t in zip(found, theirs, strict=True):
        if same(s["ours"], t):
            why = "same"
        elif t and t[0] == "claimRoute" and any(
                {a, b} == {t[1][0], t[1][1]} and who == s["pnum"] for a, b, _, who in s["owners"]):
            why = "the engine takes the other half of its own double (our rules forbid it)"
        elif s["ours"][0] == t[0] == "drawTrainCard" and s["ours"][1] != "top" != t[1]:
            why = "different face-up draws (seen: no objective, a random draw in both)"
        else:
            why = "different"
            print("different:", s["kind"], s["seed"], s["ours"], t, file=sys.stderr)
        tally[(s["kind"], why)] += 1
    for (kind, why), n in sorted(tally.items()):
        print(f"{kind:5} {n:5}  {why}")


if __name__ == "__main__":
    main(sys.argv)
