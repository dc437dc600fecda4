"""analysis.stats: intervals against hand-computed values and seeded coverage checks."""
import math

import numpy as np
import pandas as pd
import pytest

from analysis import stats


def test_z_value_95():
    assert stats.z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        stats.z_value(1.5)


def test_wilson_hand_computed_8_of_10():
    # p = 0.8, z² = 3.841459: centre = (0.8 + 0.192073)/1.384146 = 0.716738,
    # half = 1.959964·√(0.016 + 0.009604)/1.384146 = 0.226578.
    lo, hi = stats.wilson(8, 10)
    assert lo == pytest.approx(0.490162, abs=1e-5)
    assert hi == pytest.approx(0.943318, abs=1e-5)


def test_wilson_edges_stay_in_unit_interval():
    lo, hi = stats.wilson(0, 20)
    assert lo == 0.0 and 0 < hi < 0.2
    lo, hi = stats.wilson(20, 20)
    assert hi == 1.0 and 0.8 < lo < 1
    assert stats.wilson(5, 50, 0.99)[0] < stats.wilson(5, 50)[0]


@pytest.mark.parametrize("x, n", [(11, 10), (-1, 10), (1, 0), (2.5, 10)])
def test_wilson_bad_counts(x, n):
    with pytest.raises(ValueError):
        stats.wilson(x, n)


def test_normal_ci_coverage_seeded():
    """2000 samples of 100 normal draws: the 95% interval covers the mean 95% ± 1.5 points (3 sd)."""
    rng = np.random.default_rng(2024)
    x = rng.normal(3.0, 2.0, size=(2000, 100))
    covered = sum(lo <= 3.0 <= hi for lo, hi in (stats.mean_ci(row).interval for row in x))
    assert abs(covered / 2000 - 0.95) < 0.015


@pytest.mark.parametrize("n, p", [(200, 0.05), (50, 0.1), (100, 0.5), (30, 0.02)])
def test_wilson_exact_coverage(n, p):
    """Exact binomial coverage of the 95% Wilson interval stays near 95% even at small rates."""
    def covers(k):
        lo, hi = stats.wilson(k, n)
        return lo <= p <= hi
    coverage = sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1) if covers(k))
    assert 0.94 <= coverage <= 0.99


def test_mean_ci_matches_formula_and_rejects_bad_samples():
    e = stats.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert e.estimate == 2.5 and e.n == 4
    assert e.se == pytest.approx(math.sqrt(5 / 3) / 2)
    assert e.hi - e.estimate == pytest.approx(1.959964 * e.se, rel=1e-6)
    with pytest.raises(ValueError, match="at least 2"):
        stats.mean_ci([1.0])
    with pytest.raises(ValueError, match="NaN"):
        stats.mean_ci([1.0, np.nan])


def test_rate_ci():
    e = stats.rate_ci(30, 100)
    assert e.estimate == 0.3 and e.se == pytest.approx(math.sqrt(0.21 / 100))
    assert e.interval == stats.wilson(30, 100)


def test_bootstrap_reproducible_with_seed():
    x = np.random.default_rng(1).exponential(size=300)
    a = stats.bootstrap_ci(x, seed=5, n_boot=500)
    b = stats.bootstrap_ci(x, seed=5, n_boot=500)
    c = stats.bootstrap_ci(x, seed=6, n_boot=500)
    assert a == b
    assert a.interval != c.interval


def test_bootstrap_mean_agrees_with_normal_interval():
    x = np.random.default_rng(3).normal(10, 1, size=1000)
    boot, normal = stats.bootstrap_ci(x, seed=1), stats.mean_ci(x)
    assert boot.estimate == pytest.approx(normal.estimate)
    assert boot.lo == pytest.approx(normal.lo, abs=0.01)
    assert boot.hi == pytest.approx(normal.hi, abs=0.01)


def test_bootstrap_median_batches():
    x = np.arange(1.0, 102.0)
    e = stats.bootstrap_ci(x, np.median, n_boot=300, seed=0)
    assert e.estimate == 51.0 and e.lo < 51 < e.hi


def test_paired_diff_on_common_random_numbers():
    """Both policies share a large per-deal variance; pairing removes it."""
    rng = np.random.default_rng(11)
    deal = rng.normal(0, 5, size=5000)
    a = deal + rng.normal(0, 0.3, size=5000)
    b = deal + 0.1 + rng.normal(0, 0.3, size=5000)
    c = stats.paired_diff(a, b)
    assert c.lo <= -0.1 <= c.hi
    assert c.se < 0.01 < stats.mean_ci(a).se
    assert c.z < -10 and c.p < 1e-10
    with pytest.raises(ValueError, match="same length"):
        stats.paired_diff(a, b[:-1])


def test_paired_diff_no_difference():
    x = np.array([1.0, 2.0, 3.0])
    c = stats.paired_diff(x, x)
    assert c.estimate == 0 and c.z == 0 and c.p == 1


def test_two_proportions_newcombe_example():
    # Newcombe (1998), Stat. Med. 17:873, example (a): 56/70 − 48/80, method 10: 0.0524 to 0.3339.
    c = stats.two_proportions(56, 70, 48, 80)
    assert c.estimate == pytest.approx(0.2)
    assert c.lo == pytest.approx(0.0524, abs=1e-4)
    assert c.hi == pytest.approx(0.3339, abs=1e-4)
    assert c.z == pytest.approx(2.650, abs=1e-3)  # pooled test


def test_combine_bound_and_independent():
    bound = stats.combine([16.2, 10.1], [0.03, 0.04], [1, 1], 1000)
    indep = stats.combine([16.2, 10.1], [0.03, 0.04], [1, 1], 1000, independent=True)
    assert bound.estimate == pytest.approx(26.3)
    assert bound.se == pytest.approx(0.07) and indep.se == pytest.approx(0.05)
    diff = stats.combine([2.0, 1.5], [0.1, 0.1], [1, -1], 10)
    assert diff.estimate == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same length"):
        stats.combine([1.0], [0.1, 0.2], [1], 10)


def test_breakdown_table_orders_and_formats():
    tidy = pd.DataFrame({"role": ["pone", "pone", "dealer", "dealer", "dealer"],
                         "component": ["total", "hand", "crib", "hand", "total"],
                         "mean": [10.1, 8.1, 4.7, 8.0, 16.2], "se": [0.01, 0.005, 0.004, 0.005, 0.02],
                         "n": [100] * 5})
    t = stats.breakdown_table(tidy)
    assert list(t.index) == ["pone", "dealer"]
    assert list(t.columns) == ["hand", "crib", "total"]
    assert t.loc["dealer", "total"] == "16.20 ± 0.04"
    assert t.loc["pone", "crib"] == ""
    with pytest.raises(ValueError, match="missing"):
        stats.breakdown_table(tidy.drop(columns="se"))
