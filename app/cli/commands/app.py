"""``ttr-kripke app``: start the browser demo (a Solara server) on this machine.

The command becomes the server: it checks the options, then replaces itself (``exec``) with
``solara run app.web.app:page``, the game options in its environment (see
``app.web.components.session``), so Ctrl-C or SIGTERM reaches the server itself and no orphaned
server outlives the command.

Everything the page needs is served locally: the Solara assets come from the installed
``solara-assets`` through Solara's asset proxy, whose upstream CDN is pointed at a closed local
port so that a missing asset fails loudly instead of being fetched from the internet; Solara's
telemetry and version check are switched off.

The server runs no stranger's code and leaves no state about: it starts with ``python -P``
(the directory it is started in is not put on the import path, so a ``boards/`` folder there is
not imported) in a folder of its own under the XDG cache directory, where Solara, IPython and
matplotlib keep their state (and where Solara reads its ``.env``) instead of ``$HOME`` and the
current directory. A closed tab's session is freed after ``CULL`` (Solara's default keeps it a
day: 13 MB each).
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import NoReturn

from app.cli.main import UsageError
from app.cli.options import add_game_options, whole
from app.web.components.session import Defaults, new_model

#: The folder holding the ``app`` package this command was imported from.
CODE = Path(__file__).resolve().parents[3]

NAME = "app"
HELP = "start the browser demo: board and possible worlds side by side (Ctrl-C stops it)"

#: Solara settings that keep every request on this machine.
OFFLINE = {
    "SOLARA_ASSETS_PROXY": "true",
    "SOLARA_ASSETS_CDN": "http://127.0.0.1:9/",  # discard port: nothing listens
    "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "false",
    # Solara's documented setting for its "This website runs on Solara" banner, which
    # otherwise covers the bottom right of the page (the knowledge table at 1280 × 800)
    "SOLARA_THEME_SHOW_BANNER": "false",
}
#: numpy's documented switch for its transparent-huge-page advice on big arrays. Each turn of a
#: 4 × 4 game allocates about 750 MB afresh; with the advice, the kernel compacts memory for
#: huge pages on every first touch (measured on the project's 2-core machine: building the
#: deal 1.6 s → 4.4 s and the first announcement 1.8 s → 5.4 s, nearly all of it system time).
NUMPY_ENV = {"NUMPY_MADVISE_HUGEPAGE": "0"}
#: The one warning the server is told to keep to itself, exactly (message, category, module).
#: Solara serves each page with a session cookie; over plain http from a host other than
#: ``localhost`` it falls back from samesite=none (which it wants so the page can be embedded in
#: another site's iframe) to samesite=lax, and warns so on the first page load. Lax is right for
#: a page served to this machine and never embedded, and Solara has no setting that says so.
COOKIE_WARNING = ("ignore:Cookies with samesite=none require https:UserWarning:"
                  "solara.server.starlette")
#: How long a closed tab's session is kept (a reload within it reconnects to the same game).
CULL = "2m"


def state_dir() -> Path:
    """The server's own folder for Solara's, IPython's and matplotlib's state."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "ttr-kripke" / "server"


def check_host(host: str) -> bool:
    """Whether ``host`` is this machine only; ``ValueError`` if it names no address here."""
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (socket.gaierror, UnicodeError):
        raise ValueError(f"--host {host!r} is not an address of this machine; give 127.0.0.1 "
                         "(the default) or another of its addresses") from None
    return all(ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses)


def check_port(host: str, port: int) -> None:
    """Refuse a port the server could not listen on, before it starts: Solara's server (uvicorn)
    would find out only after loading the app, log the bind error and exit 3."""
    for family, _, _, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        error = _bind_error(family, address)
        if error is None:
            continue
        if error.errno == errno.EADDRINUSE:
            free = next((p for p in range(port + 1, min(port + 100, 65536))
                         if _bind_error(family, (address[0], p, *address[2:])) is None), None)
            raise UsageError(f"port {port} on {host} is in use (another ttr-kripke app?); stop "
                             "that server or give another port"
                             + (f", e.g. --port {free}" if free else ""))
        raise UsageError(f"cannot listen on {host} port {port} ({error.strerror}); give "
                         "another port, e.g. --port 8765")


def _bind_error(family: socket.AddressFamily, address: tuple) -> OSError | None:
    """Why a server could not listen at ``address``, or None. Bound as uvicorn binds
    (``SO_REUSEADDR``: a port a stopped server left in TIME_WAIT is free)."""
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as e:
            return e
    return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=whole(1, 65535), default=8765,
                        help="port, 1 to 65535 (default 8765)")
    add_game_options(parser, backend=False)


def defaults_from(args: argparse.Namespace) -> Defaults:
    board = args.board
    if board.endswith(".json") or Path(board).exists():
        board = str(Path(board).resolve())  # the server may resolve paths elsewhere
    return Defaults(board=board, players=args.players, tickets=args.tickets, agents=args.agents,
                    seed=args.seed, trains=args.trains)


def server_command(args: argparse.Namespace, defaults: Defaults) -> tuple[list[str], dict]:
    """The server's command line and environment."""
    argv = [sys.executable, "-P", "-W", COOKIE_WARNING, "-m", "solara", "run", "app.web.app",
            "--host", args.host, "--port", str(args.port), "--no-open", "--no-check-version",
            "--production"]
    state = state_dir()
    own = {"SOLARA_HOME": str(state / "solara"), "IPYTHONDIR": str(state / "ipython"),
           "MPLCONFIGDIR": str(state / "matplotlib"),
           "SOLARA_KERNEL_CULL_TIMEOUT": os.environ.get("SOLARA_KERNEL_CULL_TIMEOUT", CULL)}
    env = {**os.environ, **OFFLINE, **NUMPY_ENV, **own, **defaults.environ()}
    # nothing from the caller's import path either, but the code this command runs: from a
    # checkout (PYTHONPATH=checkout) the server must serve that checkout's pages, not those of
    # whatever copy is installed
    env["PYTHONPATH"] = str(CODE)
    return argv, env


def run(args: argparse.Namespace) -> NoReturn:
    defaults = defaults_from(args)
    # bad options fail here, as one line, not in the browser; kinds as strict as elsewhere
    new_model(defaults, repeat_kinds=False)
    loopback = check_host(args.host)
    check_port(args.host, args.port)
    argv, env = server_command(args, defaults)
    for folder in ("SOLARA_HOME", "IPYTHONDIR", "MPLCONFIGDIR"):
        Path(env[folder]).mkdir(parents=True, exist_ok=True)
    if not loopback:
        print(f"ttr-kripke app: warning: --host {args.host} serves the page to other machines, "
              "and it has no authentication: anyone who can reach the port can use it",
              file=sys.stderr, flush=True)
    print(f"ttr-kripke app: http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    os.chdir(state_dir())  # not the caller's folder: Solara reads a .env file from there
    os.execve(argv[0], argv, env)
