"""MkDocs hook: what the site takes from the repository as it is at build time.

* **Files kept at their paths.** A line ``--8<-- "PATH"`` in a page is replaced by that file of
  the repository (``README.md``, ``kripke/README.md``, ``ARCHITECTURE.md``: others edit them
  where they are, and the site follows). Their links are written for the repository's root;
  each relative link into ``docs/`` is rewritten relative to the page, and a link elsewhere in
  the repository fails the build, as any broken link does under ``--strict``.
* **The command reference.** The line ``<!-- cli-reference -->`` becomes ``ttr-kripke --help``
  and every command's ``--help`` as argparse prints them, so a new option appears by itself.
  The checkout being documented is imported (its root first on the path), not whatever copy
  the venv holds; argparse wraps to ``COLUMNS``, fixed here so the page is the same anywhere.
"""

from __future__ import annotations

import argparse
import os
import posixpath
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^--8<-- "([^"]+)"$', re.M)
LINK = re.compile(r"(\]\()([^)#:\s]+)")  # a relative link's target (not a web address or anchor)
CLI = "<!-- cli-reference -->"


def included(path: str, page: str) -> str:
    """The repository's file ``path`` as it reads on the page ``page`` (a path in docs/)."""
    text = (ROOT / path).read_text(encoding="utf-8")

    def moved(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), match[2]))
        if target.startswith("docs/"):
            target = posixpath.relpath(target[len("docs/"):], posixpath.dirname(page) or ".")
        return match[1] + target

    return LINK.sub(moved, text)


def reference() -> str:
    """Markdown: the program's help, then a section per command with its help."""
    os.environ["COLUMNS"] = "80"  # the width of the site's code blocks
    if str(ROOT) not in sys.path[:1]:
        sys.path.insert(0, str(ROOT))
    from app.cli.main import build_parser

    parser = build_parser()
    parts = ["```text", parser.format_help().rstrip(), "```", ""]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += [f"## ttr-kripke {name}", "", "```text", sub.format_help().rstrip(),
                          "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    markdown = INCLUDE.sub(lambda m: included(m[1], page.file.src_uri), markdown)
    return markdown.replace(CLI, reference()) if CLI in markdown else markdown
