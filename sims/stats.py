"""The two interval formulas that results carry: normal for means, Wilson for rates."""
from __future__ import annotations

import math

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


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Rate and Wilson score interval ``(rate, lo, hi)`` for ``successes`` out of ``n``."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)
