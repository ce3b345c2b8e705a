"""Boards: cities, connections and tickets, their file format, loader and tools."""

from boards.board import CARD_INKS, COLOURS, GREY, Board, City, Connection, Ticket
from boards.loader import BoardError, builtin_boards, load_board, parse_board

__all__ = ["CARD_INKS", "COLOURS", "GREY", "Board", "BoardError", "City", "Connection", "Ticket",
           "builtin_boards", "load_board", "parse_board"]
