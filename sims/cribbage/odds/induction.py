"""Backward induction over board positions, and its jackknife intervals.

A position is the two scores before a deal, ``(d, p)``: the dealer on ``d``, the
pone on ``p``, both below the target ``T``.  With ``a = T - d`` and ``b = T - p``
the points each still needs, and the deal counts of :mod:`.timings` over ``n``
deals, the dealer's chance of winning is

    W(d, p) = [ #(dealer reaches a while the pone has fewer than b)
                + sum over deal totals D < a, P < b of #(D, P) * (1 - W(p + P, d + D)) ] / n

because after a deal that ends nobody's game the pone deals next, from the
scores ``(p + P, d + D)``.  Every deal scores at least the last card, so the
positions after a deal have a larger sum of scores and the table fills from the
end of the board back to ``(0, 0)``.  The expected game points ``G`` follow the
same recursion with a win worth ``points[0]``, a lurch (the loser below the
rules' ``lurch``) ``points[1]`` and a double lurch ``points[2]``, counted for the
dealer (plus) and against him (minus).

The estimate is exact for the empirical distribution of the deals played; its
uncertainty comes from the deals, so the deals are cut into groups and the
delete-a-group jackknife (groups of unequal size: Busing, Meijer and van der
Leeden 1999) gives a standard error for every position.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from scipy import stats

from .layout import DEALER, PONE, TOTALS

DEFAULT_POINTS = (1.0, 2.0, 3.0)    # a win, a lurch (skunk) counted double, a double lurch triple


@njit(cache=True)
def _step_sum(cum, row, cut):
    """``sum over columns < cut`` of a row whose cumulative sums are ``cum[row]`` (``cum[row, j]`` = sum of
    columns < j)."""
    return cum[row, max(0, min(cut, cum.shape[1] - 1))]


@njit(cache=True)
def induce(target, counts, n, lurch, double_lurch, points, win, game_points):
    """Fill ``win[d, p]`` and ``game_points[d, p]`` (the dealer's, before the deal) from the three count
    tables ``counts[3, target + 1, target + 1]`` of ``n`` deals (module docstring)."""
    size = target + 1
    cum = np.zeros((2, size, size + 1))     # cum[who, need, j] = sum of counts[who, need, :j]
    for who in range(2):
        for need in range(size):
            for j in range(size):
                cum[who, need, j + 1] = cum[who, need, j] + counts[who, need, j]
    # The deal totals that leave the game open, in increasing dealer total.
    n_tot = 0
    for x in range(size):
        for y in range(size):
            if counts[TOTALS, x, y] > 0:
                n_tot += 1
    tot_d = np.empty(n_tot, dtype=np.int64)
    tot_p = np.empty(n_tot, dtype=np.int64)
    tot_n = np.empty(n_tot)
    k = 0
    for x in range(size):
        for y in range(size):
            if counts[TOTALS, x, y] > 0:
                tot_d[k], tot_p[k], tot_n[k] = x, y, counts[TOTALS, x, y]
                k += 1
    step = np.array([points[0], points[1] - points[0], points[2] - points[1]])
    for s in range(2 * target - 2, -1, -1):
        for d in range(max(0, s - target + 1), min(s, target - 1) + 1):
            p = s - d
            a, b = target - d, target - p
            w = _step_sum(cum[DEALER], a, b)
            g = 0.0
            # A win is worth points[0], more when the loser ends below a lurch threshold.
            for cut, value in ((b, step[0]), (min(b, lurch - p), step[1]), (min(b, double_lurch - p), step[2])):
                g += value * _step_sum(cum[DEALER], a, cut)
            for cut, value in ((a, step[0]), (min(a, lurch - d), step[1]), (min(a, double_lurch - d), step[2])):
                g -= value * _step_sum(cum[PONE], b, cut)
            for k in range(n_tot):
                if tot_d[k] >= a:
                    break
                if tot_p[k] < b:
                    w += tot_n[k] * (1.0 - win[p + tot_p[k], d + tot_d[k]])
                    g -= tot_n[k] * game_points[p + tot_p[k], d + tot_d[k]]
            win[d, p] = w / n
            game_points[d, p] = g / n


def solve(target: int, counts: np.ndarray, n: float, lurch: int, double_lurch: int,
          points=DEFAULT_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """``(win, game_points)``, each ``[target, target]`` indexed ``[dealer score, pone score]``."""
    if counts[TOTALS, 0, 0] > 0:
        raise ValueError("a deal that scores no points cannot be: every deal scores at least the last card")
    win = np.zeros((target, target))
    game_points = np.zeros((target, target))
    induce(target, np.asarray(counts, dtype=np.float64), float(n), lurch, double_lurch,
           np.asarray(points, dtype=np.float64), win, game_points)
    return win, game_points


def jackknife(target: int, counts: np.ndarray, deals: np.ndarray, lurch: int, double_lurch: int,
              points=DEFAULT_POINTS):
    """The tables from every group's deals, with delete-a-group jackknife standard errors.

    ``counts[g]`` are group ``g``'s count tables, ``deals[g]`` its number of deals.  Returns ``(win,
    win_se, game_points, game_points_se)``; the standard errors are NaN with fewer than two groups.
    """
    deals = np.asarray(deals, dtype=np.float64)
    keep = deals > 0
    counts, deals = counts[keep], deals[keep]
    total, n = counts.sum(0), deals.sum()
    win, gp = solve(target, total, n, lurch, double_lurch, points)
    groups = len(deals)
    if groups < 2:
        nan = np.full_like(win, np.nan)
        return win, nan, gp, nan.copy()
    h = (n / deals)[:, None, None]
    left_out = [solve(target, total - counts[j], n - deals[j], lurch, double_lurch, points) for j in range(groups)]

    def se(full, replicates):
        pseudo = h * full - (h - 1) * replicates
        centre = groups * full - ((1 - 1 / h) * replicates).sum(0)
        return np.sqrt(((pseudo - centre) ** 2 / (h - 1)).sum(0) / groups)

    return (win, se(win, np.stack([w for w, _ in left_out])), gp, se(gp, np.stack([g for _, g in left_out])))


def t95(groups: int) -> float:
    """The two-sided 95% quantile of Student's t with ``groups - 1`` degrees of freedom."""
    return float(stats.t.ppf(0.975, max(groups - 1, 1)))
