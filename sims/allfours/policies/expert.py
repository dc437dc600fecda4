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
cheapest card.  The samples come from the seat's own random stream.  Two-handed, when the
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
    X_BUDGET,
    X_GEN,
    X_JACK,
    X_LEAF,
    X_MAY_TRUMP,
    X_PLAYERS,
    X_SIZE,
    X_TIE,
    X_TRUMP,
    card_value,
    distinct,
    every_hand,
    game_tie,
    knave_index,
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


@njit(cache=True)
def _representative(b, kept, mine):
    """The card of ``mine`` tried for ``b``: ``b`` if kept, else the nearest higher card of its suit that
    is (:func:`search.distinct` keeps the top of each run of equivalent cards)."""
    while not (kept >> b) & 1:
        b += 1
        while not (mine >> b) & 1:
            b += 1
    return b


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
    values = np.zeros(52, dtype=np.int64)
    totals = np.zeros(hand.shape[0], dtype=np.int64)
    solved = 0
    other = 1 - me
    every = np.zeros(EXACT_DEALS, dtype=np.int64)
    n_deals = every_hand(unseen, counts[other], voids[other], every) if n == 2 else -1
    for s in range(max(1, int(params[0])) if n_deals < 0 else n_deals):
        if n_deals < 0:
            sample_hands(unseen, counts, voids, me, n, rng, dealt)
        else:
            dealt[other] = every[s]
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
        over = False
        for b in range(52):
            if (kept >> b) & 1 and not over:
                values[b] = card_value(ctx, sides, tt, hands, st, b)
                over = values[b] == OVER_BUDGET
        if over:
            break
        solved += 1
        for i in range(hand.shape[0]):
            if (legal >> i) & 1:
                totals[i] += values[_representative(SEARCH_INDEX[hand[i]], kept, hands[me])]
    if solved == 0:
        return maxims_choice(hand, played, state, rules, ALL_MAXIMS)
    choice = -1
    for i in range(hand.shape[0]):
        if (legal >> i) & 1 and (
            choice < 0
            or totals[i] > totals[choice]
            or (totals[i] == totals[choice] and throw_cost(hand[i], trump) < throw_cost(hand[choice], trump))
        ):
            choice = i
    return choice
