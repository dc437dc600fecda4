"""The command-line reference of the documentation site is generated from the parsers as ``sims`` builds them
(docs/_ext/cli_reference.py): every command, each game's options where they differ."""

import importlib.util
from pathlib import Path

from sims.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "docs" / "_ext" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_has_every_command_with_its_own_help():
    generator = _generator()
    page = generator.markdown()
    commands = list(generator._subparsers(build_parser()))
    assert len(commands) >= 15 and "peg" in commands and "duel" in commands
    for name in commands:
        assert f"\n## sims {name}\n" in page
    assert "usage: sims run" in page and "--workers N" in page


def test_a_game_aware_command_is_shown_once_per_game():
    page = _generator().markdown()
    # the decisions are the game's flags: simulate's help differs by game, score's does not
    for game, flag in (("cribbage", "--peg"), ("allfours", "--beg"), ("loo", "--declare")):
        section = page.split(f"### sims simulate --game {game}\n", 1)[1].split("\n### ", 1)[0]
        assert flag in section
    assert "### sims score --game" not in page
