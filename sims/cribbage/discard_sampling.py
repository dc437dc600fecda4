"""Sampled deals for the discard advisor (:mod:`sims.cribbage.discards`): the crib when the others throw by a
discard policy, and the kept cards' pegging, estimated on the same deals for every throw.

Each sampled deal draws the others' hands from the unseen cards, lets them throw by the policy, completes
the crib from the pack where the variant says so, and turns a starter; then for each throw the crib is
counted and, with a pegging policy, the play is played from its opening as the engine plays it (his heels
scored first), every seat pegging by that policy.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import types

from ..core.arrays import copy_into, copy_rows
from ..core.errors import E_DECISION, E_ITEM, E_SEAT, E_SIZE, PolicyError, overrun_text
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, U64_1
from ..core.rng import chunk_keys, randint, seed_state
from ..core.streams import overrun, own_stream, seat_streams, stream_intact
from ..stats import mean_se
from .contract import (
    S_ACTIVE,
    S_CRIB_MINE,
    S_DEALER,
    S_ROLE,
    S_SEAT,
    S_SIZE,
    S_STARTER,
    S_TARGET,
    S_THROWN,
    DiscardFn,
    PegFn,
    is_valid_throw,
    split_throw,
)
from .play import (
    A_LAST,
    A_SIZE,
    A_TURN,
    C_HEELS,
    ERR_DISCARD,
    MAX_SEATS,
    N_COMP,
    POLICY_ERROR,
    _policy_error,
    _score,
    net_pegging,
    play_out,
)
from .rules import R_ACTIVE, R_CRIB_FLUSH_FOUR, R_DEALT, R_FROM_PACK, R_PARTNERS, R_TARGET, R_THROW
from .scoring import CRIB_SIZE, JACK, show_points

ESTIMATE_SECONDS = 10.0  # sampling expected to take longer says so first, with the estimate


@njit(cache=True)
def _draw(pool, top, rng):
    """Partial Fisher-Yates: move a random card of ``pool[top:]`` to ``pool[top]`` and return it."""
    pick = top + randint(rng, pool.shape[0] - top)
    pool[top], pool[pick] = pool[pick], pool[top]
    return pool[top]


_PEGS = types.UniTuple(PegFn, MAX_SEATS)
_SAMPLE_SIG = types.void(
    types.Tuple((I64_1, types.int64, I64_1)),  # player: the hand, its role, the throws to value
    I64_1,
    I64_1,
    types.Tuple((DiscardFn, F64_1)),
    types.Tuple((_PEGS, F64_1, I64_1)),
    types.boolean,
    U64_1,
    types.int64,
    types.int64,
    types.UniTuple(F64_1, 4),
    I64_1,
)


def _sample(player, pool, rules, others, peg_players, pegging, keys, first, n, sums, err):
    """Sampled deals ``first .. first+n-1`` for ``player`` (``hand``, its role ``me``, the throws ``masks``): the
    others' hands from the unseen ``pool`` (kept shuffled between calls, so batches add up to one run), their
    throws by ``others`` (``discard``, ``discard_params``), the crib completed from the pack where the variant
    says so, a starter; then for each throw in ``masks`` the crib and, with ``pegging``, the play from its
    opening, every seat pegging by ``peg_players`` (``pegs``, ``peg_params``, ``poff``: seat ``s``'s parameters
    at ``peg_params[poff[2s+1]:poff[2s+2]]``).  Adds to ``sums`` (the crib's sum and sum of squares, the
    pegging's); on an illegal answer fills ``err`` (:mod:`sims.core.errors`) and stops."""
    hand, me, masks = player
    discard, discard_params = others
    crib_sum, crib_sq, peg_sum, peg_sq = sums
    dealt, n_throw, active = rules[R_DEALT], rules[R_THROW], rules[R_ACTIVE]
    n_kept = dealt - n_throw
    flush_four = rules[R_CRIB_FLUSH_FOUR] != 0
    partners = rules[R_PARTNERS] != 0
    other_hand = np.empty(dealt, dtype=np.int64)
    kept = np.full((MAX_SEATS, n_kept), -1, dtype=np.int64)  # every role's kept cards
    thrown = np.full((MAX_SEATS, 2), -1, dtype=np.int64)  # every role's throw, as policies see it
    mine = np.empty(n_throw, dtype=np.int64)
    crib = np.empty(CRIB_SIZE, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    in_play = np.empty((MAX_SEATS, n_kept), dtype=np.int64)
    played = np.empty(active * n_kept, dtype=np.int64)
    at = np.zeros(A_SIZE, dtype=np.int64)
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    comp = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
    deck_rng = np.empty(4, dtype=np.uint64)
    policy_rng = seat_streams(1)  # the others' discards draw from one guarded stream
    seat_rngs = seat_streams(MAX_SEATS)
    cards = (in_play, played, thrown)
    for i in range(first, first + n):
        seed_state(deck_rng, keys[0], i)
        seed_state(policy_rng[0], keys[1], i)
        top = 0  # pool[:top] holds the cards drawn so far in this deal
        filled = n_throw
        for role in range(active):
            if role == me:
                continue
            for j in range(dealt):
                other_hand[j] = _draw(pool, top, deck_rng)
                top += 1
            state[:] = 0
            state[S_SEAT] = role
            state[S_ROLE] = role
            state[S_DEALER] = 0
            state[S_ACTIVE] = active
            state[S_STARTER] = -1
            state[S_TARGET] = rules[R_TARGET]
            state[S_CRIB_MINE] = 1 if role == 0 or (partners and role % 2 == 0) else 0
            state[S_THROWN] = -1
            state[S_THROWN + 1] = -1
            mask = discard(other_hand, state, rules, own_stream(policy_rng, 0), discard_params)
            if not stream_intact(policy_rng, 0):
                overrun(err, ERR_DISCARD, role)
                err[E_ITEM] = i
                return
            if not is_valid_throw(mask, dealt, n_throw):
                _policy_error(err, ERR_DISCARD, role, mask, 0, other_hand)
                err[E_ITEM] = i
                return
            split_throw(other_hand, mask, kept[role], thrown[role, :n_throw])
            copy_into(crib[filled : filled + n_throw], thrown[role, :n_throw])
            filled += n_throw
        for _ in range(rules[R_FROM_PACK]):  # three-hand: a card from the pack completes the crib
            crib[filled] = _draw(pool, top, deck_rng)
            top += 1
            filled += 1
        starter = _draw(pool, top, deck_rng)
        for m in range(masks.shape[0]):
            split_throw(hand, masks[m], kept[me], mine)
            copy_into(crib[:n_throw], mine)
            points = float(show_points(crib, CRIB_SIZE, starter, True, flush_four))
            crib_sum[m] += points
            crib_sq[m] += points * points
            if not pegging:
                continue
            copy_into(thrown[me, :n_throw], mine)
            copy_rows(in_play, kept)
            for s in range(MAX_SEATS):  # the same pegging streams for every throw
                seed_state(seat_rngs[s], keys[2 + s], i)
            scores[:] = 0
            comp[:, :] = 0
            if starter >> 2 == JACK:  # his heels, as the engine scores them before the play
                _score(rules, scores, comp, 0, 0, C_HEELS, 2, False)
            at[:] = 0
            at[A_TURN], at[A_LAST] = 1 % active, -1  # the eldest leads to an empty count
            if (
                play_out(rules, 0, scores, False, starter, cards, state, at, seat_rngs, peg_players, comp, err)
                == POLICY_ERROR
            ):
                err[E_ITEM] = i
                return
            diff = net_pegging(rules, comp, me, 0.0)
            peg_sum[m] += diff
            peg_sq[m] += diff * diff


# The sampling kernel: lazy, so that the exact advice does not pay for it; its explicit types let every
# policy share one compilation.
_sampler = njit(_SAMPLE_SIG, cache=True)(_sample)


def sampled_figures(hand, me, pool, masks, rules, runs, peg_policy, samples, seed, progress) -> list[tuple]:
    """For each discard policy of ``runs``, on the same sampled deals: the crib's mean and standard
    error per throw, and for the first, with ``peg_policy``, the pegging difference's too."""
    if not runs:
        return []
    from ..core.progress import progress_bar
    from .policies import resolve

    keys = chunk_keys(seed, 0, 1, n_streams=2 + MAX_SEATS)[0]  # deck, the others' discards, each seat's pegging
    kernel_rules = rules.to_kernel()
    pegger = peg_policy if peg_policy is not None else resolve("peg", "random")  # only typed without pegging
    peg_fns = (pegger.fn,) * MAX_SEATS
    size = pegger.params_array().size
    peg_params = np.tile(pegger.params_array(), MAX_SEATS)
    poff = np.array([(i // 2) * size for i in range(2 * MAX_SEATS + 1)], dtype=np.int64)  # the engine's layout
    batch = max(64, -(-samples // 100))
    out = []
    start = time.perf_counter()
    with progress_bar(
        total=samples * len(runs), desc="sampling deals", unit=" deals", disable=not progress, leave=False
    ) as bar:
        for index, policy in enumerate(runs):
            pegging = peg_policy is not None and index == 0
            sums = [np.zeros(len(masks)) for _ in range(4)]
            err = np.zeros(E_SIZE, dtype=np.int64)
            deck = pool.copy()  # every policy meets the same deals
            for first in range(0, samples, batch):
                n = min(batch, samples - first)
                _sampler(
                    (hand, me, masks),
                    deck,
                    kernel_rules,
                    (policy.fn, policy.params_array()),
                    (peg_fns, peg_params, poff),
                    pegging,
                    keys,
                    first,
                    n,
                    tuple(sums),
                    err,
                )
                if err[E_DECISION]:
                    _raise_policy_error(err, rules, policy if abs(err[E_DECISION]) == ERR_DISCARD else peg_policy, seed)
                bar.update(n)
                if progress and index == 0 and first == 0:
                    say_estimate((time.perf_counter() - start) / n * samples * len(runs), samples * len(runs))
            out.append(mean_se(sums[0], sums[1], samples) + (mean_se(sums[2], sums[3], samples) if pegging else ()))
    return out


def say_estimate(seconds: float, deals: int) -> None:
    """One line on stderr before sampling that will take longer than :data:`ESTIMATE_SECONDS` (from the first batch)."""
    if seconds > ESTIMATE_SECONDS:
        minutes = f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"
        sys.stderr.write(
            f"sims: sampling {deals:,} deals takes about {minutes} here; a progress bar follows (Ctrl-C stops it)\n"
        )


def _raise_policy_error(err, rules, policy, seed):
    """The one-line PolicyError for an illegal answer in a sampled deal."""
    from .play import describe_illegal

    decision = "discard" if abs(err[E_DECISION]) == ERR_DISCARD else "peg"
    raise PolicyError(
        f"{decision} policy {policy.name!r} (role {int(err[E_SEAT])}) "
        f"{overrun_text(err) or describe_illegal(rules, err)} "
        f"(sampled deal {int(err[E_ITEM])}, seed {seed})"
    )
