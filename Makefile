# Two entry points, both safe on a fresh machine: they create .venv with the Python that
# .python-version names (pyenv), install the project into it, then run.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test bench

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q -U pip
	$(VENV)/bin/pip install -q -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ttr-kripke app

# Lint, type-check and build the documentation site strictly first (seconds; a broken link or
# a command reference that fails stops here), then every test.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	$(VENV)/bin/python -m pytest -n 2 -q

bench: $(STAMP)
	$(VENV)/bin/ttr-kripke bench all
