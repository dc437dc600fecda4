"""The discard optimiser: what every possible throw is worth, exactly.

For one dealt hand and one seat, every way to lay out cards for the crib gets

* ``hand`` – the exact expected show of the kept cards over every starter the
  player has not seen (46 in six-card, 47 in five-card, 44 in eight-card,
  47 in three- and four-hand);
* ``crib`` – the exact expected crib when the other players throw at random:
  every way the unseen cards can complete the crib (the opponent's two cards,
  C(46,2) = 1,035 in six-card; in three-hand the two other players' cards and
  the pack card, and in four-hand the three other players' cards, C(47,3) =
  16,215) times every remaining starter.  The sum is taken in closed form by
  rank multiset with nobs and flushes counted combinatorially (see
  :func:`sims.cribbage.policies.discard.crib_total`), so it is exact and cheap
  for every preset and ``crib_method`` is always ``"exact"``;
* ``net`` – hand plus the crib when the crib is the player's side's (the dealer;
  in four-hand also his partner), hand minus the crib otherwise.  In three-hand a
  non-dealer's net counts the whole crib against him although it helps only one
  of his two opponents;
* with ``opponent`` (a discard policy): ``opp_crib`` ± ``opp_crib_se`` and
  ``opp_net``, the crib when the other players throw by that policy, estimated
  from ``samples`` seeded deals of their hands from the unseen cards (the same
  deals for every throw, so differences between throws are sharper than the
  standard errors suggest).

Rows are sorted best first by ``opp_net`` when an opponent policy is given,
else by ``net``; ties by the expected hand.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit, types

from ..cards import format_cards, parse_cards
from ..rng import check_seed, chunk_keys, randint, seed_state
from .engine import ROLE_NAMES
from .policies import resolve
from .policies.base import (S_ACTIVE, S_CRIB_MINE, S_DEALER, S_ROLE, S_SEAT, S_SIZE, S_STARTER, S_TARGET,
                            S_THROWN, DiscardFn, is_valid_throw, split_throw)
from .policies.discard import throw_expectations
from .rules import R_ACTIVE, R_CRIB_FLUSH_FOUR, R_DEALT, R_FROM_PACK, R_PARTNERS, R_TARGET, R_THROW, Rules, \
    get_rules
from .scoring import CRIB_SIZE, show_points

DEFAULT_SAMPLES = 2000


def role_index(rules: Rules, role: str) -> int:
    """Place from the dealer (``state[S_ROLE]``) of a role name; two players: dealer, pone (or eldest)."""
    names = ROLE_NAMES[rules.active]
    if rules.active == 2 and role == "eldest":
        role = "pone"
    if role not in names:
        raise ValueError(f"unknown role {role!r} for {rules.name}; choose from {', '.join(names)}")
    return names.index(role)


def crib_is_mine(rules: Rules, role: int) -> bool:
    """The crib is the dealer's, and in four-hand his partner's too."""
    return role == 0 or (rules.partners and role % 2 == 0)


_I64 = types.Array(types.int64, 1, "C")
_U64 = types.Array(types.uint64, 1, "C")
_F64 = types.Array(types.float64, 1, "C")


@njit(cache=True)
def _draw(pool, top, rng):
    """Partial Fisher-Yates: move a random card of ``pool[top:]`` to ``pool[top]`` and return it."""
    pick = top + randint(rng, pool.shape[0] - top)
    pool[top], pool[pick] = pool[pick], pool[top]
    return pool[top]


@njit(types.int64(_I64, _I64, _I64, _I64, _I64, DiscardFn, _F64, _U64, types.int64, _F64, _F64), cache=True)
def _policy_crib(hand, pool, masks, others, rules, policy, params, keys, samples, crib_sum, crib_sq):
    """Sample the others' hands from the unseen ``pool``, let ``policy`` throw for each, complete
    the crib from the pack if the variant says so, cut a starter, and score the crib for each of
    ``masks``.  Returns -1, or the illegal mask the policy gave."""
    dealt, n_throw = rules[R_DEALT], rules[R_THROW]
    flush_four = rules[R_CRIB_FLUSH_FOUR] != 0
    mine = np.empty(n_throw, dtype=np.int64)
    kept = np.empty(hand.shape[0] - n_throw, dtype=np.int64)
    other_hand = np.empty(dealt, dtype=np.int64)
    other_kept = np.empty(dealt - n_throw, dtype=np.int64)
    other_thrown = np.empty(n_throw, dtype=np.int64)
    crib = np.empty(CRIB_SIZE, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    deck_rng = np.empty(4, dtype=np.uint64)
    policy_rng = np.empty(4, dtype=np.uint64)
    for i in range(samples):
        seed_state(deck_rng, keys[0], i)
        seed_state(policy_rng, keys[1], i)
        top = 0  # pool[:top] holds the cards drawn so far in this sample
        filled = n_throw
        for o in range(others.shape[0]):
            for j in range(dealt):
                other_hand[j] = _draw(pool, top, deck_rng)
                top += 1
            role = others[o]
            state[:] = 0
            state[S_SEAT] = role
            state[S_ROLE] = role
            state[S_DEALER] = 0
            state[S_ACTIVE] = rules[R_ACTIVE]
            state[S_STARTER] = -1
            state[S_TARGET] = rules[R_TARGET]
            state[S_CRIB_MINE] = 1 if role == 0 or (rules[R_PARTNERS] != 0 and role % 2 == 0) else 0
            state[S_THROWN] = -1
            state[S_THROWN + 1] = -1
            mask = policy(other_hand, state, rules, policy_rng, params)
            if not is_valid_throw(mask, dealt, n_throw):
                return mask
            split_throw(other_hand, mask, other_kept, other_thrown)
            crib[filled:filled + n_throw] = other_thrown
            filled += n_throw
        for _ in range(rules[R_FROM_PACK]):  # three-hand: a card from the pack completes the crib
            crib[filled] = _draw(pool, top, deck_rng)
            top += 1
            filled += 1
        starter = _draw(pool, top, deck_rng)
        for m in range(masks.shape[0]):
            split_throw(hand, masks[m], kept, mine)
            crib[:n_throw] = mine
            points = float(show_points(crib, CRIB_SIZE, starter, True, flush_four))
            crib_sum[m] += points
            crib_sq[m] += points * points
    return -1


def analyze_discards(hand, role: str, rules="six-card", opponent=None, samples: int = DEFAULT_SAMPLES,
                     seed: int = 0) -> pd.DataFrame:
    """Every throw of ``hand`` for the player in ``role``, best first (see the module docstring).

    ``role``: ``dealer``/``pone`` with two players (three-rotation too), ``dealer``/``eldest``/
    ``second`` in three-hand, ``dealer``/``eldest``/``dealer_partner``/``eldest_partner`` in four-hand.

    >>> analyze_discards("5H 5S JD 6C 4H KD", "dealer").iloc[0][["thrown", "kept"]].tolist()
    ['JD KD', '5H 5S 6C 4H']
    """
    rules = get_rules(rules)
    cards = parse_cards(hand)
    if len(cards) != rules.cards_dealt:
        raise ValueError(f"{rules.name} deals {rules.cards_dealt} cards to each player, got {len(cards)}")
    me = role_index(rules, role)
    sign = 1.0 if crib_is_mine(rules, me) else -1.0
    arr = np.asarray(cards, dtype=np.int64)
    masks, hand_mean, crib_mean = throw_expectations(arr, rules.throw, rules.crib_flush_four, True)
    frame = pd.DataFrame({
        "thrown": [format_cards(c for i, c in enumerate(cards) if (m >> i) & 1) for m in masks],
        "kept": [format_cards(c for i, c in enumerate(cards) if not (m >> i) & 1) for m in masks],
        "hand": hand_mean,
        "crib": crib_mean,
        "net": hand_mean + sign * crib_mean,
        "crib_method": "exact",
    })
    key = "net"
    if opponent is not None:
        policy = resolve("discard", opponent)
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
            raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
        keys = chunk_keys(check_seed(seed), 0, 1, n_streams=2)[0]
        others = np.array([r for r in range(rules.active) if r != me], dtype=np.int64)
        total = np.zeros(len(masks))
        squares = np.zeros(len(masks))
        pool = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
        bad = _policy_crib(arr, pool, masks, others, rules.to_kernel(), policy.fn, policy.params_array(), keys,
                           int(samples), total, squares)
        if bad != -1:
            raise ValueError(f"discard policy {policy.name!r} returned an illegal throw mask {bad} "
                             f"(must name {rules.throw} of {rules.cards_dealt} cards)")
        mean = total / samples
        var = np.maximum(squares - samples * mean**2, 0.0) / (samples - 1)
        frame["opp_crib"] = mean
        frame["opp_crib_se"] = np.sqrt(var / samples)
        frame["opp_net"] = hand_mean + sign * mean
        key = "opp_net"
    frame = frame.sort_values([key, "hand"], ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(rules=rules.name, role=ROLE_NAMES[rules.active][me], hand=format_cards(cards),
                       opponent=None if opponent is None else policy.name,
                       samples=int(samples) if opponent is not None else 0, seed=int(seed))
    return frame
