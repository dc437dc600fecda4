"""A user's function named ``py:MODULE.FUNCTION`` declares its parameters (sims.core.plugins.declare): it takes
them by name like a built-in, a run stores and rebuilds them by name, and sims tune searches them over the
declared ranges; a bad declaration, or a function that declares nothing, is refused in one line."""

from __future__ import annotations

import json
import sys

import pytest

from sims.cli import main
from sims.core import outcomes
from sims.core.plugins import declare
from sims.core.policies import SWITCH, Range
from sims.core.registry import get_game
from sims.core.tune import Dimension, search_space

pytest.importorskip("optuna")

# The eldest begs below a strength, as the built-in threshold player, from a module of the user's own.
MODULE = """
from numba import njit

from sims.allfours.contract import HAND_SIG
from sims.allfours.policies.begging import threshold_beg
from sims.core.plugins import declare
from sims.core.policies import Range


@declare(params=("below",), defaults=(3.0,), ranges=(Range("number", 0, 8),), help="beg below a strength")
@njit(HAND_SIG)
def weak_beg(hand, state, rules, rng, params):
    return threshold_beg(hand, state, rules, rng, params)


@njit(HAND_SIG)
def plain_beg(hand, state, rules, rng, params):
    return threshold_beg(hand, state, rules, rng, params)
"""
PATH = "py:user_begging.weak_beg"
FIELD = {"beg": "threshold", "answer": "threshold", "play": "maxims", "discard": "cheapest"}


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    """The user's module on the path, imported (and its functions compiled) once for these tests."""
    folder = tmp_path_factory.mktemp("user")
    (folder / "user_begging.py").write_text(MODULE)
    sys.path.insert(0, str(folder))
    yield
    sys.path.remove(str(folder))
    sys.modules.pop("user_begging", None)


def test_a_declared_function_takes_its_parameters_by_name(module):
    from sims.core.jobs import resolve_one

    game = get_game("allfours")
    default = resolve_one(game, "beg", PATH)
    assert default.params == (3.0,) and default.describe()["params"] == {"below": 3.0}
    changed = resolve_one(game, "beg", f"{PATH}:below=5")
    assert changed.params == (5.0,) and changed.label() == "weak_beg:below=5"
    assert resolve_one(game, "beg", {"name": PATH, "params": {"below": 1}}).params == (1.0,)
    with pytest.raises(ValueError, match=r"parameter 'below' takes a number from 0 to 8, got 9"):
        resolve_one(game, "beg", f"{PATH}:below=9")
    with pytest.raises(ValueError, match="'plain_beg' declares no parameters, so none can be named"):
        resolve_one(game, "beg", "py:user_begging.plain_beg:below=2")


def test_its_parameters_reach_the_function(module):
    """The declared function at strength s plays the same games, on the same seeds, as the built-in threshold
    player at s (it calls it with the vector it is given); at another strength, other games."""
    rules = get_game("allfours").get_rules("two-hand")

    def values(policy, strength):
        candidate = {"beg": {"name": policy, "params": {"below" if policy == PATH else "strength": strength}}}
        return outcomes.paired_values("allfours", rules, FIELD, candidate, "points", 200, 5)

    assert (values(PATH, 5) == values("threshold", 5)).all()
    assert (values(PATH, 0) != values(PATH, 5)).any()


def test_a_run_stores_and_rebuilds_them_by_name(module, tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(f'game = "allfours"\ngames = 20\nbeg = "{PATH}:below=4"\n')
    out = tmp_path / "run"
    assert main(["run", str(spec), "--out", str(out), "--allow-import", "--quiet"]) == 0
    capsys.readouterr()
    entry = json.loads((out / "manifest.json").read_text())["job"]["policies"]["beg"][0]
    assert entry["params"] == {"below": 4.0} and entry["builtin"] is False
    from sims.core.spec import job_from_spec

    job = json.loads((out / "manifest.json").read_text())["job"]
    again = job_from_spec(job).policies["beg"][0]
    assert again.params == (4.0,) and again.spec.params == ("below",)
    assert job_from_spec(job, import_functions=False).policies["beg"][0].params == (4.0,)
    job["policies"]["beg"][0]["params"] = {"above": 4.0}
    with pytest.raises(ValueError, match="stored with the parameters above; its function now declares below"):
        job_from_spec(job)


def test_tune_searches_the_declared_range(module, tmp_path, capsys):
    assert search_space("allfours", "beg", PATH) == [Dimension("below", "number", 0.0, 8.0, 3.0)]
    argv = ["tune", "--game", "allfours", "--beg", PATH, "--trials", "3", "--per-trial", "8", "--check", "8"]
    assert main([*argv, "--storage", str(tmp_path / "s.sqlite3"), "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["trials"] == 3 and 0 <= result["best"]["below"] <= 8
    assert result["check"]["default"] == {"below": 3.0} and result["check"]["items"] == 8


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--beg", "py:user_begging.plain_beg"], "'py:user_begging.plain_beg' declares no parameters to search"),
        (["--beg", PATH, "--params", "above"], "has no parameter 'above' (it takes below)"),
        (["--beg", PATH, "--range", "below=2:2"], "parameter 'below' has an empty range 2 to 2"),
        (["--beg", PATH, "--range", "below=2:9"], "takes a number from 0 to 8, got the range 2 to 9"),
        (["--beg", PATH, "--range", "below=a:b"], "range 'a:b': write LOW:HIGH"),
        (["--beg", f"{PATH}:below=2"], "name the policy to tune without parameters"),
    ],
)
def test_bad_input_is_one_line_and_status_2(module, argv, message, tmp_path, capsys):
    storage = tmp_path / "never.sqlite3"
    assert main(["tune", "--game", "allfours", *argv, "--storage", str(storage), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not storage.exists()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(params=("a", "b"), defaults=(1.0,), ranges=(SWITCH,)), "one default and one range for each"),
        (dict(params=(), defaults=(), ranges=()), "at least one parameter"),
        (dict(params=("a", "a"), defaults=(1, 1), ranges=(SWITCH, SWITCH)), "'a' is not a name .* given once"),
        (dict(params=("a b",), defaults=(1,), ranges=(SWITCH,)), "'a b' is not a name"),
        (dict(params=("a",), defaults=(1,), ranges=((0, 1),)), "the range of 'a' is a tuple, not a Range"),
        (dict(params=("a",), defaults=(2,), ranges=(SWITCH,)), r"parameter 'a' takes 0 \(off\) or 1 \(on\), got 2"),
        (dict(params=("a",), defaults=("x",), ranges=(Range("number"),)), "parameter 'a' must be a number"),
    ],
)
def test_a_bad_declaration_is_refused_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message):
        declare(**kwargs)(lambda hand, state, rules, rng, params: 0)
