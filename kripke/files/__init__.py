"""Models and events in files: the hand-written text formats, their one reader, JSON and TikZ,
networkx export."""
