"""The ``expert`` play policy: determinised search (:mod:`sims.allfours.search`).

For each of ``samples`` deals of the hidden cards consistent with what the player has seen,
every legal card is valued exactly (the rest of the hand solved with all cards known):
jack and game won minus jack and game lost, the points of the hand the play can still
change.  A hand of more than ``exact_cards`` cards (the cards were run) is solved
``HORIZON`` tricks deep instead, every position there valued by greedy's play of the rest
(:func:`sims.allfours.search.solve`).  Solved to the end, the first tricks of such a hand
took three quarters of the expert's time and mostly ran out of positions after a sample
or two (docs/performance.md); two tricks and greedy's play decide on every sample, and play
as well: against the maxims over the same 12,000 two-hand deals (three seeds), -0.0017 +/-
0.0035 points a hand against the search to the end (whose edge is +0.19), in under a third
of the CPU.  The card with the best total over the samples is played; equal totals go to the
cheapest card.  A sample moves two cards' totals apart by at most ``SWING`` (each is worth
-2 .. 2), so a card that trails another by more than the samples still to come can close is
out of the running: it is not valued again, and in a sample a card that would fall that far
behind is only asked whether it is worth enough to stay in (:func:`sims.allfours.search.narrow`),
the best cards so far valued first.  The choice is the one valuing every card would make, in
fewer positions (so where the budget below runs out, more samples may be solved).  The samples
come from the seat's own random stream, every one drawn even once a single card is left.
Two-handed, when the
other player's hidden cards can be dealt in at most ``search.EXACT_DEALS`` ways (the
follower at the fifth trick: one card among the forty unseen), every deal is solved once
instead, and no random number is drawn: the choice is then the advisor's exact best
(:mod:`sims.allfours.advice`).

The search of one decision may visit at most ``max_nodes`` positions (hands of six solve in
a few thousand; two hands of twelve after the cards were run can take millions): the
samples solved within the budget decide, and if not one is, the four maxims do.
"""

from __future__ import annotations

import numpy as np

from ...core.kernel import njit
from ...core.masks import bit, nth_bit, popcount
from ..cards import game_points
from ..contract import (
    PLAY_SIG,
    S_HELD,
    S_LEAD_SUIT,
    S_N_PLAYED,
    S_PLAYERS,
    S_ROLE,
    S_TRICK_START,
    S_TRUMP,
    legal_mask,
    unseen_cards,
)
from ..rules import R_GAME_TIE, R_MAY_TRUMP
from ..search import (
    EXACT_DEALS,
    HORIZON,
    OVER_BUDGET,
    SEARCH_INDEX,
    WIN,
    X_BUDGET,
    X_GEN,
    X_JACK,
    X_LEAF,
    X_MAY_TRUMP,
    X_PLAYERS,
    X_SIZE,
    X_TIE,
    X_TRUMP,
    distinct,
    every_hand,
    game_tie,
    knave_index,
    narrow,
    new_stack,
    new_table,
    position_of,
    sample_hands,
    set_root,
    to_search,
)
from .basic import throw_cost
from .maxims import maxims_choice

ALL_MAXIMS = np.ones(4, dtype=np.float64)
SWING = 4  # the most one sample can change between two cards' totals: each is worth -2 .. 2


@njit(cache=True)
def _representative(b, kept, mine):
    """The card of ``mine`` tried for ``b``: ``b`` if kept, else the nearest higher card of its suit that
    is (:func:`search.distinct` keeps the top of each run of equivalent cards)."""
    while not (kept >> b) & 1:
        b += 1
        while not (mine >> b) & 1:
            b += 1
    return b


@njit(cache=True, inline="always")
def _ahead(i, j, hand, trump):
    """1 if card ``i`` of ``hand`` is chosen before card ``j`` on equal totals (the cheaper, then the first), else 0."""
    ci, cj = throw_cost(hand[i], trump), throw_cost(hand[j], trump)
    return 1 if ci < cj or (ci == cj and i < j) else 0


@njit(cache=True)
def _first(cards, totals, hand, trump):
    """The card of ``cards`` (a mask of positions in ``hand``) with the best total, equal totals to the cheapest."""
    choice = -1
    for i in range(hand.shape[0]):
        if (cards >> i) & 1 and (
            choice < 0 or totals[i] > totals[choice] or (totals[i] == totals[choice] and _ahead(i, choice, hand, trump))
        ):
            choice = i
    return choice


@njit(cache=True, inline="always")
def _next(cards, totals, hand):
    """The card of ``cards`` to value next: the best total, then the first in search order."""
    choice = -1
    for i in range(hand.shape[0]):
        if (cards >> i) & 1 and (
            choice < 0
            or totals[i] > totals[choice]
            or (totals[i] == totals[choice] and SEARCH_INDEX[hand[i]] < SEARCH_INDEX[hand[choice]])
        ):
            choice = i
    return choice


@njit(PLAY_SIG, cache=True)
def expert_play(hand, played, state, rules, rng, params):
    """The card with the best exact value over sampled deals (module docstring)."""
    trump = state[S_TRUMP]
    may_trump = rules[R_MAY_TRUMP] != 0
    legal = legal_mask(hand, state[S_LEAD_SUIT], trump, may_trump)
    if popcount(legal) == 1:
        return nth_bit(legal, 0)
    n, me = state[S_PLAYERS], state[S_ROLE]
    sides, laid, voids, shown, d, _, leader, j, lead_suit, best, best_role, pts, jack_in = position_of(
        played, state[S_N_PLAYED], state[S_TRICK_START], n, me, trump, may_trump
    )
    counts = state[S_HELD] - laid  # the cards left in each hand
    jack = knave_index(trump)

    mine, legal_s = np.int64(0), np.int64(0)
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            mine |= bit(hand[i])
        if (legal >> i) & 1:
            legal_s |= np.int64(1) << SEARCH_INDEX[hand[i]]
    unseen = unseen_cards(hand, played, state)
    ctx = np.zeros(X_SIZE, dtype=np.int64)
    ctx[X_PLAYERS], ctx[X_TRUMP], ctx[X_MAY_TRUMP], ctx[X_JACK] = n, trump, may_trump, jack
    ctx[X_BUDGET] = np.int64(params[1])
    held = popcount(mine)
    if held > params[2]:  # the cards were run: HORIZON tricks solved, the rest played by greedy
        ctx[X_LEAF] = held - HORIZON
    tie_value = game_tie(rules[R_GAME_TIE], sides)
    tt = new_table()
    st = new_stack()
    set_root(st, leader, j, lead_suit, best, best_role, pts, jack_in, d)
    dealt = np.zeros(4, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    lo = np.zeros(52, dtype=np.int64)
    hi = np.zeros(52, dtype=np.int64)
    values = np.zeros(hand.shape[0], dtype=np.int64)
    totals = np.zeros(hand.shape[0], dtype=np.int64)
    solved = 0
    other = 1 - me
    every = np.zeros(EXACT_DEALS, dtype=np.int64)
    n_deals = every_hand(unseen, counts[other], voids[other], every) if n == 2 else -1
    n_samples = max(1, int(params[0])) if n_deals < 0 else n_deals
    live = legal  # the cards that can still be chosen
    for s in range(n_samples):
        if n_deals < 0:
            sample_hands(unseen, counts, voids, me, n, rng, dealt)  # drawn even when settled: the stream moves on
        else:
            dealt[other] = every[s]
        if popcount(live) == 1:
            continue
        dealt[me] = mine
        reckoning = shown
        others = np.int64(0) if best < 0 else np.int64(1) << best
        for r in range(n):
            hands[r] = to_search(dealt[r])
            if r != me:
                others |= hands[r]
            for c in range(52):
                if (dealt[r] >> c) & 1:
                    reckoning += game_points(c)
        ctx[X_TIE] = tie_value if reckoning > 0 else 0
        ctx[X_GEN] += 1
        kept = distinct(legal_s, hands[me], others) if ctx[X_LEAF] == 0 else legal_s
        for b in range(52):
            lo[b], hi[b] = -2, 2
        slack = (n_samples - s - 1) * SWING  # what the samples after this one can still change between two cards
        start, todo, lead, over = live, live, -1, False
        while todo:
            i = _next(todo, totals, hand)
            todo ^= np.int64(1) << i
            b = _representative(SEARCH_INDEX[hand[i]], kept, hands[me])
            # below t, card i ends this sample beaten by the lead, whatever the samples after it give
            t = -WIN if lead < 0 else totals[lead] + values[lead] - slack - totals[i] + _ahead(lead, i, hand, trump)
            lo[b], hi[b] = narrow(ctx, sides, tt, hands, st, np.int64(1) << b, lo[b], hi[b], t)
            over = lo[b] == OVER_BUDGET
            if over:
                break
            if hi[b] < t:  # out of the running
                live ^= np.int64(1) << i
                continue
            values[i] = lo[b]
            if (
                lead < 0
                or totals[i] + values[i] > totals[lead] + values[lead]
                or (totals[i] + values[i] == totals[lead] + values[lead] and _ahead(i, lead, hand, trump))
            ):
                lead = i
        if over:
            live = start  # the sample is not counted, nor what it ruled out
            break
        solved += 1
        for i in range(hand.shape[0]):
            if (live >> i) & 1:
                totals[i] += values[i]
        for i in range(hand.shape[0]):
            if (live >> i) & 1 and i != lead and totals[lead] - slack - totals[i] >= 1 - _ahead(lead, i, hand, trump):
                live ^= np.int64(1) << i
    if solved == 0:
        return maxims_choice(hand, played, state, rules, ALL_MAXIMS)
    return _first(live, totals, hand, trump)
