"""sims tune (sims.core.tune, sims.core.outcomes): the search space from the declarations, common random numbers
with seats exchanged, a study resumed after kill -9 asking the same trials, and bad input refused in one line."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from sims.cli import main
from sims.core import outcomes
from sims.core.outcomes import field_policies
from sims.core.tune import STARTUP, Dimension, _sampler, block_seeds, search_space, tune

pytest.importorskip("optuna")

FIELD = {"beg": "threshold", "answer": "threshold", "play": "maxims", "discard": "cheapest"}
# A study small enough for the test: All Fours begging against maxims play, 8 trials (5 at random, then TPE)
# of 8 games each.
STUDY = dict(game="allfours", decision="beg", policy="threshold", against="maxims", trials=8, n=8, check=8, seed=3)


def test_space_comes_from_the_declared_types_and_ranges():
    assert search_space("allfours", "beg", "threshold") == [Dimension("strength", "number", -2.0, 6.0, 2.0)]
    defensive = search_space(
        "cribbage", "peg", "defensive", names=["keep_close", "risk_weight"], ranges={"risk_weight": "0:2"}
    )
    assert defensive == [
        Dimension("risk_weight", "number", 0.0, 2.0, 1.0),
        Dimension("keep_close", "switch", 0.0, 1.0, 1.0),
    ]
    # a count: a whole number from its declared lower bound; an "at least 0" number keeps its bound
    rollout = search_space("cribbage", "peg", "rollout")
    assert rollout == [Dimension("samples", "count", 1.0, 96.0, 32.0), Dimension("margin", "number", 0.0, 2.25, 0.25)]


@pytest.mark.parametrize(
    "policy, names, ranges, message",
    [
        ("threshold", ["nope"], None, "has no parameter 'nope'"),
        ("threshold", None, {"strength": "3:1"}, "empty range 3 to 1"),
        ("threshold", None, {"strength": "2:2"}, "empty range 2 to 2"),
        ("random", None, None, "has no parameters to tune"),
        (
            "py:sims.allfours.policies.begging.threshold_beg",
            None,
            None,
            "'py:sims.allfours.policies.begging.threshold_beg' declares no parameters to search",
        ),
    ],
)
def test_space_refuses_what_cannot_be_searched(policy, names, ranges, message):
    with pytest.raises(ValueError, match=message):
        search_space("allfours", "beg", policy, names, ranges)


def test_a_table_is_not_a_number_to_tune():
    with pytest.raises(ValueError, match=r"takes a table \(distilled pegging tables\), not numbers"):
        search_space("cribbage", "peg", "distilled")
    with pytest.raises(ValueError, match=r"takes 0 \(off\) or 1 \(on\), got the range 0 to 2"):
        search_space("cribbage", "peg", "defensive", ranges={"keep_close": (0, 2)})


def test_field_is_a_name_for_every_decision_that_has_it_or_one_per_decision():
    assert field_policies("allfours", None) == FIELD
    assert field_policies("allfours", "greedy") == {**FIELD, "play": "greedy"}
    assert field_policies("allfours", "beg=stand,play=random") == {**FIELD, "beg": "stand", "play": "random"}
    with pytest.raises(ValueError, match="unknown beg policy 'nobody'"):
        field_policies("allfours", "nobody")


def test_common_random_numbers_pair_the_candidates():
    """The same seed and setting give the same games; the field against itself, seats exchanged on the same
    deals, wins exactly half of them (each game is won once by each placement); search and check seeds differ."""
    rules = "two-hand"
    once = outcomes.paired_values(
        "allfours", rules_of(rules), FIELD, {"beg": {"name": "threshold", "params": {"strength": 4}}}, "games", 24, 11
    )
    again = outcomes.paired_values(
        "allfours", rules_of(rules), FIELD, {"beg": {"name": "threshold", "params": {"strength": 4}}}, "games", 24, 11
    )
    np.testing.assert_array_equal(once, again)
    assert set(np.unique(once)) <= {0.0, 0.5, 1.0}
    same = outcomes.paired_values("allfours", rules_of(rules), FIELD, {"beg": "threshold"}, "games", 24, 11)
    np.testing.assert_array_equal(same, np.full(24, 0.5))
    net = outcomes.paired_values("allfours", rules_of(rules), FIELD, {"beg": "threshold"}, "net", 24, 11)
    np.testing.assert_array_equal(net, np.zeros(24))
    assert not set(block_seeds(3, 4)) & set(block_seeds(3, 4, held_out=True))


def rules_of(name):
    from sims.core.registry import get_game

    return get_game("allfours").get_rules(name)


def finished(study):
    return [(t.params, t.value, t.state.name) for t in study.trials if t.state.name != "FAIL"]


CHILD = """
import sys
from sims.core.tune import tune
tune(**{study!r}, storage=sys.argv[1])
"""


def test_a_study_killed_mid_way_resumes_to_the_same_trials(tmp_path):
    """kill -9 after two trials are stored; the same call resumes: the trials done are kept, and the study ends
    with the trials and values of an uninterrupted run of the same seed."""
    whole = tune(**STUDY, storage=tmp_path / "whole.sqlite3")
    path = tmp_path / "killed.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(study=STUDY), str(path)], stderr=subprocess.PIPE, text=True
    )
    try:
        stored = 0
        deadline = time.monotonic() + 300  # a loaded two-core machine
        while stored < 2 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            stored = complete_trials(path)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        _, err = child.communicate()
    kept = complete_trials(path)
    assert child.returncode == -signal.SIGKILL, f"the child ended by itself ({child.returncode}): {err[-2000:]}"
    assert 2 <= kept < STUDY["trials"], "the child was not killed mid-study"
    resumed = tune(**STUDY, storage=path)
    assert finished(resumed.study)[:kept] == finished(whole.study)[:kept]
    assert finished(resumed.study) == finished(whole.study)
    assert resumed.best == whole.best and resumed.check == whole.check


def complete_trials(path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path) as db:
            return db.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0


def test_cli_tunes_and_checks_on_fresh_seeds(tmp_path, capsys):
    assert (
        main(
            [
                "tune",
                "--game",
                "allfours",
                "--answer",
                "threshold",
                "--trials",
                "2",
                "--per-trial",
                "8",
                "--storage",
                str(tmp_path / "s.sqlite3"),
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    import json

    result = json.loads(capsys.readouterr().out)
    assert result["trials"] == 2 and result["check"]["items"] == 16
    assert result["check"]["lo"] <= result["check"]["gain"] <= result["check"]["hi"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--beg", "threshold", "--params", "nope"], "beg policy 'threshold' has no parameter 'nope'"),
        (["--beg", "threshold", "--range", "strength=3:1"], "empty range 3 to 1"),
        (["--beg", "threshold", "--objective", "wins"], "unknown objective 'wins'"),
        (["--beg", "threshold", "--trials", "0"], "--trials: expected a positive integer, got 0"),
        (["--discard", "cheapest"], "discard policy 'cheapest' has no parameters to tune"),
        (["--beg", "threshold", "--answer", "threshold"], "name one decision's policy to tune"),
    ],
)
def test_bad_input_is_one_line_and_status_2_before_any_game(argv, message, tmp_path, capsys):
    storage = tmp_path / "never.sqlite3"
    assert main(["tune", "--game", "allfours", *argv, "--storage", str(storage), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not storage.exists()


def test_a_new_study_asks_the_policys_defaults_first(tmp_path):
    """The first trial plays the default (threshold strength 2), so the best found is never below it on the
    search's seeds; a range that leaves the default out is searched from the first trial on."""
    tuned = tune(**{**STUDY, "trials": 2}, storage=tmp_path / "a.sqlite3")
    first = tuned.study.trials[0]
    assert first.params == {"strength": 2.0} and tuned.study.best_value >= first.value
    narrow = tune(**{**STUDY, "trials": 1, "ranges": {"strength": "3:5"}}, storage=tmp_path / "b.sqlite3")
    assert 3 <= narrow.study.trials[0].params["strength"] <= 5


def test_the_sampler_models_every_trial_told_before(tmp_path):
    """The first trial after the random ones is what a fresh TPE sampler of the same seed asks, given the trials
    told before it (Optuna caches a study's trials per thread: a sampler asked on a thread that did not ask the
    trial would model a stale list)."""
    tuned = tune(**{**STUDY, "trials": STARTUP + 1}, storage=tmp_path / "a.sqlite3")
    told = tuned.study.trials
    import optuna

    again = optuna.create_study(direction="maximize", sampler=_sampler(STUDY["seed"], STARTUP))
    for trial in told[:STARTUP]:
        again.add_trial(trial)
    (dimension,) = search_space("allfours", "beg", "threshold")
    assert dimension.suggest(again.ask()) == told[STARTUP].params["strength"]


def test_trials_on_threads_are_asked_in_a_fixed_order(tmp_path):
    """jobs=2: two trials are asked (each with its own seeded sampler), played on threads and told in order, so
    two studies of the same seed have the same trials."""
    small = {**STUDY, "trials": 4, "n": 4, "check": 4, "jobs": 2}
    first = tune(**small, storage=tmp_path / "a.sqlite3")
    second = tune(**small, storage=tmp_path / "b.sqlite3")
    assert finished(first.study) == finished(second.study) and len(finished(first.study)) == 4


def test_a_deals_roles_are_counted_from_the_dealer():
    """Two deals of a two-hand game, the dealer seat 1 then seat 0: seat 0 is pone in the first (2 points against
    the dealer's 5) and dealer in the second (4 against 1); five seats of Loo, the dealer seat 3: seat 0 is
    hand 2."""
    import pandas as pd

    two = type("Rules", (), {"players": 2, "sides": 2})()
    rows = pd.DataFrame({"dealer": [1, 0], "dealer_total": [5, 4], "pone_total": [2, 1]})
    assert outcomes.per_item("points", rows, two, 0).tolist() == [2, 4]
    assert outcomes.per_item("net", rows, two, 0).tolist() == [-3, 3]
    assert outcomes.per_item("net", rows, two, 1).tolist() == [3, -3]
    five = type("Rules", (), {"players": 5, "sides": None})()
    money = {f"{role}_money": [k] for k, role in enumerate(["dealer", "eldest", "hand 2", "hand 3", "hand 4"])}
    loo = pd.DataFrame({"dealer": [3], **money})
    assert [outcomes.per_item("stakes", loo, five, seat)[0] for seat in range(5)] == [2, 3, 4, 0, 1]
    with pytest.raises(ValueError, match="needs a winner of each game"):
        outcomes.per_item("games", loo, five, 0)
