"""Issue 27's input findings, each as reported: one validator per kind of field (``game.fields``)
gives the command line and the page the same refusal; sizes are bounded before work starts;
options that were wrong or unchecked are refused in one line (exit code 2, nothing written).
Hypothesis types into every text field of both pages through their widgets: no text reaches
the page as an exception."""

from __future__ import annotations

import contextlib
import html as html_module
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import ipyvuetify as v
import pytest
import solara
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_app_widgets import button, close_pages, render_page, text  # noqa: F401 (autouse)

from app.cli.main import main
from app.web.components.controls import seed_error
from app.web.components.puzzles import PuzzlePage
from boards import BoardError, load_board
from kripke import deal_model, parse

EXAMPLES = int(os.environ.get("TTR_FUZZ_EXAMPLES", "60"))
BOARD = json.loads((Path(__file__).parents[1] / "boards" / "data" / "europe24.json")
                   .read_text(encoding="utf-8"))


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``argv`` is refused with (exit code 2, nothing on stdout, no traceback)."""
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


# ----- one validator per kind of field ---------------------------------------------------------

@pytest.mark.parametrize("typed", ["²", "١٢", "9" * 5000, "1_000", "-1", "7.0", ""])
def test_the_seed_box_refuses_what_play_seed_refuses_in_the_same_words(typed, capsys):
    rc = render_page()
    rc.find(v.TextField, label="Seed").widget.v_model = typed  # "²" once raised in the page
    shown = html_module.unescape(text(rc, "seed-error"))
    assert button(rc, "Reset").disabled
    cli = refused(["play", "--seed", typed], capsys)
    why = cli.split("argument --seed: ", 1)[1].split(" (see ")[0]
    assert f"not a seed: it {why}; type a whole number" in shown  # the same refusal, inline


def test_a_seed_the_cli_takes_the_page_takes():
    from game import fields

    for typed in ("0", " 12 ", str(2**63 - 1)):
        assert seed_error(typed) is None
        assert fields.seed(typed) == int(typed)
    assert seed_error(str(2**63)) is not None


def page_fields(rc) -> list[v.TextField]:
    return list(rc.find(v.TextField).widgets)


#: Text that reaches past the first character of the parsers: formulas' pieces, digits of
#: other scripts, control characters and direction marks, very long numbers.
PIECES = ["K_", "C_", "E_", "D_", "{", "}", "p(", ")", "(", ",", "&", "|", "~", "->", "[!", "]",
          "<!", ">", " ", "0", "1", "2", "12", "9" * 40, "-", "²", "١", "\x00", "\u200f", "T"]
TYPED = st.one_of(st.text(max_size=40),
                  st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
                  # digits of every script and superscripts: str.isdigit takes them all
                  st.text(st.characters(categories=("Nd", "No")), min_size=1, max_size=6))


@pytest.mark.parametrize("page", ["game", "puzzles"])
def test_no_text_typed_into_any_field_of_a_page_raises(page):
    rc = render_page() if page == "game" else solara.render(PuzzlePage(), handle_error=False)[1]
    count = len(page_fields(rc))
    assert count, "the page has text fields"

    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, count - 1), TYPED)
    def type_into(which: int, typed: str) -> None:
        box = page_fields(rc)[which]  # found anew: a re-render may replace a field's widget
        box.v_model = typed  # an exception here is one that would reach the page
        if "keyup.enter" in box._event_handlers_map:  # the formula boxes evaluate on Enter
            box.fire_event("keyup.enter", None)
        markup = " ".join(w.unsafe_innerHTML or "" for w in rc.find(solara.widgets.HTML).widgets)
        assert "Traceback" not in markup

    type_into()
    if page == "puzzles":
        rc.close()


# ----- bounded work ----------------------------------------------------------------------------

def test_a_formula_too_costly_for_the_model_is_refused_before_any_work():
    """Fifteen nested C_{0,1,2,3} ~C_{0,1} over the 4 × 4 deal ran 89 s in 8.6 GB."""
    from kripke import TooMuchWorkError

    hands = [list(range(i, i + 4)) for i in range(0, 16, 4)]
    model = deal_model(list(range(16)), [4] * 4, hands)
    formula = parse("C_{0,1,2,3} ~C_{0,1} " * 15 + "p(0,1)")
    began = time.perf_counter()
    with pytest.raises(TooMuchWorkError, match="too much work over 63,063,000 worlds"):
        model.evaluate(formula)
    with pytest.raises(TooMuchWorkError):
        model.announce(formula)
    assert time.perf_counter() - began < 0.5  # refused, not started
    assert model.holds("C_{0,1,2,3} ~C_{0,1} p(0,1)") in (True, False)  # one level still runs


def test_the_cost_bound_counts_a_shared_sub_formula_as_often_as_it_is_evaluated():
    from kripke.budget import MAX_STEPS, steps

    inner = parse("C_{0,1} p(0,1)")
    shared = inner
    for _ in range(60):  # 2⁶⁰ copies written out; a few nodes in memory
        shared = shared & shared
    assert steps(shared, 90, 2) > MAX_STEPS


def test_check_refuses_a_costly_formula_in_one_line(capsys):
    """700 common-knowledge operators over the 4 × 3 deal (369,600 worlds): about 13 s of work,
    refused before it starts."""
    formula = " & ".join(["C_{0,1,2,3} T"] * 700)
    began = time.perf_counter()
    err = refused(["check", "--players", "4", "--tickets", "3", formula], capsys)
    assert "too much work over 369,600 worlds" in err and "shorter formula" in err
    assert time.perf_counter() - began < 10


@pytest.mark.parametrize(("argv", "message"), [
    (["metrics", "--workers", "100000", "--games", "4"],
     "argument --workers: must be from 0 to 256, got 100,000"),
    (["evolve", "deck", "--workers", "100000"], "argument --workers: must be from 0 to 256"),
    (["metrics", "--games", "100001"], "argument --games: must be from 1 to 100,000, got 100,001"),
    (["balance", "--confirm", "100001"], "argument --confirm: must be from 1 to 100,000"),
    (["puzzle", "consecutive", "--anne", "5", "--bill", "6", "--top", "100000000"],
     "argument --top: must be from 1 to 100, got 100,000,000"),
    (["bench", "game", "--seconds", "1e9999"], "argument --seconds: must be a positive number "
                                               "of seconds, at most 86,400"),
    (["metrics", "--seed", "²"], "argument --seed: must be a whole number"),
])
def test_every_size_option_is_bounded_before_work(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_lab_workers_beyond_the_cores_need_force(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("app.cli.options.cores", lambda: 2)
    monkeypatch.chdir(tmp_path)
    err = refused(["metrics", "--workers", "3", "--games", "2"], capsys)
    assert "--workers 3 is more than this machine's 2 cores" in err and "--force" in err
    assert not list(tmp_path.iterdir())


# ----- correct and checked options --------------------------------------------------------------

def test_max_score_refuses_a_ticket_named_twice(capsys):
    err = refused(["max-score", "--tickets", "1,1,1", "--trains", "10"], capsys)
    assert "--tickets names id 1 more than once" in err


def test_max_score_counts_each_ticket_once(capsys):
    assert main(["max-score", "--tickets", "1", "--trains", "10"]) == 0
    assert ": 19 points" in capsys.readouterr().out


def test_max_score_refuses_a_connection_both_owned_and_taken(capsys):
    err = refused(["max-score", "--owned", "1,2,3", "--taken", "1,2,3"], capsys)
    assert "--owned and --taken both name connection 1" in err


@pytest.mark.parametrize(("name", "magic"), [("x.svg", b"<?xml"), ("x.pdf", b"%PDF"),
                                             ("x.png", b"\x89PNG")])
def test_a_plot_is_written_in_the_format_its_suffix_names(name, magic, tmp_path, capsys):
    out = tmp_path / name
    assert main(["max-score", "--sweep", "1:2", "--plot", str(out)]) == 0
    assert out.read_bytes().startswith(magic)


def test_a_plot_suffix_without_a_format_is_refused(capsys, tmp_path):
    err = refused(["max-score", "--sweep", "1:2", "--plot", str(tmp_path / "x.jpg")], capsys)
    assert "must end in .png, .svg or .pdf" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv", [["play", "--log", ""], ["metrics", "--out", ""],
                                  ["batch", "--csv", " "], ["evolve", "deck", "--out", ""],
                                  ["puzzle", "muddy", "--json", ""]])
def test_an_empty_file_name_is_refused(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "needs a file name" in refused(argv, capsys)
    assert not list(tmp_path.iterdir())  # metrics --out '' wrote "-games.csv"


def test_evolve_refuses_a_tournament_larger_than_the_population(capsys, tmp_path):
    err = refused(["evolve", "deck", "--tournament", "10", "--population", "3", "--workers", "0",
                   "--out", str(tmp_path / "e")], capsys)
    assert "--tournament 10 is more than the --population 3" in err
    assert not list(tmp_path.iterdir())


def checkpoint(tmp_path: Path, capsys) -> tuple[Path, dict]:
    """A real checkpoint of one generation of evolve deck on the tiny board."""
    from positions import tiny_board_dict

    board = tmp_path / "tiny.json"
    board.write_text(json.dumps(tiny_board_dict()), encoding="utf-8")
    argv = ["evolve", "deck", "--board", str(board), "--rules", "simplified", "--agents",
            "baseline,baseline", "--tickets", "1", "--population", "3", "--generations", "1",
            "--games", "1", "--confirm", "0", "--workers", "0", "--no-progress", "--out",
            str(tmp_path / "run")]
    assert main(argv) == 0
    capsys.readouterr()
    path = tmp_path / "run-checkpoint.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_damaged_checkpoints_are_refused_in_one_line(tmp_path, capsys):
    path, doc = checkpoint(tmp_path, capsys)
    argv = ["evolve", "deck", "--board", str(tmp_path / "tiny.json"), "--rules", "simplified",
            "--agents", "baseline,baseline", "--tickets", "1", "--population", "3",
            "--generations", "2", "--games", "1", "--confirm", "0", "--workers", "0",
            "--no-progress", "--out", str(tmp_path / "run"), "--resume"]
    doc["settings"]["generations"] = 2  # resumable with two generations
    genes = len(doc["population"][0])
    damaged = {
        "generation -5": doc | {"next_generation": -5},
        "a short population": doc | {"population": doc["population"][:1]},
        "a bit of 2": doc | {"population": [[2] * genes] * 3},
        "a genome too long": doc | {"best": [0] * (genes + 1)},
        "a bad generator state": doc | {"rng_state": [3, [1, 2], None]},
    }
    for what, bad in damaged.items():
        path.write_text(json.dumps(bad), encoding="utf-8")
        err = refused(argv, capsys)
        assert "is damaged" in err and "start without --resume" in err, what
    path.write_text("[" * 100_000, encoding="utf-8")  # RecursionError before
    assert "nested too deeply" in refused(argv, capsys)


@pytest.mark.parametrize(("twin", "said"), [
    (str.lower, "but for case, spaces or accents"), (str.upper, "but for case, spaces or accents"),
    (lambda name: name + " ", "starts or ends with a space")])
def test_a_board_with_lookalike_city_names_is_refused_at_load(twin, said, tmp_path):
    doc = json.loads(json.dumps(BOARD))
    doc["cities"].append({"name": twin(doc["cities"][0]["name"]), "x": 0.5, "y": 0.5})
    path = tmp_path / "twins.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BoardError, match=said) as info:
        load_board(path)
    assert "\n" not in str(info.value)


def test_city_names_in_two_unicode_forms_are_one_city(tmp_path):
    doc = json.loads(json.dumps(BOARD))
    doc["cities"].append({"name": "Pari\u0301s", "x": 0.5, "y": 0.5})  # París, decomposed
    doc["cities"].append({"name": "Par\u00eds", "x": 0.5, "y": 0.6})  # París, composed
    path = tmp_path / "nfd.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BoardError, match="but for case, spaces or accents"):
        load_board(path)


def test_route_finds_a_city_typed_in_any_case_or_form(capsys):
    assert main(["route", "PARIS", " wien"]) == 0
    assert "Paris to Wien" in capsys.readouterr().out


def test_a_scheduler_that_never_answers_is_refused_in_seconds(monkeypatch):
    """A port that accepts connections and says nothing held Dask's Client over 120 s."""
    import socket

    from lab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.create_server(("127.0.0.1", 0)) as silent:
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        began = time.perf_counter()
        with pytest.raises(ValueError, match="answered as a Dask scheduler within 1 s"):
            with cluster.open_workers(None, address):
                pass
        assert time.perf_counter() - began < 10


def test_a_scheduler_with_no_workers_is_refused():
    from distributed import LocalCluster

    from lab.cluster import open_workers

    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as empty:
        with pytest.raises(ValueError, match=re.escape("has no workers, so no game would run")):
            with open_workers(None, empty.scheduler_address):
                pass


@contextlib.contextmanager
def terminal_ctrl_c() -> Iterator[None]:
    """Ctrl-C as a terminal gives it, for the length of a test: a process started in the
    background by a non-interactive shell (``make test &``) begins with SIGINT ignored, and
    Python then installs no handler of its own."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_while_the_cluster_starts_stops_at_once():
    """The cluster started with Ctrl-C ignored in this process too, so it could not be stopped
    until every worker was up (metrics --workers 100000 grew 5 MB/s and ignored it)."""
    import signal
    import threading

    import psutil

    from lab.cluster import open_workers

    before = {child.pid for child in psutil.Process().children()}  # a browser test's server

    def ctrl_c() -> None:
        """Ctrl-C once the start is under way: its first worker process exists."""
        while not {child.pid for child in psutil.Process().children()} - before:
            time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGINT)

    reached = []
    with terminal_ctrl_c():
        threading.Thread(target=ctrl_c, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            with open_workers(2):
                reached.append(True)  # the games: never reached when the start is interrupted
                time.sleep(30)
        assert not reached, "Ctrl-C waited for the cluster to be up"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # works again


def test_ctrl_c_landing_between_the_signal_changes_puts_both_back(monkeypatch):
    """Python runs a Ctrl-C's handler at the next instruction of the main thread, which can be
    the one right after the cluster start made Ctrl-C ignored: the handler and the signal mask
    must still be put back (they once stayed SIG_IGN and blocked, and Ctrl-C was dead for the
    rest of the process; CI met it when the test above's signal came that early)."""
    import signal

    from lab.cluster import open_workers

    real = signal.signal

    def then_ctrl_c(signum, handler):  # type: ignore[no-untyped-def]
        old = real(signum, handler)
        if handler is signal.SIG_IGN:
            raise KeyboardInterrupt  # as the handler of a Ctrl-C already pending would
        return old

    with terminal_ctrl_c():
        monkeypatch.setattr(signal, "signal", then_ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            with open_workers(2):
                pass
        monkeypatch.undo()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_the_page_shows_the_cost_refusal_inline(monkeypatch):
    """The page's formula box gets the checker's refusal as its error line (the bound lowered
    here, so that a short formula on the page's 90 worlds exceeds it)."""
    monkeypatch.setattr("kripke.budget.MAX_STEPS", 10_000)
    rc = render_page()
    box = next(f for f in page_fields(rc) if f.label.startswith("Formula"))
    box.v_model = "C_{0,1,2} ~C_{0,1} p(1,7)"
    box.fire_event("keyup.enter", None)
    assert "too much work over 90 worlds" in text(rc, "formula-error")
