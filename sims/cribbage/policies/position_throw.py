"""The position-aware discard: the throw with the best chance of winning the game (:mod:`.position`, whose
docstring gives the method and whose sections of parameters it reads).  Its own module, so that the pegging
policy loads no discard kernel."""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ..contract import DISCARD_SIG, S_MY_SCORE, S_OPP_SCORE, S_ROLE, next_throw, split_throw
from ..crib_tables import PARAMS_SIZE
from ..odds.layout import N_RANKS as NR
from ..odds.layout import SHOW_BINS as SB
from ..rules import R_THROW
from ..scoring import JACK, PARTS, starter_shows
from .discard import expected_net_discard, expected_peg_discard
from .position import (
    BASE_DISCARD,
    H_MARGIN,
    RACE,
    SHIFT,
    X_BASE,
    X_BASE_DISCARD,
    X_CRIBS,
    X_HANDS,
    X_HEADER,
    X_T,
    X_W,
    _crib,
    _hand,
    _sparse,
    _thrown_ranks,
    in_zone,
    rest_cells,
    section,
)


@njit(cache=True)
def pone_shown(params, ix, me, opp, cells):
    """``after[a, b]``: the chance that the pegging gives the dealer ``a`` points, which leave him short of home
    from ``me``, and the pegging and the pone's hand (the deal model) give the pone ``b``, short of home from
    ``opp``; and its row sums.  Its first rows hold for a dealer on a higher score too (:func:`dealer_utility`)."""
    t = ix[X_T]
    di, pj, pr = cells
    after = np.zeros((max(t - me, 0), t - opp))
    hands = params[ix[X_HANDS] + SB : ix[X_HANDS] + 2 * SB]  # the pone's hand: _hand(params, ix, 1, y)
    for c in range(di.shape[0]):
        i, j, p = di[c], pj[c], pr[c]
        if me + i >= t or opp + j >= t:
            continue
        line = after[i, j:]
        for y in range(min(SB, t - opp - j)):  # the pone not home; his hands of no chance add nothing
            line[y] += p * hands[y]
    return after, after.sum(axis=1)


@njit(cache=True)
def dealer_utility(params, ix, me, opp, cells, after, row, util):
    """``util[x]``: the dealer's chance of winning from (me, opp) before the play, when his hand and crib
    show ``x`` points between them (the pegging and the pone's hand from the deal model: ``after`` and ``row``,
    :func:`pone_shown` from ``me`` or a lower score)."""
    t = ix[X_T]
    if me >= t:  # his heels took him home
        util[:] = 1.0
        return
    di, pj, pr = cells
    decided = 0.0
    for c in range(di.shape[0]):
        if me + di[c] >= t:
            decided += pr[c] * (RACE if opp + pj[c] >= t else 1.0)
    nd, np_ = t - me, t - opp
    n = util.shape[0]
    util[:] = decided
    for a in range(nd):
        if row[a] == 0:
            continue
        home = min(t - me - a, n)  # from util[home] on, his hand and crib take him home
        for b in range(np_):
            if after[a, b] > 0:
                p, w = after[a, b], ix[X_W] + (opp + b) * t + me + a
                chances = params[w : w + home]  # chances[x]: W(opp + b, me + a + x)
                for x in range(home):  # each util[x] a sum over (a, b) in order; the x side by side (SIMD)
                    util[x] += p * (1.0 - chances[x])
        for x in range(home, n):
            util[x] += row[a]


@njit(cache=True)
def dealer_throw_values(hand, params, ix, me, opp, masks, starters, values):
    """The dealer's chance of winning for each throw (module docstring), from (me, opp) before the deal."""
    cells = rest_cells(params, ix, 0)
    after, row = pone_shown(params, ix, me, opp, cells)
    util = np.empty((2, 2 * SB))
    dealer_utility(params, ix, me, opp, cells, after, row, util[0])
    dealer_utility(params, ix, me + 2, opp, cells, after, row, util[1])
    n, k = hand.shape[0], 2
    kept, thrown = np.empty(n - k, dtype=np.int64), np.empty(k, dtype=np.int64)
    g = np.empty((2, SB))  # g[heel, h]: the chance with a hand of h, over the crib
    parts, shows = np.empty(PARTS, dtype=np.int64), np.empty(starters.shape[0], dtype=np.int64)
    for m in range(masks.shape[0]):
        split_throw(hand, masks[m], kept, thrown)
        lo, hi = _thrown_ranks(thrown)
        crib, crib_p = _sparse(params, ix[X_CRIBS] + (lo * NR + hi) * SB, SB)
        g[:, :] = np.nan
        starter_shows(kept, n - k, starters, parts, shows)
        total = 0.0
        for i in range(starters.shape[0]):
            heel = 1 if starters[i] >> 2 == JACK else 0
            h = min(shows[i], SB - 1)
            if np.isnan(g[heel, h]):
                v = 0.0
                for c in range(crib.shape[0]):
                    v += crib_p[c] * util[heel, h + crib[c]]
                g[heel, h] = v
            total += g[heel, h]
        values[m] = total / starters.shape[0]


@njit(cache=True)
def _pone_chances(ix, me, dealer, low, shift, cells, hands, after, out):
    """``out[q]``: the pone's chance of winning with ``hands[q]`` points in hand, the dealer on ``dealer`` after
    the starter (:func:`pone_throw_values`): the pegging's ``cells`` to come, then ``after`` at the dealer's
    score moved by ``shift`` for the crib.  Every hand in one pass over the cells, each summed in their order."""
    t = ix[X_T]
    di, pj, pr = cells
    out[:] = 0.0
    last, theirs, near, frac, b0, b1 = -1, False, 0.0, 0.0, 0, 0
    for cell in range(di.shape[0]):
        i, j, p = di[cell], pj[cell], pr[cell]
        if i != last:  # the cells come by the dealer's points: where the crib moves him, found once for each
            last, theirs = i, dealer + i >= t
            z = max(dealer + i + shift, low)
            z0 = min(np.int64(z), t)
            frac = z - z0
            near, b0, b1 = 1 - frac, z0 - low, min(z0 + 1, t) - low
        mine = me + j >= t
        if mine or theirs:
            v = p * (RACE if mine and theirs else 1.0 if mine else 0.0)
            for q in range(hands.shape[0]):
                out[q] += v
            continue
        for q in range(hands.shape[0]):
            a = j + hands[q]  # the pone on me + a
            if me + a >= t:
                out[q] += p
            else:
                out[q] += p * (near * after[a, b0] + frac * after[a, b1])


@njit(cache=True)
def pone_throw_values(hand, params, ix, me, opp, masks, starters, values):
    """The pone's chance of winning for each throw (module docstring).  ``after[a, b]``: his chance on
    ``me + a`` with the dealer on ``low + b`` before the dealer shows his hand and the crib, the crib as the
    pone's crib in self-play; the crib of a throw is that distribution moved to the throw's mean (between
    whole points by linear interpolation)."""
    t = ix[X_T]
    cells = rest_cells(params, ix, 0)
    low = max(opp - SHIFT, 0)
    nm, nz = t - me, t - low
    overall = np.zeros(SB)
    for lo in range(NR):
        for hi in range(lo, NR):
            for c in range(SB):
                overall[c] += _crib(params, ix, 1, lo, hi, c)
    overall /= overall.sum()
    mean_all = 0.0
    for c in range(SB):
        mean_all += c * overall[c]
    both = np.zeros(2 * SB)  # the dealer's hand and crib together
    for y in range(SB):
        for c in range(SB):
            both[y + c] += _hand(params, ix, 0, y) * overall[c]
    shown = np.nonzero(both)[0].astype(np.int64)
    shown_p = both[shown]
    after = np.zeros((nm, nz + 1))  # the pone on me + a, the dealer on low + b (b = nz: home already)
    for a in range(nm):
        w = ix[X_W] + (me + a) * t + low
        line = after[a]
        for i in range(shown.shape[0]):  # each after[a, b] a sum over the shows in order; the b side by side
            p, y = shown_p[i], shown[i]
            chances = params[w + y : w + y + max(min(nz, t - low - y), 0)]  # W(me + a, low + b + y), not home
            for b in range(chances.shape[0]):
                line[b] += p * chances[b]
    r = np.empty((2, SB))
    n, k = hand.shape[0], 2
    kept, thrown = np.empty(n - k, dtype=np.int64), np.empty(k, dtype=np.int64)
    shows, parts = np.empty(starters.shape[0], dtype=np.int64), np.empty(PARTS, dtype=np.int64)
    hands, chances = np.empty(SB, dtype=np.int64), np.empty(SB)
    for m in range(masks.shape[0]):
        split_throw(hand, masks[m], kept, thrown)
        lo, hi = _thrown_ranks(thrown)
        starter_shows(kept, n - k, starters, parts, shows)
        for i in range(starters.shape[0]):
            shows[i] = min(shows[i], SB - 1)
        shift = -mean_all
        for c in range(SB):
            shift += c * _crib(params, ix, 1, lo, hi, c)
        for heel in range(2):
            dealer = opp + 2 * heel
            if dealer >= t:
                continue  # his heels: the dealer is home
            r[heel, :] = np.nan  # then 0 for each hand some starter of this heel gives, listed in hands[:q]
            q = 0
            for i in range(starters.shape[0]):
                s = starters[i]
                if (1 if s >> 2 == JACK else 0) == heel:
                    h = shows[i]
                    if np.isnan(r[heel, h]):
                        r[heel, h] = 0.0
                        hands[q] = h
                        q += 1
            _pone_chances(ix, me, dealer, low, shift, cells, hands[:q], after, chances[:q])
            for i in range(q):
                r[heel, hands[i]] = chances[i]
        total = 0.0
        for i in range(starters.shape[0]):
            heel = 1 if starters[i] >> 2 == JACK else 0
            if opp + 2 * heel >= t:
                continue
            total += r[heel, shows[i]]
        values[m] = total / starters.shape[0]


@njit(cache=True)
def game_throw(hand, state, params, ix, base):
    """:func:`position_discard` in the zone: the throw with the best chance of winning, unless the base
    player's ``base`` is within the margin."""
    me, opp = state[S_MY_SCORE], state[S_OPP_SCORE]
    n = hand.shape[0]
    seen = 0
    for c in hand:
        seen |= 1 << c
    starters = np.empty(52 - n, dtype=np.int64)
    j = 0
    for c in range(52):
        if not (seen >> c) & 1:
            starters[j] = c
            j += 1
    masks = np.empty(15 if n == 6 else 28 if n == 8 else 10, dtype=np.int64)
    mask, j = next_throw(-1, n, 2), 0
    while mask >= 0:
        masks[j] = mask
        j += 1
        mask = next_throw(mask, n, 2)
    values = np.empty(j)
    if state[S_ROLE] == 0:
        dealer_throw_values(hand, params, ix, me, opp, masks[:j], starters, values)
    else:
        pone_throw_values(hand, params, ix, me, opp, masks[:j], starters, values)
    best = np.argmax(values)
    for m in range(j):
        if masks[m] == base and values[m] >= values[best] - params[ix[X_HEADER] + H_MARGIN]:
            return base
    return masks[best]


@njit(DISCARD_SIG, cache=True, refcounts=False)
def position_discard(hand, state, rules, rng, params):
    """The throw with the best chance of winning the game (module docstring); the base player's outside
    the zone.  Compiled without reference counting (nothing is allocated outside the zone); :func:`game_throw`
    weighs the throws in the zone."""
    ix = section(params, rules)
    if ix[X_T] < 0 or rules[R_THROW] != 2:
        return -1  # no table for these rules
    tables = params[ix[X_BASE_DISCARD] : ix[X_BASE_DISCARD] + BASE_DISCARD]
    if ix[X_BASE] == 0:
        base = expected_net_discard(hand, state, rules, rng, tables[:PARAMS_SIZE])
    else:
        base = expected_peg_discard(hand, state, rules, rng, tables)
    if not in_zone(ix, state[S_MY_SCORE], state[S_OPP_SCORE]):
        return base
    return game_throw(hand, state, params, ix, base)
