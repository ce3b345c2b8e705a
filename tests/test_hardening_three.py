"""Issue 35 (hardening, round three), items 2 to 8: each hostile input exactly as the audit
reported it gets one line naming the problem and the fix (exit code 2 on the command line, a
message on the page), never a traceback, and no work started."""

from __future__ import annotations

import pytest

from app.cli.main import main
from app.web.components.model_page import read_model

#: The audit's input: an object whose first value opens 1,500 lists (json recurses on each).
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
