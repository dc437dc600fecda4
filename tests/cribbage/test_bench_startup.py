"""The start-up benchmark (sims.cribbage.bench.startup): a row per command with its goal, timed to the process's end or,
for the first decision from Python, to the decision.  No speed is asserted: the machine may be loaded."""

import pytest

from sims.bench import benchmarks
from sims.bench.timing import sims_command, timed
from sims.cribbage.bench import startup


def test_every_command_of_the_goals_has_a_row_with_its_goal():
    assert benchmarks()[0]["startup"] is startup
    goals = {what.split(" (")[0].split(":")[0]: goal for what, _, goal in startup.commands()}
    assert goals["sims --version"] == goals["sims policies"] == 0.5
    assert goals["sims " + " ".join(startup.DISCARD)] == goals["sims " + " ".join(startup.PEG)] == 1.0
    assert goals["sims simulate --deals 1"] == goals["python"] == 1.0
    assert "floor" in goals and "python -c 'import sims'" in goals


def test_a_row_is_timed_and_judged_against_its_goal():
    row = startup._row("sims --version", sims_command() + ["--version"], 60.0, runs=1)
    assert row["runs"] == 1 and 0 < row["wall s"] < 60 and row["cpu s"] > 0 and row["meets"] == "yes"


@pytest.mark.parametrize("moment", ["FIRST_DECISION", "FIRST_DEAL"])
def test_the_first_decision_and_deal_are_timed_to_that_moment_not_to_the_exit(moment):
    """The child's CPU and clock when it has decided (or dealt): less than the whole run, which goes on to the
    exit."""
    import time

    ((what, command, goal),) = [c for c in startup.commands() if c[1][-1] == getattr(startup, moment)]
    start = time.perf_counter()
    cpu, wall = timed(command)
    assert goal == 1.0 and 0 < wall < time.perf_counter() - start and cpu > 0
