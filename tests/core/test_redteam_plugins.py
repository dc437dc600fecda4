"""Broken plug-ins (entry points of ``sims.policies`` and ``sims.games``): ``sims policies`` names the broken one on
stderr and lists the others; a command that needs it says in one line, exit status 2, what failed.

The entry points are made here (:class:`importlib.metadata.EntryPoint` of modules in a temporary folder) and put in
place of the installed ones.  Each test's name starts with what it did before: ``traceback``, ``accepted`` (a wrong
exit 0) or ``smaller`` (a poor answer)."""

from __future__ import annotations

import types
from importlib.metadata import EntryPoint

import pytest

from sims.cli import main
from sims.core import plugins, registry

MODULES = {
    "plug_raises": "raise RuntimeError('declaration exploded')\n",
    "plug_exits": "import sys\nsys.exit(0)\n",
    "plug_syntax": "LOW = (\n",
    "plug_ok": (
        "from sims.core.policies import PluginPolicy\n"
        "LOW = PluginPolicy(game='cribbage', decision='peg', function='plug_fn_raises:low_peg', help='low')\n"
    ),
    "plug_fn_raises": "raise ValueError('function module exploded')\n",
    "game_raises": "raise ImportError('no such card table')\n",
}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _dist(name):
    return types.SimpleNamespace(name=name, version="1.0")


def _policies(monkeypatch, *eps):
    found = tuple(sorted(plugins.entries() + eps, key=lambda ep: (ep.name, ep.value)))
    monkeypatch.setattr(plugins, "entries", lambda: found)


def _ep(name, value, dist="broken-dist", group=plugins.GROUP):
    return EntryPoint(name, value, group)._for(_dist(dist))


def _call(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err[-3000:]
    return code, out, err


@pytest.mark.parametrize(
    "module, says",
    [
        ("plug_raises", "RuntimeError: declaration exploded"),
        ("plug_exits", "it called sys.exit(0)"),
        ("plug_syntax", "SyntaxError"),
    ],
)
def test_traceback_policies_names_a_broken_plugin_and_lists_the_others(module, says, folder, capsys, monkeypatch):
    _policies(monkeypatch, _ep("broken", f"{module}:LOW"))
    code, out, err = _call(capsys, ["policies", "--game", "cribbage"])
    assert code == 0, err
    assert "expected_net" in out and "low_peg" in out  # a built-in and the example plug-in still listed
    lines = err.splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("sims policies: skipped plug-in policy broken") and says in lines[0]
    ), lines


def test_traceback_a_plugin_whose_function_module_raises_is_one_line(folder, capsys, monkeypatch):
    _policies(monkeypatch, _ep("lowest", "plug_ok:LOW"))
    code, out, err = _call(capsys, ["simulate", "--deals", "10", "--quiet", "--peg", "lowest"])
    assert code == 2 and not out
    lines = err.splitlines()
    assert (
        len(lines) == 1 and "plug_fn_raises:low_peg" in lines[0] and "ValueError: function module exploded" in lines[0]
    ), lines


def test_traceback_a_broken_plugin_of_that_name_is_one_line(folder, capsys, monkeypatch):
    _policies(monkeypatch, _ep("lowest", "plug_exits:LOW"))
    code, out, err = _call(capsys, ["simulate", "--deals", "10", "--quiet", "--peg", "lowest"])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "plug-in policy lowest" in err and "sys.exit(0)" in err, err


def test_smaller_two_distributions_declaring_one_name_are_both_named(folder, capsys, monkeypatch):
    _policies(
        monkeypatch, _ep("twice", "plug_ok:LOW", dist="first-dist"), _ep("twice", "plug_ok:LOW", dist="second-dist")
    )
    code, out, err = _call(capsys, ["simulate", "--deals", "10", "--quiet", "--peg", "twice"])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "first-dist" in err and "second-dist" in err, err


def _games(monkeypatch, name, value):
    found = {**registry.registered(), name: EntryPoint(name, value, registry.GROUP)._for(_dist("game-dist"))}
    monkeypatch.setattr(registry, "registered", lambda: dict(sorted(found.items())))


def test_traceback_a_game_entry_point_that_raises_is_one_line(folder, capsys, monkeypatch):
    _games(monkeypatch, "brokengame", "game_raises:GAME")
    code, out, err = _call(capsys, ["simulate", "--game", "brokengame", "--deals", "10", "--quiet"])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "game brokengame" in err and "ImportError: no such card table" in err, err


def test_traceback_policies_skips_a_broken_game_and_lists_the_others(folder, capsys, monkeypatch):
    _games(monkeypatch, "brokengame", "game_raises:GAME")
    code, out, err = _call(capsys, ["policies"])
    assert code == 0, err
    assert "cribbage --peg" in out and "loo --card" in out
    assert err.count("\n") == 1 and err.startswith("sims policies: skipped game brokengame"), err
