"""Boards: cities, connections and tickets, their file format, loader and tools."""

from boards.loader import BoardError, builtin_boards, load_board, parse_board
from boards.model import COLOURS, GREY, Board, City, Connection, Ticket

__all__ = ["COLOURS", "GREY", "Board", "BoardError", "City", "Connection", "Ticket",
           "builtin_boards", "load_board", "parse_board"]
