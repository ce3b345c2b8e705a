"""The authors' engine's decision for each position of a JSON file written by
``compare_decisions.py``: One Step, Path or the Long Route Junkie to move at the start of a
turn, freshly made (One Step and the Long Route Junkie plan at once), on the position our
engine source was in. Python 2.7 with networkx 2.2, run outside the project; nothing of the
engine is copied here.

    PYTHONPATH=py2libs python2.7 engine_decisions.py ENGINE_CHECKOUT MAP POSITIONS > decisions.json

MAP is the engine's USA map file, or a copy with Salt Lake City-San Francisco at the published
5 trains (the engine's file says 4; ours keeps 5), so that both play the same board.
"""

import json
import random
import sys

from run_engine import load_engine  # beside this script


def position(ttr, decks, maps, board_file, s):
    """The engine's game at one of our positions: owners, the mover's hand, tickets in the
    order it kept them and its own connections in the order it claimed them, every player's
    trains and connection points, the face-up row, and whether the piles can be drawn."""
    board = ttr.Board(maps.loadgraphfromfile(board_file))
    deck = decks.destinationdeckdict(
        dest_list=decks.loaddestinationdeckfromfile("gameContent/usa_destinations.txt"),
        board="usa")
    players = [ttr.Player(hand=ttr.emptyCardDict(), number_of_trains=45, points=0)
               for _ in range(4)]
    game = ttr.Game(board=board, point_table=ttr.point_table(), destination_deck=deck,
                    train_deck=ttr.make_train_deck(number_of_color_cards=12,
                                                   number_of_wildcards=14),
                    players=players, current_player=s["pnum"],
                    variants=[3, 2, 3, 1, True, False, False, False, False, False, 4, 5, 2,
                              3, 2, 10, 15, 2, False])
    graph = game.board.graph
    for a, b, key, who in s["owners"]:
        graph[a][b][key]["owner"] = who
        if who != s["pnum"]:
            game.players[who].graph.add_edge(a, b, weight=graph[a][b][key]["weight"])
    me = game.players[s["pnum"]]
    for a, b in s["mine"]:  # claim order: the order of the player's own graph
        key = [k for k in graph[a][b] if graph[a][b][k]["owner"] == s["pnum"]][0]
        me.graph.add_edge(a, b, weight=graph[a][b][key]["weight"])
    for q in range(4):
        game.players[q].number_of_trains = s["trains"][q]
        game.players[q].points = s["points"][q]
    for colour, count in s["hand"].items():
        me.hand[colour] = count
    me.hand["destination"] = []
    me.hand_destination_cards = [decks.DestinationCard(a, b, p) for a, b, p in s["tickets"]]
    for colour in list(game.train_cards_face_up):
        game.train_cards_face_up[colour] = s["face_up"].get(colour, 0)
    if not s["pile"]:  # the engine reshuffles the discards as soon as its pile is empty
        for colour in game.train_deck.deck:
            game.train_deck.deck[colour] = 0
    if not s["ticket_pile"]:
        for card in game.destination_deck.deck:
            game.destination_deck.deck[card] = 0
    return game


def main(argv):
    engine, board_file, positions = argv[1], argv[2], argv[3]
    ttr, kinds = load_engine(engine)
    import loadDestinationDeck as decks
    import loadMap as maps

    agents = dict(kinds)
    out = []
    for s in json.load(open(positions)):
        random.seed(0)
        game = position(ttr, decks, maps, board_file, s)
        move = agents[s["kind"]]().decide(game, s["pnum"])
        out.append(None if move is None else [move.function, move.args])
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
