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
Leeden 1999) gives a standard error for every position.  The zone's deals are
played as their diagonal of the board comes and summed into every replicate at
once (:func:`zoned`), so nothing is kept per deal.
"""

from __future__ import annotations

import numpy as np

from ....core.kernel import njit
from ...odds.layout import DEALER, PONE, TOTALS

# A deal's outcome read at a position (:mod:`.position`): (kind, x, y).
DEALER_WINS, PONE_WINS, GOES_ON = 0, 1, 2  # x: the loser's final score; for GOES_ON, x, y: the deal's totals
NO_SAMPLES = np.zeros((0, 0, 2, 3), dtype=np.int64)
BLOCK_DEALS = 256  # zone deals asked for at a time (:func:`zoned`): their memory, whatever their number

DEFAULT_POINTS = (1.0, 2.0, 3.0)  # a win, a lurch (skunk) counted double, a double lurch triple


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
def _add(stats, counted, played, d, p, lurch, double_lurch, points, win, game_points):
    """One zone deal into ``stats[what] = (m, s1, s0, s10, s00)`` at (d, p): its outcome ``played`` by the
    position-aware players (1) and ``counted`` as read from the counted players' timings (0), each valued by
    the tables, for the chance (``what`` 0) and the game points (1)."""
    v1 = _outcome(played, d, p, lurch, double_lurch, points, win, game_points)
    v0 = _outcome(counted, d, p, lurch, double_lurch, points, win, game_points)
    for what in range(2):
        s = stats[what]
        s[0] += 1.0
        s[1] += v1[what]
        s[2] += v0[what]
        s[3] += v1[what] * v0[what]
        s[4] += v0[what] * v0[what]


@njit(cache=True)
def _paired(s, counted):
    """The zone's estimate from the sums ``s`` of :func:`_add` and the count-based value ``counted``: the mean
    over the played deals, less ``beta`` times the error of the same deals' counted mean against ``counted``;
    ``beta`` = cov / var of the two over the deals (regression control variate), kept within 0 (the played
    mean alone) and 1 (the paired difference) so that a few odd deals cannot swing it; counted deals that all
    come out alike give no regression, and the paired difference is used."""
    m = s[0]
    mean1, mean0 = s[1] / m, s[2] / m
    var0 = s[4] / m - mean0 * mean0
    beta = min(max((s[3] / m - mean1 * mean0) / var0, 0.0), 1.0) if var0 > 1e-12 else 1.0
    return mean1 - beta * (mean0 - counted)


@njit(cache=True)
def _prepare(target, counts):
    """The cumulative sums of the two reach tables (``cum[who, need, j]`` = sum of ``counts[who, need, :j]``)
    and the deal totals that leave the game open, in increasing dealer total."""
    size = target + 1
    cum = np.zeros((2, size, size + 1))
    for who in range(2):
        for need in range(size):
            for j in range(size):
                cum[who, need, j + 1] = cum[who, need, j] + counts[who, need, j]
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
    return cum, tot_d, tot_p, tot_n


@njit(cache=True)
def _diagonal(s, target, cum, tot_d, tot_p, tot_n, n, lurch, double_lurch, points, win, game_points):
    """Fill ``win[d, p]`` and ``game_points[d, p]`` from the counts (:func:`_prepare`) of ``n`` deals on the
    diagonal ``d + p = s`` (the diagonals above it filled)."""
    step = np.array([points[0], points[1] - points[0], points[2] - points[1]])
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
        for k in range(tot_n.shape[0]):
            if tot_d[k] >= a:
                break
            if tot_p[k] < b:
                w += tot_n[k] * (1.0 - win[p + tot_p[k], d + tot_d[k]])
                g -= tot_n[k] * game_points[p + tot_p[k], d + tot_d[k]]
        win[d, p], game_points[d, p] = w / n, g / n


@njit(cache=True)
def induce(target, counts, n, lurch, double_lurch, points, win, game_points):
    """Fill ``win[d, p]`` and ``game_points[d, p]`` (the dealer's, before the deal) from the three count
    tables ``counts[3, target + 1, target + 1]`` of ``n`` deals (module docstring)."""
    cum, tot_d, tot_p, tot_n = _prepare(target, counts)
    for s in range(2 * target - 2, -1, -1):
        _diagonal(s, target, cum, tot_d, tot_p, tot_n, n, lurch, double_lurch, points, win, game_points)


@njit(cache=True)
def _accumulate(block, first, groups, dz, pz, lurch, double_lurch, points, win, game_points, stats):
    """``stats[r, k]`` (:func:`_add`) += the zone deals ``block[k, i]`` (deal ``first + i``) at ``(dz[k], pz[k])``,
    valued by replicate ``r``'s tables ``win[r]``, ``game_points[r]``: replicate 0 takes every deal, replicate
    ``r > 0`` those outside group ``r - 1`` (deal ``i`` is in group ``i % groups``)."""
    for r in range(win.shape[0]):
        for k in range(block.shape[0]):
            for i in range(block.shape[1]):
                if r == 0 or (first + i) % groups != r - 1:
                    _add(
                        stats[r, k],
                        block[k, i, 0],
                        block[k, i, 1],
                        dz[k],
                        pz[k],
                        lurch,
                        double_lurch,
                        points,
                        win[r],
                        game_points[r],
                    )


@njit(cache=True)
def _settle(stats, dz, pz, win, game_points):
    """The zone's positions ``(dz[k], pz[k])`` of every replicate ``r``: their count-based values corrected by
    their deals' sums ``stats[r, k]`` (:func:`_paired`)."""
    for r in range(win.shape[0]):
        for k in range(dz.shape[0]):
            d, p = dz[k], pz[k]
            win[r, d, p], game_points[r, d, p] = (
                _paired(stats[r, k, 0], win[r, d, p]),
                _paired(stats[r, k, 1], game_points[r, d, p]),
            )


class Stored:
    """Zone deals held in memory, ``samples[j, i, (counted, played), (kind, x, y)]``, given out as
    :func:`zoned` asks for them."""

    def __init__(self, samples):
        self.samples = np.asarray(samples, dtype=np.int64)
        self.per_position = self.samples.shape[1]

    def __call__(self, js, first, stop):
        return self.samples[js, first:stop]


def zoned(target: int, counts: np.ndarray, n, lurch: int, double_lurch: int, points, zone, deals, groups: int = 1):
    """``(win[r], game_points[r])`` of every replicate ``r``: ``counts[r]`` of ``n[r]`` deals and, at the
    positions of ``zone`` (``[target, target]``, index ``j`` or -1), the zone deals of ``deals(js, first,
    stop)`` (``[len(js), stop - first, (counted, played), (kind, x, y)]``, ``deals.per_position`` at each
    position), replicate ``r > 0`` leaving out group ``r - 1`` of them (:func:`_accumulate`).  The board fills
    diagonal by diagonal, the zone's deals asked for :data:`BLOCK_DEALS` at a time as their diagonal comes:
    the memory is the same for any number of deals."""
    counts = np.asarray(counts, dtype=np.float64)
    replicates = counts.shape[0]
    if (counts[:, TOTALS, 0, 0] > 0).any():
        raise ValueError("a deal that scores no points cannot be: every deal scores at least the last card")
    points = np.asarray(points, dtype=np.float64)
    prepared = [_prepare(target, c) for c in counts]
    win = np.zeros((replicates, target, target))
    game_points = np.zeros((replicates, target, target))
    for s in range(2 * target - 2, -1, -1):
        for r in range(replicates):
            _diagonal(s, target, *prepared[r], float(n[r]), lurch, double_lurch, points, win[r], game_points[r])
        dz = np.arange(max(0, s - target + 1), min(s, target - 1) + 1)
        pz = s - dz
        js = zone[dz, pz]
        inside = js >= 0
        if not inside.any():
            continue
        dz, pz, js = dz[inside], pz[inside], js[inside]
        stats = np.zeros((replicates, len(js), 2, 5))
        for first in range(0, deals.per_position, BLOCK_DEALS):
            block = deals(js, first, min(first + BLOCK_DEALS, deals.per_position))
            _accumulate(block, first, groups, dz, pz, lurch, double_lurch, points, win, game_points, stats)
        _settle(stats, dz, pz, win, game_points)
    return win, game_points


def solve(
    target: int,
    counts: np.ndarray,
    n: float,
    lurch: int,
    double_lurch: int,
    points=DEFAULT_POINTS,
    zone=None,
    samples=NO_SAMPLES,
) -> tuple[np.ndarray, np.ndarray]:
    """``(win, game_points)``, each ``[target, target]`` indexed ``[dealer score, pone score]``; ``zone``
    (``[target, target]``, -1 outside) indexes ``samples[j, i, (counted, played), (kind, x, y)]``."""
    if zone is not None:
        win, game_points = zoned(
            target, np.asarray(counts)[None], [n], lurch, double_lurch, points, zone, Stored(samples)
        )
        return win[0], game_points[0]
    if counts[TOTALS, 0, 0] > 0:
        raise ValueError("a deal that scores no points cannot be: every deal scores at least the last card")
    win = np.zeros((target, target))
    game_points = np.zeros((target, target))
    induce(
        target,
        np.asarray(counts, dtype=np.float64),
        float(n),
        lurch,
        double_lurch,
        np.asarray(points, dtype=np.float64),
        win,
        game_points,
    )
    return win, game_points


def jackknife(
    target: int,
    counts: np.ndarray,
    deals: np.ndarray,
    lurch: int,
    double_lurch: int,
    points=DEFAULT_POINTS,
    zone=None,
    samples=NO_SAMPLES,
):
    """The tables from every group's deals, with delete-a-group jackknife standard errors.

    ``counts[g]`` are group ``g``'s count tables, ``deals[g]`` its number of deals; ``zone`` and ``samples``
    as :func:`solve` takes them, or ``samples`` a source of zone deals as :func:`zoned` takes it; the zone's
    deal ``i`` belongs to group ``i % groups``, so a replicate leaves out one group of each.  Returns ``(win,
    win_se, game_points, game_points_se)``; the standard errors are NaN with fewer than two groups.
    """
    deals = np.asarray(deals, dtype=np.float64)
    if (deals == 0).any():
        raise ValueError("every jackknife group needs deals: use fewer groups or more deals")
    total, n = counts.sum(0), deals.sum()
    groups = len(deals)
    if zone is None:
        win, gp = solve(target, total, n, lurch, double_lurch, points)
        left_out = [
            solve(target, total - counts[j], n - deals[j], lurch, double_lurch, points)
            for j in range(groups if groups >= 2 else 0)
        ]
    else:
        if not callable(samples):
            samples = Stored(samples)
        reps = [total] + [total - counts[j] for j in range(groups if groups >= 2 else 0)]
        ns = [n] + [n - deals[j] for j in range(len(reps) - 1)]
        wins, gps = zoned(target, np.stack(reps), ns, lurch, double_lurch, points, zone, samples, groups)
        win, gp = wins[0], gps[0]
        left_out = list(zip(wins[1:], gps[1:]))
    if groups < 2:
        nan = np.full_like(win, np.nan)
        return win, nan, gp, nan.copy()
    h = (n / deals)[:, None, None]

    def se(full, replicates):
        pseudo = h * full - (h - 1) * replicates
        centre = groups * full - ((1 - 1 / h) * replicates).sum(0)
        return np.sqrt(((pseudo - centre) ** 2 / (h - 1)).sum(0) / groups)

    return (win, se(win, np.stack([w for w, _ in left_out])), gp, se(gp, np.stack([g for _, g in left_out])))
