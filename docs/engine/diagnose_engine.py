"""Play the authors' Ticket to Ride engine (Silva et al. 2017) as ``run_engine.py`` does and
print, per game, what each player made of it: route points, ticket points, the longest-route
bonus, tickets kept and finished, ticket draws, turns and trains left, and whether the game
ended or stopped unscored. Compared with the columns of ``ttr-kripke batch --rules standard
--strategies engine --csv``, these say *where* two engines differ when their win ratios do
(README, "The authors' engine as a second source of the agents").

Python 2.7, run *outside* the project against a checkout of the engine, with networkx 2.2;
nothing of the engine is copied here:

    PYTHONPATH=py2libs python2.7 diagnose_engine.py ENGINE_CHECKOUT GAMES [FIRST_SEED] > d.jsonl

It sets the engine up and deals as ``run_engine.py`` does (its ``load_engine`` and
``dealt_game``).
"""

import json
import random
import sys

from run_engine import dealt_game, load_engine  # beside this script


def instrument(game):
    """Count turns and ticket draws, and keep the route points before the final scoring, by
    wrapping three of the game's methods (no decision of the engine changes)."""
    seen = {"turns": [0] * len(game.players), "draws": [0] * len(game.players),
            "route": [None] * len(game.players)}
    next_turn, draw_tickets, score = (game.next_players_turn, game.drawDestinationCards,
                                      game.calculatePoints)

    def counted_turn():
        seen["turns"][game.current_player] += 1
        next_turn()

    def counted_draw():
        seen["draws"][game.current_player] += 1
        return draw_tickets()

    def scored():
        seen["route"] = [p.points for p in game.players]
        score()

    game.next_players_turn = counted_turn
    game.drawDestinationCards = counted_draw
    game.calculatePoints = scored
    return seen


def main(argv):
    engine, games = argv[1], int(argv[2])
    first = int(argv[3]) if len(argv) > 3 else 0
    ttr, kinds = load_engine(engine)
    import networkx as nx

    for i in range(games):
        seed = first + i
        random.seed(seed)
        seats = kinds[i % 4:] + kinds[:i % 4]
        game = dealt_game(ttr, seats)
        seen = instrument(game)
        handler = ttr.GameHandler(game=game, agents=[cls() for _, cls in seats],
                                  filename="unused")
        handler.play(runnum=i, save=False)
        rows = []
        for k, p in enumerate(handler.game.players):
            kept = p.hand_destination_cards
            finished = ticket_points = 0
            for card in kept:
                a, b = card.destinations
                done = a in p.graph and b in p.graph and nx.has_path(p.graph, a, b)
                finished += done
                ticket_points += card.points if done else -card.points
            route = seen["route"][k]
            rows.append({"kind": seats[k][0], "score": p.points, "route": route,
                         "tickets": ticket_points,
                         "longest": None if route is None else p.points - route - ticket_points,
                         "kept": len(kept), "finished": finished,
                         "draws": seen["draws"][k], "turns": seen["turns"][k],
                         "trains": p.number_of_trains})
        print(json.dumps({"seed": seed, "over": handler.game.game_over,
                          "winners": handler.game.winner(), "players": rows}))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
