"""The end of the play solved exactly: ``distilled_end``, the distilled pegging with its last cards played best.

When both players hold at most two cards, :func:`end_values` gives each card I may lay its value to the end
of the play, both playing best over every hand he may hold, and :func:`distilled_end_peg` lays the best.  The
hands he may hold are the lawful ones (Sections 87-96: a player who can play must): when he said go, or
nobody could lay, he held no card that fitted, so he holds only cards of more pips than the count left room
for (``state[S_ROOM + his role]``).  It gains 0.0035 +- 0.0015 a deal over ``distilled`` (200,000 paired
deals) at a quarter of the speed (about 48,000 deals/s on two cores against 200,000), so ``distilled`` does
not use it.  ``position_distilled`` solves only the ends where he holds one card at most (:data:`FORCED_END`),
where every decision after mine is forced: the search is then a dozen of his cards, not ninety pairs.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.kernel import njit
from ..contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_GO_MASK,
    S_N_PLAYED,
    S_ROLE,
    S_ROOM,
    is_legal_play,
    popcount,
    seen_cards,
)
from ..pegging import MAX_COUNT, card_value, peg_points_kernel
from ..rules import R_ACTIVE, R_BATH, R_KEPT, R_ONE_COUNT
from .distilled import NR, distilled_peg
from .pegging import only_legal

END_CARDS = 2  # the end is solved exactly when both players hold at most this many cards
FORCED_END = 1  # position_distilled's: at most this many cards his (so his card, and my last, are forced)


@njit(
    types.float64(
        types.Array(types.int64, 2, "C"),
        types.Array(types.int64, 1, "C"),
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.boolean,
    ),
    cache=True,
)
def solve_end(h, played, n, start, count, turn, went, last, bath):
    """My pegging less his from here to the end of the play, both hands known and both playing best
    (``h[0]`` mine, ``h[1]`` his, -1 for none; ``turn`` 0 me, 1 him; ``went`` bit r: r has said go in this
    count; ``last`` who laid the last card).  A player who can play must; when nobody can, the last player
    scores the go (1) and the other leads a new count; 31 (its 2 in the card's points) ends the count; the
    last card of all scores 1 (as :func:`sims.cribbage.play.play_out`)."""
    zero = n - n  # not a literal: numba compiles a recursive function once for its signature
    remaining = 0
    for r in range(2):
        for j in range(h.shape[1]):
            remaining += h[r, j] >= 0
    if remaining == 0:
        if count > 0:
            return 1.0 if last == 0 else -1.0
        return 0.0
    sign = 1.0 if turn == 0 else -1.0
    best = 0.0
    found = False
    for j in range(h.shape[1]):
        card = h[turn, j]
        if card < 0 or count + card_value(card) > MAX_COUNT:
            continue
        h[turn, j] = -1
        played[n] = card
        pts = peg_points_kernel(played, start, n + 1, bath)
        after = count + card_value(card)
        if after == MAX_COUNT:
            v = sign * pts + solve_end(h, played, n + 1, n + 1, zero, 1 - turn, zero, turn, bath)
        else:
            v = sign * pts + solve_end(h, played, n + 1, start, after, 1 - turn, went, turn, bath)
        h[turn, j] = card
        if not found or (turn == 0 and v > best) or (turn == 1 and v < best):
            best, found = v, True
    if found:
        return best
    went |= 1 << turn
    other = 1 - turn
    for j in range(h.shape[1]):
        if h[other, j] >= 0 and count + card_value(h[other, j]) <= MAX_COUNT:
            return solve_end(h, played, n, start, count, other, went, last, bath)
    go = 1.0 if last == 0 else -1.0  # nobody can play: the go to the last player, the other leads
    return go + solve_end(h, played, n, n, zero, 1 - last, zero, last, bath)


@njit(cache=True)
def end_values(hand, played, state, seen, their_left, values):
    """``values[i]``: for each card ``hand[i]`` I may lay, its points now and my pegging less his to the end
    of the play, both playing best, averaged exactly over the ``their_left`` (<= 2) cards he may hold, drawn
    from the cards I have not seen of more pips than his room (by rank: suits do not count in the play without
    Bath flushes)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    role = state[S_ROLE]
    went_him = (state[S_GO_MASK] >> (1 - role)) & 1
    went = went_him << 1
    h = np.full((2, END_CARDS), -1, dtype=np.int64)
    mine = 0
    for j in range(hand.shape[0]):
        if hand[j] >= 0:
            h[0, mine] = hand[j]
            mine += 1
    room = state[S_ROOM + 1 - role]
    mult = np.zeros(NR, dtype=np.int64)
    for r in range(NR):
        if card_value(r << 2) > room:
            mult[r] = popcount((~seen >> (r << 2)) & 15)
    his = np.full((NR * NR, END_CARDS), -1, dtype=np.int64)  # his hands by rank, with their weights
    weights = np.empty(NR * NR)
    n_hands = 0
    total = 0.0
    for r1 in range(NR if their_left >= 1 else 1):
        for r2 in range(r1 if their_left >= 2 else 0, NR if their_left >= 2 else 1):
            if their_left == 0:
                w = 1.0
            elif their_left == 1:
                w = float(mult[r1])
            elif r1 == r2:
                w = mult[r1] * (mult[r1] - 1) / 2.0
            else:
                w = float(mult[r1] * mult[r2])
            if w <= 0.0:
                continue
            his[n_hands, 0] = (r1 << 2) if their_left >= 1 else -1
            his[n_hands, 1] = (r2 << 2) if their_left >= 2 else -1
            weights[n_hands] = w
            n_hands += 1
            total += w
    for i in range(hand.shape[0]):
        values[i] = 0.0
        if not is_legal_play(hand, i, count):
            continue
        card = hand[i]
        slot = 0
        while h[0, slot] != card:
            slot += 1
        h[0, slot] = -1
        played[n] = card
        pts = peg_points_kernel(played, start, n + 1, False)
        after = count + card_value(card)
        for d in range(n_hands):
            h[1, 0], h[1, 1] = his[d, 0], his[d, 1]
            if after == MAX_COUNT:
                v = pts + solve_end(h, played, n + 1, n + 1, 0, 1, 0, 0, False)
            else:
                v = pts + solve_end(h, played, n + 1, start, after, 1, went, 0, False)
            values[i] += weights[d] * v
        h[0, slot] = card
    for i in range(hand.shape[0]):
        values[i] /= total


@njit(PEG_SIG, cache=True)
def distilled_end_peg(hand, played, state, rules, rng, params):
    """``distilled``, but when both players hold at most :data:`END_CARDS` cards the card of best exact
    value to the end of the play (:func:`end_card`)."""
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    return end_card(hand, played, state, rules, distilled_peg(hand, played, state, rules, rng, params), END_CARDS)


@njit(cache=True)
def end_card(hand, played, state, rules, pick, their_most):
    """The card of best exact value to the end of the play (:func:`end_values`; ties: ``pick``) when I hold at
    most :data:`END_CARDS` cards and he at most ``their_most``, in a two-handed game of several counts
    without Bath flushes; else ``pick``."""
    count = state[S_COUNT]
    if rules[R_ACTIVE] != 2 or rules[R_BATH] != 0 or rules[R_ONE_COUNT] != 0:
        return pick
    seen, mine_left = seen_cards(hand, played, state)
    their_left = 2 * rules[R_KEPT] - state[S_N_PLAYED] - mine_left
    if mine_left > END_CARDS or their_left > their_most:
        return pick
    values = np.empty(hand.shape[0])
    end_values(hand, played.copy(), state, seen, their_left, values)  # read-only (contract): cards laid in a copy
    best = pick
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count) and values[i] > values[best] + 1e-9:
            best = i
    return best
