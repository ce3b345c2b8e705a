"""The lab's output files: an interrupted stream keeps what was written, a failed one leaves the
old file as it was, and a new file gets the mode any other file the user writes would get."""

from __future__ import annotations

import os
import stat

import pytest

from lab.files import check_outputs, streamed, write_atomic


def test_ctrl_c_keeps_the_rows_written_and_replaces_the_old_file(tmp_path):
    out = tmp_path / "games.csv"
    out.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), streamed(out) as f:
        f.write("header\nrow 1\n")
        raise KeyboardInterrupt
    assert out.read_text() == "header\nrow 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]  # no temp file left


def test_any_other_error_leaves_the_old_file_and_no_temp_file(tmp_path):
    out = tmp_path / "games.csv"
    out.write_text("old\n")
    with pytest.raises(RuntimeError), streamed(out) as f:
        f.write("half")
        raise RuntimeError("a game failed")
    with pytest.raises(ZeroDivisionError):
        write_atomic(out, lambda f: f.write(str(1 / 0)))
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", lambda f: f.write("{}"))
        kept = tmp_path / "kept.csv"
        kept.write_text("x")
        kept.chmod(0o640)
        with streamed(kept) as f:
            f.write("y")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "y"


def test_outputs_are_checked_before_anything_is_written(tmp_path):
    (tmp_path / "there.csv").write_text("x")
    check_outputs([tmp_path / "new.csv", tmp_path / "there.csv"], overwrite=True)
    for paths, message in [([tmp_path / "there.csv"], "exists; choose another --out or add"),
                           ([tmp_path], "is a folder"),
                           ([tmp_path / "no" / "x.csv"], "does not exist; create it")]:
        with pytest.raises(ValueError, match=message):
            check_outputs(paths, overwrite=False)
