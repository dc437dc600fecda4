"""Pegging by Monte Carlo rollouts over the unseen cards: ``rollout``.

For each card it may lay, the policy plays the rest of the play out ``samples``
times (``params[0]``, default 32) and scores each card by the mean of

    my side's pegging points - the opponents' pegging points per opposing side

counted from the card laid to the end of the play (play and go, the last card
included).  It lays the card ``defensive`` would lay unless another card's mean
beats that card's by more than ``margin`` points (``params[1]``, default 0.25):
with few samples the noise of the means would otherwise overrule a sound choice
(paired over the same 8,000 deals against ``defensive``, 16 samples and no
margin gain nothing, 32 samples and 0.25 gain about 0.13 points of pegging a
deal, 64 or 128 samples about 0.17).

In each sample the other players' unplayed cards are dealt at random from the
cards this player has not seen (not in his hand, not laid, not the starter, not
his own throw); every candidate card is tried against the same deal (common
random numbers), and the play is finished by :func:`sims.cribbage.play.play_out`
with ``defensive`` pegging for every seat (one sample when the others have no
cards left).  Rollouts value points, not the game: they run with
``check_target`` False, so near the end of a game a rollout does not prefer the
card that pegs out.

How many cards each opponent holds: exact with two players (what is not mine
or laid); with three or four, the policy does not see who laid which card, so
it assumes nobody but the visible ``go`` said go earlier in the play (the
players earliest in the turn order have laid most) and corrects the shares to
the exact total.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from ...core.arrays import copy_into, copy_rows
from ...core.errors import E_SIZE
from ...core.kernel import njit
from ...core.rng import next_u64, randint
from ...core.streams import seat_streams
from ..contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_DEALER,
    S_N_PLAYED,
    S_ROLE,
    S_STARTER,
    is_legal_play,
    popcount,
    seen_cards,
)
from ..pegging import peg_points_kernel
from ..play import MAX_SEATS, lay_candidate, net_pegging, play_out, play_out_buffers
from ..rules import R_ACTIVE, R_BATH, R_KEPT
from .pegging import DEFAULT_PARAMS as BASE_PARAMS
from .pegging import defensive_peg, only_legal

DEFAULT_SAMPLES = 32
DEFAULT_MARGIN = 0.25


@intrinsic
def _base_policy(typingctx):
    """A data-free value of ``defensive_peg``'s dispatcher type for :func:`play_out`'s ``peg_fns``.

    play_out calls its pegging functions by their type, so the value is never read.  A tuple
    built from the dispatcher itself would embed its address and numba could not cache this module.
    """

    def codegen(context, builder, sig, args):
        return context.get_constant_null(sig.return_type)

    return types.Dispatcher(defensive_peg)(), codegen


@njit(cache=True)
def others_left(role, active, kept, n_played, mine_left, left):
    """``left[r]``: the cards player ``r`` (another role) still holds, as the module docstring says."""
    total = active * kept - n_played - mine_left
    for r in range(active):
        if r == role:
            left[r] = 0
            continue
        pos = (r - 1) % active  # place in the turn order from the eldest hand
        laid = (n_played - pos + active - 1) // active if n_played > pos else 0
        left[r] = max(kept - laid, 0)
    held = 0
    for r in range(active):
        held += left[r]
    while held != total:
        pick = -1
        for step in range(1, active):
            r = (role + step) % active
            if held > total and left[r] > 0 and (pick < 0 or left[r] > left[pick]):
                pick = r
            if held < total and left[r] < kept and (pick < 0 or left[r] < left[pick]):
                pick = r
        step = -1 if held > total else 1
        left[pick] += step
        held += step


@njit(PEG_SIG, cache=True)
def rollout_peg(hand, played, state, rules, rng, params):
    """Lay defensive's card unless another's mean pegging difference over ``samples`` rollouts is
    better by more than ``margin`` (module docstring)."""
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    samples = max(int(params[0]) if params.shape[0] > 0 else DEFAULT_SAMPLES, 1)
    active, kept = rules[R_ACTIVE], rules[R_KEPT]
    role, dealer = state[S_ROLE], state[S_DEALER]
    start, n = state[S_COUNT_START], state[S_N_PLAYED]
    bath = rules[R_BATH] != 0

    # What I have not seen, and how many cards each other player holds.
    seen, mine_left = seen_cards(hand, played, state)
    pool = np.empty(52 - popcount(seen), dtype=np.int64)
    j = 0
    for c in range(52):
        if not (seen >> c) & 1:
            pool[j] = c
            j += 1
    left = np.zeros(MAX_SEATS, dtype=np.int64)
    others_left(role, active, kept, n, mine_left, left)
    if left.sum() == 0:  # the others have laid all their cards: the rest of the play is certain
        samples = 1

    # Scratch for the rollouts: every seat pegs with defensive; seat s's params at poff[2s+1]:poff[2s+2].
    base_fn = _base_policy()
    fns = (base_fn, base_fn, base_fn, base_fn)
    n_base = len(BASE_PARAMS)
    base = np.empty(MAX_SEATS * n_base, dtype=np.float64)
    poff = np.empty(2 * MAX_SEATS + 1, dtype=np.int64)
    poff[0] = 0
    for s in range(MAX_SEATS):
        for k in range(n_base):
            base[s * n_base + k] = BASE_PARAMS[k]
        poff[2 * s + 1] = s * n_base
        poff[2 * s + 2] = (s + 1) * n_base
    seat_rngs = seat_streams(MAX_SEATS)
    for s in range(MAX_SEATS):
        for k in range(4):
            seat_rngs[s, k] = next_u64(rng)
    dealt = np.full((MAX_SEATS, kept), -1, dtype=np.int64)
    in_play = np.empty((MAX_SEATS, kept), dtype=np.int64)
    thrown, buf, st, at, scores, comp = play_out_buffers(state, played)
    starter, cards, pegs = state[S_STARTER], (in_play, buf, thrown), (fns, base, poff)
    err = np.zeros(E_SIZE, dtype=np.int64)  # written only if the base policy misplayed
    value = np.zeros(hand.shape[0], dtype=np.float64)

    for _ in range(samples):
        top = 0  # deal the others' cards: partial Fisher-Yates over the pool
        for r in range(active):
            for k in range(kept):
                if k < left[r]:
                    pick = top + randint(rng, pool.shape[0] - top)
                    pool[top], pool[pick] = pool[pick], pool[top]
                    dealt[r, k] = pool[top]
                    top += 1
                else:
                    dealt[r, k] = -1
        for i in range(hand.shape[0]):
            if not is_legal_play(hand, i, count):
                continue
            copy_rows(in_play, dealt)
            copy_into(in_play[role], hand)
            copy_into(buf[:n], played[:n])
            comp[:, :] = 0
            scores[:] = 0
            # Lay the candidate as play_out would, then let play_out finish the play.
            in_play[role, i] = -1
            over = lay_candidate(rules, state, buf, hand[i], at)
            mine = peg_points_kernel(buf, start, n + 1, bath)
            if not over:
                play_out(rules, dealer, scores, False, starter, cards, st, at, seat_rngs, pegs, comp, err)
            value[i] += net_pegging(rules, comp, role, float(mine))

    margin = (params[1] if params.shape[0] > 1 else DEFAULT_MARGIN) * samples
    base_i = defensive_peg(hand, played, state, rules, rng, base[:n_base])
    best_i = base_i
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count) and value[i] > value[best_i] and value[i] > value[base_i] + margin:
            best_i = i
    return best_i
