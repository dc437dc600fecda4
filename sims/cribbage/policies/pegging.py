"""Pegging policies that think about the reply: ``defensive``.

``defensive`` gives each legal card the value

    points it scores now
    - risk_weight * (expected best immediate reply of the next player)
    - count_penalty   if it leaves the count at 5 or 21 (a ten-card makes 15 or 31)
    + pair_lead_bonus if it leads a new count from a pair (a reply pairing it
                      lets us make a pair-royal)

and lays the card of highest value; ties go to the higher pip value (the low
cards are kept for the end of the count), then the higher card.  The next
player's reply: he holds ``k`` cards drawn at random from the cards we have not
seen (not in our hand, not played, not the starter, not our throw), ``k`` being
what he has left; the expected value of his best reply is summed exactly over
score levels, ``sum_L (L - next lower level) * P(he holds a card scoring >= L)``
with ``P = 1 - C(U - m_L, k) / C(U, k)``.  This covers "avoid offering a pair,
fifteen or run back".

Sections 87-96 (six-card): "it is of advantage to the last player to keep as close as
possible, in hope of coming in for fifteen, a sequence, or pair, besides the end
hole, or thirty-one".  When every other player has said go in this count, we
are that last player: no reply is possible, so after the points scored now we
lay the highest card that fits, coming as close to thirty-one as we can.  With
``keep_close`` 0 the last player lays the lowest card instead (the rule's
counterfactual: ``defensive_no_close``).

``params`` (optional): ``risk_weight`` (1.0), ``count_penalty`` (0.5),
``pair_lead_bonus`` (0.5), ``keep_close`` (1.0; 0 turns the rule off).
"""

from __future__ import annotations

from ...core.kernel import njit
from ...core.unowned import stack_ints
from ..contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_GO_MASK,
    S_N_PLAYED,
    S_ROLE,
    is_legal_play,
    popcount,
    seen_cards,
)
from ..pegging import MAX_COUNT, card_value, peg_points_kernel
from ..rules import R_ACTIVE, R_BATH, R_KEPT

DEFAULT_PARAMS = (1.0, 0.5, 0.5, 1.0)
NO_CLOSE_PARAMS = DEFAULT_PARAMS[:3] + (0.0,)
N_REPLY = 52
MAX_CARDS = 52  # the most cards a deal lays (the stack scratch of the candidate cards laid)
REPLIES = 2 * N_REPLY  # the stack scratch of the scoring replies: points, then multiplicities


@njit(cache=True)
def _param(params, i, default):
    return params[i] if params.shape[0] > i else default


@njit(cache=True)
def expected_best(points, mult, n_kinds, unseen, k):
    """E[max points] when ``k`` cards are drawn from ``unseen``, of which ``mult[i]`` score ``points[i]``.

    Kinds with no points are left out of ``points``; P(a draw of ``k`` holds
    none of ``m`` given cards) = C(unseen - m, k) / C(unseen, k).
    """
    total = 0.0
    level = 1 << 30
    while True:
        nxt = 0  # the next lower score level present
        for i in range(n_kinds):
            if points[i] < level and points[i] > nxt:
                nxt = points[i]
        if nxt == 0:
            return total
        lower = 0
        for i in range(n_kinds):
            if points[i] < nxt and points[i] > lower:
                lower = points[i]
        m = 0
        for i in range(n_kinds):
            if points[i] >= nxt:
                m += mult[i]
        p_none = 1.0
        for j in range(k):
            p_none *= max(unseen - m - j, 0) / (unseen - j)
        total += (nxt - lower) * (1.0 - p_none)
        level = nxt


@njit(cache=True, refcounts=False)
def reply_pair_run(played, start, end):
    """What a card of each rank laid after the count ``played[start:end]`` scores by pairs and runs (fifteens
    and thirty-one left out), four bits a rank (rank ``r``'s points at bit ``4 r``): the pair rule of
    :mod:`..pegging` extends the trailing cards of one rank; a run of ``j + 1`` forms when the last ``j >= 2``
    cards are distinct ranks that the new rank makes consecutive (at either end or in the one gap).
    """
    last = played[end - 1] >> 2
    same = 1
    while same < end - start and played[end - 1 - same] >> 2 == last:
        same += 1
    out = ((same + 1) * same if same < 4 else 0) << (last << 2)  # no fifth card of a rank
    bits, lo, hi = 0, 13, -1
    for j in range(1, end - start + 1):  # the last j cards
        r = played[end - j] >> 2
        if (bits >> r) & 1:
            break
        bits |= 1 << r
        lo, hi = min(lo, r), max(hi, r)
        if j < 2:
            continue
        if hi - lo == j - 1:
            if lo > 0:
                out = _set_rank(out, lo - 1, j + 1)
            if hi < 12:
                out = _set_rank(out, hi + 1, j + 1)
        elif hi - lo == j:
            for g in range(lo + 1, hi):
                if not (bits >> g) & 1:
                    out = _set_rank(out, g, j + 1)
    return out


@njit(cache=True, refcounts=False, inline="always")
def _set_rank(packed, rank, points):
    """``packed`` (four bits a rank) with ``rank``'s four bits set to ``points``."""
    return (packed & ~(15 << (rank << 2))) | (points << (rank << 2))


@njit(cache=True, reads=("hand",))
def only_legal(hand, count):
    """The index of the one card that can be laid, or -1 when there is a choice."""
    only = -1
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count):
            if only >= 0:
                return -1
            only = i
    return only


@njit(PEG_SIG, cache=True, refcounts=False)
def defensive_peg(hand, played, state, rules, rng, params):
    """Points now, less the expected best reply, less counts of 5 and 21, plus leading from a pair
    (see the module docstring); the last player in a count comes as close to 31 as he can
    (``keep_close``) or lays his lowest card.  Nothing is allocated: the scratch is on the stack
    (:mod:`sims.core.unowned`)."""
    risk_weight = _param(params, 0, DEFAULT_PARAMS[0])
    count_penalty = _param(params, 1, DEFAULT_PARAMS[1])
    pair_bonus = _param(params, 2, DEFAULT_PARAMS[2])
    keep_close = _param(params, 3, DEFAULT_PARAMS[3]) != 0.0
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    start, n = state[S_COUNT_START], state[S_N_PLAYED]
    bath = rules[R_BATH] != 0
    active = rules[R_ACTIVE]
    laid = stack_ints(MAX_CARDS)[: played.shape[0]]  # read-only (contract): candidate cards are laid in a copy
    for j in range(n):
        laid[j] = played[j]
    played = laid

    # Who replies: the next player in turn who has not said go in this count.
    replier = -1
    for step in range(1, active):
        r = (state[S_ROLE] + step) % active
        if not (state[S_GO_MASK] >> r) & 1:
            replier = r
            break
    last_player = replier < 0

    # The cards we have not seen, as a 52-bit mask; replies are taken by kind: a rank, or each
    # card when Bath flushes make suits count.
    seen, mine_left = seen_cards(hand, played, state)
    unseen = 52 - popcount(seen)
    # Cards the replier still holds: the others' cards left, shared evenly.
    others_left = (active - 1) * rules[R_KEPT] - (n - (rules[R_KEPT] - mine_left))
    k = min((others_left + active - 2) // (active - 1), unseen)
    can_reply = not last_player and k > 0 and n + 1 < played.shape[0]

    scoring = stack_ints(REPLIES)  # points and multiplicity of scoring replies
    points, mults = scoring[:N_REPLY], scoring[N_REPLY:]
    # Ties: the higher card (low cards kept for the end of the count), but the lowest for a last
    # player who does not keep close.
    higher = keep_close or not last_player
    best_i, best_value = -1, 0.0
    for i in range(hand.shape[0]):
        if not is_legal_play(hand, i, count):
            continue
        card = hand[i]
        played[n] = card
        value = float(peg_points_kernel(played, start, n + 1, bath))
        after = count + card_value(card)
        if not last_player:
            n_scoring = 0
            if can_reply:
                pair_run = 0 if bath else reply_pair_run(played, start, n + 1)
                for kind in range(52 if bath else 13):
                    if bath:
                        reply, mult = kind, 1 - ((seen >> kind) & 1)
                    else:  # one card stands for its rank
                        reply, mult = kind << 2, popcount((~seen >> (kind << 2)) & 15)
                    total = after + card_value(reply)
                    if mult == 0 or total > MAX_COUNT:
                        continue
                    if bath:
                        played[n + 1] = reply
                        p = peg_points_kernel(played, start, n + 2, True)
                    else:
                        p = ((pair_run >> (kind << 2)) & 15) + (2 if total == 15 or total == MAX_COUNT else 0)
                    if p > 0:
                        points[n_scoring] = p
                        mults[n_scoring] = mult
                        n_scoring += 1
            value -= risk_weight * expected_best(points, mults, n_scoring, unseen, k)
            if after == 5 or after == 21:
                value -= count_penalty
            if count == 0:
                for j in range(hand.shape[0]):
                    if j != i and hand[j] >= 0 and hand[j] >> 2 == card >> 2:
                        value += pair_bonus
                        break
        if best_i < 0 or value > best_value:
            best_i, best_value = i, value
        elif value == best_value:
            key, best_key = (card_value(card), card), (card_value(hand[best_i]), hand[best_i])
            if (key > best_key) == higher:
                best_i = i
    return best_i
