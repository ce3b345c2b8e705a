"""The max-score optimiser: the best score a budget of trains can buy on a board, proven optimal.

A package of its own that knows boards and nothing else (no game, no players, no cards):
``network`` reduces a board to what a budget can buy, ``formulation`` states the MIPs for HiGHS,
``cuts`` adds what shortest distances rule out, ``heuristic`` finds a warm start, ``solve`` proves
the optimum and ``sweep`` runs a range of budgets. A position in a game is a budget with some
connections owned and others closed (``max_score``'s ``usable`` and ``owned``; ``ttr-kripke
max-score --tickets/--owned/--taken``).
"""

from maxscore.formulation import Options
from maxscore.solve import MaxScoreResult, max_score
from maxscore.sweep import TicketLoss, frequencies, sweep, ticket_sensitivity

__all__ = ["MaxScoreResult", "Options", "TicketLoss", "frequencies", "max_score", "sweep",
           "ticket_sensitivity"]
