"""Runs of the same hands that differ only in how the eldest begs and the dealer answers, played together.

Report section 9's begging matrix is 81 runs of the same deals, one per pair of thresholds (Sections 87-96
§93 v).  Whatever the beg and answer policies, a hand goes on from the bidding
(:func:`sims.allfours.play.deal_and_bid`) as what the bidding left decides: its outcome, the cards held, the
situation, the points and events so far and the seats' streams.  :func:`play_runs` deals and bids each hand
once per run, with that run's policies, but plays it out (:func:`sims.allfours.play.play_out`) once per
different state the bidding left (three at most with threshold players: he stands; he begs and is given one;
he begs and the cards are run) and gives each run the values of its own.  Every run plays the hands and streams
:func:`sims.core.runner.run` plays, and its totals are exact integers, so each result is the one
:func:`sims.core.api.simulate` gives, number for number.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import types

from ..core.arrays import copy_into
from ..core.chunks import numba_threads
from ..core.driver import chunk_loop
from ..core.errors import E_ITEM, job_policies, new_err, raise_policy_error, raised_by_policy
from ..core.jobs import Job
from ..core.kernel import njit
from ..core.kernel_types import F64_2, I64_1, I64_2, I64_3, U64_2
from ..core.layout import add_blocks
from ..core.rng import chunk_keys, seed_state
from ..core.runner import _Collector, summarize
from ..core.streams import STATE_WORDS, seat_streams
from .contract import S_SIZE
from .engine import DEALS, O_HAND, O_ROLE, POLICIES, deal_values, describe_error, new_item_work
from .play import GO_ON, NOTHING_GIVEN, POLICY_ERROR, deal_and_bid, play_out
from .rules import R_HAND_MAX, R_PLAYERS

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


@njit(inline="always")
def _runs_chunk(c, rules, keys, counts, policies, params, poff, blocks, acc, err):
    """Chunk ``c`` of every run: each hand dealt and bid per run (``params[run]``), played out once per state the
    bidding left, its values added to that run's accumulator ``acc[c, run]``."""
    n_items, chunk_size, seated, split, n_runs = counts[0], counts[1], counts[2], counts[3], counts[4]
    rules_c, poff_c, blocks_c, params_c = rules.copy(), poff.copy(), blocks.copy(), params.copy()
    work = new_item_work(rules_c)
    hand, scores, agreed, unasked = work[0], work[1], work[3], work[4]
    players = rules_c[R_PLAYERS]
    args = np.zeros(2, dtype=np.int64)  # neither agreement nor holdings
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(keys.shape[1] - 1)
    out = np.zeros((counts[5], counts[6]), dtype=np.int64)
    added = np.zeros((n_runs, acc.shape[2]), dtype=np.int64)  # what the values of each state kept add up to
    width = 3 + players * (rules_c[R_HAND_MAX] + 1) + S_SIZE + 2 + 3 * counts[6] + STATE_WORDS * (1 + seated)
    states = np.zeros((n_runs, width), dtype=np.int64)
    lengths = np.zeros(n_runs, dtype=np.int64)
    sums = np.zeros((n_runs, acc.shape[2]), dtype=np.int64)
    err_c = err[c]
    start = c * chunk_size
    failed = False
    for i in range(min(chunk_size, n_items - start)):
        if failed:
            break
        item = start + i
        dealer = item % players
        kept = 0
        for run in range(n_runs):
            seed_state(deck_rng, keys[c, 0], i)
            for s in range(seated):
                seed_state(seat_rngs[s], keys[c, 1 + s], i)
            out[:, :] = 0
            scores[:] = 0
            score = (scores, out[O_ROLE : O_ROLE + 2], False)
            seats = (seat_rngs, policies, params_c[run], poff_c)
            status, held, first_deal = deal_and_bid(
                rules_c, dealer, score, (hand[0], True, deck_rng), seats, out[O_HAND], err_c, hand, NOTHING_GIVEN
            )
            if status == POLICY_ERROR:
                err_c[E_ITEM], failed = item, True
                break
            length = _state_after_bidding(
                states[kept], status, held, first_deal, players, hand, scores, out, deck_rng, seat_rngs, seated
            )
            d = _same_as(states, lengths, kept, length)
            if d < 0:
                d, lengths[kept] = kept, length
                kept += 1
                if status == GO_ON:
                    events = out[O_HAND]
                    status = play_out(
                        rules_c, dealer, score, held, first_deal, seats, events, err_c, hand, unasked, NOTHING_GIVEN
                    )
                    if status == POLICY_ERROR:
                        err_c[E_ITEM], failed = item, True
                        break
                deal_values(rules_c, args, dealer, hand, agreed, out)
                added[d, :] = 0
                add_blocks(blocks_c, added[d], out, 0, split)
            for k in range(sums.shape[1]):
                sums[run, k] += added[d, k]
    for run in range(n_runs):
        copy_into(acc[c, run], sums[run])


@functools.cache
def _runs_loop():
    """The chunk loop over :func:`_runs_chunk`, defined at its first use: only the report's begging matrix plays
    it, so ``sims compile`` leaves its compilation (4-5 s of CPU, the hand's kernels linked in once more) to the
    report's first run, which it saves some twenty seconds; it is cached on disk as every kernel is."""
    signature = types.void(I64_1, U64_2, I64_1, POLICIES, F64_2, I64_1, I64_2, I64_3, I64_2)
    return chunk_loop("_runs_loop", _runs_chunk, signature)


def _check(jobs: list[Job]) -> None:
    """The runs must play the same hands with the same play: deals of the same rules, size, seed and chunks,
    without records or options, the same policies but for the beg and answer parameters."""
    first = jobs[0]

    def play(job):
        return [(p.name, tuple(p.params)) for d in job.policies if d not in BIDS for p in job.policies[d]]

    def bids(job):
        return [p.name for d in BIDS for p in job.policies[d]]

    for job in jobs:
        if (
            job.game.name != "allfours"
            or job.kind != "deals"
            or job.records
            or any(job.option(o) for o in ("agreement", "holdings"))
        ):
            raise ValueError("runs played together are All Fours deals without records or options")
        if (job.rules, job.n, job.seed, job.chunk_size) != (first.rules, first.n, first.seed, first.chunk_size):
            raise ValueError("runs played together have the same rules, number of deals, seed and chunk size")
        if play(job) != play(first) or bids(job) != bids(first):
            raise ValueError("runs played together differ only in the beg and answer policies' parameters")


def play_runs(jobs: list[Job], threads: int | None = None) -> list:
    """The result of each of ``jobs`` (All Fours deals that differ only in their beg and answer policies'
    parameters), as :func:`sims.core.runner.run` gives it, the hands played together (module docstring)."""
    _check(jobs)
    first = jobs[0]
    layout = DEALS.layout(first)
    blocks, split = layout.kernel
    fns, _, poff = first.kernel_policies()
    params = np.stack([job.kernel_policies()[1] for job in jobs])
    keys = chunk_keys(first.seed, 0, first.n_chunks, first.game.n_streams)
    acc = np.zeros((first.n_chunks, len(jobs), layout.size), dtype=np.int64)
    err = new_err(first.n_chunks)
    counts = np.array([first.n, first.chunk_size, first.rules.players, split, len(jobs), *DEALS.shape], dtype=np.int64)
    with numba_threads(threads), raised_by_policy(job_policies(first), f"seed {first.seed}", kinds=(SystemError,)):
        _runs_loop()(first.rules.to_kernel(), keys, counts, fns, params, poff, blocks, acc, err)
    raise_policy_error(first, err, describe_error)
    no_rows = np.zeros((0, 1, layout.width), dtype=np.int64)
    results = []
    for r, job in enumerate(jobs):
        collector = _Collector()  # as a run adds up its batches
        collector.add(0, DEALS.batch(job, layout, acc[:, r].sum(0), no_rows, 0, job.n))
        results.append(summarize(job, collector.batch()))
    return results
