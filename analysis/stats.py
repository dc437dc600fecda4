"""Confidence intervals and comparisons for simulation output.

Every function returns an :class:`Estimate` (or :class:`Comparison`): the
point estimate, its standard error, a two-sided interval at ``level`` and the
number of items it rests on.  Intervals:

- means: normal (central limit) interval ``mean ± z·se``;
- rates: Wilson score interval (good coverage near 0 and 1, never outside [0, 1]);
- anything else: percentile bootstrap with a seeded :class:`numpy.random.Generator`;
- two policies on common random numbers: the mean of per-item differences (paired);
- two rates from independent samples: Newcombe's hybrid score interval (his method 10).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from sims.stats import wilson as sims_wilson

LEVEL = 0.95
# Column order of breakdown tables: shared/RULES.md's components, "pegging" = play + go.
COMPONENT_ORDER = ("hand", "crib", "play", "go", "pegging", "heels", "last", "total")


def z_value(level: float = LEVEL) -> float:
    """The two-sided standard normal quantile: 1.95996… for 95%."""
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2)


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
        """``12.34 [12.29, 12.39]``; ``scale=100`` shows a rate in percent."""
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


def wilson(successes: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval for a rate ``successes / n`` (the formula of :func:`sims.stats.wilson`)."""
    n = _check_n(n)
    if isinstance(successes, bool) or int(successes) != successes or not 0 <= successes <= n:
        raise ValueError(f"successes must be a whole number from 0 to n={n}, got {successes!r}")
    _, lo, hi = sims_wilson(successes, n, z_value(level))
    return (0.0 if successes == 0 else lo, 1.0 if successes == n else hi)


def rate_ci(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """A rate with its binomial standard error and Wilson interval."""
    lo, hi = wilson(successes, n, level)
    p = successes / n
    return Estimate(p, math.sqrt(p * (1 - p) / n), lo, hi, int(n), level)


def bootstrap_ci(samples, statistic=np.mean, n_boot: int = 2000, level: float = LEVEL,
                 seed: int = 0) -> Estimate:
    """Percentile bootstrap interval of ``statistic`` (a numpy reduction taking ``axis=``).

    Resamples are drawn with a seeded ``numpy.random.default_rng(seed)``, so the
    same seed gives the same interval; se is the standard deviation of the
    bootstrap replicates.
    """
    x = _samples(samples)
    n_boot = _check_n(n_boot, "n_boot")
    rng = np.random.default_rng(seed)
    batch = max(1, min(n_boot, 20_000_000 // x.size))
    reps = np.empty(n_boot)
    for start in range(0, n_boot, batch):
        stop = min(n_boot, start + batch)
        reps[start:stop] = statistic(x[rng.integers(0, x.size, size=(stop - start, x.size))], axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.quantile(reps, [alpha, 1 - alpha])
    return Estimate(float(statistic(x)), float(reps.std(ddof=1)), float(lo), float(hi), x.size, level)


def _comparison(diff, se, z_se, n, lo, hi, level) -> Comparison:
    z = diff / z_se if z_se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    p = 2 * (1 - NormalDist().cdf(abs(z)))
    return Comparison(float(diff), float(se), float(lo), float(hi), int(n), level, float(z), float(p))


def paired_diff(a, b, level: float = LEVEL) -> Comparison:
    """Mean of per-item differences ``a − b`` on common random numbers (same deals, same order).

    The pairing removes the variance the two policies share, so the interval is
    far narrower than comparing two independent means.
    """
    a, b = _samples(a, "a"), _samples(b, "b")
    if a.size != b.size:
        raise ValueError(f"paired samples must have the same length, got {a.size} and {b.size}")
    est = mean_ci(a - b, level)
    return _comparison(est.estimate, est.se, est.se, est.n, est.lo, est.hi, level)


def two_proportions(x1: int, n1: int, x2: int, n2: int, level: float = LEVEL) -> Comparison:
    """Difference of two independent rates ``x1/n1 − x2/n2``.

    Interval: Newcombe (1998) method 10, built from the two Wilson intervals;
    z: the pooled two-proportion test; se: the unpooled standard error.
    """
    l1, u1 = wilson(x1, n1, level)
    l2, u2 = wilson(x2, n2, level)
    p1, p2 = x1 / n1, x2 / n2
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (x1 + x2) / (n1 + n2)
    z_se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return _comparison(d, se, z_se, min(n1, n2), lo, hi, level)


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
    return normal_ci(float(weights @ means), se, n, level)


def pm(mean: float, se: float, digits: int = 2, level: float = LEVEL) -> str:
    """``'8.12 ± 0.03'`` with the half-width z·se of the interval."""
    return f"{mean:.{digits}f} ± {z_value(level) * se:.{digits}f}"


def breakdown_table(table: pd.DataFrame, digits: int = 2, level: float = LEVEL) -> pd.DataFrame:
    """Role × component table of ``'mean ± 1.96 se'`` strings from a tidy DealResult table.

    ``table`` has columns role, component, mean, se (as ``DealResult.table()``);
    roles keep their order of appearance, components follow :data:`COMPONENT_ORDER`
    (others after, in order of appearance).
    """
    missing = {"role", "component", "mean", "se"} - set(table.columns)
    if missing:
        raise ValueError(f"breakdown table needs columns role, component, mean, se; missing {sorted(missing)}")
    roles = list(dict.fromkeys(table["role"]))
    found = list(dict.fromkeys(table["component"]))
    comps = [c for c in COMPONENT_ORDER if c in found] + [c for c in found if c not in COMPONENT_ORDER]
    cells = {(r, c): pm(m, s, digits, level) for r, c, m, s in
             zip(table["role"], table["component"], table["mean"], table["se"], strict=True)}
    out = pd.DataFrame([[cells.get((r, c), "") for c in comps] for r in roles], index=roles, columns=comps)
    out.index.name = "role"
    return out
