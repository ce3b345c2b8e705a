"""The tutorial notebook runs top to bottom in a fresh kernel, as a reader would run it."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb"


@pytest.mark.slow
def test_the_tutorial_notebook_runs_top_to_bottom(tmp_path):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        "commit the notebook without outputs"
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = "".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                      for o in cell.outputs)
    # the published counts appear, and the game part really played
    assert "16 → 15 → 11 → 5 → 1" in outputs and "2,352 → 145 → 86 → 1" in outputs
    assert "final scores:" in outputs and "the teacher announced p(1," in outputs
