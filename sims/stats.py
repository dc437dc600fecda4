"""The statistics of sims: the intervals results carry (normal for means, Wilson for rates) and the
estimates and comparisons the claims and notebooks make of them.

Every function of the second kind returns an :class:`Estimate` (or :class:`Comparison`): the point
estimate, its standard error, a two-sided interval at ``level`` and the number of items it rests on.
Intervals:

- means: normal (central limit) interval ``mean ± z·se``, z from ``scipy.stats.norm``; from sums and
  sums of squares, :func:`mean_se`;
- rates: the Wilson score interval of :func:`wilson` (scipy's ``binomtest`` method ``wilson``, computed
  here by the same steps), the same one every result of the engine carries;
- two policies on common random numbers: the mean of per-item differences (paired);
- sums of means from the same deals: the any-correlation bound on the standard error.

This module imports no other module of sims (the core and every game stand on it), and scipy and pandas
only where a function needs them (importing scipy.stats takes longer than a deal run).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

LEVEL = 0.95
Z95 = 1.959963984540054  # z_value(LEVEL), written out: the results' intervals need no scipy


def mean_se(total, total_sq, n):
    """Mean and standard error from a sum and a sum of squares of ``n`` observations (arrays allowed)."""
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.asarray(total, dtype=np.float64) / n
        var = (np.asarray(total_sq, dtype=np.float64) - n * mean * mean) / (n - 1)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    return mean, se


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float, float]:
    """Rate and Wilson score interval ``(rate, lo, hi)`` for ``successes`` out of ``n`` (NaNs when ``n`` is 0).

    The project's one Wilson interval: scipy's ``binomtest(...).proportion_ci(method="wilson")``, computed by
    the same steps and remembered for the counts it was asked for (:func:`_interval`).

    >>> [round(x, 6) for x in wilson(8, 10)]
    [0.8, 0.490162, 0.943318]
    >>> wilson(0, 20)[1], wilson(20, 20)[2]
    (0.0, 1.0)
    """
    if n <= 0:
        return math.nan, math.nan, math.nan
    return (successes / n, *_interval(int(successes), int(n), float(level)))


@lru_cache(maxsize=4096)
def _interval(successes: int, n: int, level: float) -> tuple[float, float]:
    """The Wilson interval's ends, by Newcombe's formulas as scipy's ``binomtest(...).proportion_ci(method="wilson")``
    computes them, step for step (the same floats: ``tests/test_stats.py`` compares them): importing scipy.stats
    takes longer than a million random games, and a command's summary needs only these few operations.  The
    normal quantile of a level other than 95% comes from scipy.special."""
    z = Z95 if level == LEVEL else _ndtri(0.5 + 0.5 * level)
    p = successes / n
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if successes == 0 else center - delta), (1.0 if successes == n else center + delta)


def _ndtri(q: float) -> float:
    from scipy.special import ndtri  # here, not at the top: only a level other than 95% needs it

    return float(ndtri(q))


def z_value(level: float = LEVEL) -> float:
    """The two-sided standard normal quantile.

    >>> round(z_value(0.95), 6)
    1.959964
    """
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level!r}")
    from scipy.stats import norm  # here, not at the top: see :func:`_interval`

    return float(norm.ppf(0.5 + level / 2))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with standard error and a two-sided interval."""

    estimate: float
    se: float
    lo: float
    hi: float
    n: int
    level: float = LEVEL

    @property
    def interval(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    def format(self, digits: int = 2, scale: float = 1.0) -> str:
        """``12.34 [12.29, 12.39]``; ``scale=100`` shows a rate in percent.

        >>> rate_ci(30, 100).format(1, 100)
        '30.0 [21.9, 39.6]'
        """
        e, lo, hi = (x * scale for x in (self.estimate, self.lo, self.hi))
        return f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


@dataclass(frozen=True)
class Comparison(Estimate):
    """A difference (a − b) with the z statistic and two-sided p-value of 'no difference'."""

    z: float = math.nan
    p: float = math.nan


def _check_n(n, what="n"):
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"{what} must be a positive whole number, got {n!r}")
    return int(n)


def _samples(samples, what="samples") -> np.ndarray:
    x = np.asarray(samples, dtype=np.float64).ravel()
    if x.size < 2:
        raise ValueError(f"{what} need at least 2 values, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{what} contain NaN or infinite values")
    return x


def normal_ci(mean: float, se: float, n: int, level: float = LEVEL) -> Estimate:
    """Normal interval ``mean ± z·se`` from a mean and its standard error."""
    if not (math.isfinite(mean) and math.isfinite(se)) or se < 0:
        raise ValueError(f"need a finite mean and a non-negative standard error, got {mean!r}, {se!r}")
    half = z_value(level) * se
    return Estimate(float(mean), float(se), mean - half, mean + half, _check_n(n), level)


def mean_ci(samples, level: float = LEVEL) -> Estimate:
    """Normal interval for the mean of i.i.d. samples (se = sample sd / √n)."""
    x = _samples(samples)
    return normal_ci(x.mean(), x.std(ddof=1) / math.sqrt(x.size), x.size, level)


def rate_estimate(rate: float, lo: float, hi: float, n: int, level: float = LEVEL) -> Estimate:
    """A rate and its interval as a result reports them, with the binomial standard error."""
    return Estimate(float(rate), math.sqrt(rate * (1 - rate) / n), float(lo), float(hi), _check_n(n), level)


def rate_ci(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """A rate ``successes / n`` with its Wilson interval (:func:`wilson`)."""
    n = _check_n(n)
    if isinstance(successes, bool) or int(successes) != successes or not 0 <= successes <= n:
        raise ValueError(f"successes must be a whole number from 0 to n={n}, got {successes!r}")
    return rate_estimate(*wilson(int(successes), n, level), n, level)


def paired_diff(a, b, level: float = LEVEL) -> Comparison:
    """Mean of per-item differences ``a − b`` on common random numbers (same deals, same order).

    The pairing removes the variance the two policies share, so the interval is
    far narrower than comparing two independent means.
    """
    a, b = _samples(a, "a"), _samples(b, "b")
    if a.size != b.size:
        raise ValueError(f"paired samples must have the same length, got {a.size} and {b.size}")
    from scipy.stats import norm

    e = mean_ci(a - b, level)
    z = e.estimate / e.se if e.se > 0 else (0.0 if e.estimate == 0 else math.copysign(math.inf, e.estimate))
    return Comparison(e.estimate, e.se, e.lo, e.hi, e.n, level, float(z), float(2 * norm.sf(abs(z))))


def combine(means, ses, weights, n: int, level: float = LEVEL, independent: bool = False) -> Estimate:
    """A linear combination ``Σ wᵢ·meanᵢ`` of estimated means.

    With ``independent=True`` the standard error is ``√Σ wᵢ²seᵢ²``.  Otherwise
    (estimates from the same deals, correlation unknown) it is the bound
    ``Σ |wᵢ|·seᵢ``, which holds for any correlation (Cauchy–Schwarz), so the
    interval is conservative.
    """
    means, ses, weights = (np.asarray(v, dtype=np.float64) for v in (means, ses, weights))
    if not means.shape == ses.shape == weights.shape or means.ndim != 1:
        raise ValueError("means, ses and weights must be lists of the same length")
    se = math.sqrt(np.sum((weights * ses) ** 2)) if independent else float(np.sum(np.abs(weights) * ses))
    # fsum of the products, not ``weights @ means``: BLAS fuses the multiply-adds on some CPUs and not others,
    # and the report must hold the same digits on every machine
    return normal_ci(math.fsum(weights * means), se, n, level)


def pm(mean: float, se: float, digits: int = 2, level: float = LEVEL) -> str:
    """``'8.12 ± 0.03'`` with the half-width z·se of the interval.

    >>> pm(8.123, 0.01)
    '8.12 ± 0.02'
    """
    return f"{mean:.{digits}f} ± {z_value(level) * se:.{digits}f}"


def breakdown_table(table: pd.DataFrame, digits: int = 2, level: float = LEVEL, order=()) -> pd.DataFrame:
    """Role × component table of ``'mean ± 1.96 se'`` strings from a tidy DealResult table.

    ``table`` has columns role, component, mean, se (as ``DealResult.table()``);
    roles keep their order of appearance, components follow ``order`` (a game's own, as
    its results module gives it), the others after it in order of appearance.
    """
    import pandas as pd

    missing = {"role", "component", "mean", "se"} - set(table.columns)
    if missing:
        raise ValueError(f"breakdown table needs columns role, component, mean, se; missing {sorted(missing)}")
    roles = list(dict.fromkeys(table["role"]))
    found = list(dict.fromkeys(table["component"]))
    comps = [c for c in order if c in found] + [c for c in found if c not in order]
    cells = {
        (r, c): pm(m, s, digits, level)
        for r, c, m, s in zip(table["role"], table["component"], table["mean"], table["se"], strict=True)
    }
    out = pd.DataFrame([[cells.get((r, c), "") for c in comps] for r in roles], index=roles, columns=comps)
    out.index.name = "role"
    return out
