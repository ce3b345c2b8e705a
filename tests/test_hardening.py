"""The issue's hostile inputs, each exactly as reported: one line naming the problem and the fix,
exit code 2, no traceback, and no work started (nothing printed, no file touched) — or, where
the input is fine, the data kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.cli.main import main


def fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line ``argv`` gets; asserts exit code 2 and that no game was played."""
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", "work started before the input was checked"
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--players", "1180591620717411303424"],
     "argument --players: must be 2 to 5, got 1,180,591,620,717,411,303,424"),
    (["play", "--players", "100000000"], "argument --players: must be 2 to 5"),
    (["play", "--players", "-1"], "argument --players: must be 2 to 5, got -1"),
    (["play", "--players", "١"], "argument --players: must be a whole number 2 to 5, got '١'"),
    (["play", "--seed", "-1"], "argument --seed: must be from 0 to"),
    (["play", "--seed", "9" * 5000], "argument --seed: must be a whole number from 0 to "
                                     "9,223,372,036,854,775,807, got a 5,000-digit number"),
    (["play", "--tickets", "0"], "argument --tickets: must be from 1 to 99, got 0"),
    (["play", "--trains", "1000000000"], "argument --trains: must be from 1 to 999"),
])
def test_cli_numbers_are_checked_and_named(argv, message, capsys):
    assert message in fails(argv, capsys)


def test_help_gives_the_player_range_that_runs(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "2 to 5" in capsys.readouterr().out
    assert main(["play", "--quiet", "--players", "5", "--seed", "1"]) == 0


@pytest.mark.parametrize(("where", "message"), [
    ("missing/game.jsonl", "does not exist; create it or choose another --log"),
    (".", "is a folder; give --log a file name inside it"),
    ("/proc/version", "/proc/version exists; choose another --log or add --overwrite"),
])
def test_play_log_path_refused_before_the_game(where, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in fails(["play", "--quiet", "--log", where], capsys)


def test_play_log_into_proc_is_refused_even_with_overwrite(capsys):
    assert "cannot write in /proc" in fails(
        ["play", "--quiet", "--log", "/proc/version", "--overwrite"], capsys)


def test_play_log_keeps_an_existing_log_unless_overwrite(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text("my notes\n")
    assert "exists; choose another --log or add --overwrite" in fails(
        ["play", "--quiet", "--log", str(log)], capsys)
    assert log.read_text() == "my notes\n"
    assert main(["play", "--quiet", "--log", str(log), "--overwrite"]) == 0
    assert log.read_text().startswith('{"format": "ttr-kripke-log"')
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left


@pytest.mark.parametrize(("argv", "message"), [
    (["batch", "--games", "1000000000"], "argument --games: must be from 1 to 100,000"),
    (["batch", "--workers", "2147483648"], "argument --workers: must be from 0 to 256"),
    (["batch", "--workers", "100000"], "argument --workers: must be from 0 to 256"),
    (["batch", "--csv", "missing/games.csv"],
     "folder missing does not exist; create it or choose another --csv"),
    (["batch", "--csv", "."], ". is a folder; give --csv a file name inside it"),
    (["batch", "--plot", "missing/plot.png"],
     "folder missing does not exist; create it or choose another --plot"),
    (["max-score", "--trains", "1000000000"],
     "--trains 1,000,000,000 is more than the 309 trains of all of usa's connections; "
     "give at most 309"),
    (["max-score", "--trains", str(2**70)], "argument --trains: must be from 0 to"),
    (["max-score", "--sweep", "1:1000000000"], "--sweep 1,000,000,000 is more than the 309"),
    (["max-score", "--sweep", "²:3"], "--sweep wants A:B with whole numbers, e.g. 1:50"),
    (["max-score", "--sweep", "1:3", "--plot", "missing/curve.png"],
     "folder missing does not exist; create it or choose another --plot"),
    (["max-score", "--time-limit", "nan"], "argument --time-limit: must be a positive number"),
])
def test_batch_and_max_score_inputs_refused_before_work(argv, message, tmp_path, capsys,
                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in fails(argv, capsys)
    assert list(tmp_path.iterdir()) == []


def test_more_workers_than_cores_needs_force(capsys, monkeypatch):
    monkeypatch.setattr("app.cli.options.cores", lambda: 2)
    assert "--workers 3 is more than this machine's 2 cores; give --workers 2 or less, or add " \
           "--force" in fails(["batch", "--workers", "3"], capsys)


def test_a_failing_overwrite_keeps_the_old_csv(tmp_path, capsys):
    """The reported loss: a start that fails (here --workers 2147483648) after --overwrite
    left the old 140-row CSV with its header only."""
    old = tmp_path / "games.csv"
    old.write_text("seed,turns\n" + "".join(f"{i},30\n" for i in range(140)))
    before = old.read_bytes()
    fails(["batch", "--csv", str(old), "--overwrite", "--workers", "2147483648"], capsys)
    assert old.read_bytes() == before


def test_atomic_output_replaces_only_a_whole_file_and_keeps_rows_on_ctrl_c(tmp_path):
    from game.files import atomic_output

    out = tmp_path / "rows.csv"
    out.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_output(out) as f:
        f.write("new, half")
        raise RuntimeError("the run failed")
    assert out.read_text() == "old\n"
    with pytest.raises(KeyboardInterrupt), atomic_output(out, keep_on_interrupt=True) as f:
        f.write("row 1\nrow 2\n")
        raise KeyboardInterrupt
    assert out.read_text() == "row 1\nrow 2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.csv"]


@pytest.mark.parametrize(("argv", "message"), [
    (["app", "--port", "-1"], "argument --port: must be from 1 to 65,535, got -1"),
    (["app", "--host", "999.1.1.1"], "--host '999.1.1.1' is not an address of this machine"),
])
def test_app_options_refused_before_the_server_starts(argv, message, capsys, monkeypatch):
    monkeypatch.setattr("os.execve", pytest.fail)
    assert message in fails(argv, capsys)


def free_port() -> str:
    """A port nothing listens on: the command refuses one in use before the server starts."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


class Exec(Exception):
    """Stands in for the server: ``os.execve`` would replace the test process."""


def start_app(argv: list[str], monkeypatch: pytest.MonkeyPatch, cache) -> tuple[list, dict]:
    started: dict = {}

    def execve(path, argv, env):
        started.update(argv=argv, env=env, cwd=os.getcwd())
        raise Exec

    monkeypatch.chdir(os.getcwd())  # the command moves into its state folder: come back after
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr("os.execve", execve)
    with pytest.raises(Exec):
        main(["app", *argv])
    return started["argv"], started


def test_app_on_another_host_warns_that_the_page_has_no_authentication(
        capsys, monkeypatch, tmp_path):
    start_app(["--host", "0.0.0.0", "--port", free_port()], monkeypatch, tmp_path)
    err = capsys.readouterr().err
    assert "warning: --host 0.0.0.0 serves the page to other machines, and it has no " \
           "authentication" in err
    start_app(["--port", free_port()], monkeypatch, tmp_path)
    assert "warning" not in capsys.readouterr().err


def test_app_server_imports_nothing_from_here_and_keeps_its_state_in_the_cache(
        monkeypatch, tmp_path):
    here = tmp_path / "here"
    (here / "boards").mkdir(parents=True)
    monkeypatch.chdir(here)
    argv, started = start_app(["--port", free_port()], monkeypatch, tmp_path / "cache")
    assert argv[1] == "-P"  # the start folder is not on sys.path
    assert argv[argv.index("-m") + 1] == "solara"
    server = tmp_path / "cache" / "ttr-kripke" / "server"
    assert started["cwd"] == str(server)
    env = started["env"]
    assert env["PYTHONPATH"] == str(Path(__file__).resolve().parents[1])  # this code, no other
    for name in ("SOLARA_HOME", "IPYTHONDIR", "MPLCONFIGDIR"):
        assert Path(env[name]).parent == server and Path(env[name]).is_dir()
    assert env["SOLARA_KERNEL_CULL_TIMEOUT"] == "2m"  # Solara's default keeps a closed tab a day


def board_doc(**changes) -> dict:
    """The shipped europe24 board as a document, with ``changes`` at the top level."""
    import json

    doc = json.loads((Path(__file__).parents[1] / "boards" / "data" / "europe24.json")
                     .read_text(encoding="utf-8"))
    return {**doc, **changes}


def board_fails(tmp_path, content: str | bytes, capsys) -> str:
    path = tmp_path / "board.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    err = fails(["play", "--quiet", "--board", str(path)], capsys)
    assert str(path) in err
    return err


def dumped(doc: dict) -> str:
    import json

    return json.dumps(doc, ensure_ascii=False)


def test_board_nested_a_hundred_thousand_deep(tmp_path, capsys):
    assert "document: nested too deeply to be a board" in board_fails(
        tmp_path, "[" * 100_000, capsys)


def test_board_in_latin_1_names_the_file(tmp_path, capsys):
    text = dumped(board_doc(title="Zürich")).encode("latin-1")
    assert "not UTF-8 text; save the file as UTF-8" in board_fails(tmp_path, text, capsys)


def test_board_with_a_5000_digit_length(tmp_path, capsys):
    text = dumped(board_doc()).replace('"length": 2', '"length": ' + "9" * 5000, 1)
    assert "a number of thousands of digits" in board_fails(tmp_path, text, capsys)


@pytest.mark.parametrize("key", ["²", "١"])
def test_board_route_points_keys_must_be_ascii_digits(key, tmp_path, capsys):
    points = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, key: 99}
    err = board_fails(tmp_path, dumped(board_doc(route_points=points)), capsys)
    assert f"route_points[{key!r}]: lengths must be whole numbers from 1 to 8 in ASCII digits" \
        in err


def test_board_version_must_be_the_integer_1(tmp_path, capsys):
    assert "version: unsupported version 1.0" in board_fails(
        tmp_path, dumped(board_doc(version=1.0)), capsys)


def test_board_split_in_two_halves_gets_a_short_message(tmp_path, capsys):
    def half(side: str) -> tuple[list, list]:
        cities = [{"name": f"{side}{i}", "x": 0.5, "y": 0.5} for i in range(400)]
        links = [{"a": f"{side}{i}", "b": f"{side}{i + 1}", "length": 1, "colour": "red"}
                 for i in range(399)]
        return cities, links

    (ca, la), (cb, lb) = half("A"), half("B")
    doc = board_doc(cities=ca + cb, connections=la + lb, route_points=None,
                    tickets=[{"a": "A0", "b": "A5", "points": 3}])
    doc.pop("route_points")
    err = board_fails(tmp_path, dumped(doc), capsys)
    assert "the board is disconnected" in err and "and 395 more" in err
    assert len(err) < 400


def test_board_of_a_million_cities_is_refused_before_it_is_read(tmp_path, capsys):
    cities = [{"name": f"c{i}", "x": 0.5, "y": 0.5} for i in range(1_000_000)]
    assert "is too big for a board file (at most 2,000,000)" in board_fails(
        tmp_path, dumped(board_doc(cities=cities)), capsys)
    assert "5,000 cities; a board holds at most 1,000" in board_fails(
        tmp_path, dumped(board_doc(cities=cities[:5000])), capsys)


@pytest.mark.parametrize("name", ["Par\x00is", "Paris\u200f"])
def test_board_city_names_with_nul_or_direction_marks(name, tmp_path, capsys):
    doc = board_doc()
    doc["cities"][0]["name"] = name
    err = board_fails(tmp_path, dumped(doc), capsys)
    assert "a city name must be printable text" in err
    assert err[:-1].isprintable()  # escaped as \x00 and \u200f


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", "--quiet", "--agents", "epistemic", "--seed", "3", "--log",
                 str(path)]) == 0
    return path.read_text().splitlines()


def replay_fails(tmp_path, lines: list[str]) -> str:
    from agents.log import replay

    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as error:
        replay(path)
    assert str(path) in str(error.value)
    return str(error.value)


def test_log_event_without_a_key(game_log, tmp_path):
    import json

    event = json.loads(game_log[3])
    del event["action"]
    assert "line 4: the event lacks action" in replay_fails(
        tmp_path, [*game_log[:3], json.dumps(event), *game_log[4:]])


@pytest.mark.parametrize(("line", "message"), [
    ("[1, 2]", "line 3: a log line must be a JSON object, not list"),
    ("[" * 100_000, "line 3: not a log record (nested too deeply"),
])
def test_log_line_not_an_object(line, message, game_log, tmp_path):
    assert message in replay_fails(tmp_path, [*game_log[:2], line, *game_log[3:]])


def test_log_with_its_announcements_removed_is_refused(game_log, tmp_path):
    import json

    def without(line: str) -> str:
        record = json.loads(line)
        record.pop("announcements", None)
        return json.dumps(record)

    assert "announcements are missing or malformed; the log was edited" in replay_fails(
        tmp_path, [game_log[0], *map(without, game_log[1:])])
    emptied = [json.dumps({**json.loads(line), "announcements": []})
               if '"announcements": [{' in line else line for line in game_log[1:]]
    assert "(an announcement is missing or edited)" in replay_fails(
        tmp_path, [game_log[0], *emptied])


def test_replay_command_prints_the_game_and_refuses_an_edited_log(game_log, tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(game_log) + "\n")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "replayed" in out and "player 2:" in out
    path.write_text("\n".join([*game_log[:2], "[1, 2]", *game_log[3:]]) + "\n")
    assert "line 3: a log line must be a JSON object" in fails(["replay", str(path)], capsys)


def test_log_whose_header_trains_were_edited_is_refused(game_log, tmp_path):
    """22 → 23 trains (europe24's own) replays every event alike (a claim still leaves at most
    2 trains and starts the last round) but ends with other trains: the header's ``final``
    tells."""
    import json

    head = json.loads(game_log[0])
    assert head["rules"]["trains"] == 22
    head["rules"]["trains"] = 23
    assert "line 1: the log says the game ended with other trains" in replay_fails(
        tmp_path, [json.dumps(head), *game_log[1:]])


@pytest.mark.parametrize("formula", ["K_{n} p(0,1)", "p({n},1)", "C_{{{n}}} p(0,1)"])
def test_check_a_formula_with_a_number_of_5000_digits(formula, capsys):
    text = formula.format(n="9" * 5000)
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(["check", text]))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "line 1, column " in err and "a number of 5,000 digits" in err and len(err) < 20_000


def test_board_with_a_list_for_a_city_is_refused_by_entry(tmp_path, capsys):
    """Found by the fuzzer: an end given as a list raised TypeError (unhashable)."""
    doc = board_doc()
    doc["connections"][0]["a"] = []
    assert "connections[0] ([]–" in board_fails(tmp_path, dumped(doc), capsys)


def test_log_with_an_edited_action_field_is_refused_by_line(game_log, tmp_path):
    """Found by the fuzzer: ``"slot": null`` raised TypeError in the rules."""
    import json

    number, event = next((i, json.loads(line)) for i, line in enumerate(game_log)
                         if '"kind": "face_up"' in line)
    event["action"]["slot"] = None
    assert f"line {number + 1}: " in replay_fails(
        tmp_path, [*game_log[:number], json.dumps(event), *game_log[number + 1:]])


def test_log_of_a_custom_board_named_usa_is_refused_against_the_shipped_usa(tmp_path, capsys):
    """A board file that calls itself "usa" but differs from the shipped usa (one length
    changed): its log names "usa", so replay without ``--board`` would load the shipped board;
    the header's fingerprint refuses that in one line, and with the file the game replays."""
    import json

    doc = json.loads((Path(__file__).parents[1] / "boards" / "data" / "usa.json")
                     .read_text(encoding="utf-8"))
    assert doc["name"] == "usa"
    doc["connections"][0]["length"] += 1
    board = tmp_path / "usa.json"
    board.write_text(json.dumps(doc), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert main(["play", "--quiet", "--board", str(board), "--players", "2", "--tickets", "1",
                 "--trains", "12", "--seed", "4", "--log", str(log)]) == 0
    capsys.readouterr()
    err = fails(["replay", str(log)], capsys)
    assert f"{log}: line 1: the log was played on a board usa with fingerprint" in err
    assert "replay it with the board file it was played on" in err
    assert main(["replay", str(log), "--board", str(board)]) == 0
    assert "replayed" in capsys.readouterr().out


def test_app_on_a_port_in_use_says_so_in_one_line_before_the_server_starts(
        capsys, monkeypatch, tmp_path):
    """uvicorn found out only after loading the page and exited 3 with its bind error."""
    import socket

    monkeypatch.setattr("os.execve", lambda *a: pytest.fail("the server was started"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        err = fails(["app", "--port", str(port)], capsys)
    assert err.count("\n") == 1
    assert f"port {port} on 127.0.0.1 is in use" in err and "e.g. --port " in err


@pytest.mark.slow
def test_the_server_loads_the_page_without_warnings(tmp_path):
    """The real server, one page load: Solara warned on the first one that its session cookie
    falls back to samesite=lax over http (issue 23), and nothing else may be printed either."""
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    # matplotlib's font cache in the server's own folder, made first: a first start that takes
    # matplotlib over 5 s to make it (a loaded machine) says so, once, and that is not ours
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], check=True,
                   env={**env, "MPLCONFIGDIR": str(tmp_path / "cache" / "ttr-kripke" / "server"
                                                   / "matplotlib")})
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--port", port],
                                cwd=Path(__file__).parents[1], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        deadline, page = time.monotonic() + 120, ""
        while not page and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode()
            except OSError:
                time.sleep(0.3)
        assert "solara" in page.lower(), log.read_text()
        # the warning came as the page was served; a second page served is the sign that the
        # server is done with the first (and its stderr is line-buffered: written by then)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as answer:
            assert "solara" in answer.read().decode().lower()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    printed = log.read_text()
    assert "Warning" not in printed, printed
    assert printed.splitlines() == [f"ttr-kripke app: http://127.0.0.1:{port}/ (Ctrl-C stops it)",
                                    f"Solara server is starting at http://127.0.0.1:{port}"]


# --- issue 35, item 1: no one's script through an agent's name --------------------------------

HOSTILE_NAMES = ['a"><img src=x onerror=alert(1)>', "a' onload='alert(1)", "<script>x</script>",
                 "a&b", 'a" data-x="1']


@pytest.mark.parametrize("agent", HOSTILE_NAMES + [None, 1.5, "", True, -1, "agents"])
def test_a_json_model_whose_agent_the_text_format_refuses_is_refused_naming_the_field(agent):
    import json

    from kripke import KripkeModel, ModelError, load_model
    from kripke.files.exchange import to_json

    data = to_json(KripkeModel.from_worlds([["p"], []], {"a": [0, 1]}, 0))
    data["agents"] = [agent]
    with pytest.raises(ModelError) as refused:
        load_model(json.dumps(data))
    assert str(refused.value).startswith("agents[0]: ") and "cannot" in str(refused.value)


@pytest.mark.parametrize("agent", HOSTILE_NAMES)
def test_an_agents_name_is_escaped_in_every_attribute_of_the_svg(agent):
    """A model built in Python (a notebook) may name its agents anything: the picture still
    writes each name as text, never as markup, in the graph and in the class views."""
    from xml.etree import ElementTree

    from app.worlds.graph import GraphLayout
    from app.worlds.layout import Marking, PlainNames, layout_for
    from app.worlds.svg import picture_svg
    from kripke import KripkeModel

    model = KripkeModel.from_worlds([["p"], [], ["p"]], {agent: [0, 0, 1], "b": [0, 1, 1]}, 0)
    pictures = [GraphLayout(model, agent).picture(model),
                layout_for(model, agent, PlainNames()).picture(model, Marking())]
    for picture in pictures:
        svg = picture_svg(picture, lambda a: "#123456")
        root = ElementTree.fromstring(svg)  # well-formed: no attribute was closed early
        names = {e.tag.split("}")[-1] for e in root.iter()}
        assert not names & {"img", "script"}
        owners = {value for e in root.iter() for key, value in e.attrib.items()
                  if key.startswith("data-") and key.endswith("-of")}
        assert agent in owners
