"""The deal profile (sims.cribbage.bench.profile): its phase kernels replay the engine's deals, and its rows add up.

No speed is asserted: the machine may be loaded, and the figures are for reading.

The tests share one pytest-xdist worker (``--dist loadgroup``): its phase kernels, which ``sims compile``
leaves out, are compiled once for them all (about 17 s of CPU), not once a worker."""

import pytest

from sims.bench import benchmarks
from sims.cribbage import simulate_deals
from sims.cribbage.bench import profile

pytestmark = pytest.mark.xdist_group("bench-profile")


def _role_sum(result, component):
    totals = result.batch.totals
    return int(totals[(totals.scope == "role") & (totals.component == component)]["sum"].sum())


def test_phase_kernels_play_the_same_deals_as_simulate_deals():
    """Same seed: the play kernel pegs, the show kernel shows and the deal loop scores exactly what the
    engine's ``simulate_deals`` adds up, so each phase is timed on the deals the full deal plays."""
    times = profile.phase_times("greedy", "defensive", n=3000, seed=5, repeats=1)
    engine = simulate_deals(profile.RULES, {"discard": "greedy", "peg": "defensive"}, 3000, seed=5, threads=1)
    assert times["play points"] == _role_sum(engine, "pegging")
    assert times["show points"] == _role_sum(engine, "hand") + _role_sum(engine, "crib")
    assert times["deal points"] == _role_sum(engine, "total")
    assert all(times[phase] > 0 for phase in profile.PHASES)


def test_profile_rows_have_positive_phases_that_add_up():
    assert benchmarks()[0]["profile"] is profile
    note, row = profile.run(n=20_000, pairs=(("random", "random"),), repeats=1)
    assert "process CPU time" in note["what"] and "load average" in note["what"]
    assert row["what"] == "random / random" and row["deals"] == 20_000
    phases = [row[f"{phase} ns"] for phase in profile.PHASES]
    assert all(ns > 0 for ns in phases) and all(row[f"{phase} %"] > 0 for phase in profile.PHASES)
    # By definition the parts (phases, joins, bookkeeping, python) add up to the full deal.
    assert abs(sum(row[f"{part} %"] for part in profile.PARTS) - 100) < 1e-6
    # The parts in ns add up to the full deal's ns as well, and the deal's points are the engine's own.
    assert abs(sum(row[f"{part} ns"] for part in profile.PARTS) - row["full ns/deal"]) < 1e-6 * row["full ns/deal"]
    assert row["deal points"] >= row["play points"] + row["show points"] > 0
