"""``python -m app.cli``: the command line as the ``ttr-kripke`` script runs it."""

import sys

from app.cli.main import main

sys.exit(main())
