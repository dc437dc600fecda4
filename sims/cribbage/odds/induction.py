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

Players that look at the score play a deal differently from each position, so
the deal counts hold only where they play as the players of the counts did.  At
the positions of a *zone* deals are played from the position by the
position-aware players (:mod:`.position`), and the same cards are read at the
position from the counted players' timings.  The value there is the mean over
the played deals, corrected by the counted deals' mean error against the
count-based value: ``mean(played) - beta * (mean(counted) - count part)``, with
``beta`` the regression of the one on the other over the deals, kept within
0 and 1 (a control variate: where most deals are played alike the noise nearly
cancels, near home where they are not it costs nothing).

The estimate is exact for the empirical distribution of the deals played; its
uncertainty comes from the deals, so the deals are cut into groups and the
delete-a-group jackknife (groups of unequal size: Busing, Meijer and van der
Leeden 1999) gives a standard error for every position.
"""
from __future__ import annotations

import numpy as np
from scipy.special import stdtrit

from ...core.kernel import njit
from .layout import DEALER, PONE, TOTALS

# A deal's outcome read at a position (:mod:`.position`): (kind, x, y).
DEALER_WINS, PONE_WINS, GOES_ON = 0, 1, 2     # x: the loser's final score; for GOES_ON, x, y: the deal's totals
NO_SAMPLES = np.zeros((0, 0, 2, 3), dtype=np.int64)

DEFAULT_POINTS = (1.0, 2.0, 3.0)    # a win, a lurch (skunk) counted double, a double lurch triple


@njit(cache=True)
def _step_sum(cum, row, cut):
    """``sum over columns < cut`` of a row whose cumulative sums are ``cum[row]`` (``cum[row, j]`` = sum of
    columns < j)."""
    return cum[row, max(0, min(cut, cum.shape[1] - 1))]


@njit(cache=True)
def _worth(rules_points, lurch, double_lurch, loser):
    """A won game's points by the loser's final score: a win, a lurch, a double lurch."""
    if loser < double_lurch:
        return rules_points[2]
    if loser < lurch:
        return rules_points[1]
    return rules_points[0]


@njit(cache=True)
def _outcome(outcome, d, p, lurch, double_lurch, points, win, game_points):
    """The dealer's chance and game points after a deal from (d, p) with ``outcome`` (kind, x, y)."""
    kind, x, y = outcome[0], outcome[1], outcome[2]
    if kind == DEALER_WINS:
        return 1.0, _worth(points, lurch, double_lurch, x)
    if kind == PONE_WINS:
        return 0.0, -_worth(points, lurch, double_lurch, x)
    return 1.0 - win[p + y, d + x], -game_points[p + y, d + x]


@njit(cache=True)
def _paired(samples, keep, d, p, lurch, double_lurch, points, win, game_points, counted, what):
    """The zone's estimate at (d, p) of the chance (``what`` 0) or the game points (1): the mean over the
    played deals, less ``beta`` times the error of the same deals' counted mean against the count-based
    value ``counted``; ``beta`` = cov / var of the two over the deals (regression control variate), kept
    within 0 (the played mean alone) and 1 (the paired difference) so that a few odd deals cannot swing it;
    counted deals that all come out alike give no regression, and the paired difference is used."""
    m = 0
    s1 = s0 = s00 = s10 = 0.0
    for i in range(samples.shape[0]):
        if keep[i]:
            v1 = _outcome(samples[i, 1], d, p, lurch, double_lurch, points, win, game_points)[what]
            v0 = _outcome(samples[i, 0], d, p, lurch, double_lurch, points, win, game_points)[what]
            m += 1
            s1 += v1
            s0 += v0
            s10 += v1 * v0
            s00 += v0 * v0
    mean1, mean0 = s1 / m, s0 / m
    var0 = s00 / m - mean0 * mean0
    beta = min(max((s10 / m - mean1 * mean0) / var0, 0.0), 1.0) if var0 > 1e-12 else 1.0
    return mean1 - beta * (mean0 - counted)


@njit(cache=True)
def induce(target, counts, n, lurch, double_lurch, points, zone, samples, keep, win, game_points):
    """Fill ``win[d, p]`` and ``game_points[d, p]`` (the dealer's, before the deal) from the three count
    tables ``counts[3, target + 1, target + 1]`` of ``n`` deals and, where ``zone[d, p] = j >= 0``, the mean
    of ``outcome(samples[j, i, 1]) - outcome(samples[j, i, 0])`` over the deals ``i`` with ``keep[i]``
    (module docstring)."""
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
            w, g = w / n, g / n
            j = zone[d, p]
            if j >= 0:
                w = _paired(samples[j], keep, d, p, lurch, double_lurch, points, win, game_points, w, 0)
                g = _paired(samples[j], keep, d, p, lurch, double_lurch, points, win, game_points, g, 1)
            win[d, p] = w
            game_points[d, p] = g


def solve(target: int, counts: np.ndarray, n: float, lurch: int, double_lurch: int, points=DEFAULT_POINTS,
          zone=None, samples=NO_SAMPLES, keep=None) -> tuple[np.ndarray, np.ndarray]:
    """``(win, game_points)``, each ``[target, target]`` indexed ``[dealer score, pone score]``; ``zone``
    (``[target, target]``, -1 outside) indexes ``samples[j, i, (counted, played), (kind, x, y)]``."""
    if counts[TOTALS, 0, 0] > 0:
        raise ValueError("a deal that scores no points cannot be: every deal scores at least the last card")
    win = np.zeros((target, target))
    game_points = np.zeros((target, target))
    zone = np.full((target, target), -1, dtype=np.int64) if zone is None else zone
    keep = np.ones(samples.shape[1], dtype=np.bool_) if keep is None else keep
    induce(target, np.asarray(counts, dtype=np.float64), float(n), lurch, double_lurch,
           np.asarray(points, dtype=np.float64), zone, samples, keep, win, game_points)
    return win, game_points


def jackknife(target: int, counts: np.ndarray, deals: np.ndarray, lurch: int, double_lurch: int,
              points=DEFAULT_POINTS, zone=None, samples=NO_SAMPLES):
    """The tables from every group's deals, with delete-a-group jackknife standard errors.

    ``counts[g]`` are group ``g``'s count tables, ``deals[g]`` its number of deals; the zone's deal ``i``
    belongs to group ``i % groups``, so a replicate leaves out one group of each.  Returns ``(win,
    win_se, game_points, game_points_se)``; the standard errors are NaN with fewer than two groups.
    """
    deals = np.asarray(deals, dtype=np.float64)
    if (deals == 0).any():
        raise ValueError("every jackknife group needs deals: use fewer groups or more deals")
    total, n = counts.sum(0), deals.sum()
    win, gp = solve(target, total, n, lurch, double_lurch, points, zone, samples)
    groups = len(deals)
    if groups < 2:
        nan = np.full_like(win, np.nan)
        return win, nan, gp, nan.copy()
    h = (n / deals)[:, None, None]
    sample_group = np.arange(samples.shape[1]) % groups
    left_out = [solve(target, total - counts[j], n - deals[j], lurch, double_lurch, points, zone, samples,
                      sample_group != j) for j in range(groups)]

    def se(full, replicates):
        pseudo = h * full - (h - 1) * replicates
        centre = groups * full - ((1 - 1 / h) * replicates).sum(0)
        return np.sqrt(((pseudo - centre) ** 2 / (h - 1)).sum(0) / groups)

    return (win, se(win, np.stack([w for w, _ in left_out])), gp, se(gp, np.stack([g for _, g in left_out])))


def t95(groups: int) -> float:
    """The two-sided 95% quantile of Student's t with ``groups - 1`` degrees of freedom."""
    return float(stdtrit(max(groups - 1, 1), 0.975))   # Student's t quantile (scipy.special: a light import)
