"""The package as a user installs it (issue 39, item 4): a wheel built from the repository,
installed in a fresh venv outside the checkout, plays, checks a model, tells a puzzle, finds a
best score and serves the page, with only what the wheel carries (its boards, its models).

Cheap on purpose: the wheel is built without build isolation and installed with ``--no-deps``
into a venv that sees the test venv's site-packages through a ``.pth`` line (dependencies, not
our code: a ``.pth`` line adds a folder to the path but runs none of the editable install's
hooks there, and the venv's own site-packages comes first; the dependencies' Jupyter settings,
which Solara reads from ``PREFIX/etc/jupyter``, are the test venv's by a link). Every command
runs from a folder outside the checkout with no ``PYTHONPATH``, and the test first proves that
the packages imported are the installed ones.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from test_doc_examples import free_port

REPO = Path(__file__).resolve().parent.parent
#: What a checkout holds that a build must not see (it would be packaged, or is just big).
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "site", "*.egg-info",
                                    "__pycache__", ".*_cache", ".hypothesis")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with the wheel of this checkout installed."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"  # a copy: building in the checkout would leave build/ behind
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(root / "dist"), str(source)], check=True)
    wheel = next((root / "dist").glob("ttr_kripke-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    own = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    (Path(own) / "test-venv-dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    (venv / "etc").symlink_to(Path(sys.prefix) / "etc")  # read only: Solara writes in share/
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", str(wheel)], check=True)
    return venv / "bin"


def outside(tmp_path: Path) -> dict[str, str]:
    """An environment that names nothing of the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}


def ttr(bin_: Path, tmp_path: Path, *argv: str) -> str:
    done = subprocess.run([bin_ / "ttr-kripke", *argv], cwd=tmp_path, env=outside(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"ttr-kripke {' '.join(argv)}: {done.stderr.strip()}"
    return done.stdout


def test_the_installed_package_is_what_runs(installed: Path, tmp_path: Path):
    code = "import app, boards, kripke; print(app.__file__, boards.__file__, kripke.__file__)"
    done = subprocess.run([installed / "python", "-c", code], cwd=tmp_path,
                          env=outside(tmp_path), capture_output=True, text=True, check=True)
    venv = installed.parent.resolve()
    for path in done.stdout.split():
        assert Path(path).resolve().is_relative_to(venv), path


def test_the_commands_run_from_the_wheel(installed: Path, tmp_path: Path):
    assert "announce" in ttr(installed, tmp_path, "play", "--log", "game.jsonl").lower()
    assert (tmp_path / "game.jsonl").is_file()
    shipped = next(installed.parent.glob("lib/python*/site-packages/kripke/models"))
    out = ttr(installed, tmp_path, "model", str(shipped / "alice-bob.kripke"), "--check",
              "K_alice p & ~K_bob p")
    assert "true" in out.lower()
    assert ttr(installed, tmp_path, "puzzle", "muddy", "--children", "3", "--muddy", "1,2",
               "--html", "muddy.html")
    # the interactive page's template is packaged, and vis-network inlined from pyvis
    assert "new vis.Network(" in (tmp_path / "muddy.html").read_text(encoding="utf-8")
    assert "optimal" in ttr(installed, tmp_path, "max-score", "--board", "europe24",
                            "--trains", "12").lower()


def test_the_page_is_served_from_the_wheel(installed: Path, tmp_path: Path):
    port = free_port()
    log = tmp_path / "server.log"  # a file, not a pipe: a full pipe would stall the server
    with log.open("w") as sink:
        server = subprocess.Popen([installed / "ttr-kripke", "app", "--port", str(port)],
                                  cwd=tmp_path, env=outside(tmp_path), stdout=sink, stderr=sink)
    try:
        deadline, page = time.monotonic() + 180, ""
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                time.sleep(1)
        assert "solara" in page.lower(), log.read_text()[-3000:]
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    finally:
        server.terminate()
        server.wait(timeout=60)
