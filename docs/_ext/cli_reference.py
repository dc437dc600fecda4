"""The command-line reference page, generated from the parsers as the ``sims`` command builds them.

:func:`markdown` walks ``sims.cli.build_parser()``: every sub-command it lists, whatever module defines it, is
built as ``sims COMMAND --help`` builds it and its help is printed as the command prints it (100 columns).  A
command whose options depend on the game (``--game``) is shown once per game of this distribution.  The Sphinx
hook writes ``reference/cli.md`` before each build, so the page never drifts from the parsers.
"""

from __future__ import annotations

import argparse
import os
from importlib.metadata import distribution
from pathlib import Path

WIDTH = "100"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def games() -> list[str]:
    """The games this distribution registers (entry points ``sims.games`` of period-card-sims), in its order."""
    return [ep.name for ep in distribution("period-card-sims").entry_points if ep.group == "sims.games"]


def command_help(name: str, argv: tuple[str, ...] = ()) -> str:
    """``sims NAME [ARGV] --help`` as the command prints it."""
    from sims.cli import build_parser

    return _subparsers(build_parser(only=name, argv=[name, *argv]))[name].format_help()


def markdown() -> str:
    """The whole reference page."""
    from sims.cli import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        top = build_parser()
        parts = [
            "# Command-line reference",
            "",
            "Generated from the parsers of the `sims` command (`sims COMMAND --help` prints the same).",
            "",
            "```text",
            top.format_help().rstrip(),
            "```",
            "",
        ]
        for name in _subparsers(top):
            per_game = {game: command_help(name, ("--game", game)) for game in games()}
            texts = list(dict.fromkeys(per_game.values()))
            parts += [f"## sims {name}", ""]
            if len(texts) == 1:
                parts += ["```text", texts[0].rstrip(), "```", ""]
                continue
            for game, text in per_game.items():
                parts += [f"### sims {name} --game {game}", "", "```text", text.rstrip(), "```", ""]
        return "\n".join(parts)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def _write(app) -> None:
    page = Path(app.srcdir) / "reference" / "cli.md"
    text = markdown()
    if not page.exists() or page.read_text() != text:  # unchanged: Sphinx keeps the page's cached build
        page.write_text(text)


def setup(app):
    app.connect("builder-inited", _write)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
