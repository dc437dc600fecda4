"""Job.make takes the options an engine module declares in its OPTIONS (sims.core.jobs), and only with it."""

from __future__ import annotations

import pytest

from sims.core.jobs import Job
from sims.cribbage.lab.odds import direct, timings

POLICIES = {"discard": "expected_net", "peg": "defensive"}


def test_an_engine_s_own_options_are_taken():
    job = Job.make("cribbage", "deals", "six-card", POLICIES, 100, 1, engine=timings.__name__, groups=4)
    assert job.option("groups") == 4 and job.describe()["groups"] == 4 and job.engine == timings.__name__
    job = Job.make(
        "cribbage",
        "games",
        "six-card-61",
        POLICIES,
        10,
        1,
        engine=direct.ENGINE,
        positions=(50, 55),
        points=(1.0, 2.0, 3.0),
    )
    assert job.option("positions") == (50, 55) and job.option("points") == (1.0, 2.0, 3.0)
    assert set(timings.OPTIONS) == {"groups"} and set(direct.OPTIONS) == {"positions", "points"}


def test_the_game_s_options_stand_beside_the_engine_s():
    job = Job.make(
        "cribbage", "games", "six-card", POLICIES, 10, 1, engine=direct.ENGINE, positions=(0, 0), score_log=True
    )
    assert job.option("score_log") is True


def test_options_no_one_declares_are_refused():
    with pytest.raises(
        ValueError,
        match=r"unknown cribbage \(sims.cribbage.lab.odds.timings\) option 'group'; "
        r"options: score_log, groups",
    ):
        Job.make("cribbage", "deals", "six-card", POLICIES, 100, 1, engine=timings.__name__, group=4)
    with pytest.raises(ValueError, match="unknown cribbage option 'groups'; options: score_log$"):
        Job.make("cribbage", "deals", "six-card", POLICIES, 100, 1, groups=4)
