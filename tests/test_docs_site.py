"""The documentation site (issue 39): a README a newcomer reads to the end, and a site whose
command reference comes from the parsers and whose included files keep working links.
``make test`` builds the site itself (``mkdocs build --strict``); these hold what the build
cannot see."""

from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def site_hook():
    spec = importlib.util.spec_from_file_location("site_hook", REPO / "docs/hooks/site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_short():
    """The README was 868 lines, the two commands and then a lab notebook."""
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_command_reference_shows_every_option_of_every_command():
    from app.cli.main import build_parser

    page = site_hook().reference()
    subs = next(a for a in build_parser()._actions
                if isinstance(a, argparse._SubParsersAction))
    for name, parser in subs.choices.items():
        section = page.split(f"## ttr-kripke {name}\n", 1)[1].split("\n## ", 1)[0]
        for action in parser._actions:
            for option in action.option_strings:
                assert option in section, f"{name} {option}"


def test_the_home_page_links_of_the_readme_lead_to_pages_of_the_site():
    """The README links from the repository's root (``docs/guide/demo.md``); on the home page,
    which includes it, each must name a file of docs/ from there."""
    text = site_hook().included("README.md", "index.md")
    links = re.findall(r"\]\(([^)#:\s]+)", text)
    assert links and not any(link.startswith("docs/") for link in links)
    missing = [link for link in links if not (REPO / "docs" / link).exists()]
    assert not missing


def test_the_readmes_model_is_the_shipped_starter():
    """The tour shows kripke/models/alice-bob.kripke as text: it must be that file (its lines
    after the opening comments), not a copy that drifts from it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    shipped = (REPO / "kripke/models/alice-bob.kripke").read_text(encoding="utf-8").splitlines()
    assert shown == [line for line in shipped if not line.startswith("#")]
