"""Tools that make the shipped board files from the published map data (run by hand, never
imported by the game): ``python -m boards.tools.make_boards DATA_DIR``."""
