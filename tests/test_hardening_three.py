"""Issue 35 (hardening, round three), items 2 to 8: each hostile input exactly as the audit
reported it gets one line naming the problem and the fix (exit code 2 on the command line, a
message on the page), never a traceback, and no work started."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_hardening import fails

from app.cli.main import main
from app.web.components.model_page import read_model

#: A model file of four worlds, wherever the tests run from.
STARTER = str(Path(__file__).resolve().parents[1] / "kripke" / "models" / "alice-bob.kripke")
#: The audit's input: an object whose first value opens 1,500 lists (json recurses on each).
DEEP_JSON = '{"x":' + "[" * 1500


# --- item 2: deep JSON -------------------------------------------------------------------------

def test_deeply_nested_json_is_a_message_on_the_page():
    reading = read_model(DEEP_JSON)
    assert reading.model is None
    assert "nested too deeply" in reading.error


def test_deeply_nested_json_is_one_line_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text(DEEP_JSON)
    assert "nested too deeply to be a model" in fails(["model", str(path)], capsys)


def test_a_json_number_of_thousands_of_digits_is_a_message():
    assert "thousands of digits" in read_model('{"format": ' + "9" * 5000 + "}").error


# --- item 3: an event model's product is bounded before it is built ---------------------------

#: The audit's 2 KB event model: 100 events anyone can tell apart from none, all possible.
HUNDRED = "\n".join(f"event e{i}: pre true" for i in range(100)) + "\nactual: e0\n"


def test_the_page_refuses_an_event_past_its_bound_saying_how_many_worlds():
    from app.web.components.events import UPDATE_LIMIT, prepare
    from kripke import load_model
    from kripke.files.eventfile import parse_event_model

    model = load_model(STARTER).update(parse_event_model(HUNDRED))  # 4 → 400 worlds
    prepared = prepare(model, "hand", [], "", HUNDRED)
    assert prepared.events is None
    assert f"40,000 worlds from 400, more than the {UPDATE_LIMIT:,}" in prepared.error


def test_the_command_line_refuses_the_fourth_power_in_one_line(tmp_path, capsys):
    events = tmp_path / "hundred.events"
    events.write_text(HUNDRED)
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(["model", STARTER, *["--event", str(events)] * 3]))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert "40,000 worlds (were 400)" in out  # the first two are applied, then one line
    assert err.startswith("ttr-kripke model: error: this event would make 4,000,000 worlds")
    assert err.count("\n") == 1 and "Traceback" not in err


# --- item 4: a world's name is drawn as written in the PNG -------------------------------------

#: Names matplotlib would read as mathtext: drawn as maths, or refused with a ValueError.
MATHTEXT_NAMES = ["$\\sqrt{x}$", "$\\frac$", "$x_$", "$^$", "a$b$c", "$\\undefined{1}$",
                  "\\$5 and $6"]


@pytest.mark.parametrize("name", MATHTEXT_NAMES)
def test_the_png_draws_a_mathtext_name_as_written(name, monkeypatch):
    from matplotlib.figure import Figure

    drawn: list[tuple[str, bool]] = []
    save = Figure.savefig

    def spy(fig, *args, **kwargs):  # the texts as matplotlib will draw them
        drawn.extend((t.get_text(), t.get_parse_math()) for ax in fig.axes for t in ax.texts)
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    from app.worlds.graph import GraphLayout
    from app.worlds.png import picture_png
    from kripke.files.modelfile import parse_model

    model = parse_model(f'agents: a\natoms: p\nworld "{name}": p\nworld w2:\n'
                        f'a: {{"{name}" w2}}\nactual: "{name}"\n')
    picture = GraphLayout(model, "a", label=lambda m, i: m.world_label(i)).picture(model)
    assert name in [t.text for t in picture.texts]  # the picture names the world so
    assert picture_png(picture, lambda a: "#8e24aa").startswith(b"\x89PNG")
    assert (name, False) in drawn  # the name itself, never read as mathtext


def test_a_board_drawing_writes_mathtext_city_names_and_titles_as_they_are(tmp_path):
    import json
    from importlib.resources import files

    from boards import load_board
    from lab.draw import board_png

    text = files("boards").joinpath("data", "usa.json").read_text(encoding="utf-8")
    data = json.loads(text)
    for city, name in zip(data["cities"][:len(MATHTEXT_NAMES)], MATHTEXT_NAMES, strict=False):
        text = text.replace(json.dumps(city["name"]), json.dumps(name))
    data = json.loads(text)
    data["title"] = "$\\frac$"
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    board_png(load_board(tmp_path / "b.json"), tmp_path / "board.png")
    assert (tmp_path / "board.png").read_bytes().startswith(b"\x89PNG")


# --- item 5: an output is claimed before work starts -------------------------------------------

def test_a_second_run_on_one_output_is_refused_while_the_first_runs(tmp_path, capsys):
    import os
    import signal
    import subprocess
    import sys

    out = tmp_path / "same.csv"
    first = subprocess.Popen(  # a run that has claimed its --csv and is still working
        [sys.executable, "-c", "import sys; from pathlib import Path; "
         "from game.files import check_output; "
         f"check_output(Path({str(out)!r}), '--csv'); print('claimed', flush=True); "
         "sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    try:
        assert first.stdout is not None and first.stdout.readline() == "claimed\n"
        err = fails(["batch", "--games", "2", "--csv", str(out)], capsys)
        # the path is shortened in the middle when long (as under pytest-xdist's folders)
        assert f"another run (process {first.pid}) is writing " in err
        assert f"{out.name}; wait" in err
        assert "wait for it to end or choose another --csv" in err
        assert not out.exists()
    finally:
        first.send_signal(signal.SIGKILL)  # killed outright: its claim stays behind
        first.wait()
    # a claim whose process is gone is taken over; the run's own is given up at its end
    assert main(["batch", "--games", "2", "--csv", str(out)]) == 0
    capsys.readouterr()
    assert [p.name for p in tmp_path.iterdir()] == ["same.csv"]


_RACER = """
import sys
from pathlib import Path
from game.files import OutputError, claim_output, release_claims
out, go = Path(sys.argv[1]), Path(sys.argv[2])
print("ready", flush=True)
for line in sys.stdin:  # a round: wait for the start file, claim, then give the claim up
    round_go = go.with_suffix(line.strip())
    while not round_go.exists():
        pass
    try:
        claim_output(out, "--csv")
        print("claimed", flush=True)
    except OutputError:
        print("refused", flush=True)
    sys.stdin.readline()
    release_claims()
    print("released", flush=True)
"""


def test_runs_taking_over_a_killed_runs_claim_at_once_leave_it_to_one(tmp_path):
    """A killed run leaves its claim behind; runs started together after it each found the
    claim stale, removed it (one removing another's fresh claim) and went on, so two wrote
    one file. Now exactly one of them has it, every time."""
    import os
    import subprocess
    import sys

    out, go = tmp_path / "same.csv", tmp_path / "go"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    racers = [subprocess.Popen([sys.executable, "-c", _RACER, str(out), str(go)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ,
                                    "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
              for _ in range(6)]
    try:
        for racer in racers:
            assert racer.stdout is not None and racer.stdout.readline() == "ready\n"
        for round_ in range(12):
            claim = tmp_path / f".{out.name}.claim"  # a killed run's claim, its process gone
            claim.write_text(dead.stdout.strip(), encoding="ascii")
            for racer in racers:
                assert racer.stdin is not None
                racer.stdin.write(f".r{round_}\n")
                racer.stdin.flush()
            (tmp_path / f"go.r{round_}").touch()
            said = [racer.stdout.readline().strip() for racer in racers if racer.stdout]
            assert sorted(said) == ["claimed"] + ["refused"] * 5, f"round {round_}: {said}"
            for racer in racers:
                assert racer.stdin is not None
                racer.stdin.write("release\n")
                racer.stdin.flush()
            assert all(racer.stdout and racer.stdout.readline() == "released\n"
                       for racer in racers)
    finally:
        for racer in racers:
            racer.kill()
            racer.wait()


# --- item 6: names that look like other names --------------------------------------------------

def test_a_board_with_a_cyrillic_lookalike_city_is_refused(tmp_path):
    import json
    from importlib.resources import files

    from boards import BoardError, load_board

    data = json.loads(files("boards").joinpath("data", "usa.json").read_text(encoding="utf-8"))
    first = data["cities"][0]
    data["cities"].append({**first, "name": first["name"].replace("a", "\u0430", 1)})
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BoardError, match="mixes Cyrillic and Latin letters"):
        load_board(tmp_path / "b.json")


@pytest.mark.parametrize(("second", "message"), [
    ("w\u200b1", "holds an invisible character (U+200B ZERO WIDTH SPACE); remove it"),
    ("w\u0031\u2066", "holds an invisible character (U+2066"),
    ("w\u0456", "mixes Cyrillic and Latin letters in a word"),
])
def test_a_model_name_that_looks_like_another_is_refused_where_it_is(second, message):
    from kripke.files.modelfile import ModelFileError, parse_model

    with pytest.raises(ModelFileError, match=re.escape(message)) as error:
        parse_model(f'agents: a\nworld w1:\nworld "{second}":\nactual: w1\n')
    assert (error.value.line, error.value.column) == (3, 7)


def test_an_accent_written_two_ways_is_one_name():
    from kripke.files.modelfile import ModelFileError, parse_model

    with pytest.raises(ModelFileError, match="é"):  # the second is the first again
        parse_model("agents: a\na:\nworld caf\u00e9:\nworld cafe\u0301:\nactual: caf\u00e9\n")
    model = parse_model("agents: a\na:\nworld caf\u00e9:\nactual: cafe\u0301\n")
    assert model.world_name() == "caf\u00e9"


# --- item 7: the small ones --------------------------------------------------------------------

def test_a_byte_order_mark_is_read_on_the_page_as_on_the_command_line():
    from app.web.components.model_page import STARTERS, uploaded_text

    starter = STARTERS["alice-bob"]
    text, said = uploaded_text("notepad.kripke", b"\xef\xbb\xbf" + starter.encode())
    assert text == starter and said == "Read notepad.kripke."
    assert read_model("\ufeff" + starter).model is not None  # pasted with its mark


def test_a_share_link_too_long_to_trust_says_so_instead_of_showing_the_starter_silently():
    import solara
    from test_app_widgets import html

    from app.web.components.model_page import SHARE_LIMIT, ModelPage

    _box, rc = solara.render(ModelPage(search="model=" + "x" * (SHARE_LIMIT + 500)),
                             handle_error=False)
    said = html(rc, "upload-result")
    rc.close()
    assert f"model has {SHARE_LIMIT + 500:,} characters; a link carries up to" in said
    assert "upload it instead" in said


@pytest.mark.parametrize("way", ["dropped", "chosen with Upload"])
def test_a_file_too_big_is_refused_before_any_of_it_is_sent(way):
    import solara
    from solara.components.file_drop import FileDropZone

    from app.web.components.model_page import TEXT_LIMIT, ModelPage
    from app.web.components.upload_button import UploadWidget

    _box, rc = solara.render(ModelPage(), handle_error=False)
    widget = rc.find(FileDropZone if way == "dropped" else UploadWidget).widget
    widget.file_info = [{"name": "huge.kripke", "size": 17 << 20}]  # what the browser announces
    deadline = time.monotonic() + 30  # the file is handled in a thread: wait for its message
    while not (said := [w.unsafe_innerHTML for w in rc.find(solara.widgets.HTML).widgets
                        if w.attributes.get("data-testid") == "upload-result"]):
        assert time.monotonic() < deadline, f"the file {way} got no message"
        time.sleep(0.05)
    rc.close()
    assert f"huge.kripke has {17 << 20:,} bytes; the page reads up to {TEXT_LIMIT:,}" in said[0]


def test_a_model_file_that_never_ends_or_is_huge_is_refused_before_it_is_read(tmp_path, capsys):
    from kripke.files.reader import MAX_FILE_BYTES

    assert "/dev/zero is not a file; give the model file's path" in \
        fails(["model", "/dev/zero"], capsys)
    huge = tmp_path / "huge.kripke"
    with huge.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    refused = f"has more than {MAX_FILE_BYTES:,} bytes, more than this reads; is it the"
    assert f"{refused} model file?" in fails(["model", str(huge)], capsys)
    huge = huge.rename(tmp_path / "huge.events")
    assert f"{refused} event model file?" in \
        fails(["model", STARTER, "--event", str(huge)], capsys)


def _confused_models():
    """The audit's type-confused models: each field of a good model file (and each item of its
    lists) replaced by a value of every other JSON type; with the field each one confuses."""
    import copy
    import json

    from kripke import load_model
    from kripke.files.exchange import to_json

    good = to_json(load_model(STARTER))
    paths = [(k,) for k in ("agents", "atoms", "actual", "worlds", "observations")]
    paths += [("agents", 0), ("atoms", 0), ("worlds", 0), ("observations", 0),
              ("observations", 0, 1), *(("worlds", 1, k) for k in ("id", "true", "label")),
              ("worlds", 1, "true", 0)]
    for path in paths:
        for value in (None, True, False, 1.5, -1, 2**70, "", "x y", [], [None], {}, {"a": 1}):
            data = copy.deepcopy(good)
            parent = data
            for key in path[:-1]:
                parent = parent[key]
            if parent[path[-1]] == value and type(parent[path[-1]]) is type(value):
                continue
            parent[path[-1]] = value
            yield json.dumps(data), path, value


def _allowed(path: tuple, value: object) -> bool:
    """Whether the format takes ``value`` at ``path`` (an agent may be a number, a world's
    label any text, a key any whole number, no atom true, no actual world)."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    return {("agents", 0): whole and value >= 0, ("observations", 0, 1): whole,
            ("worlds", 1, "label"): isinstance(value, str), ("worlds", 1, "true"): value == [],
            ("actual",): value is None}.get(path, False)


@pytest.mark.parametrize(("text", "path", "value"), list(_confused_models()))
def test_a_type_confused_model_file_is_refused_naming_its_field(text, path, value):
    from kripke import load_model
    from kripke.files.modelfile import ModelFileError

    try:
        load_model(text)
    except ModelFileError as e:
        assert "malformed" not in e.message and "object is not" not in e.message, e.message
        # the field itself by its path, or the one it no longer agrees with (no agents:
        # "observations"), and no line and column, which a field's error has none of
        assert e.line is None and e.field is not None, e
        assert e.field.split("[")[0].split(".")[0] in (
            "agents", "atoms", "actual", "worlds", "observations"), e
    else:
        assert _allowed(path, value), f"{value!r} at {path} was taken"


@pytest.mark.parametrize("agent", [None, 1.5, "", True, -1])
def test_json_agents_the_text_format_refuses_are_refused(agent):
    import json

    data = json.dumps({"format": "ttr-kripke model", "version": 1, "agents": [agent],
                       "atoms": [], "actual": 0, "worlds": [{"id": 0, "true": []}],
                       "observations": [[0]]})
    assert "cannot name an agent" in read_model(data).error


def test_json_actual_true_is_not_world_one():
    import json

    from kripke import load_model
    from kripke.files.exchange import to_json

    data = to_json(load_model(STARTER))
    data["actual"] = True
    assert 'actual: must be the id of one of the worlds or null, not true (a boolean)' in \
        read_model(json.dumps(data)).error


def _stopped_balance(folder, steps: str, search: str | None = None):
    """A stopped balance run's two files (``folder/run-steps.csv``, ``run-search.json``)."""
    import json

    files = {"steps": str(folder / "run-steps.csv"), "search": str(folder / "run-search.json")}
    options = {"board": "abc", "seed": 1}
    (folder / "run-search.json").write_text(search if search is not None else
                                            json.dumps(options), encoding="utf-8")
    (folder / "run-steps.csv").write_text(steps, encoding="utf-8")
    return files, options


STEPS_HEADER = "index,phase,feature,chosen,distance,unchanged,stderr,games,tried\n"
STEP = "{i},1,length 0,+1,{d},0.40,0.01,4,+1:0.300\n"


@pytest.mark.parametrize(("steps", "search", "message"), [
    (STEPS_HEADER + STEP.format(i=0, d=0.3), '{"board": ', "cannot read {search} ("),
    (STEPS_HEADER + STEP.format(i=0, d=0.3) + STEP.format(i=1, d="nan"), None,
     "{steps}, row 2: distance 'nan' is not a finite number; the file was edited or damaged"),
    (STEPS_HEADER + STEP.format(i=0, d="inf"), None, "row 1: distance 'inf' is not a finite"),
    (STEPS_HEADER + STEP.format(i=3, d=0.3), None, "row 1: index '3' where 0 belongs"),
    ("\0" + STEPS_HEADER, None, "{steps} is not a balance steps file"),
    ("", None, "{steps} is not a balance steps file"),
])
def test_a_damaged_stopped_balance_is_refused_naming_the_file(steps, search, message, tmp_path):
    from app.cli.commands.balance import resumed_levels
    from app.cli.main import UsageError

    files, options = _stopped_balance(tmp_path, steps, search)
    with pytest.raises(UsageError) as refused:
        resumed_levels(files, options)
    assert message.format(**files) in str(refused.value)
    assert "start without --resume" in str(refused.value)


def test_an_undamaged_stopped_balance_resumes(tmp_path):
    from app.cli.commands.balance import resumed_levels

    files, options = _stopped_balance(tmp_path, STEPS_HEADER + STEP.format(i=0, d=0.3) +
                                      STEP.format(i=1, d=-0.25))
    assert [r["distance"] for r in resumed_levels(files, options)] == ["0.3", "-0.25"]


def test_an_explanation_has_a_cost_bound_as_a_check_does(tmp_path, capsys):
    """A formula the checker takes in a moment can ask far more of an explanation, which
    evaluates each subformula on its own: 200 nested K over 300,000 worlds is 200 passes to
    check and 20,100 to explain. Refused before any work, as a check past its budget is."""
    import numpy as np

    from kripke import KripkeModel, TooMuchWorkError
    from kripke.explain import explain
    from kripke.language.parser import parse

    n = 300_000
    model = KripkeModel({"p": np.ones(n, dtype=bool)}, {"a": np.arange(n) // 2}, actual=0)
    formula = parse("K_a " * 200 + "p")
    assert model.holds(formula)  # the check is within its budget
    started = time.process_time()
    with pytest.raises(TooMuchWorkError, match="explaining this formula is too much work over "
                                               "300,000 worlds"):
        explain(model, formula)
    assert time.process_time() - started < 1.0  # refused before the work


def test_batch_workers_0_plays_in_this_process_as_the_labs_commands_do(tmp_path, capsys):
    out = tmp_path / "b.csv"
    assert main(["batch", "--games", "2", "--workers", "0", "--csv", str(out),
                 "--no-progress"]) == 0
    assert "2 games →" in capsys.readouterr().out
    assert len(out.read_text().splitlines()) == 1 + 2


def test_an_event_being_checked_for_a_gone_tab_stops():
    from app.web.components.events import STOPPED, prepare
    from kripke import load_model

    model = load_model(STARTER)
    assert prepare(model, "hand", [], "", HUNDRED).events is not None
    assert prepare(model, "hand", [], "", HUNDRED, stop=lambda: True).error == STOPPED


def test_why_says_so_when_the_explanation_is_refused():
    """The page's Why? runs the explanation in a thread; a refusal there (the budget) was an
    error nobody showed, so the button did nothing."""
    import solara
    from test_app_widgets import html

    from app.web.components.formula import FormulaBar, FormulaResult, why_refusal
    from kripke import TooMuchWorkError

    refused = solara.Result(state=solara.ResultState.ERROR,
                            error=TooMuchWorkError(2 * 10**10, 10**10, 369_600,
                                                   task="explaining this formula"))
    said = why_refusal(refused)
    assert said.startswith("No explanation: explaining this formula is too much work over "
                           "369,600 worlds")
    assert why_refusal(solara.Result(value=None, state=solara.ResultState.FINISHED)) == ""

    @solara.component
    def Bar():
        FormulaBar(solara.use_reactive("K_0 p"), FormulaResult("K_0 p", holds=True), 4,
                   why=solara.use_reactive(True), why_refused=said)

    _box, rc = solara.render(Bar(), handle_error=False)
    assert "too much work" in html(rc, "why-refused")
    rc.close()
