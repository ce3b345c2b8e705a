"""The ``ttr-kripke`` command line: ``main`` parses, ``commands/`` holds one module per command,
the rest is what several commands share (options, checks, batch runs, the table printer).
Importing it never imports Solara: ``ttr-kripke app`` starts the web app (``app.web``) as a
server process of its own."""
