"""``python -m app.cli``: the command line as the ``ttr-kripke`` script runs it."""

import _signal  # built in, so Ctrl-C is held from the first line: main() delivers it quietly

_signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT})

import sys  # noqa: E402  (after the mask: a Ctrl-C during these imports waits for main())

from app.cli.main import main  # noqa: E402

sys.exit(main())
