"""Where a cribbage deal's time goes (issue 20 item 1): per phase and per policy pair, one thread.

For each pair of policies the full deal is timed through ``simulate_deals`` (which includes the
per-deal bookkeeping: seeding, adding points into the totals and histograms, and the run's Python
layer), then each phase alone by a small kernel over the same seeded deals, calling the engine's
own functions (:mod:`sims.cribbage.play`, :mod:`sims.core.rng`, :mod:`sims.cribbage.scoring`):

- ``deal``: seeding the deck's and the seats' streams and the shuffle (:func:`seed_streams`, :func:`shuffle`);
- ``discard``: the hands taken from the deck and both discard policy calls (with the state they see);
- ``play``: the whole play from its opening (:func:`play_out`, policy calls included) on the kept hands;
- ``show``: both hands and the crib scored with the starter (:func:`show_points`);
- ``joins``: a plain loop of the engine's whole deal (:func:`seed_streams`, :func:`play_deal`) less the
  four phases: the calls and copies between phases, and what the phases lose by running interleaved
  rather than each in its own tight loop (branch predictors, caches);
- ``bookkeeping``: the engine's kernel over all the deals in one call (:func:`run_chunks`) less that
  loop: the points added into totals and histograms, the parallel kernel's per-chunk set-up;
- ``python``: ``simulate_deals`` less that kernel call: batching, chunk keys, data frames, the result.

Each phase kernel also stores what the next phase starts from (a few stores a deal, timed with it).
The play and show kernels return their points, which equal the engine's for the same seed (tested),
so the phases are timed on exactly the deals ``simulate_deals`` plays.  Times are process CPU time
(``time.process_time``), best of ``REPEATS``: other processes competing for the cores distort it less
than wall time, but a loaded machine still slows every figure (shared caches, frequency).
"""

from __future__ import annotations

import os
import time

import numpy as np
from numba import types

from ...core.arrays import copy_into, copy_rows
from ...core.chunks import run_chunks
from ...core.jobs import Job
from ...core.kernel import njit
from ...core.kernel_types import F64_1, I64_1, I64_2, I64_3, U64_2
from ...core.rng import chunk_keys
from ...core.streams import seat_streams
from .. import simulate_deals
from ..contract import split_throw
from ..engine import DISCARDS, PEGS
from ..play import (
    A_LAST,
    A_TURN,
    C_HEELS,
    C_PEGGING,
    C_TOTAL,
    MAX_SEATS,
    N_COMP,
    POLICY_ERROR,
    _fill_state,
    _score,
    deal_buffers,
    fresh_deal,
    new_work,
    play_out,
    seed_streams,
    shuffle,
)
from ..rules import R_ACTIVE, R_CRIB_FLUSH_FOUR, R_DEALT, R_FROM_PACK, R_KEPT, R_PLAYERS, R_THROW
from ..scoring import JACK, show_points

NAME = "profile"
RULES = "six-card"
DEALS = 100_000
REPEATS = 3
SEED = 1
PAIRS = (
    ("random", "random"),
    ("greedy", "greedy"),
    ("expected_net", "defensive"),
    ("expected_peg", "distilled"),
    ("position_distilled", "position_distilled"),
)
PHASES = ("deal", "discard", "play", "show")  # timed alone
PARTS = PHASES + ("joins", "bookkeeping", "python")  # add up to the full deal
U64_3 = types.Array(types.uint64, 3, "C")


@njit(types.void(I64_1, U64_2, types.int64, I64_2, U64_3), cache=True)
def _deal_phase(rules, keys, chunk_size, decks, seat_states):
    """Seed deal ``g``'s streams as the engine does (chunk g // chunk_size, item g % chunk_size) and shuffle;
    keep the cards the deal uses and the seats' streams."""
    work = new_work(rules)
    deck = work[0]
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    for g in range(decks.shape[0]):
        seed_streams(keys, g // chunk_size, g % chunk_size, deck_rng, seat_rngs)
        shuffle(rules, deck_rng, deck)
        copy_into(decks[g], deck[: decks.shape[1]])
        copy_rows(seat_states[g], seat_rngs)


@njit(types.void(I64_1, I64_2, U64_3, DISCARDS, F64_1, I64_1, I64_2), cache=True)
def _discard_phase(rules, decks, seat_states, discard_fns, params, poff, masks):
    """Both discards of each deal, eldest first, as the engine asks them (no points scored yet);
    the seats' streams are left as the discards leave them."""
    players, n, dealt = rules[R_PLAYERS], rules[R_ACTIVE], rules[R_DEALT]
    work = new_work(rules)
    hands, thrown, state = work[1], work[4], work[7]
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    for g in range(decks.shape[0]):
        dealer = g % players
        for r in range(n):
            copy_into(hands[r], decks[g, r * dealt : (r + 1) * dealt])
        for t in range(n):
            role = (t + 1) % n
            seat = (dealer + role) % players
            _fill_state(state, rules, role, seat, dealer, scores, -1, (0, 0, 0, 0, 0), thrown[role])
            own = params[poff[2 * seat] : poff[2 * seat + 1]]
            masks[g, role] = discard_fns[seat](hands[role], state, rules, seat_states[g, seat], own)


@njit(types.void(I64_1, I64_2, I64_2, I64_3, I64_3, I64_2, I64_1), cache=True)
def _lay_out(rules, decks, masks, kept, thrown, crib, starters):
    """Not timed: the kept and thrown cards, the crib (throws eldest first, then from the pack) and the starter,
    where the engine's deal takes them from the deck."""
    n, dealt, k = rules[R_ACTIVE], rules[R_DEALT], rules[R_THROW]
    hand = np.empty(dealt, dtype=np.int64)
    for g in range(decks.shape[0]):
        n_crib = 0
        for t in range(n):
            role = (t + 1) % n
            copy_into(hand, decks[g, role * dealt : (role + 1) * dealt])
            split_throw(hand, masks[g, role], kept[g, role], thrown[g, role])
            for i in range(k):
                crib[g, n_crib] = thrown[g, role, i]
                n_crib += 1
        pos = n * dealt
        for _ in range(rules[R_FROM_PACK]):
            crib[g, n_crib] = decks[g, pos]
            n_crib += 1
            pos += 1
        starters[g] = decks[g, pos]


@njit(types.int64(I64_1, I64_3, I64_3, I64_1, U64_3, PEGS, F64_1, I64_1), cache=True)
def _play_phase(rules, kept, thrown, starters, seat_states, peg_fns, params, poff):
    """The play of each deal from its opening (his heels first, for the scores the policies see); returns the
    points pegged in all deals, or -1 if a policy answered illegally."""
    players, n = rules[R_PLAYERS], rules[R_ACTIVE]
    work = new_work(rules)
    in_play, played, state, at = work[3], work[6], work[7], work[8]
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    comp = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
    err = np.zeros(64, dtype=np.int64)
    pegs = (peg_fns, params, poff)
    total = 0
    for g in range(kept.shape[0]):
        dealer = g % players
        copy_rows(in_play[:n], kept[g, :n])
        scores[:] = 0
        comp[:, :] = 0
        if starters[g] >> 2 == JACK:
            _score(rules, scores, comp, dealer, 0, C_HEELS, 2, False)
        at[:] = 0
        at[A_TURN], at[A_LAST] = 1 % n, -1
        if (
            play_out(
                rules,
                dealer,
                scores,
                False,
                starters[g],
                (in_play, played, thrown[g]),
                state,
                at,
                seat_states[g],
                pegs,
                comp,
                err,
            )
            == POLICY_ERROR
        ):
            return -1
        for r in range(n):
            total += comp[r, C_PEGGING]
    return total


@njit(types.int64(I64_1, U64_2, types.int64, types.int64, DISCARDS, PEGS, F64_1, I64_1), cache=True)
def _deal_loop(rules, keys, chunk_size, n_deals, discard_fns, peg_fns, params, poff):
    """The engine's whole deal, nothing added up; returns the points of all deals, or -1 on an illegal answer."""
    players, n = rules[R_PLAYERS], rules[R_ACTIVE]
    buffers = deal_buffers(rules)
    comp, err = buffers[4], np.zeros(64, dtype=np.int64)
    total = 0
    for g in range(n_deals):
        c, i = divmod(g, chunk_size)
        if (
            fresh_deal(rules, keys, c, i, g % players, buffers, (discard_fns, peg_fns), params, poff, err)
            == POLICY_ERROR
        ):
            return -1
        for r in range(n):
            total += comp[r, C_TOTAL]
    return total


@njit(types.int64(I64_1, I64_3, I64_2, I64_1), cache=True)
def _show_phase(rules, kept, crib, starters):
    """Every hand and the crib of each deal scored with its starter; returns the points shown in all deals."""
    n, n_kept = rules[R_ACTIVE], rules[R_KEPT]
    flush_four = rules[R_CRIB_FLUSH_FOUR] != 0
    total = 0
    for g in range(kept.shape[0]):
        for r in range(n + 1):  # the hands, then the crib (r == n): one call site, show_points inlined once
            is_crib = r == n
            cards = crib[g] if is_crib else kept[g, r]
            total += show_points(cards, 4 if is_crib else n_kept, starters[g], is_crib, is_crib and flush_four)
    return total


def _best(fn, repeats: int) -> tuple[float, float, object]:
    """Best process CPU and best wall seconds of ``repeats`` calls, and the last call's value."""
    cpu = wall = float("inf")
    value = None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = fn()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return cpu, wall, value


def phase_times(discard: str, peg: str, n: int = DEALS, seed: int = SEED, repeats: int = REPEATS) -> dict:
    """CPU seconds of each phase over ``n`` deals of both seats playing ``discard`` / ``peg`` and of the engine's
    whole deal in a plain loop (``loop``), and the points they found (``play points``, ``show points``,
    ``deal points``)."""
    job = Job.make("cribbage", "deals", RULES, {"discard": discard, "peg": peg}, n, seed)
    (discard_fns, peg_fns), params, poff = job.kernel_policies()
    rules = job.rules.to_kernel()
    active = rules[R_ACTIVE]
    keys = chunk_keys(seed, 0, job.n_chunks, job.game.n_streams)
    decks = np.empty((n, active * rules[R_DEALT] + rules[R_FROM_PACK] + 1), dtype=np.int64)
    seeded = np.tile(seat_streams(MAX_SEATS), (n, 1, 1))
    masks = np.empty((n, MAX_SEATS), dtype=np.int64)
    kept = np.full((n, MAX_SEATS, rules[R_KEPT]), -1, dtype=np.int64)
    thrown = np.full((n, MAX_SEATS, 2), -1, dtype=np.int64)
    crib = np.empty((n, 4), dtype=np.int64)
    starters = np.empty(n, dtype=np.int64)
    after_discard = np.empty_like(seeded)

    def discard_call():
        after_discard[:] = seeded  # the streams as seeded, for every repeat (a copy: not a phase)
        start = time.process_time()
        _discard_phase(rules, decks, after_discard, discard_fns, params, poff, masks)
        return time.process_time() - start

    times = {"deal": _best(lambda: _deal_phase(rules, keys, job.chunk_size, decks, seeded), repeats)[0]}
    times["discard"] = min(discard_call() for _ in range(repeats))
    _lay_out(rules, decks, masks, kept, thrown, crib, starters)
    after_play = np.empty_like(seeded)

    def play_call():
        after_play[:] = after_discard
        start = time.process_time()
        points = _play_phase(rules, kept, thrown, starters, after_play, peg_fns, params, poff)
        return time.process_time() - start, points

    plays = [play_call() for _ in range(repeats)]
    times["play"], times["play points"] = min(p[0] for p in plays), plays[-1][1]
    times["show"], _, times["show points"] = _best(lambda: _show_phase(rules, kept, crib, starters), repeats)
    times["loop"], _, times["deal points"] = _best(
        lambda: _deal_loop(rules, keys, job.chunk_size, n, discard_fns, peg_fns, params, poff), repeats
    )
    if times["play points"] < 0 or times["deal points"] < 0:
        raise RuntimeError(f"{discard}/{peg}: a policy answered illegally in the profile")
    return times


def profile_pair(discard: str, peg: str, n: int = DEALS, seed: int = SEED, repeats: int = REPEATS) -> dict:
    """One row: the full deal (``simulate_deals`` on one thread) and each part, in ns a deal and as a share of
    the full deal's CPU time (``joins``, ``bookkeeping`` and ``python`` are differences: noise can make them
    negative)."""
    policies = {"discard": discard, "peg": peg}
    simulate_deals(RULES, policies, min(n, 1000), seed=seed, threads=1)  # compiled and warm
    full, full_wall, _ = _best(lambda: simulate_deals(RULES, policies, n, seed=seed, threads=1), repeats)
    job = Job.make("cribbage", "deals", RULES, policies, n, seed)
    kernel = _best(lambda: run_chunks(job, 0, job.n_chunks, threads=1), repeats)[0]
    times = phase_times(discard, peg, n, seed, repeats)
    times["joins"] = times["loop"] - sum(times[p] for p in PHASES)
    times["bookkeeping"] = kernel - times["loop"]
    times["python"] = full - kernel
    row = {
        "what": f"{discard} / {peg}",
        "deals": n,
        "full ns/deal": full / n * 1e9,
        "full wall ns/deal": full_wall / n * 1e9,
    }
    for phase in PARTS:
        row[f"{phase} ns"] = times[phase] / n * 1e9
    for phase in PARTS:
        row[f"{phase} %"] = 100 * times[phase] / full
    row.update({key: times[key] for key in ("deal points", "play points", "show points")})
    return row


def run(n: int = DEALS, pairs=PAIRS, repeats: int = REPEATS) -> list[dict]:
    """A row per policy pair (both seats alike), after a row saying how it was timed and under what load."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = [
        {
            "what": f"{RULES} deals, 1 thread; process CPU time, best of {repeats}; "
            f"load average {load} on {os.cpu_count()} cores"
        }
    ]
    return rows + [profile_pair(discard, peg, n, repeats=repeats) for discard, peg in pairs]
