"""Play the authors' Ticket to Ride engine (Silva et al. 2017) as ``run_engine.py`` does and
print, per game, what each player made of it: route points, ticket points, the longest-route
bonus, tickets kept and finished, ticket draws, turns and trains left, and whether the game
ended or stopped unscored. Compared with the columns of ``ttr-kripke batch --rules standard
--strategies engine --csv``, these say *where* two engines differ when their win ratios do
(README, "The authors' engine as a second source of the agents").

Python 2.7, run *outside* the project against a checkout of the engine, with networkx 2.2;
nothing of the engine is copied here:

    PYTHONPATH=py2libs python2.7 diagnose_engine.py ENGINE_CHECKOUT GAMES [FIRST_SEED] > d.jsonl
"""

import json
import os
import random
import sys


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
    sys.path.insert(0, os.path.join(engine, "scripts"))
    os.chdir(engine)  # the engine reads gameContent/ relative to its folder
    import loadDestinationDeck as decks
    import loadMap as maps
    import networkx as nx
    import ttrengine as ttr
    from hungryAgent import HungryAgent
    from longRouteJunkieAgent import LongRouteJunkieAgent
    from oneStepThinkerAgent import OneStepThinkerAgent
    from pathAgent import PathAgent

    kinds = [("osta", OneStepThinkerAgent), ("pa", PathAgent), ("lrja", LongRouteJunkieAgent),
             ("ha", HungryAgent)]
    for i in range(games):
        seed = first + i
        random.seed(seed)
        seats = kinds[i % 4:] + kinds[:i % 4]
        board = ttr.Board(maps.loadgraphfromfile("gameContent/usa.txt"))
        deck = decks.destinationdeckdict(
            dest_list=decks.loaddestinationdeckfromfile("gameContent/usa_destinations.txt"),
            board="usa")
        players = [ttr.Player(hand=ttr.emptyCardDict(), number_of_trains=45, points=0)
                   for _ in seats]
        game = ttr.Game(board=board, point_table=ttr.point_table(), destination_deck=deck,
                        train_deck=ttr.make_train_deck(number_of_color_cards=12,
                                                       number_of_wildcards=14),
                        players=players, current_player=0,
                        variants=[3, 2, 3, 1, True, False, False, False, False, False, 4, 5, 2,
                                  3, 2, 10, 15, 2, False])
        game.setup()
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
