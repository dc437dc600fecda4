"""The play-outs the distilled pegging tables (:mod:`sims.cribbage.policies.distilled`) are fitted to.

Exploring play-outs (:func:`play_outs`): deals are played by the policy itself, except
that in each deal one decision (the one where the number of cards laid equals the
starter's index modulo the cards in play) is made uniformly at random among the legal
cards; what the player then pegged, less what the other pegged, to the end of the play,
is that card's return.  Because the card was chosen at random, the return less the mean
over the legal cards is the card's advantage with nothing of the deal mixed in.

Every card's play-out (:func:`card_play_outs`): at *every* decision of a deal that is a
choice, *every* legal card is laid in turn and the rest of the play is played out by the
same players with the hands as dealt (common random numbers: what the other holds is the
same for every card, and his hand is one that real play leaves him, not a uniform draw).

Both record, for each legal card, the features the tables see (points now, expected
reply, the five table cells: :func:`sims.cribbage.policies.distilled.card_features`).
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.arrays import copy_into, copy_rows
from ...core.driver import chunk_loop
from ...core.kernel import njit
from ...core.kernel_types import F64_1, F64_2, F64_3, I64_1, I64_2, I64_3, U64_2
from ...core.rng import randint
from ..contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_DEALER,
    S_GO_MASK,
    S_N_PLAYED,
    S_ROLE,
    S_SIZE,
    S_STARTER,
    S_THROWN,
    is_legal_play,
    seen_cards,
)
from ..engine import PLAYERS
from ..pegging import MAX_COUNT, card_value, peg_points_kernel
from ..play import (
    A_COUNT,
    A_GO_MASK,
    A_LAST,
    A_N_PLAYED,
    A_ROOM,
    A_SIZE,
    A_START,
    A_TURN,
    C_PEGGING,
    MAX_SEATS,
    N_COMP,
    POLICY_ERROR,
    deal_buffers,
    fresh_deal,
    play_out,
)
from ..policies.distilled import N_TABLES, card_features, decision_buffers, distilled_peg, distilled_policy
from ..policies.pegging import only_legal
from ..rules import R_BATH, R_DEALT, R_KEPT, R_ONE_COUNT


@njit(cache=True, reads=("state", "rules"))
def explored_at(state, rules):
    """The number of cards laid at which a deal's random decision is made: the starter's index modulo the
    cards in play."""
    return state[S_STARTER] % (2 * rules[R_KEPT])


@njit(PEG_SIG, cache=True)
def exploring_peg(hand, played, state, rules, rng, params):
    """``distilled`` with ``params``, except a uniformly random legal card at :func:`explored_at`."""
    if state[S_N_PLAYED] != explored_at(state, rules):
        return distilled_peg(hand, played, state, rules, rng, params)
    legal = 0
    for i in range(hand.shape[0]):
        legal += is_legal_play(hand, i, state[S_COUNT])
    pick = randint(rng, legal)
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, state[S_COUNT]):
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def owners(played, kept, n_played, kept_n):
    """Who laid each card of the play: 0 the seat of ``kept[0]``, 1 the seat of ``kept[1]`` (``kept_n`` cards each)."""
    owner = np.zeros(n_played, dtype=np.int64)
    for k in range(n_played):
        for j in range(kept_n):
            if kept[1, j] == played[k]:
                owner[k] = 1
    return owner


@njit(cache=True)
def held_at(cards, played, k, hand):
    """``hand``: the ``cards`` a player kept, -1 for those among the first ``k`` laid (``played[:k]``)."""
    copy_into(hand, cards)
    for j in range(k):
        for h in range(hand.shape[0]):
            if hand[h] == played[j]:
                hand[h] = -1


@njit(cache=True)
def see_decision(hand, played, k, count, start, me, owner, thrown, state, buf):
    """The state the player ``me`` sees before laying card ``k`` (``hand`` what he holds, the count standing at
    ``count`` since ``start``, ``thrown`` his throw), ``buf[:k]`` the cards laid; returns (whether the other has
    said go, the cards not seen, how many the other holds)."""
    went = 1 if k > start and owner[k - 1] == me else 0
    state[S_ROLE], state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED] = me, count, start, k
    state[S_GO_MASK] = went << (1 - me)
    state[S_THROWN], state[S_THROWN + 1] = thrown[0], thrown[1]
    copy_into(buf[:k], played[:k])
    seen, mine_left = seen_cards(hand, buf, state)
    return went, seen, buf.shape[0] - k - mine_left


@njit(inline="always")
def _returns_chunk(c, rules, keys, chunk_size, players, x, cells, legal, y, err):
    """Deal ``i`` of chunk ``c`` (dealt by seat ``i % 2``) between the ``players``
    (:data:`~sims.cribbage.engine.PLAYERS`): at the explored decision, for each legal card
    ``x[row, card]`` = (points now, expected reply), ``cells[row, card]`` its table cells, ``legal[row]`` =
    (number of legal cards, the card laid), and ``y[row]`` the return of the card laid; ``legal[row, 0]`` is
    0 when the decision was not a choice."""
    policies, params, poff = players
    kept_n = rules[R_KEPT]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    buffers = deal_buffers(rules_c)
    work = buffers[0]
    state = np.zeros(S_SIZE, dtype=np.int64)
    hand = np.empty(kept_n, dtype=np.int64)
    buf = np.empty(2 * kept_n, dtype=np.int64)
    _, levels, chances, own, scratch = decision_buffers(buf, hand)
    for i in range(chunk_size):
        row = c * chunk_size + i
        if fresh_deal(rules_c, keys, c, i, i % 2, buffers, policies, params_c, poff_c, err[c]) == POLICY_ERROR:
            break
        played, kept, n_played = work[6], work[2], work[8][A_N_PLAYED]
        state[S_STARTER] = work[0][2 * rules_c[R_DEALT]]
        k_star = explored_at(state, rules_c)
        if k_star >= n_played:
            continue
        # Replay the play to the explored decision: owners, counts, goes, and the points after it.
        owner = owners(played, kept, n_played, kept_n)
        count, start = 0, 0
        ret = 0.0
        for k in range(n_played):
            value = card_value(played[k])
            if count + value > MAX_COUNT:
                if k > k_star:
                    ret += 1.0 if owner[k - 1] == owner[k_star] else -1.0
                count, start = 0, k
            if k == k_star:
                me = owner[k]
                held_at(kept[me], played, k, hand)
                _, seen, their_left = see_decision(hand, played, k, count, start, me, owner, work[4][me], state, buf)
                n_legal = 0
                for h in range(kept_n):
                    if is_legal_play(hand, h, count):
                        x[row, n_legal, 0], x[row, n_legal, 1] = card_features(
                            hand, h, buf, state, rules_c, seen, their_left, levels, chances, own, scratch
                        )
                        copy_into(cells[row, n_legal], own[:N_TABLES])
                        if hand[h] == played[k]:
                            legal[row, 1] = n_legal
                        n_legal += 1
                legal[row, 0] = n_legal if n_legal > 1 else 0
            count += value
            if k >= k_star:
                points = peg_points_kernel(played, start, k + 1, rules_c[R_BATH] != 0)
                ret += points if owner[k] == owner[k_star] else -points
            if count == MAX_COUNT:
                count, start = 0, k + 1
        if count > 0:
            ret += 1.0 if owner[n_played - 1] == owner[k_star] else -1.0
        y[row] = ret


# What both play-out kernels take first: the rules, the keys, the chunk size, the players, ``x``, ``cells``, ``legal``.
_PLAY_OUTS = (I64_1, U64_2, types.int64, PLAYERS, F64_3, I64_3, I64_2)
_returns = chunk_loop("_returns", _returns_chunk, types.void(*_PLAY_OUTS, F64_1, I64_2))


def play_outs(rules, params, n_deals: int, seed: int, discard="expected_net", threads=None) -> dict:
    """``n_deals`` deals with one random decision each (module docstring), the others by ``params``:
    the features of every legal card at that decision and the return of the one laid."""
    from ...core.policies import Policy

    chunk = 4096
    explorer = Policy("exploring", "peg", exploring_peg, tuple(float(v) for v in params))
    job, n = _job(rules, discard, explorer, n_deals, seed, chunk)
    kept = job.rules.kept
    x = np.zeros((n, kept, 2))
    cells = np.zeros((n, kept, N_TABLES), dtype=np.int64)
    legal = np.zeros((n, 2), dtype=np.int64)
    y = np.zeros(n)
    _run(_returns, job, chunk, threads, x, cells, legal, y)
    keep = legal[:, 0] > 1
    return {"x": x[keep], "cells": cells[keep], "legal": legal[keep], "y": y[keep], "deals": n}


@njit(inline="always")
def _card_returns_chunk(c, rules, keys, chunk_size, players, x, cells, legal, q, err, learner):
    """Deal ``i`` of chunk ``c`` (dealt by seat ``i % 2``) played by the ``players``
    (:data:`~sims.cribbage.engine.PLAYERS`); at every decision ``k`` that was a choice, row
    ``(c * chunk_size + i) * 2 * kept + k``: for each legal card its features (``x``, ``cells``) and
    ``q[row, card]``, the card's points and the player's pegging less the other's to the end of the play when
    the rest is played by the same policies with the hands as dealt; ``legal[row]`` = (number of legal cards,
    the card laid), 0 legal cards when the decision was not a choice.  With ``learner`` >= 0 only the
    decisions of the player in that seat are recorded."""
    policies, params, poff = players
    kept_n = rules[R_KEPT]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    buffers = deal_buffers(rules_c)
    work, _, seat_rngs, scores, _ = buffers
    comp2 = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    st = np.zeros(S_SIZE, dtype=np.int64)
    at = np.zeros(A_SIZE, dtype=np.int64)
    hand = np.empty(kept_n, dtype=np.int64)
    in_play = np.full((MAX_SEATS, kept_n), -1, dtype=np.int64)
    thrown = np.full((MAX_SEATS, 2), -1, dtype=np.int64)
    buf = np.empty(2 * kept_n, dtype=np.int64)
    _, levels, chances, own, scratch = decision_buffers(buf, hand)
    err2 = np.zeros(err.shape[1], dtype=np.int64)
    cards, pegs = (in_play, buf, thrown), (policies[1], params_c, poff_c)
    for i in range(chunk_size):
        base_row = (c * chunk_size + i) * 2 * kept_n
        dealer = i % 2
        if fresh_deal(rules_c, keys, c, i, dealer, buffers, policies, params_c, poff_c, err[c]) == POLICY_ERROR:
            break
        played, kept, n_played = work[6], work[2], work[8][A_N_PLAYED]
        starter = work[0][2 * rules_c[R_DEALT]]
        state[S_STARTER] = starter
        owner = owners(played, kept, n_played, kept_n)
        count, start = 0, 0
        for k in range(n_played):
            value = card_value(played[k])
            if count + value > MAX_COUNT:
                count, start = 0, k
            me = owner[k]
            held_at(kept[me], played, k, hand)
            if only_legal(hand, count) < 0 and (learner < 0 or (dealer + me) % 2 == learner):
                row = base_row + k
                state[S_DEALER] = dealer
                went, seen, their_left = see_decision(hand, played, k, count, start, me, owner, work[4][me], state, buf)
                copy_rows(thrown[:2], work[4][:2])
                n_legal = 0
                for h in range(kept_n):
                    if not is_legal_play(hand, h, count):
                        continue
                    x[row, n_legal, 0], x[row, n_legal, 1] = card_features(
                        hand, h, buf, state, rules_c, seen, their_left, levels, chances, own, scratch
                    )
                    copy_into(cells[row, n_legal], own[:N_TABLES])
                    if hand[h] == played[k]:
                        legal[row, 1] = n_legal
                    # Lay the card, then play the rest out with the hands as dealt.
                    for r in range(2):
                        held_at(kept[r], played, k, in_play[r])
                    card = hand[h]
                    for g in range(kept_n):
                        if in_play[me, g] == card:
                            in_play[me, g] = -1
                    copy_into(buf[:k], played[:k])
                    buf[k] = card
                    after = count + card_value(card)
                    mine = peg_points_kernel(buf, start, k + 1, rules_c[R_BATH] != 0)
                    at[A_COUNT], at[A_START], at[A_N_PLAYED] = after, start, k + 1
                    at[A_GO_MASK], at[A_TURN], at[A_LAST] = went << (1 - me), 1 - me, me
                    at[A_ROOM] = 0  # the play-outs' players are told no room (the tables do not read it)
                    comp2[:, :] = 0
                    scores[:] = 0
                    over = False
                    if after == MAX_COUNT:
                        at[A_COUNT], at[A_START], at[A_GO_MASK] = 0, k + 1, 0
                        over = rules_c[R_ONE_COUNT] != 0
                    if not over:
                        play_out(rules_c, dealer, scores, False, starter, cards, st, at, seat_rngs, pegs, comp2, err2)
                    q[row, n_legal] = mine + comp2[me, C_PEGGING] - comp2[1 - me, C_PEGGING]
                    n_legal += 1
                legal[row, 0] = n_legal
            count += value
            if count == MAX_COUNT:
                count, start = 0, k + 1


_card_returns = chunk_loop("_card_returns", _card_returns_chunk, types.void(*_PLAY_OUTS, F64_2, I64_2, types.int64))


def card_play_outs(rules, params, n_deals: int, seed: int, discard="expected_net", opponent=None, threads=None) -> dict:
    """``n_deals`` deals played by the tables ``params`` (against ``opponent``'s pegging in seat 1 when given,
    a registered name or Policy); at every decision of theirs that was a choice, the features of each legal
    card and its return when the rest of the play is played out by the same players with the hands as
    dealt (:func:`_card_returns`)."""
    chunk = 1024
    mine = distilled_policy(params)
    job, n = _job(rules, discard, mine if opponent is None else [mine, opponent], n_deals, seed, chunk)
    kept = job.rules.kept
    rows = n * 2 * kept
    x = np.zeros((rows, kept, 2))
    cells = np.zeros((rows, kept, N_TABLES), dtype=np.int64)
    legal = np.zeros((rows, 2), dtype=np.int64)
    q = np.zeros((rows, kept))
    _run(_card_returns, job, chunk, threads, x, cells, legal, q, learner=-1 if opponent is None else 0)
    keep = legal[:, 0] > 1
    return {"x": x[keep], "cells": cells[keep], "legal": legal[keep], "q": q[keep], "deals": n}


def merge(*samples) -> dict:
    """Play-outs of several runs as one sample."""
    return {
        k: (np.concatenate([s[k] for s in samples]) if k != "deals" else sum(s[k] for s in samples)) for k in samples[0]
    }


def _job(rules, discard, pegs, n_deals: int, seed: int, chunk: int):
    """The job of a play-out run (two-handed deals, ``pegs`` pegging) and its deals rounded up to whole chunks."""
    from ...core.jobs import Job, check_count

    n_deals = check_count(n_deals, "the number of deals")
    job = Job.make("cribbage", "deals", rules, {"discard": discard, "peg": pegs}, n_deals, seed)
    if job.rules.active != 2:
        raise ValueError(f"the distilled tables are for two-handed play; {job.rules.name} has {job.rules.active}")
    return job, -(-n_deals // chunk) * chunk


def _run(kernel, job, chunk: int, threads, *outputs, learner=None) -> None:
    """The play-out ``kernel`` over the job's deals in chunks of ``chunk``, filling ``outputs``; an illegal answer
    raises PolicyError."""
    from ...core.chunks import numba_threads
    from ...core.errors import new_err, raise_policy_error
    from ...core.rng import chunk_keys
    from ..engine import describe_error

    n_chunks = -(-job.n // chunk)
    err = new_err(n_chunks)
    extra = () if learner is None else (learner,)
    with numba_threads(threads):
        kernel(
            job.rules.to_kernel(),
            chunk_keys(job.seed, 0, n_chunks, job.game.n_streams),
            chunk,
            job.kernel_policies(),
            *outputs,
            err,
            *extra,
        )
    raise_policy_error(job, err, describe_error)
