"""Pegging by tables fitted to play-outs: ``distilled``, a fast policy taught by Monte Carlo returns.

Each card the player may lay gets the value

    a * points it scores now  +  b * expected best reply (as ``defensive`` computes it)
    + RANK_COUNT[rank, count after]            (leads, and the counts a card leaves)
    + COUNT_LOW[count after, lowest pip kept]   (keeping a low card for the go and for 31)
    + SETUP[rank, a pair kept, a neighbour kept, leading]   (pair-royal and run set-ups)
    + LEFT[count after, my cards left, his cards left]      (the end of the play)
    + GO[he has said go, count after]           (the last player's count)

and the card of highest value is laid (ties: the higher pip value).  The values
of the tables are fitted to play-outs, not set by hand
(:mod:`sims.cribbage.lab.distillation` fits them to the play-outs of
:mod:`sims.cribbage.lab.distilled_play_outs`).  The tables that ship
(``sims/cribbage/data/odds/distilled-peg.json``, with their provenance) peg, over
200,000 paired deals, 0.071 a deal more than the exploring fit's tables and 0.164
more than ``defensive`` (the exploring tables: 0.177), and over 30,000 paired deals
0.055 more than ``rollout`` (the exploring tables: 0.027).

Self-play and the experts' 3.5 points for the dealer: the tables (and
``rollout``) are fitted to net pegging, mine less his, and a better player in
both seats cancels much of it.  Against ``defensive`` (100,000 deals) these
tables as dealer peg 0.10 more and let the pone peg 0.11 less; ``rollout`` as
dealer pegs 0.19 more but lets the pone peg 0.03 more (20,000 deals), and its
self-play 3.45 is a more open game for both (the pone pegs 2.27, against 2.08
here).  A more open game is a weaker one: weighing the points now by 1.3 or the
reply by 0.7 or 0.5 raises the dealer's self-play pegging to 3.38, 3.42, 3.48
and loses 0.005, 0.019, 0.038 a deal to these tables.  With ``expected_peg``'s
discards (which keep cards that peg) the dealer pegs 3.38 and the pone 2.14, and
3.53 with his heels (:data:`sims.cribbage.lab.tournament.LITERATURE` on the readings).

``distilled_end`` (:mod:`sims.cribbage.policies.end_of_play`) solves the end of the
play exactly on top of these tables.

Two-handed play only: with three or four players the others' cards are not a
single opponent's, and the policy lays ``defensive``'s card.  The tables are
fitted to six-card play; five- and eight-card use them as they stand (cards left
counted up to three of mine and four of his).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np

from ...core.arrays import copy_into
from ...core.kernel import njit
from ...core.unowned import stack_floats, stack_ints
from ..contract import PEG_SIG, S_COUNT, S_COUNT_START, S_GO_MASK, S_N_PLAYED, S_ROLE, is_legal_play, seen_cards
from ..pegging import MAX_COUNT, card_value, peg_points_kernel, points_if_laid
from ..rules import R_ACTIVE, R_BATH, R_KEPT
from .pegging import defensive_peg, only_legal, reply_pair_run

NR = 13
N_COUNTS = 32  # counts after a card: 1 .. 31 (0 unused)
N_LOW = 11  # lowest pip value kept: 0 (nothing kept) .. 10
# Parameter layout: two weights, then the tables.
P_POINTS, P_REPLY = 0, 1
RANK_COUNT = 2
COUNT_LOW = RANK_COUNT + NR * N_COUNTS
SETUP = COUNT_LOW + N_COUNTS * N_LOW
LEFT = SETUP + NR * 8
GO = LEFT + N_COUNTS * 4 * 5
N_PARAMS = GO + 2 * N_COUNTS
N_TABLES = 5  # table cells a card touches
MAX_POINTS = 32  # above the most a card scores in the play (16: thirty-one with a run and a Bath flush of 7)
N_LEVELS = MAX_POINTS + 1
WORK_SIZE = MAX_POINTS + NR
CARD_STRIDE = N_TABLES + 1  # a card's cells and its points now, in distilled_peg's scratch
MAX_CARDS = 52  # bounds the cards played and held in any two-handed rules (the stack scratch)
MAX_DRAWN = 6  # replies drawn from a table up to this many cards held (eight-card keeps six)
# distilled_peg's stack scratch: the cards laid with a candidate and a reply, each card's cells, levels and work
X_CELLS = MAX_CARDS + 1
X_LEVELS = X_CELLS + MAX_CARDS * CARD_STRIDE
X_WORK = X_LEVELS + N_LEVELS
SCRATCH = X_WORK + N_LEVELS
LOW_NIBBLES = 0x1111111111111  # bit 0 of each rank's four bits (cards are rank * 4 + suit)
DATA = ("sims.cribbage", "data/odds/distilled-peg.json")


def no_holder_chances() -> np.ndarray:
    """``[k, unseen, h]``: the chance that ``k`` cards drawn from ``unseen`` hold none of ``h`` given cards,
    C(unseen - h, k) / C(unseen, k), multiplied out factor by factor exactly as :func:`reply_chances` did
    (so the table's values are its values, bit for bit)."""
    unseen = np.arange(MAX_CARDS + 1)[:, None]
    holders = np.arange(MAX_CARDS + 1)[None, :]
    chances = np.empty((MAX_DRAWN + 1, MAX_CARDS + 1, MAX_CARDS + 1))
    p = np.ones((MAX_CARDS + 1, MAX_CARDS + 1))
    chances[0] = p
    with np.errstate(divide="ignore", invalid="ignore"):  # k > unseen: never asked
        for j in range(MAX_DRAWN):
            p = p * (np.maximum(unseen - holders - j, 0) / (unseen - j))
            chances[j + 1] = p
    return chances


NO_HOLDER = no_holder_chances()


@njit(cache=True, reads=("played", "hand"))
def decision_buffers(played, hand):
    """Scratch for one decision, in one allocation: (a copy of ``played`` to lay candidate cards in, ``levels``
    and ``chances`` for :func:`reply_chances`, ``cells``: for each card of ``hand`` its five table cells and
    its points now (:data:`CARD_STRIDE` a card), ``work`` for :func:`reply_holders`)."""
    n = played.shape[0]
    a = n + N_LEVELS
    b = a + N_LEVELS
    c = b + hand.shape[0] * CARD_STRIDE
    ints = np.empty(c + WORK_SIZE, dtype=np.int64)
    copy_into(ints[:n], played)
    return ints[:n], ints[n:a], ints[a:b].view(np.float64), ints[b:c], ints[c:]


@njit(cache=True, refcounts=False, inline="always")
def unseen_by_rank(seen):
    """How many cards of each rank are not in the 52-bit mask ``seen``, four bits a rank (rank ``r`` at bit
    ``4 r``): the bits of each rank's four cards added in place, branch-free."""
    x = ~seen & ((1 << 52) - 1)
    x = (x & (LOW_NIBBLES * 5)) + ((x >> 1) & (LOW_NIBBLES * 5))
    return (x & (LOW_NIBBLES * 3)) + ((x >> 2) & (LOW_NIBBLES * 3))


@njit(cache=True, refcounts=False, inline="always")
def total_unseen(by_rank):
    """The sum of :func:`unseen_by_rank`'s thirteen counts."""
    x = (by_rank & 0x0F0F0F0F0F0F0F) + ((by_rank >> 4) & 0x0F0F0F0F0F0F0F)
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0xFF


@njit(cache=True, refcounts=False)
def reply_holders(played, start, n, after, seen, bath, holders):
    """``holders[p]`` (1 <= p <= the returned top): how many of the cards not ``seen`` would score ``p`` as
    the reply to the count ``played[start:n]`` (which stands at ``after``); returns the highest such ``p``
    (0: none; ``holders`` above it is left as it was)."""
    top = 0
    if bath:
        for kind in range(52):
            if (seen >> kind) & 1 or after + card_value(kind) > MAX_COUNT:
                continue
            played[n] = kind
            p = peg_points_kernel(played, start, n + 1, True)
            if p > 0:
                for q in range(top + 1, p + 1):
                    holders[q] = 0
                top = max(top, p)
                holders[p] += 1
        return top
    by_rank = unseen_by_rank(seen)
    pair_run = reply_pair_run(played, start, n)
    for r in range(NR):  # one card stands for its rank
        total = after + min(r + 1, 10)
        if total > MAX_COUNT:
            break
        count = (by_rank >> (r << 2)) & 15
        p = ((pair_run >> (r << 2)) & 15) + (2 if total == 15 or total == MAX_COUNT else 0)
        if count > 0 and p > 0:
            for q in range(top + 1, p + 1):
                holders[q] = 0
            top = max(top, p)
            holders[p] += count
    return top


@njit(cache=True, refcounts=False)
def reply_chances(played, start, n, after, seen, k, bath, levels, chances, work):
    """The opponent's best reply to the count ``played[start:n]`` (which stands at ``after``), when he holds
    ``k`` cards drawn from the cards not ``seen``: ``levels[:m]`` the points it may score (highest first)
    and ``chances[:m]`` the chance of each; returns ``m``.  The last level, 0, is a reply scoring nothing.
    (``work``: scratch of :data:`N_LEVELS`.)

    Summed as ``defensive`` sums the mean: P(a draw of ``k`` holds none of the ``h`` cards scoring at least
    a level) = C(unseen - h, k) / C(unseen, k) (:data:`NO_HOLDER`)."""
    unseen = total_unseen(unseen_by_rank(seen))
    top = reply_holders(played, start, n, after, seen, bath, work)
    m = 0
    holders = 0
    reached = 0.0
    for level in range(top, 0, -1):
        if work[level] == 0:
            continue
        holders += work[level]
        if k <= MAX_DRAWN:
            p_none = NO_HOLDER[k, unseen, holders]
        else:
            p_none = 1.0
            for j in range(k):
                p_none *= max(unseen - holders - j, 0) / (unseen - j)
        levels[m], chances[m] = level, (1.0 - p_none) - reached
        reached = 1.0 - p_none
        m += 1
    levels[m], chances[m] = 0, 1.0 - reached
    return m + 1


@njit(cache=True, refcounts=False, reads=("hand",))
def held_facts(hand):
    """What :func:`cells_of` needs of the cards held: (how many, the lowest pip value and the next lowest,
    counting a value held twice twice (0: none), how many of each rank four bits a rank, a bit for each rank
    held)."""
    held, low, next_low, by_rank, ranks = 0, 0, 0, 0, 0
    for c in hand:
        if c < 0:
            continue
        held += 1
        v = card_value(c)
        if low == 0 or v < low:
            low, next_low = v, low
        elif next_low == 0 or v < next_low:
            next_low = v
        by_rank += 1 << ((c >> 2) << 2)
        ranks |= 1 << (c >> 2)
    return held, low, next_low, by_rank, ranks


@njit(cache=True, refcounts=False)
def cells_of(card, count, went, their_left, facts, cells, at):
    """Fills ``cells[at:at + 5]`` with the five table indices of laying ``card``, one of the cards held
    (:func:`held_facts` ``facts``), on ``count`` (module docstring)."""
    held, low, next_low, by_rank, ranks = facts
    rank = card >> 2
    after = count + card_value(card)
    if card_value(card) == low:
        low = next_low  # the lowest of the others
    pair = ((by_rank >> (rank << 2)) & 15) >= 2
    near = ((ranks << 2) >> rank) & 0b11011 != 0
    cells[at] = RANK_COUNT + rank * N_COUNTS + after
    cells[at + 1] = COUNT_LOW + after * N_LOW + low
    cells[at + 2] = SETUP + rank * 8 + pair * 4 + near * 2 + (count == 0)
    cells[at + 3] = LEFT + (after * 4 + min(held - 1, 3)) * 5 + min(their_left, 4)
    cells[at + 4] = GO + went * N_COUNTS + after


@njit(cache=True, refcounts=False)
def card_cells(hand, i, played, state, rules, their_left, cells, at):
    """Laying ``hand[i]``: returns its points now and fills ``cells[at:at + 5]`` with the five table indices
    (module docstring)."""
    count = state[S_COUNT]
    went = (state[S_GO_MASK] >> (1 - state[S_ROLE])) & 1
    cells_of(hand[i], count, went, their_left, held_facts(hand), cells, at)
    return points_if_laid(played, state[S_COUNT_START], state[S_N_PLAYED], hand[i], rules[R_BATH] != 0)


@njit(cache=True, refcounts=False, reads=("hand", "state", "rules"))
def card_reply(hand, i, played, state, rules, seen, their_left, levels, chances, work):
    """The expected best reply to ``hand[i]`` (laid in ``played``, a copy): 0 after thirty-one, when he has
    said go or holds no card (:func:`reply_chances`)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    after = count + card_value(hand[i])
    went = (state[S_GO_MASK] >> (1 - state[S_ROLE])) & 1
    reply = 0.0
    if after < MAX_COUNT and not went and their_left > 0:
        played[n] = hand[i]
        m = reply_chances(
            played,
            start,
            n + 1,
            after,
            seen,
            min(their_left, total_unseen(unseen_by_rank(seen))),
            rules[R_BATH] != 0,
            levels,
            chances,
            work,
        )
        for r in range(m):
            reply += levels[r] * chances[r]
    return reply


@njit(cache=True)
def card_features(hand, i, played, state, rules, seen, their_left, levels, chances, cells, work):
    """What the tables know of laying ``hand[i]``: returns (points now, expected best reply) and fills
    ``cells`` with the five table indices (module docstring)."""
    now = card_cells(hand, i, played, state, rules, their_left, cells, 0)
    return float(now), card_reply(hand, i, played, state, rules, seen, their_left, levels, chances, work)


@njit(cache=True, refcounts=False, inline="always")
def _value(now, reply, cells, at, params, a, b):
    """The fitted value of a card (module docstring) with its cells at ``cells[at:]``, weights ``a`` and ``b``."""
    v = a * now + b * reply
    for c in range(N_TABLES):
        v += params[cells[at + c]]
    return v


@njit(cache=True, refcounts=False)
def weighed_peg(hand, played, state, rules, rng, params, a, b):
    """:func:`distilled_peg` with the tables ``params`` and the weights ``a`` of the points now and ``b`` of the
    expected reply (the tables' own: ``params[P_POINTS]``, ``params[P_REPLY]``).

    The expected reply, the dear part, is weighed only for cards that could be best: with a reply weight
    ``b <= 0`` a card's value without it is an upper bound (rounding is monotonic), so a card
    whose bound is below the exact value of the card of highest bound, or of the best card so far, cannot be
    laid, whatever its reply.  Nothing is allocated: the scratch is on the stack (:mod:`sims.core.unowned`)."""
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    if rules[R_ACTIVE] != 2:
        return defensive_peg(hand, played, state, rules, rng, params[:0])  # its default parameters
    seen, mine_left = seen_cards(hand, played, state)
    n = state[S_N_PLAYED]
    their_left = 2 * rules[R_KEPT] - n - mine_left
    scratch = stack_ints(SCRATCH)
    chances = stack_floats(N_LEVELS)
    laid = scratch[:X_CELLS]  # read-only (contract): candidate cards are laid in a copy
    for j in range(n):
        laid[j] = played[j]
    cells, levels, work = scratch[X_CELLS:X_LEVELS], scratch[X_LEVELS:X_WORK], scratch[X_WORK:]
    facts = held_facts(hand)
    went = (state[S_GO_MASK] >> (1 - state[S_ROLE])) & 1
    start, bath = state[S_COUNT_START], rules[R_BATH] != 0
    prune = b <= 0.0
    top, top_bound = -1, 0.0
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count):
            at = i * CARD_STRIDE
            cells_of(hand[i], count, went, their_left, facts, cells, at)
            cells[at + N_TABLES] = points_if_laid(played, start, n, hand[i], bath)
            bound = _value(float(cells[at + N_TABLES]), 0.0, cells, at, params, a, b)
            prune &= bound == bound  # no NaN: the values are ordered
            if top < 0 or bound > top_bound:
                top, top_bound = i, bound
    at = top * CARD_STRIDE
    floor = _value(
        float(cells[at + N_TABLES]),
        card_reply(hand, top, laid, state, rules, seen, their_left, levels, chances, work),
        cells,
        at,
        params,
        a,
        b,
    )
    best, best_value = -1, 0.0
    for i in range(hand.shape[0]):
        if not is_legal_play(hand, i, count):
            continue
        at = i * CARD_STRIDE
        now = float(cells[at + N_TABLES])
        if i == top:
            value = floor
        elif prune and (
            _value(now, 0.0, cells, at, params, a, b) < floor
            or (best >= 0 and _value(now, 0.0, cells, at, params, a, b) < best_value)
        ):
            continue
        else:
            reply = card_reply(hand, i, laid, state, rules, seen, their_left, levels, chances, work)
            value = _value(now, reply, cells, at, params, a, b)
        if best < 0 or value > best_value or (value == best_value and card_value(hand[i]) > card_value(hand[best])):
            best, best_value = i, value
    return best


@njit(PEG_SIG, cache=True, refcounts=False)
def distilled_peg(hand, played, state, rules, rng, params):
    """Lay the card of highest fitted value (module docstring); ``defensive``'s card with other than two
    players."""
    return weighed_peg(hand, played, state, rules, rng, params, params[P_POINTS], params[P_REPLY])


N_SCALES = 2  # weighted_distilled's parameters, before distilled's tables


@njit(PEG_SIG, cache=True, refcounts=False)
def weighted_distilled_peg(hand, played, state, rules, rng, params):
    """``distilled`` with its two weights scaled: ``params[0]`` times the tables' weight of the points a card
    scores now, ``params[1]`` times their weight of the expected best reply; then ``distilled``'s tables (the
    spec's fixed table).  Scales of 1 lay ``distilled``'s cards (``x * 1.0 == x``)."""
    tables = params[N_SCALES:]
    a, b = params[0] * tables[P_POINTS], params[1] * tables[P_REPLY]
    return weighed_peg(hand, played, state, rules, rng, tables, a, b)


@cache
def named_tables() -> dict[str, tuple]:
    """The tables the policy knows by name: ``shipped``."""
    data = json.loads(resources.files(DATA[0]).joinpath(DATA[1]).read_text())
    if len(data["params"]) != N_PARAMS:
        raise ValueError(f"{DATA[1]} holds {len(data['params'])} values, the policy takes {N_PARAMS}")
    return {"shipped": tuple(float(v) for v in data["params"])}


def distilled_policy(params=None):
    """The ``distilled`` pegging Policy with ``params`` (default: the tables that ship)."""
    from ...core.policies import Policy, PolicySpec, TableParams

    spec = PolicySpec(
        f"{__name__}:distilled_peg",
        TableParams("distilled pegging tables", N_PARAMS, f"{__name__}:named_tables", "shipped"),
    )
    values = spec.default_params() if params is None else tuple(float(v) for v in params)
    if len(values) != N_PARAMS:
        raise ValueError(f"the distilled pegging tables take {N_PARAMS} values, got {len(values)}")
    return Policy("distilled", "peg", distilled_peg, values, spec)
