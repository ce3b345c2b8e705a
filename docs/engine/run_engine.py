"""Play the authors' Ticket to Ride engine (Silva et al. 2017) with its four agents and print
their win ratios, for comparison with ``ttr-kripke batch --rules standard`` (README,
"Standard rules and the four strategy agents").

This is a Python 2.7 script run *outside* the project, against a checkout of the engine
(github fernandomsilva/Ticket-to-Ride-Engine) and networkx 2.2; nothing of the engine is copied
here. It sets the engine up as its own ``example.py`` does (USA map and destinations, 45 trains,
the USA 1910 variant list with the longest route) and then deals (``Game.setup``, which
``example.py`` omits), one agent of each kind, and moves every agent one seat on per game, as
``--rotate-seats`` does. Game ``i`` seeds Python's ``random``
with ``i``. That does not make a game repeatable from one process to the next: the engine's
ticket pile is a dict keyed by card objects, which Python 2 orders by their memory addresses,
so the same seed can deal other tickets in another run. The win ratios over many games are
what compares. A tie shares the win.

    pip2 install --target py2libs networkx==2.2
    PYTHONPATH=py2libs python2.7 run_engine.py ENGINE_CHECKOUT GAMES [FIRST_SEED] > games.jsonl

prints one JSON line per game (seed, seats, points, winners) and, on stderr, the table.
"""

import json
import os
import random
import sys
import time


def load_engine(engine):
    """The engine's modules and its four agents, in seat order (osta, pa, lrja, ha), with
    this process in the engine's folder (it reads gameContent/ relative to it)."""
    sys.path.insert(0, os.path.join(engine, "scripts"))
    os.chdir(engine)
    import ttrengine as ttr
    from hungryAgent import HungryAgent
    from longRouteJunkieAgent import LongRouteJunkieAgent
    from oneStepThinkerAgent import OneStepThinkerAgent
    from pathAgent import PathAgent

    return ttr, [("osta", OneStepThinkerAgent), ("pa", PathAgent),
                 ("lrja", LongRouteJunkieAgent), ("ha", HungryAgent)]


def dealt_game(ttr, seats):
    """A USA game of the engine for ``seats``, set up as its example.py does, then dealt."""
    import loadDestinationDeck as decks
    import loadMap as maps

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
    # deal the opening hands and tickets, face-up row and first player: the engine's
    # example.py leaves this out, and without it nobody holds a card or a ticket at the
    # start (Path and the Long Route Junkie, who never draw tickets, then play with none)
    game.setup()
    return game


def main(argv):
    engine, games = argv[1], int(argv[2])
    first = int(argv[3]) if len(argv) > 3 else 0
    ttr, kinds = load_engine(engine)
    wins = dict((name, 0.0) for name, _ in kinds)
    start = time.time()
    for i in range(games):
        seed = first + i
        random.seed(seed)
        seats = kinds[i % 4:] + kinds[:i % 4]
        game = dealt_game(ttr, seats)
        handler = ttr.GameHandler(game=game, agents=[cls() for _, cls in seats],
                                  filename="unused")
        handler.play(runnum=i, save=False)
        winners = handler.game.winner()
        for w in winners:
            wins[seats[w][0]] += 1.0 / len(winners)
        print(json.dumps({"seed": seed, "seats": [name for name, _ in seats],
                          "points": [p.points for p in handler.game.players],
                          "winners": winners}))
        sys.stdout.flush()
    seconds = time.time() - start
    sys.stderr.write("{:d} games in {:.0f} s ({:.2f} games/s)\n".format(
        games, seconds, games / seconds))
    for name, _ in kinds:
        sys.stderr.write("{:<5} {:.4f}\n".format(name, wins[name] / games))


if __name__ == "__main__":
    main(sys.argv)
