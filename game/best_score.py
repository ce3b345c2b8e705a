"""The best score a player can still reach in a game in progress (the max-score optimiser of
``maxscore`` applied to the player's view of the board)."""

from __future__ import annotations

from game.table import TableState
from maxscore import MaxScoreResult, max_score


def best_remaining(state: TableState, player: int, *,
                   time_limit: float | None = None) -> MaxScoreResult:
    """The highest final score ``player`` can reach with its remaining trains: its own
    connections cost nothing, connections it may still claim are open, everyone else's are
    closed; its own tickets count plus when finished and minus when not. Cards are ignored: it
    is the bound a perfect draw would reach. The halves of a double are merged: one player may
    never own both."""
    usable = [c.id for c in state.board.connections
              if state.owner[c.id] is None and state.claimable(player, c) is None
              or state.owner[c.id] == player]
    owned = [c.id for c in state.board.connections if state.owner[c.id] == player]
    return max_score(state.board, state.trains[player], tickets=state.tickets[player],
                     usable=usable, owned=owned, penalise_unfinished=True,
                     merge_doubles=True, time_limit=time_limit)
