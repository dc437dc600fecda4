"""sims.stats: intervals against hand-computed values, exact coverage and seeded checks."""

import math

import numpy as np
import pandas as pd
import pytest

from sims import stats
from sims.stats import mean_se, wilson


def test_z_value_95():
    assert stats.z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert stats.z_value(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        stats.z_value(1.5)


def test_the_written_out_z_is_the_normal_quantile_of_the_level():
    """The results' intervals use Z95 without importing scipy: it is exactly z_value(LEVEL)."""
    assert stats.LEVEL == 0.95 and stats.Z95 == stats.z_value(stats.LEVEL)


def test_wilson_hand_computed_8_of_10():
    # p = 0.8, z² = 3.841459: centre = (0.8 + 0.192073)/1.384146 = 0.716738,
    # half = 1.959964·√(0.016 + 0.009604)/1.384146 = 0.226578.
    rate, lo, hi = wilson(8, 10)
    assert rate == 0.8
    assert lo == pytest.approx(0.490162, abs=1e-6)
    assert hi == pytest.approx(0.943318, abs=1e-6)


def _wilson_formula(k, n, z=1.959963984540054):
    """The score interval written out (the project's formula before it came from scipy)."""
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@pytest.mark.parametrize("n", [1, 3, 10, 20_000, 10**9])
def test_wilson_keeps_its_numbers(n):
    for k in {0, 1, n // 3, n // 2, n - 1, n}:
        _, lo, hi = wilson(k, n)
        assert (lo, hi) == pytest.approx(_wilson_formula(k, n), abs=1e-15)


@pytest.mark.parametrize("level", [0.95, 0.99, 0.8])
def test_wilson_is_scipys_to_the_last_bit(level):
    """The interval is computed without importing scipy.stats, by the same steps: the very same floats as
    ``binomtest(k, n).proportion_ci(method="wilson")`` on counts small and large."""
    from scipy.stats import binomtest

    rng = np.random.default_rng(36)
    for n in [1, 2, 3, 7, 10, 99, 1000, 20_000, 123_457, 10**6, 10**9, *rng.integers(1, 10**7, 40).tolist()]:
        for k in {0, 1, n // 3, n // 2, n - 1, n, int(rng.integers(0, n + 1))}:
            ci = binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
            assert wilson(k, n, level)[1:] == (float(ci.low), float(ci.high)), (k, n, level)


def test_wilson_edges_and_levels():
    _, lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0 < hi < 0.2
    _, lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.8 < lo < 1
    assert wilson(5, 50, 0.99)[1] < wilson(5, 50)[1]
    assert all(math.isnan(x) for x in wilson(0, 0))


@pytest.mark.parametrize("n, p", [(200, 0.05), (50, 0.1), (100, 0.5), (30, 0.02)])
def test_wilson_exact_coverage(n, p):
    """Exact binomial coverage of the 95% Wilson interval stays near 95% even at small rates."""

    def covers(k):
        _, lo, hi = wilson(k, n)
        return lo <= p <= hi

    coverage = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if covers(k))
    assert 0.94 <= coverage <= 0.99


def test_wilson_remembers_an_interval_and_keeps_the_callers_rate():
    """The interval's ends are remembered by counts (scipy asked once); the rate is worked out for each call, in
    the caller's number types, as before the ends were remembered."""
    from scipy.stats import binomtest

    ci = binomtest(7, 41).proportion_ci(method="wilson")
    first, again = wilson(np.int64(7), np.int64(41)), wilson(7, 41)
    assert first[1:] == again[1:] == (ci.low, ci.high)
    assert type(first[0]) is np.float64 and type(again[0]) is float and first[0] == again[0] == 7 / 41


def test_rate_ci_is_the_one_wilson_interval():
    e = stats.rate_ci(30, 100)
    assert e.estimate == 0.3 and e.se == pytest.approx(math.sqrt(0.21 / 100))
    assert e.interval == wilson(30, 100)[1:]
    assert stats.rate_estimate(*wilson(30, 100), 100) == e


@pytest.mark.parametrize("x, n", [(11, 10), (-1, 10), (1, 0), (2.5, 10), (True, 10)])
def test_rate_ci_bad_counts(x, n):
    with pytest.raises(ValueError):
        stats.rate_ci(x, n)


def test_mean_se_from_sums():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    mean, se = mean_se(x.sum(), (x * x).sum(), x.size)
    assert mean == 2.5 and se == pytest.approx(math.sqrt(5 / 3) / 2)


def test_normal_ci_coverage_seeded():
    """2000 samples of 100 normal draws: the 95% interval covers the mean 95% ± 1.5 points (3 sd)."""
    rng = np.random.default_rng(2024)
    x = rng.normal(3.0, 2.0, size=(2000, 100))
    covered = sum(lo <= 3.0 <= hi for lo, hi in (stats.mean_ci(row).interval for row in x))
    assert abs(covered / 2000 - 0.95) < 0.015


def test_mean_ci_matches_formula_and_rejects_bad_samples():
    e = stats.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert e.estimate == 2.5 and e.n == 4
    assert e.se == pytest.approx(math.sqrt(5 / 3) / 2)
    assert e.hi - e.estimate == pytest.approx(1.959964 * e.se, rel=1e-6)
    with pytest.raises(ValueError, match="at least 2"):
        stats.mean_ci([1.0])
    with pytest.raises(ValueError, match="NaN"):
        stats.mean_ci([1.0, np.nan])


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


def test_paired_diff_p_value_hand_computed():
    # differences 1, 2, 3, 4, 5, 6 (mean 3.5, sd 1.8708, se 0.76376): z = 4.5826, p = 2·(1 − Φ(4.5826)) = 4.59e-6
    c = stats.paired_diff([2, 4, 6, 8, 10, 12], [1, 2, 3, 4, 5, 6])
    assert c.z == pytest.approx(4.5826, abs=1e-4)
    assert c.p == pytest.approx(4.59e-6, rel=1e-2)
    same = stats.paired_diff([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert same.estimate == 0 and same.z == 0 and same.p == 1


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
    tidy = pd.DataFrame(
        {
            "role": ["pone", "pone", "dealer", "dealer", "dealer"],
            "component": ["total", "hand", "crib", "hand", "total"],
            "mean": [10.1, 8.1, 4.7, 8.0, 16.2],
            "se": [0.01, 0.005, 0.004, 0.005, 0.02],
            "n": [100] * 5,
        }
    )
    t = stats.breakdown_table(tidy, order=("hand", "crib"))
    assert list(t.index) == ["pone", "dealer"]
    assert list(t.columns) == ["hand", "crib", "total"]  # the order given, then the others as they come
    assert list(stats.breakdown_table(tidy).columns) == ["total", "hand", "crib"]
    assert t.loc["dealer", "total"] == "16.20 ± 0.04"
    assert t.loc["pone", "crib"] == ""
    with pytest.raises(ValueError, match="missing"):
        stats.breakdown_table(tidy.drop(columns="se"))
