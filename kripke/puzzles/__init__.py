"""The classic puzzles as library modules, and the gallery's stories told with them."""
