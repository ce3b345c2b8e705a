"""Issue 35 (hardening, round three), items 2 to 8: each hostile input exactly as the audit
reported it gets one line naming the problem and the fix (exit code 2 on the command line, a
message on the page), never a traceback, and no work started."""

from __future__ import annotations

import pytest

from app.cli.main import main
from app.web.components.model_page import read_model

#: The audit's input: an object whose first value opens 1,500 lists (json recurses on each).
STARTER = "kripke/models/alice-bob.kripke"
DEEP_JSON = '{"x":' + "[" * 1500


def fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line ``argv`` gets; asserts exit code 2 and nothing printed before it."""
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", "work started before the input was checked"
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


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
    from kripke.eventfile import parse_event_model

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
