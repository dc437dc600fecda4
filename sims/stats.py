"""The two interval formulas that results carry: normal for means, Wilson for rates."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

Z95 = 1.959963984540054


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

    The project's one Wilson interval: scipy's ``binomtest(...).proportion_ci(method="wilson")``, remembered
    for the counts it was asked for (:func:`_interval`).

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
    """The Wilson interval's ends.  scipy's binomtest also finds the test's p-value, about half a millisecond a
    call; a report's summaries ask for the same counts many times (nine in ten calls of the All Fours section)."""
    from scipy.stats import binomtest   # here, not at the top: scipy.stats takes longer to import than a deal run

    ci = binomtest(successes, n).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)
