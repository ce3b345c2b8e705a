"""One module per ``ttr-kripke`` subcommand (see ``app.cli``)."""
