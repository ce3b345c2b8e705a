"""game.files beyond the issue's cases in test_hardening.py (a failed write keeps the old file,
Ctrl-C keeps the rows written): a whole file written by a failing writer leaves the old one, a
new file gets the mode any other file the user writes would get, and outputs are checked before
anything is written."""

from __future__ import annotations

import os
import stat

import pytest

from game.files import atomic_output, check_outputs, release_claims, write_atomically, write_json


def test_a_json_document_that_cannot_be_written_leaves_the_old_file_and_no_temp_file(tmp_path):
    out = tmp_path / "metrics.json"
    out.write_text("old\n")
    with pytest.raises(TypeError):
        write_json(out, {"games": object()})
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["metrics.json"]


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.json", "{}")
        kept = tmp_path / "kept.csv"
        kept.write_text("x")
        kept.chmod(0o640)
        with atomic_output(kept, keep_on_interrupt=True) as f:
            f.write("y")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "y"


def test_outputs_are_checked_before_anything_is_written(tmp_path):
    (tmp_path / "there.csv").write_text("x")
    check_outputs([(tmp_path / "new.csv", "--out"), (tmp_path / "there.csv", "--out")],
                  overwrite=True)
    release_claims()  # checks that pass claim their outputs until the command ends
    for paths, message in [([tmp_path / "there.csv"], "exists; choose another --out or add"),
                           ([tmp_path], "is a folder"),
                           ([tmp_path / "no" / "x.csv"], "does not exist; create it"),
                           ([tmp_path / "a.csv", tmp_path / "a.csv"], "name the same file")]:
        with pytest.raises(ValueError, match=message):
            check_outputs([(p, "--out") for p in paths], overwrite=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["there.csv"]
