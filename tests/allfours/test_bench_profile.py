"""The All Fours profile (sims.allfours.bench.profile): its phase kernel replays the engine's hands, and its rows
add up.  No speed is asserted: the machine may be loaded, and the figures are for reading.

The tests share one pytest-xdist worker (``--dist loadgroup``): its phase kernels, which ``sims compile``
leaves out, are compiled once for them all (about 5 s of CPU), not once a worker."""

import pytest

from sims.allfours import simulate_deals
from sims.allfours.bench import profile
from sims.bench import benchmarks

pytestmark = pytest.mark.xdist_group("bench-allfours-profile")


def _total(result):
    totals = result.batch.totals
    return int(totals[(totals.scope == "role") & (totals.component == "total")]["sum"].sum())


def test_phase_kernel_and_hand_loop_score_what_simulate_deals_scores():
    """Same seed: the engine's hand in a plain loop scores exactly what ``simulate_deals`` adds up, and so does
    the phase kernel run through counting (no pack ran short in these deals), so each phase is timed on the
    deals the full deal plays."""
    t = profile.profile("two-hand", profile.RANDOM, n=3000, seed=2, repeats=1)
    engine = simulate_deals("two-hand", profile.RANDOM, 3000, seed=2, threads=1)
    assert engine.batch.total("hand", "all", "redeals")[1] == 0
    assert t["hand points"] == _total(engine)
    assert t["phase points"] == t["hand points"]
    assert t["rounds run"] == engine.batch.total("hand", "all", "rounds run")[1] / 3000
    assert t["rounds run"] > 0


def test_phase_kernel_leaves_out_only_hands_whose_pack_ran_short():
    """Four-hand packs run short after two rounds: the phase kernel stops those hands, the engine deals again."""
    t = profile.profile("four-hand", profile.RANDOM, n=3000, seed=5, repeats=1)
    engine = simulate_deals("four-hand", profile.RANDOM, 3000, seed=5, threads=1)
    redeals = engine.batch.total("hand", "all", "redeals")[1]
    assert t["hand points"] == _total(engine)
    assert redeals > 0 and t["phase points"] < t["hand points"]


def test_rows_add_up_to_the_full_deal():
    assert benchmarks()[0]["allfours_profile"] is profile
    note, row = profile.run(n=20_000, cases=(("two-hand", "random", profile.RANDOM),), repeats=2)
    assert "CPU ns a deal" in note["what"] and "load average" in note["what"]
    assert row["what"] == "two-hand: random" and row["deals"] == 20_000
    # Seeding is timed alone; the play, most of a hand, is a difference far above the timing noise.  The other
    # parts are differences that noise on a loaded machine can make negative.
    assert row["seed ns"] > 0 and row["play ns"] > 0
    # By definition the parts (phases, joins, bookkeeping, python) add up to the full deal.
    assert abs(sum(row[f"{part} ns"] for part in profile.PARTS) - row["full ns"]) < 1e-6 * row["full ns"]
