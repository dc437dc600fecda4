"""Where an All Fours hand's time goes (issue 20 item 1): CPU ns a deal per phase, one thread.

For each rule set and policies the full deal is timed through ``simulate_deals`` (seeding, the hand, adding
it into the totals, the run's Python layer); the hand itself by one kernel over the same seeded deals that
calls the engine's phases (:mod:`sims.allfours.play`) in order and stops after the phase asked for, so each
phase's time is the difference between stopping after it and stopping before it:

- ``seed``: the deck's and the seats' streams of the deal, seeded as the engine seeds them;
- ``deal``: six cards each, shuffled as they are dealt, and the trump turned (:func:`new_deal`);
- ``beg/answer``: the eldest's beg and the dealer's answer, policy calls included (:func:`bid` less running);
- ``run the cards``: three more each and a card turned, per round timed alone (:func:`run_cards` after a deal)
  times the rounds run per deal;
- ``discard``: with ``discard_to_six``, throwing out to six (:func:`discard_to_six`);
- ``play``: the tricks, policy calls included (:func:`play_tricks`);
- ``count``: high, low, jack and game (:func:`count_points`);
- ``joins``: the engine's hand (:func:`play_hand`) in a plain loop less the phases: its calls between phases
  and new deals when the pack runs short (left out of the phase kernel);
- ``bookkeeping``: the engine's kernel over all the deals (:func:`run_chunks`) less that loop: the points added
  into totals and histograms, the parallel kernel's per-chunk set-up;
- ``python``: ``simulate_deals`` less that kernel call: batching, chunk keys, data frames, the result.

Times are process CPU time (``time.process_time``), best of ``REPEATS``; a loaded machine slows every figure.
``python -m sims.bench allfours_profile`` prints the table.
"""

from __future__ import annotations

import os
import time

import numpy as np
from numba import types

from ...core.chunks import run_chunks
from ...core.jobs import Job
from ...core.kernel import njit
from ...core.kernel_types import F64_1, I64_1, U64_2
from ...core.rng import chunk_keys
from ...core.streams import seat_streams
from ...core.unowned import borrowed
from .. import simulate_deals
from ..cards import KNAVE
from ..contract import S_DEALER, S_HELD, S_PLAYERS, S_TARGET, S_TRUMP, S_TURNED
from ..engine import POLICIES, _seed
from ..maxims import N_MAXIMS
from ..play import (
    C_TOTAL,
    C_TURNED,
    MAX_SEATS,
    N_COMP,
    N_EVENTS,
    NOTHING_GIVEN,
    POLICY_ERROR,
    SHORT,
    _score,
    bid,
    borrowed_work,
    count_points,
    discard_to_six,
    new_deal,
    new_work,
    play_hand,
    play_tricks,
    run_cards,
)
from ..rules import HAND, PACK, PACKET, R_BEGGING, R_DISCARD_TO_SIX, R_PLAYERS, R_TARGET, get_rules

NAME = "allfours_profile"
DEALS = 200_000
REPEATS = 3
SEED = 1
RANDOM = {"beg": "random", "answer": "random", "play": "random", "discard": "random"}
CASES = (
    ("two-hand", "random", RANDOM),
    ("two-hand", "default (threshold, maxims)", None),
    ("two-hand", "greedy play", {"play": "greedy"}),
    ("four-hand", "random", RANDOM),
    ("discard_to_six", "random", RANDOM),
)
STAGES = ("seed", "deal", "bid", "discard", "play", "count")  # the phase kernel stops after one of these
PARTS = ("seed", "deal", "beg/answer", "run the cards", "discard", "play", "count", "joins", "bookkeeping", "python")
SIG = (I64_1, U64_2, types.int64, types.int64, POLICIES, F64_1, I64_1)


@njit(cache=True, inline="always")
def hand_arrays(rules):
    """What the engine's chunk step allocates for its hands: the scratch, the deck's and the seats' streams,
    the scores, the points, the events, the error row and an empty agreement tally."""
    return (
        new_work(rules),
        np.empty(4, dtype=np.uint64),
        seat_streams(MAX_SEATS),
        np.zeros(2, dtype=np.int64),
        np.zeros((2, N_COMP), dtype=np.int64),
        np.zeros(N_EVENTS, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros((0, N_MAXIMS, 2), dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _borrowed(owned):
    """The scratch, the streams and the tallies of a hand (``owned``: kept alive by the caller's loop), each
    array :func:`borrowed`, as the engine's chunk step passes them to :func:`play_hand`."""
    work, deck_rng, seat_rngs, scores, comp, events, err, tally = owned
    return (
        borrowed_work(work),
        borrowed(deck_rng),
        borrowed(seat_rngs),
        borrowed(scores),
        borrowed(comp),
        borrowed(events),
        borrowed(err),
        borrowed(tally),
    )


@njit(types.int64(*SIG, types.int64), cache=True)
def _phases(rules, keys, chunk_size, n_deals, policies, params, poff, upto):
    """Deals 0 .. n_deals - 1 seeded as the engine seeds them and played phase by phase through stage ``upto``
    (an index of STAGES); returns the points scored, or -1 if a policy answered illegally.  A deal whose pack
    runs short while running the cards stops there."""
    players = rules[R_PLAYERS]
    owned = hand_arrays(rules)
    total = 0
    for g in range(n_deals):
        work, deck_rng, seat_rngs, scores, comp, events, err, tally = _borrowed(owned)  # as the engine passes them
        deck, hands, state, holder, discards = work[0], work[1], work[3], work[4], work[5]
        score, pack, seats = (scores, comp, False), (deck, True, deck_rng), (seat_rngs, policies, params, poff)
        _seed(keys, g // chunk_size, g % chunk_size, players, deck_rng, seat_rngs)
        if upto == 0:
            continue
        dealer = g % players
        scores[:] = 0
        comp[:, :] = 0
        state[S_DEALER], state[S_PLAYERS], state[S_TARGET] = dealer, players, rules[R_TARGET]
        pos = new_deal(players, pack, 0, hands, state, discards)
        if state[S_TURNED] >> 2 == KNAVE:
            _score(rules, score, dealer, 0, C_TURNED, 1)
        if upto == 1:
            continue
        held = HAND
        if rules[R_BEGGING]:
            status, held = bid(rules, dealer, score, pack, 0, pos, seats, events, err, work, NOTHING_GIVEN, True)
            if status == POLICY_ERROR:
                return -1
            if status == SHORT:
                continue
        if upto == 2:
            continue
        tricks = held
        if rules[R_DISCARD_TO_SIX] and held > HAND:
            if discard_to_six(rules, dealer, scores, held, seats, err, work, NOTHING_GIVEN, True) == POLICY_ERROR:
                return -1
            tricks = HAND
        state[S_HELD] = tricks
        if upto == 3:
            continue
        status, reckoned_0, reckoned_1, jack_taker = play_tricks(
            rules, dealer, scores, held, tricks, seats, err, work, tally, NOTHING_GIVEN
        )
        if status == POLICY_ERROR:
            return -1
        if upto == 4:
            continue
        count_points(rules, dealer, score, state[S_TRUMP], holder, reckoned_0, reckoned_1, jack_taker, events)
        total += comp[0, C_TOTAL] + comp[1, C_TOTAL]
    return total


@njit(types.int64(*SIG), cache=True)
def _one_run(rules, keys, chunk_size, n_deals, policies, params, poff):
    """Each deal dealt as in :func:`_phases` stage ``deal``, then the cards run once, whatever the players
    would do; returns the cards turned (a checksum)."""
    players = rules[R_PLAYERS]
    owned = hand_arrays(rules)
    total = 0
    for g in range(n_deals):
        work, deck_rng, seat_rngs, _, _, events, _, _ = _borrowed(owned)
        deck, hands, state, discards = work[0], work[1], work[3], work[5]
        _seed(keys, g // chunk_size, g % chunk_size, players, deck_rng, seat_rngs)
        pack = (deck, True, deck_rng)
        pos = new_deal(players, pack, 0, hands, state, discards)
        if pos + PACKET * players + 1 <= PACK:
            run_cards(players, HAND, pack, pos, hands, state, events)
        total += state[S_TURNED]
    return total


@njit(cache=True, inline="always")
def play_deal(owned, rules, keys, chunk_size, g, policies, params, poff):
    """Deal ``g`` seeded as the engine seeds it and played out by the engine's hand (:func:`play_hand`) in the
    arrays of :func:`hand_arrays` (the scores, the points, the scratch with the cards played); the hand's status."""
    work, deck_rng, seat_rngs, scores, comp, events, err, tally = _borrowed(owned)
    players = rules[R_PLAYERS]
    _seed(keys, g // chunk_size, g % chunk_size, players, deck_rng, seat_rngs)
    scores[:] = 0
    comp[:, :] = 0
    return play_hand(
        rules,
        g % players,
        (scores, comp, False),
        (work[0], True, deck_rng),
        (seat_rngs, policies, params, poff),
        events,
        err,
        work,
        tally,
    )


@njit(types.int64(*SIG), cache=True)
def _hand_loop(rules, keys, chunk_size, n_deals, policies, params, poff):
    """The engine's whole hand (:func:`play_hand`) of each deal, nothing added up; returns the points, or -1."""
    owned = hand_arrays(rules)
    total = 0
    for g in range(n_deals):
        if play_deal(owned, rules, keys, chunk_size, g, policies, params, poff) == POLICY_ERROR:
            return -1
        comp = owned[4]
        total += comp[0, C_TOTAL] + comp[1, C_TOTAL]
    return total


def _cpu(fn, repeats: int) -> tuple[float, object]:
    """Best process CPU seconds of ``repeats`` calls, and the last call's value."""
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        value = fn()
        best = min(best, time.process_time() - start)
    return best, value


def rules_of(name: str):
    """A preset, or ``discard_to_six``: two-hand with each keeping six after the cards were run."""
    if name == "discard_to_six":
        return get_rules("two-hand").replace(name="discard_to_six", discard_to_six=True)
    return get_rules(name)


def profile(rules, policies, n: int = DEALS, seed: int = SEED, repeats: int = REPEATS) -> dict:
    """CPU seconds of each part (PARTS) over ``n`` deals, the full deal's (``full``), and the points found by the
    phase kernel and the engine (``phase points``, ``hand points``: equal, the same deals)."""
    rules = rules_of(rules)
    simulate_deals(rules, policies, min(n, 4096), seed=seed, threads=1)  # compiled and warm
    full = _cpu(lambda: simulate_deals(rules, policies, n, seed=seed, threads=1), repeats)[0]
    job = Job.make("allfours", "deals", rules, policies, n, seed)
    kernel = _cpu(lambda: run_chunks(job, 0, job.n_chunks, threads=1), repeats)[0]
    batch = run_chunks(job, 0, job.n_chunks, threads=1)
    fns, params, poff = job.kernel_policies()
    args = (
        rules.to_kernel(),
        chunk_keys(seed, 0, job.n_chunks, job.game.n_streams),
        job.chunk_size,
        n,
        tuple(fns),
        params,
        poff,
    )
    stage = [_cpu(lambda: _phases(*args, upto), repeats) for upto in range(len(STAGES))]
    loop, hand_points = _cpu(lambda: _hand_loop(*args), repeats)
    one_run = _cpu(lambda: _one_run(*args), repeats)[0]
    rounds = batch.total("hand", "all", "rounds run")[1] / n
    running = max(one_run - stage[1][0], 0.0) * rounds
    t = {
        "seed": stage[0][0],
        "deal": stage[1][0] - stage[0][0],
        "run the cards": running,
        "beg/answer": stage[2][0] - stage[1][0] - running,
        "discard": stage[3][0] - stage[2][0],
        "play": stage[4][0] - stage[3][0],
        "count": stage[5][0] - stage[4][0],
        "joins": loop - stage[5][0],
        "bookkeeping": kernel - loop,
        "python": full - kernel,
    }
    return {"full": full, **t, "rounds run": rounds, "phase points": stage[5][1], "hand points": hand_points}


def run(n: int = DEALS, cases=CASES, repeats: int = REPEATS) -> list[dict]:
    """A row per case: CPU ns a deal, in all and per part (``joins``, ``bookkeeping``, ``python`` and
    ``beg/answer`` are differences: noise can make them negative), after a row saying how it was timed."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = [
        {
            "what": f"All Fours deals, 1 thread; CPU ns a deal, best of {repeats}; load average {load} on "
            f"{os.cpu_count()} cores"
        }
    ]
    for rules, label, policies in cases:
        t = profile(rules, policies, n, repeats=repeats)
        row = {"what": f"{rules}: {label}", "deals": n, "full ns": t["full"] / n * 1e9}
        row.update({f"{part} ns": t[part] / n * 1e9 for part in PARTS})
        row.update({"rounds run": t["rounds run"], "phase points": t["phase points"], "hand points": t["hand points"]})
        rows.append(row)
    return rows


if __name__ == "__main__":  # pragma: no cover
    from ...bench import format_table

    print(format_table(run()))
