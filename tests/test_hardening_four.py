"""Issue 44 (hardening, round four), items 2, 7, 9 and 10: each hostile input exactly as the
audit reported it gets one line naming the problem and the fix, exit code 2, no traceback, and
nothing touched. Item 1 (a live batch's file removed by a run on another output) is in
``test_nothing_lost.py`` with the other runs killed or stopped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_hardening import board_doc, fails

from app.cli.main import main

BATCH = ["batch", "--games", "2", "--players", "2", "--agents", "baseline", "--no-progress"]


# --- item 2: a claim never follows a link nor opens anything but a regular file ---------------

def test_a_claim_planted_as_a_link_is_refused_and_what_it_names_is_untouched(tmp_path, capsys):
    """The audit: ``.out.csv.claim`` a link to ``notes.txt``; the claim opened it, truncated
    it and wrote its process id there."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    (tmp_path / ".out.csv.claim").symlink_to(notes)
    err = fails([*BATCH, "--csv", str(tmp_path / "out.csv")], capsys)
    assert ".out.csv.claim is a symbolic link, where this program keeps its claim on the " \
        "output; remove it or choose another --csv" in err
    assert notes.read_text() == "my notes\n"
    assert (tmp_path / ".out.csv.claim").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.csv.claim", "notes.txt"]


def test_a_claim_planted_as_a_dangling_link_creates_nothing(tmp_path, capsys):
    (tmp_path / ".out.csv.claim").symlink_to(tmp_path / "made.txt")
    assert "is a symbolic link" in fails([*BATCH, "--csv", str(tmp_path / "out.csv")], capsys)
    assert not (tmp_path / "made.txt").exists()


def test_a_fifo_where_the_claim_goes_is_refused_at_once(tmp_path, capsys):
    """It gave an ``OSError`` traceback (and opened for reading alone it would hang)."""
    os.mkfifo(tmp_path / ".out.csv.claim")
    err = fails([*BATCH, "--csv", str(tmp_path / "out.csv")], capsys)
    assert ".out.csv.claim is a FIFO, where this program keeps its claim on the output; " \
        "remove it or choose another --csv" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.csv.claim"]


def test_a_folder_where_the_claim_goes_is_named_as_such(tmp_path, capsys):
    """It said "cannot write in ." though the folder takes files."""
    (tmp_path / ".out.csv.claim").mkdir()
    err = fails([*BATCH, "--csv", str(tmp_path / "out.csv")], capsys)
    assert ".out.csv.claim is a folder, where this program keeps its claim on the output; " \
        "remove it or choose another --csv" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.csv.claim"]


# --- item 7: a full disk while claiming ---------------------------------------------------------

@pytest.fixture
def full_disk(small_disk):
    """A tmpfs filled to the last byte: a new file can be made there, not one byte written to
    it."""
    with (small_disk / "filler").open("wb", buffering=0) as f, pytest.raises(OSError):
        while True:  # until the disk says it is full
            f.write(b"x" * 4096)
    return small_disk


def test_a_full_disk_while_claiming_is_one_line_and_leaves_no_claim(full_disk, capsys):
    """The audit: writing the process id into the claim raised ``OSError [Errno 28]``, exit 1,
    and left empty ``.x.csv.claim`` and ``.p.png.claim`` behind."""
    err = fails([*BATCH, "--csv", str(full_disk / "x.csv"), "--plot", str(full_disk / "p.png")],
                capsys)
    assert "x.csv (No space left on device); free some space or choose another folder for " \
        "--csv, then run again" in err
    assert sorted(os.listdir(full_disk)) == ["filler"]


# --- item 9: a stopped balance's files ----------------------------------------------------------

#: The smallest balance run: a few levels of 2 games, no screen, nothing to compare.
BALANCE = ["balance", "--board", "usa", "--rules", "simplified", "--agents", "baseline,random",
           "--workers", "0", "--no-progress", "--games", "2", "--max-games", "2", "--screen",
           "0", "--rounds", "1", "--finest", "1000", "--confirm", "1", "--random-boards", "0"]


@pytest.fixture(scope="module")
def stopped_search(tmp_path_factory) -> str:
    """The options file of a balance run with :data:`BALANCE`'s options: a resume with the same
    options goes on to read the steps file beside it."""
    folder = tmp_path_factory.mktemp("balance")
    assert main([*BALANCE, "--out", str(folder / "run")]) == 0
    return (folder / "run-search.json").read_text()


@pytest.mark.parametrize(("steps", "message"), [
    ("truncated", "run-steps.csv, row 2: 4 cells where 9 belong; the file was edited or damaged, "
                  "start without --resume"),
    ("/dev/zero", "cannot read {out}-steps.csv (not a regular file); start without --resume"),
    ("fifo", "cannot read {out}-steps.csv (not a regular file); start without --resume"),
    ("huge", "cannot read {out}-steps.csv (more than 16,777,216 bytes, more than a search "
             "writes); start without --resume"),
])
def test_a_damaged_steps_file_is_one_line_at_once(steps, message, stopped_search, tmp_path,
                                                  capsys):
    """The audit: a steps file cut in its second row gave ``AttributeError``, one linked to
    ``/dev/zero`` ``MemoryError``, a FIFO hung the resume 300 s."""
    out = tmp_path / "run"
    (tmp_path / "run-search.json").write_text(stopped_search)
    path = tmp_path / "run-steps.csv"
    if steps == "truncated":
        path.write_text("index,phase,feature,chosen,distance,unchanged,stderr,games,tried\n"
                        '0,1,ticket group 0.1 (30 tickets),unchanged,1.0,1.0,0.0,2,"a:1"\n'
                        "1,1,double group 0.1 (22 doubles),unch")
    elif steps == "fifo":
        os.mkfifo(path)
    elif steps == "huge":
        with path.open("wb") as f:
            f.truncate(17 << 20)  # sparse: no disk needed
    else:
        path.symlink_to(steps)
    assert message.format(out=out) in fails([*BALANCE, "--out", str(out), "--resume"], capsys)


# --- item 9: a belief model's arrows in JSON ---------------------------------------------------

#: Two worlds, ann's arrows and bob's, as ``model --json`` writes a belief model.
BELIEF_JSON = {"format": "ttr-kripke model", "version": 1, "agents": ["ann", "bob"],
               "atoms": ["p"], "actual": 0,
               "worlds": [{"id": 0, "label": "w0", "true": ["p"]},
                          {"id": 1, "label": "w1", "true": []}],
               "relations": [[[0, 1], [1, 1]], [[0, 0], [0, 1], [1, 0], [1, 1]]]}


@pytest.mark.parametrize(("relations", "message"), [
    ([[[0, 1], [1, 1]], [[0, 0], [0, 1], [1, True]]],
     'relations[1][2]: must be an arrow [from, to] of two world indices from 0 to 1, not '
     '[1, true] (a list)'),
    ([[[0, 0.9]], []], 'relations[0][0]: must be an arrow [from, to] of two world indices '
                       'from 0 to 1, not [0, 0.9] (a list)'),
    ([[["0", 1]], []], 'relations[0][0]: must be an arrow [from, to] of two world indices '
                       'from 0 to 1, not ["0", 1] (a list)'),
    ([[[0, 1, 1]], []], 'relations[0][0]: must be an arrow [from, to]'),
    ([[[0, 2]], []], 'relations[0][0]: must be an arrow [from, to] of two world indices from '
                     '0 to 1, not [0, 2]'),
    ([[[0, 1]], {"a": 1}], 'relations[1]: must be a list of arrows [from, to], not {"a": 1} '
                           '(an object)'),
    ([[[0, 1]]], 'relations: 1 lists for 2 agents; give one list of arrows per agent'),
    ("ann", 'relations: must be a list, not "ann" (text)'),
])
def test_a_belief_models_arrows_are_refused_naming_their_field(relations, message, tmp_path,
                                                               capsys):
    """The audit: "too many values to unpack", naming no field; ``true``, ``0.9`` and ``"0"``
    were taken as world indices."""
    import json

    path = tmp_path / "belief.json"
    path.write_text(json.dumps(BELIEF_JSON | {"relations": relations}))
    assert f"{path}: {message}" in fails(["model", str(path)], capsys)


def test_a_belief_model_in_json_reads_back(tmp_path, capsys):
    import json

    path = tmp_path / "belief.json"
    path.write_text(json.dumps(BELIEF_JSON))
    assert main(["model", str(path)]) == 0
    assert "frame class: KD45 (ann KD45, bob S5)" in capsys.readouterr().out


# --- item 10: the smaller ones ------------------------------------------------------------------

def test_ticket_points_of_ten_to_the_thirty_are_refused_before_the_batch(tmp_path, capsys):
    """The audit: taken, then ``batch --plot`` raised in numpy's histogram."""
    import json

    doc = board_doc()
    doc["tickets"][0]["points"] = 10**30
    (tmp_path / "b.json").write_text(json.dumps(doc))
    err = fails([*BATCH, "--board", str(tmp_path / "b.json"), "--plot", str(tmp_path / "p.png")],
                capsys)
    assert "b.json: tickets[0] (Amsterdam–Wilno): bad points 1000000000000000000000000000000; " \
        "must be a whole number from 1 to 1,000" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]


@pytest.mark.parametrize(("changes", "message"), [
    ({"route_points": {"1": 10**30}}, "route_points['1']: lengths must be whole numbers from 1 "
                                      "to 8 in ASCII digits, each once, and points whole numbers "
                                      "from 0 to 1,000"),
    ({"trains": 10**30}, "trains: bad trains 1000000000000000000000000000000; the trains each "
                         "player starts with, a whole number from 1 to 999"),
])
def test_a_boards_other_numbers_are_bounded_too(changes, message, tmp_path, capsys):
    import json

    (tmp_path / "b.json").write_text(json.dumps(board_doc(**changes)))
    assert message in fails(["play", "--quiet", "--board", str(tmp_path / "b.json")], capsys)


def test_a_board_and_a_log_starting_with_a_byte_order_mark_are_read(tmp_path, capsys):
    """Both were refused, while a model file with one was read (Notepad writes UTF-8 so)."""
    import json

    board, log = tmp_path / "b.json", tmp_path / "g.jsonl"
    board.write_bytes(b"\xef\xbb\xbf" + json.dumps(board_doc()).encode())
    assert main(["play", "--quiet", "--players", "2", "--agents", "baseline", "--board",
                 str(board), "--log", str(log)]) == 0
    log.write_bytes(b"\xef\xbb\xbf" + log.read_bytes())
    assert main(["replay", str(log), "--board", str(board)]) == 0
    assert "Traceback" not in capsys.readouterr().err


#: A model file of four worlds, wherever the tests run from.
STARTER = str(Path(__file__).resolve().parents[1] / "kripke" / "models" / "alice-bob.kripke")
#: The audit's 100 KB formula.
BIG = " & ".join(["p"] * 25_000)


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line of a command that printed the model before a step failed (an event
    or announcement false at the actual world is found when applied)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err[:600]
    return err


@pytest.mark.parametrize(("event", "message"), [
    (f"private:alice:{BIG} )", "expected an operator or end of input, found ')' (at column "
                               "99,999 of the formula: …p & p & p & p & p & p & p & p )); "
                               "remove ')'"),
    (f"flip:alice:{BIG}", "flip toggles an atom, e.g. flip:a:heads"),
    (f"announce:~({BIG})", "is false at the actual world (make another event the actual one)"),
    (f"learns:{BIG}", "write learns:A:F (A learns whether F"),
])
def test_an_event_on_one_line_is_quoted_short_in_its_error(event, message, capsys):
    """The audit: the 100 KB formula came back whole in the one line (``--check`` cuts it)."""
    err = refused(["model", STARTER, "--event", event], capsys)
    assert message in err and len(err) < 500, err[:600]
    assert "characters)" in err


def test_an_announcement_false_at_the_actual_world_is_quoted_short(capsys):
    err = refused(["model", STARTER, "--announce", f"~({BIG})"], capsys)
    assert "(100,000 characters): it is false at the actual world" in err and len(err) < 500


@pytest.mark.parametrize(("event", "message"), [
    ("private:alice,bob:q", "in 'private:alice,bob:q': one agent acts; for more, write "
                            "together:A,B:F"),
    ("learns:alice,bob:q", "in 'learns:alice,bob:q': one agent learns; for more, write "
                           "together:A,B:F"),
    ("shows:alice,bob:bob:red", "one agent shows a card and one sees it; write "
                                "shows:A:B:F1,F2,..."),
])
def test_a_one_agent_event_naming_two_is_refused_as_the_page_refuses_it(event, message, capsys):
    """``private:alice,bob:q`` took alice alone and dropped bob without a word."""
    assert message in fails(["model", STARTER, "--event", event], capsys)


def test_together_still_takes_several(capsys):
    assert main(["model", STARTER, "--event", "together:alice,bob:q"]) == 0
    assert "event together:alice,bob:q: 4 worlds (were 4)" in capsys.readouterr().out


@pytest.mark.parametrize("where", ["agents line", "class line", "event"])
def test_an_agent_of_five_thousand_digits_is_one_line_without_pythons_advice(where, tmp_path,
                                                                            capsys):
    """The audit: ``agents: 999…`` printed Python's ``set_int_max_str_digits`` advice."""
    digits = "9" * 5000
    path = tmp_path / "m.kripke"
    path.write_text({"agents line": f"agents: {digits}\nworld w1: p\nactual: w1\n",
                     "class line": f"agents: a\nworld w1: p\n{digits}: {{w1}}\nactual: w1\n",
                     "event": "agents: a\nworld w1: p\na: {w1}\nactual: w1\n"}[where])
    argv = ["model", str(path), *(["--event", f"learns:{digits}:p"] if where == "event" else [])]
    err = fails(argv, capsys)
    assert "set_int_max_str_digits" not in err and len(err) < 400, err[:500]
    assert {"agents line": "line 1, column 9: an agent numbered with 5,000 digits; agents are "
                           "numbered with at most 30",
            "class line": "line 3, column 1: unknown agent '9999",
            "event": "an agent numbered with 5,000 digits; agents are numbered with at most "
                     "30"}[where] in err


def test_route_quotes_a_city_name_of_100_kb_cut_short(capsys):
    err = fails(["route", "X" * 100_000, "Wien"], capsys)
    assert "no city 'XXXX" in err and "'… on europe24; the closest are" in err
    assert len(err) < 300
