"""A hand whose cards are played by the search seeing every hand: the advisor's ``search`` play-outs.

:func:`solved_hand` plays one hand as :func:`sims.allfours.play.play_given` does (the deal, the beg and the
answer, the cards thrown out with discard_to_six, the decisions ``given`` replayed), but the cards after those
given are not asked of the policies: the rest of the hand is solved with every hand known
(:func:`sims.allfours.search.best_value`), as the ``expert`` solves each deal it samples: two tricks deep and
then greedy's play while the hands hold more than twice ``exact_cards`` cards (two-handed, the expert's rule
after the cards were run; four-handed also the first two tricks of every hand, which would take a third of a
second a deal to solve to the end).  Both sides play for jack and game, as the expert does.

The value gives the hand's points: high and low are the deal's, and a value v from jack and game is one point
each way but for the knave (jack to the side that gets v >= 1, game to the one that gets the rest).  Only when
each side wins one of them (v = 0 with the knave still to be won) is it open which took the knave; when that
decides the game (each side one point from the target after high and low, and the knave scored before game),
the knave alone is solved for, as a player who sees that only it counts plays.  Points are scored in the laws'
order (Sections 87-96 §93; :func:`sims.allfours.play.count_points`).
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit
from ..core.masks import popcount
from .cards import game_points
from .contract import P_CARD, P_ROLE, S_TRUMP
from .play import (
    C_TOTAL,
    GIVEN_N_THROWN,
    GIVEN_THROWN,
    GO_ON,
    count_points,
    deal_and_bid,
    keep_six,
    refuse_card,
)
from .rules import R_GAME_TIE, R_MAY_TRUMP, R_PLAYERS
from .search import (
    HORIZON,
    NO_GAME,
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
    best_value,
    game_tie,
    knave_index,
    legal_moves,
    new_stack,
    new_table,
    position_of,
    set_root,
)

BUDGET = 1 << 40  # positions a search may visit: no limit


@njit(cache=True)
def new_search():
    """What :func:`solved_hand` searches with, made once for a call's hands: the context, the table, the stack, the
    hands by role and the cards of the play so far."""
    ctx = np.zeros(X_SIZE, dtype=np.int64)
    ctx[X_BUDGET] = BUDGET
    return ctx, new_table(), new_stack(), np.zeros(4, dtype=np.int64), np.zeros((2, 64), dtype=np.int64)


@njit(cache=True)
def solved_hand(rules, dealer, role, score, pack, seats, events, err, work, decided, exact_cards, search):
    """One hand (module docstring) with ``decided`` ``(given, laid_by)``, the decisions ``given``
    (:func:`sims.allfours.play.play_given`): the beg, the answer, the cards thrown out, then the cards of the play
    so far, played by ``laid_by`` (roles); when ``given`` holds one card more, it is the choice of ``role``,
    valued as the search values it, else the player to move plays his best.  Values are judged for ``role``'s
    side.  A new deal or a new choice that changes the hands starts a new generation of the table
    (``search[0][X_GEN]``): the caller's business.  Returns as ``play_given``."""
    given, laid_by = decided
    status, held, first_deal = deal_and_bid(rules, dealer, score, pack, seats, events, err, work, given)
    if status != GO_ON:
        return status
    status, _ = keep_six(rules, dealer, score[0], held, first_deal, seats, err, work, given)
    if status != GO_ON:
        return status
    hands_by_role, state, holder = work[1], work[3], work[4]
    ctx, tt, st, hands, played = search
    n, trump = rules[R_PLAYERS], state[S_TRUMP]
    may_trump = rules[R_MAY_TRUMP] != 0
    holder[:] = -1
    for r in range(n):
        for i in range(held):
            if hands_by_role[r, i] >= 0:
                holder[hands_by_role[r, i]] = r
    reckoning = 0  # the points for game of the cards in play
    for r in range(n):
        hands[r] = 0
    for c in range(52):
        if holder[c] >= 0:
            reckoning += game_points(c)
            hands[holder[c]] |= np.int64(1) << SEARCH_INDEX[c]
    first = GIVEN_THROWN + given[GIVEN_N_THROWN]
    n_given = given.shape[0] - first
    n_played = laid_by.shape[0] if n_given > laid_by.shape[0] else n_given
    for k in range(n_given):  # each card held and one law iii allows, as play_tricks requires
        card, by = given[first + k], laid_by[k] if k < n_played else role
        lead = -1 if k % n == 0 else given[first + k - k % n] & 3
        if not (0 <= card < 52 and legal_moves(hands[by], lead, trump, may_trump) >> SEARCH_INDEX[card] & 1):
            return refuse_card(rules, dealer, score[0], by, card, held, err, work)
        if k < n_played:
            played[P_CARD, k], played[P_ROLE, k] = card, by
            hands[by] ^= np.int64(1) << SEARCH_INDEX[card]
    start = n_played - n_played % n
    sides, _, _, _, d, jack_side, leader, j, lead_suit, best, best_role, pts, jack_in = position_of(
        played, n_played, start, n, role, trump, may_trump
    )
    mover = leader + j if leader + j < n else leader + j - n
    if n_given > n_played:  # the choice
        moves = np.int64(1) << SEARCH_INDEX[given[first + n_played]]
    else:
        moves = legal_moves(hands[mover], lead_suit, trump, may_trump)
    ctx[X_PLAYERS], ctx[X_TRUMP], ctx[X_MAY_TRUMP], ctx[X_JACK] = n, trump, may_trump, knave_index(trump)
    left = popcount(hands[mover])
    in_hands = popcount(hands[0] | hands[1] | hands[2] | hands[3])
    ctx[X_LEAF] = left - HORIZON if in_hands > 2 * exact_cards else 0  # two-handed, the expert's rule
    ctx[X_TIE] = game_tie(rules[R_GAME_TIE], sides) if reckoning > 0 else 0
    set_root(st, leader, j, lead_suit, best, best_role, pts, jack_in, d)
    v = best_value(ctx, sides, tt, hands, st, moves)
    mine = role % 2  # the side role (count_points) of role's side
    if not (jack_in != 0 or (hands[0] | hands[1] | hands[2] | hands[3]) >> knave_index(trump) & 1):
        jack, game = (0 if jack_side < 0 else 1 - 2 * jack_side), v  # the knave taken, or not in play
    elif v != 0 or not _knave_decides(rules, dealer, score, trump, holder, mine, events):
        jack = 1 if v >= 1 else -1
        game = v - jack
    else:  # the knave alone decides: solved for alone, game to the other side
        ctx[X_TIE], ctx[X_GEN] = NO_GAME, ctx[X_GEN] + 1  # the table holds values of jack and game: not these
        jack = best_value(ctx, sides, tt, hands, st, moves)
        game = -jack
        ctx[X_GEN] += 1
    return _count(rules, dealer, score, trump, holder, mine, jack, game, events)


@njit(cache=True)
def _count(rules, dealer, score, trump, holder, mine, jack, game, events):
    """:func:`count_points` with the knave to ``mine``'s side (``jack`` 1), the other's (-1) or nobody (0) and
    game likewise (``game``): one point for game to the side that takes it."""
    theirs = 1 - mine
    jack_taker = -1 if jack == 0 else (mine if jack > 0 else theirs)
    reckoned = np.zeros(2, dtype=np.int64)
    if game != 0:
        reckoned[mine if game > 0 else theirs] = 1
    return count_points(rules, dealer, score, trump, holder, reckoned[0], reckoned[1], jack_taker, events)


@njit(cache=True)
def _knave_decides(rules, dealer, score, trump, holder, mine, events):
    """Whether who takes the knave decides the hand's outcome when each side takes one of jack and game:
    :func:`_count` both ways on copies of ``score`` give different scores or winners (never without a target)."""
    scores, comp, check = score
    if not check:
        return False
    a, b = (scores.copy(), comp.copy(), check), (scores.copy(), comp.copy(), check)
    spare = events.copy()
    won_a = _count(rules, dealer, a, trump, holder, mine, 1, -1, spare)
    won_b = _count(rules, dealer, b, trump, holder, mine, -1, 1, spare)
    return won_a != won_b or a[1][0, C_TOTAL] != b[1][0, C_TOTAL] or a[1][1, C_TOTAL] != b[1][1, C_TOTAL]
