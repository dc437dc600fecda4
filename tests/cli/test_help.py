"""The command line's help and start-up: every command's --help ends with examples that parse, ``sims --help``
and ``--version`` import no command module (nor numba), Ctrl-C while the command line starts is one line and
status 130, near-certain chances are not printed as certainties, and the output names the defaults it used."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sims.cli import _declared, build_parser, main
from sims.cli.common import percent

ROOT = Path(__file__).resolve().parents[2]


EXAMPLES = {name: getattr(entry.load(), "EXAMPLES", None) for name, (entry, _) in _declared().items()}


def test_every_command_has_examples():
    assert all(EXAMPLES.values()), [name for name, lines in EXAMPLES.items() if not lines]


@pytest.mark.parametrize("line", [line for lines in EXAMPLES.values() for line in lines])
def test_each_example_parses(line):
    argv = shlex.split(line.split("  #")[0])[1:]
    args = build_parser(only=argv[0], argv=argv).parse_args(argv)
    assert args.command == argv[0]


def test_a_commands_help_ends_with_its_examples(capsys):
    assert main(["score", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert help_text.rstrip().endswith("\n".join(f"  {line}" for line in EXAMPLES["score"]))


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_no_command_module(flag):
    """Nor any game: a game's commands (entry points ``sims.commands``) are listed from their sources."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; from sims.cli import main; main([{flag!r}]); "
            "print(sorted(m for m in sys.modules if m.startswith('sims.cli.') or m == 'numba' "
            "or m.split('.')[:2] in (['sims', 'cribbage'], ['sims', 'allfours'], ['sims', 'loo'])))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.splitlines()[-1] == "[]"


def test_the_commands_of_one_game_come_from_its_package():
    """``sims peg`` and the other cribbage-only commands are registered by entry point from sims.cribbage.commands;
    every other command is the core's (sims.cli)."""
    modules = {name: entry.value for name, (entry, _) in _declared().items()}
    assert {name for name, module in modules.items() if module.startswith("sims.cribbage.commands.")} == {
        "crib-tables",
        "discard",
        "odds",
        "peg",
        "round-robin",
        "score",
        "strength",
    }
    assert all(module.startswith(("sims.cli.", "sims.cribbage.commands.")) for module in modules.values())


def test_ctrl_c_while_the_command_line_starts_is_one_line_and_130(tmp_path):
    """sims/__init__ handles Ctrl-C from its first line when it is the program; here it arrives as the
    command line's own modules are imported, before main runs."""
    (tmp_path / "sitecustomize.py").write_text(
        textwrap.dedent("""
        import os, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)   # as in a terminal

        class CtrlC:
            def find_spec(self, name, path=None, target=None):
                if name == "sims.cli":
                    os.kill(os.getpid(), signal.SIGINT)

        sys.meta_path.insert(0, CtrlC())
    """)
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, "-m", "sims", "score", "5H", "5C", "5S", "JD", "--starter", "5D"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert (out.returncode, out.stderr, out.stdout) == (130, "sims: interrupted\n", "")


def test_importing_sims_leaves_ctrl_c_alone():
    # Compared with the handler the process started with (pytest-xdist's workers start their children ignoring SIGINT).
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import signal; before = signal.getsignal(signal.SIGINT); import sims; "
            "print(signal.getsignal(signal.SIGINT) is before)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.split() == ["True"]


def test_near_certain_chances_are_not_certainties():
    assert [percent(x) for x in (0.99996, 0.99994, 0.5, 0.00004, 0.00006, 1.0, 0.0)] == [
        "> 99.99",
        "99.99",
        "50.00",
        "< 0.01",
        "0.01",
        "> 99.99",
        "< 0.01",
    ]
    assert percent(0.25, width=7) == "  25.00"


def test_odds_shows_no_certainty_from_a_rounded_table(capsys):
    assert main(["odds", "--score", "120-0", "--score", "0-120"]) == 0
    text = capsys.readouterr().out
    assert "100.00" not in text and "> 99.99%" in text and "< 0.01%" in text


def test_odds_json_grid_is_labelled(capsys):
    assert main(["odds", "--rules", "six-card-61", "--json"]) == 0
    grid = json.loads(capsys.readouterr().out)["grid"]
    assert grid["dealer"] == grid["pone"] == list(range(0, 61, 5))
    assert grid["win"].startswith("the dealer's chance of winning")
    assert len(grid["chance"]) == 13 and all(len(row) == 13 for row in grid["chance"])
