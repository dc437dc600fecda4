"""Runs of the same hands played together: those that differ only in how the eldest begs and the dealer answers,
and those in which seat 0 plays the maxims with all four and without each (report section 9).

The begging matrix is 81 runs of the same deals, one per pair of thresholds (Sections 87-96 §93 v).  Whatever
the beg and answer policies, a hand goes on from the bidding (:func:`sims.allfours.play.deal_and_bid`) as what
the bidding left decides: its outcome, the cards held, the situation, the points and events so far and the
seats' streams.  :func:`play_runs` deals each hand once and asks its beg, and the answer to a beg, once of each
different parameters of the runs' policies: a policy answers the same deal alike, and one that does not draw
from its seat's stream leaves nothing else behind.  It plays the hand out (:func:`sims.allfours.play.play_out`)
once per different bidding (three at most: he stands; he begs and is given one; he begs and the cards are run)
and gives each run the values of its own.  Where a policy draws from its stream or errs, or the pack runs short,
that hand is dealt and bid again per run, and played out once per different state the bidding left.

The maxims' claims compare seat 0 playing the four maxims ("Maxims for All-Fours", §94) with seat 0 playing
them without one.  Without maxim k he chooses every card as with all four unless maxim k is the first to advise
a legal card, the one he follows; so :func:`play_maxims_without_each` plays each hand with all four, counting the
maxim seat 0 follows at each choice, and plays it again without maxim k only if he followed maxim k at least
once; the other hands are the same in both runs.

Every run plays the hands and streams :func:`sims.core.runner.run` plays, and its totals are exact integers, so
each result is the one :func:`sims.core.api.simulate` gives, number for number, its records too.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import types

from ..core.arrays import copy_into
from ..core.chunks import current_threads, numba_threads
from ..core.driver import chunk_loop, piece_items, pieces_per_chunk
from ..core.errors import E_ITEM, job_policies, new_err, raise_policy_error, raised_by_policy
from ..core.jobs import Job
from ..core.kernel import njit
from ..core.kernel_types import F64_2, I64_1, I64_2, I64_3, I64_4, U64_2
from ..core.layout import add_blocks, record_blocks
from ..core.rng import chunk_keys
from ..core.runner import summarize
from ..core.streams import STATE_WORDS, seat_streams
from .contract import BEG, D_ANSWER, D_BEG, S_BEGGED, S_SIZE
from .engine import DEALS, O_HAND, O_ROLE, POLICIES, _seed, deal_values, describe_error, new_item_work
from .maxims import N_MAXIMS
from .play import (
    GIVEN_ANSWER,
    GIVEN_BEG,
    GO_ON,
    NOTHING_GIVEN,
    POLICY_ERROR,
    V_REDEALT,
    ask_bid,
    deal,
    deal_and_bid,
    play_hand,
    play_out,
)
from .rules import HAND, R_BEGGING, R_BEGS, R_HAND_MAX, R_PLAYERS

BIDS = ("beg", "answer")  # the decisions in which the runs may differ


@njit(cache=True, inline="always")
def _state_after_bidding(into, status, held, first_deal, players, hand, scores, out, deck_rng, seat_rngs, seated):
    """What the rest of a hand depends on, written into ``into``: the bidding's outcome, the cards each of the
    ``players`` holds and his discards, the situation, the scores, the points and events so far, the deck's and
    the seats' streams.  Returns its length."""
    hands, state, discards = hand[1], hand[3], hand[5]
    into[0], into[1], into[2] = status, held, first_deal
    k = 3
    for r in range(players):
        for i in range(held):
            into[k] = hands[r, i]
            k += 1
        into[k] = discards[r]
        k += 1
    for j in range(S_SIZE):
        into[k] = state[j]
        k += 1
    into[k], into[k + 1] = scores[0], scores[1]
    k += 2
    for row in (O_ROLE, O_ROLE + 1, O_HAND):
        for col in range(out.shape[1]):
            into[k] = out[row, col]
            k += 1
    for w in range(STATE_WORDS):
        into[k] = np.int64(deck_rng[w])
        k += 1
        for s in range(seated):
            into[k] = np.int64(seat_rngs[s, w])
            k += 1
    return k


@njit(cache=True, inline="always")
def _same_as(states, lengths, count, length):
    """The first of the ``count`` states kept equal to the one just written after them (row ``count``), or -1."""
    for d in range(count):
        if lengths[d] == length:
            k = 0
            while k < length and states[d, k] == states[count, k]:
                k += 1
            if k == length:
                return d
    return -1


BY_BIDS, BY_MAXIMS = 0, 1  # how the runs differ: counts[8]


@njit(cache=True, inline="always")
def _drew(stream, before):
    """The policy drew from its ``stream``: a word differs from ``before``."""
    for w in range(STATE_WORDS):
        if stream[w] != before[w]:
            return True
    return False


@njit(cache=True)
def _bids_once(rules, dealer, streams, runs, scratch, err):
    """BY_BIDS, the hand dealt once: each run's beg and answer (``bids[r]``; -1 not asked) asked of the policies
    once per distinct parameters (``first_runs[r]``: the first run with run ``r``'s beg parameters, then with
    its answer parameters), as every run's policy would answer the same deal; then the hand played out once per
    different bidding, its values in ``outs[classes[r]]`` for run ``r``.  False where a policy drew from its
    stream or erred, or a new deal was dealt: the hand is then played run by run.  One beg a deal (``R_BEGS``
    1): the answer to a beg is the last decision that differs between the runs."""
    keys, c, i, seated, deck_rng, seat_rngs = streams
    policies, params, poff, first_runs = runs
    hand, scores, out, agreed, unasked, args, outs, classes, bids, asked, before, given = scratch
    n_runs, players = bids.shape[0], rules[R_PLAYERS]
    if rules[R_BEGS] != 1:
        return False
    _seed(keys, c, i, seated, deck_rng, seat_rngs)
    out[:, :] = 0
    scores[:] = 0
    score = (scores, out[O_ROLE : O_ROLE + 2], False)
    status, _ = deal(rules, dealer, score, (hand[0], True, deck_rng), 0, hand)
    bids[:, :] = -1
    if status == GO_ON and rules[R_BEGGING]:
        for decision, role, seat in ((D_BEG, 1 % players, (dealer + 1) % players), (D_ANSWER, 0, dealer)):
            hand[3][S_BEGGED] = 1 if decision == D_ANSWER else 0  # the answer is asked after one beg
            before[:] = seat_rngs[seat, :STATE_WORDS]
            asked[:] = -1  # by the first run of the same parameters
            for r in range(n_runs):
                if decision == D_ANSWER and bids[r, D_BEG] != BEG:
                    continue
                first = first_runs[decision * n_runs + r]
                if asked[first] < 0:
                    seats = (seat_rngs, policies, params[r], poff)
                    asked[first] = ask_bid(rules, dealer, scores, role, decision, seats, err, hand, HAND, -1)
                    if asked[first] == POLICY_ERROR or _drew(seat_rngs[seat], before):
                        return False
                bids[r, decision] = asked[first]
    n_classes = 0
    for r in range(n_runs):
        classes[r] = -1
        for q in range(r):
            if bids[q, D_BEG] == bids[r, D_BEG] and bids[q, D_ANSWER] == bids[r, D_ANSWER]:
                classes[r] = classes[q]
                break
        if classes[r] >= 0:
            continue
        classes[r] = n_classes
        _seed(keys, c, i, seated, deck_rng, seat_rngs)
        out[:, :] = 0
        scores[:] = 0
        seats = (seat_rngs, policies, params[r], poff)
        given[GIVEN_BEG], given[GIVEN_ANSWER] = bids[r, D_BEG], bids[r, D_ANSWER]
        status, held, first_deal = deal_and_bid(
            rules, dealer, score, (hand[0], True, deck_rng), seats, out[O_HAND], err, hand, given
        )
        if out[O_HAND, V_REDEALT] > 0 or status == POLICY_ERROR:
            return False
        if status == GO_ON:
            status = play_out(
                rules, dealer, score, held, first_deal, seats, out[O_HAND], err, hand, unasked, NOTHING_GIVEN
            )
            if status == POLICY_ERROR:
                return False
        deal_values(rules, args, dealer, hand, agreed, out)
        outs[n_classes, :, :] = out
        n_classes += 1
    return True


@njit(inline="always")
def _together_chunk(c, rules, keys, counts, policies, params, poff, blocks, acc, rows, err):
    """Piece ``c`` of every run (run ``r`` with ``params[r]``), its values added to ``acc[c, r]`` and recorded in
    ``rows[r]`` when records are kept.  ``counts[8]`` says how the runs differ (module docstring): BY_BIDS, each
    hand dealt once, its bids asked once per distinct parameters and played out once per bidding
    (:func:`_bids_once`, ``counts[9:]`` its ``first_runs``), else (where it cannot) dealt and bid per run and
    played out once per state the bidding left; BY_MAXIMS, each hand played by the first run, which
    counts the maxim seat 0 follows at each choice, and again by run ``r`` (maxim ``counts[9 + r]`` off) only if
    seat 0 followed that maxim."""
    seated, split, n_runs, by_bids = counts[2], counts[3], counts[4], counts[8] == BY_BIDS
    rules_c, poff_c, blocks_c, params_c = rules.copy(), poff.copy(), blocks.copy(), params.copy()
    work = new_item_work(rules_c)
    hand, scores, agreed, unasked = work[0], work[1], work[3], work[4]
    followed = np.zeros((1, agreed.shape[1], 1), dtype=np.int64)  # the maxim seat 0 followed (seat 0's row alone)
    players = rules_c[R_PLAYERS]
    args = np.zeros(2, dtype=np.int64)  # neither agreement nor holdings
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(keys.shape[1] - 1)
    out = np.zeros((counts[5], counts[6]), dtype=np.int64)
    outs = np.zeros((n_runs, counts[5], counts[6]), dtype=np.int64)  # the values of each hand kept
    width = 3 + players * (rules_c[R_HAND_MAX] + 1) + S_SIZE + 2 + 3 * counts[6] + STATE_WORDS * (1 + seated)
    states = np.zeros((n_runs, width), dtype=np.int64)
    lengths = np.zeros(n_runs, dtype=np.int64)
    sums = np.zeros((n_runs, acc.shape[2]), dtype=np.int64)
    err_c = err[c]
    start, first, end = piece_items(c, counts[7], counts[1], counts[0])
    runs = (policies, params_c, poff_c, counts[9 : 9 + 2 * n_runs])
    classes = np.zeros(n_runs, dtype=np.int64)  # BY_BIDS: the class of each run's bidding (_bids_once)
    bids, asked = np.zeros((n_runs, 2), dtype=np.int64), np.zeros(n_runs, dtype=np.int64)
    before, given = np.zeros(STATE_WORDS, dtype=np.uint64), NOTHING_GIVEN.copy()
    scratch = (hand, scores, out, agreed, unasked, args, outs, classes, bids, asked, before, given)
    status = GO_ON
    for i in range(first, end):
        if status == POLICY_ERROR:
            break
        item = start + i
        dealer = item % players
        streams = (keys, c, i, seated, deck_rng, seat_rngs)
        if by_bids and _bids_once(rules_c, dealer, streams, runs, scratch, err_c):
            for run in range(n_runs):
                add_blocks(blocks_c, sums[run], outs[classes[run]], 0, split)
                if rows.shape[1] > 0:
                    record_blocks(blocks_c, rows[run, item, 0], outs[classes[run]], 0, split)
            continue
        kept = 0
        for run in range(n_runs):
            d = 0  # the first run's values serve a run of the maxims that needs no replay
            if by_bids or run == 0 or followed[0, counts[9 + run], 0] > 0:
                _seed(keys, c, i, seated, deck_rng, seat_rngs)
                out[:, :] = 0
                scores[:] = 0
                if run == 0:
                    followed[:, :, :] = 0
                score = (scores, out[O_ROLE : O_ROLE + 2], False)
                seats = (seat_rngs, policies, params_c[run], poff_c)
                pack = (hand[0], True, deck_rng)
                d, new = kept, True
                if by_bids:
                    status, held, first_deal = deal_and_bid(
                        rules_c, dealer, score, pack, seats, out[O_HAND], err_c, hand, NOTHING_GIVEN
                    )
                    if status != POLICY_ERROR:
                        length = _state_after_bidding(
                            states[d], status, held, first_deal, players, hand, scores, out, deck_rng, seat_rngs, seated
                        )
                        same = _same_as(states, lengths, d, length)
                        lengths[d] = length
                        if same >= 0:
                            d, new = same, False
                        elif status == GO_ON:
                            events = out[O_HAND]
                            status = play_out(
                                rules_c,
                                dealer,
                                score,
                                held,
                                first_deal,
                                seats,
                                events,
                                err_c,
                                hand,
                                unasked,
                                NOTHING_GIVEN,
                            )
                else:
                    tally = followed if run == 0 else unasked
                    status = play_hand(rules_c, dealer, score, pack, seats, out[O_HAND], err_c, hand, tally)
                if status == POLICY_ERROR:
                    err_c[E_ITEM] = item
                    break
                if new:  # a hand played out: its values kept
                    deal_values(rules_c, args, dealer, hand, agreed, out)
                    outs[d, :, :] = out
                    kept += 1
            add_blocks(blocks_c, sums[run], outs[d], 0, split)
            if rows.shape[1] > 0:
                record_blocks(blocks_c, rows[run, item, 0], outs[d], 0, split)
    for run in range(n_runs):
        copy_into(acc[c, run], sums[run])


@functools.cache
def _together_loop():
    """The chunk loop over :func:`_together_chunk`, defined at its first use: only the report's section 9 plays
    it, so ``sims compile`` leaves its compilation (about 5 s of CPU, the hand's kernels linked in once more) to
    the report's first run, which it saves far more; it is cached on disk as every kernel is."""
    signature = types.void(I64_1, U64_2, I64_1, POLICIES, F64_2, I64_1, I64_2, I64_3, I64_4, I64_2)
    return chunk_loop("_together_loop", _together_chunk, signature)


def _check(jobs: list[Job], bids: tuple[str, ...]) -> None:
    """The runs must play the same hands: deals of the same rules, size, seed, chunks and records, without
    options, the same policies but for the parameters of the ``bids`` decisions (or, with none, of seat 0's
    play)."""
    first = jobs[0]

    def same(job):
        return [
            (p.name, tuple(p.params) if d not in bids and (bids or d != "play" or seat) else ())
            for d in job.policies
            for seat, p in enumerate(job.policies[d])
        ]

    for job in jobs:
        if job.game.name != "allfours" or job.kind != "deals" or any(job.option(o) for o in ("agreement", "holdings")):
            raise ValueError("runs played together are All Fours deals without options")
        if (job.rules, job.n, job.seed, job.chunk_size, job.records) != (
            first.rules,
            first.n,
            first.seed,
            first.chunk_size,
            first.records,
        ):
            raise ValueError("runs played together have the same rules, number of deals, seed, chunks and records")
        if same(job) != same(first):
            what = "the beg and answer policies'" if bids else "seat 0's play"
            raise ValueError(f"runs played together differ only in {what} parameters")


def play_runs(jobs: list[Job], threads: int | None = None) -> list:
    """The result of each of ``jobs`` (All Fours deals that differ only in their beg and answer policies'
    parameters), as :func:`sims.core.runner.run` gives it, the hands played together (module docstring)."""
    _check(jobs, BIDS)
    return _play_together(jobs, BY_BIDS, [*_first_runs(jobs, "beg"), *_first_runs(jobs, "answer")], threads)


def _first_runs(jobs: list[Job], decision: str) -> list[int]:
    """Per run, the first run whose policies for ``decision`` have the same parameters in every seat."""
    seen: dict = {}
    return [seen.setdefault(tuple(tuple(p.params) for p in job.policies[decision]), r) for r, job in enumerate(jobs)]


def play_maxims_without_each(jobs: list[Job], threads: int | None = None) -> list:
    """The result of each of ``jobs`` (All Fours deals that differ only in seat 0's ``maxims`` play: all four
    maxims in the first, one switched off in each of the others), as :func:`sims.core.runner.run` gives it, each
    hand replayed only by the runs whose missing maxim seat 0 followed in the first (module docstring)."""
    _check(jobs, ())
    off = []
    for r, job in enumerate(jobs):
        play, n_off = job.policies["play"][0], min(r, 1)
        if play.name != "maxims" or sorted(play.params) != [0.0] * n_off + [1.0] * (N_MAXIMS - n_off):
            raise ValueError("seat 0 plays the maxims, all four in the first run, one switched off in each other")
        off.append(list(play.params).index(0.0) if r else -1)
    return _play_together(jobs, BY_MAXIMS, off, threads)


def _play_together(jobs, by: int, per_run: list[int], threads) -> list:
    """The results of ``jobs``, which differ ``by`` BY_BIDS (``per_run``: :func:`_first_runs` of the beg, then of
    the answer) or BY_MAXIMS (``per_run[r]``: the maxim run ``r`` leaves out), played together
    (:func:`_together_chunk`)."""
    first = jobs[0]
    layout = DEALS.layout(first)
    blocks, split = layout.kernel
    fns, _, poff = first.kernel_policies()
    params = np.stack([job.kernel_policies()[1] for job in jobs])
    pieces = pieces_per_chunk(first.n_chunks, first.chunk_size, threads or current_threads())
    keys = np.repeat(chunk_keys(first.seed, 0, first.n_chunks, first.game.n_streams), pieces, axis=0)
    acc = np.zeros((keys.shape[0], len(jobs), layout.size), dtype=np.int64)
    rows = np.zeros((len(jobs), first.n if first.records else 0, 1, layout.width), dtype=np.int64)
    err = new_err(keys.shape[0])  # a row per piece, in the items' order: the first error is the first item's
    shape = [first.n, first.chunk_size, first.rules.players, split, len(jobs), *DEALS.shape, pieces]
    counts = np.array([*shape, by, *per_run], dtype=np.int64)
    with numba_threads(threads), raised_by_policy(job_policies(first), f"seed {first.seed}", kinds=(SystemError,)):
        _together_loop()(first.rules.to_kernel(), keys, counts, fns, params, poff, blocks, acc, rows, err)
    raise_policy_error(first, err, describe_error)
    return [summarize(job, DEALS.batch(job, layout, acc[:, r].sum(0), rows[r], 0, job.n)) for r, job in enumerate(jobs)]
