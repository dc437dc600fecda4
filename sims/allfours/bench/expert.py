"""The All Fours expert's speed on the claims report's work, and a fingerprint of its choices.

The report's expert runs (section 9) are two-hand deals with threshold begging and answering, the
expert in one seat and the maxims in the other: 2,000 deals with the agreement tally, runs of 500 with
records, and runs of 500 with a smaller search (5 samples, 100,000 positions).  :func:`fingerprint`
plays such deals seeded as the engine seeds them (the same hands as ``simulate_deals``) and hashes
every card played in every hand, in order, with the player who played it: a change in any choice of
the expert changes it.  ``python -m sims.bench allfours_expert`` prints, for each workload, the deals and
the expert's plays (every card it plays, the forced ones too) per CPU second, the same figure for the search
before issue 36 made it faster (commit dec9be4, recorded on the same machine on another day), the speed-up, and
whether the fingerprint is still the one the search gave before (the same choices, so the report's numbers stay);
the goals table times that commit's code in the same run instead (:func:`expert_goal`).
Then the agreement run with every hand searched to its end (``exact_cards`` above any hand: the search before the
horizon, whose fingerprint it checks), timed in the same run, and where the agreement run's time goes
(:func:`by_cards_held`): its deals by the cards each player held when the play began (six, or more after the cards
were run), each part's share of the deals and of the expert's CPU.
"""

from __future__ import annotations

import os
import time

import numpy as np
from numba import types

from ...bench.before import same_run
from ...bench.goals import goal_row
from ...core.jobs import Job
from ...core.kernel import njit
from ...core.kernel_types import F64_1, I64_1, U64_2
from ...core.rng import chunk_keys
from ..contract import P_CARD, P_ROLE, S_HELD, S_N_PLAYED
from ..engine import POLICIES
from ..play import C_TOTAL, MAX_SEATS, POLICY_ERROR
from .profile import hand_arrays, play_deal

NAME = "allfours_expert"
GAME, RULES = "allfours", "two-hand"
BIDDING = {"beg": "threshold", "answer": "threshold"}
# The search before issue 36 (commit dec9be4): CPU seconds of the workloads below, one run each, measured on the
# same 2-core machine at load average 6.7, right before the search as changed.
BEFORE_AGREEMENT, BEFORE_ADVERSARY, BEFORE_LAWS = 33.61, 7.24, 1.15
# The report's expert runs: label, play policies of seat 0 and seat 1, deals, the expert's seat, and the search
# before issue 36 (commit dec9be4): its CPU seconds on this machine and its fingerprint.
WORKLOADS = (
    ("agreement run: expert vs maxims", ["expert", "maxims"], 2_000, 0, BEFORE_AGREEMENT, "2c5832dd3f4ad73b"),
    ("adversary run: maxims vs expert", ["maxims", "expert"], 500, 1, BEFORE_ADVERSARY, "52ae5e5c8d68ce23"),
    (
        "laws run: maxims vs expert[5, 100000, 9]",
        ["maxims", {"name": "expert", "params": [5, 100_000, 9]}],
        500,
        1,
        BEFORE_LAWS,
        "f2d04f51d467a746",
    ),
)
MIX = np.uint64(0x9E3779B97F4A7C15)
SIG = (I64_1, U64_2, types.int64, I64_1, POLICIES, F64_1, I64_1, I64_1, I64_1, I64_1)
HELD_CLASSES = ((6, 6), (9, 9), (12, 99))  # cards held when the play began: none run, run once, run twice or more
# The search to the end of every hand (exact_cards above any hand), as it was before the horizon, on the agreement
# run: the expert's play and its fingerprint (seed 1), to time in the same run.  Four of its 2,000 deals hold a
# decision that runs out of its 1,000,000 positions; since the expert stopped valuing cards out of the running
# (2026-12-07) those solve more samples before they do, and play otherwise (9d50ea540615881c before; with 100,000,000
# positions, which they never reach, the four deals play as before).
TO_THE_END = {"name": "expert", "params": [20, 1_000_000, 99]}
TO_THE_END_HASH = "2d8e148c61740b47"


@njit(types.uint64(*SIG), cache=True)
def _played_hash(rules, keys, chunk_size, deals, policies, params, poff, plays, points, held):
    """The ``deals`` (their numbers, in order) as the engine deals them, each hand played out; a hash of every card
    played and its player's role, hand by hand (0 if a policy answered illegally).  ``plays[seat]`` counts the
    cards each seat played, ``points[0]`` the points scored, ``held[i]`` the cards each player held when the play
    of ``deals[i]`` began."""
    players = rules[0]
    owned = hand_arrays(rules)
    h = np.uint64(0)
    for i in range(deals.shape[0]):
        g = deals[i]
        if play_deal(owned, rules, keys, chunk_size, g, policies, params, poff) == POLICY_ERROR:
            return np.uint64(0)
        work, comp = owned[0], owned[4]
        points[0] += comp[0, C_TOTAL] + comp[1, C_TOTAL]
        held[i] = work[3][S_HELD]
        played, n_played = work[2], work[3][S_N_PLAYED]
        for k in range(n_played):
            plays[(g + played[P_ROLE, k]) % players] += 1  # the dealer of deal g sits in seat g % players
            x = np.uint64(g * 4096 + k * 64 + played[P_CARD, k] * 4 + played[P_ROLE, k])
            h = (h ^ x) * MIX
            h ^= h >> np.uint64(29)
    return h


def fingerprint(play, n: int, seed: int = 1, rules: str = RULES) -> tuple[str, np.ndarray, int, float]:
    """``(hash, cards each seat played, points scored, CPU seconds)`` of ``n`` deals of the run ``seed`` with
    threshold bidding and ``play`` (one policy per seat)."""
    h, plays, points, seconds, _ = play_deals(play, n, np.arange(n), seed, rules)
    return h, plays, points, seconds


def play_deals(play, n: int, deals: np.ndarray, seed: int, rules: str):
    """:func:`fingerprint` of the ``deals`` of a run of ``n``, and the cards each player held in each."""
    job = Job.make(GAME, "deals", rules, {**BIDDING, "play": play}, n, seed)
    fns, params, poff = job.kernel_policies()
    keys = chunk_keys(seed, 0, job.n_chunks, job.game.n_streams)
    plays, points = np.zeros(MAX_SEATS, dtype=np.int64), np.zeros(1, dtype=np.int64)
    held = np.zeros(len(deals), dtype=np.int64)
    start = time.process_time()
    h = _played_hash(job.rules.to_kernel(), keys, job.chunk_size, deals, tuple(fns), params, poff, plays, points, held)
    return f"{int(h):016x}", plays, int(points[0]), time.process_time() - start, held


def by_cards_held(play, n: int, seat: int, seed: int = 1) -> list[dict]:
    """Where the time of ``n`` deals with ``play`` goes: a row per class of :data:`HELD_CLASSES` (the cards each
    player held when the play began: the begging and the running decide them, not the play, so a run with the
    maxims in both seats sorts the deals), with its share of the deals and of the CPU seconds, and the plays per
    CPU second of the player in ``seat``."""
    held = play_deals(["maxims", "maxims"], n, np.arange(n), seed, RULES)[4]
    parts = []
    for low, high in HELD_CLASSES:
        deals = np.flatnonzero((held >= low) & (held <= high))
        _, plays, _, seconds, _ = play_deals(play, n, deals, seed, RULES)
        parts.append((low, high, len(deals), plays[seat], seconds))
    total = sum(part[-1] for part in parts)
    return [
        {
            "what": f"  hands of {low} cards" if low == high else f"  hands of {low} cards or more",
            "deals": count,
            "share of deals": count / n,
            "expert plays/s": float(plays / seconds) if seconds else float("nan"),
            "share of CPU": seconds / total,
        }
        for low, high, count, plays, seconds in parts
    ]


def run(workloads=WORKLOADS, seed: int = 1) -> list[dict]:
    """A row per workload (the report's seed): deals and the expert's plays per CPU second on one thread, before
    and now, and whether the choices are the same (:func:`fingerprint`); then the first workload with every hand
    searched to its end, how much longer it takes in this run and whether it chooses as the search before the
    horizon did; then where the first workload's time goes (:func:`by_cards_held`)."""
    fingerprint(["expert", "maxims"], 4)  # compiled and warm
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = [{"what": f"All Fours expert on the report's work, 1 thread, per CPU second; load average {load}"}]
    for label, play, n, seat, before_seconds, before_hash in workloads:
        h, plays, _, seconds = fingerprint(play, n, seed)
        rows.append(
            {
                "what": label,
                "deals": n,
                "deals/s": n / seconds,
                "expert plays/s": float(plays[seat] / seconds),
                "before (recorded): plays/s": float(plays[seat] / before_seconds),
                "x before (recorded)": before_seconds / seconds,
                "same choices": h == before_hash,
            }
        )
    label, play, n, seat, _, _ = workloads[0]
    first_seconds = n / rows[1]["deals/s"]  # its CPU seconds above
    if seat == 0 and play[0] == "expert":  # the horizon's gain, both searches timed in this run
        h, plays, _, end_seconds = fingerprint([TO_THE_END, *play[1:]], n, seed)
        rows.append(
            {
                "what": f"{label}, every hand searched to its end (exact_cards=99; the search before the horizon)",
                "deals": n,
                "deals/s": n / end_seconds,
                "expert plays/s": float(plays[seat] / end_seconds),
                "same choices": h == TO_THE_END_HASH if (n, seed) == (WORKLOADS[0][2], 1) else None,
                "x to the end": end_seconds / first_seconds,
            }
        )
    rows.append({"what": f"{label}: where the time goes, by the cards each player held when the play began"})
    return rows + by_cards_held(play, n, seat, seed)


# The agreement run as a program that runs on issue 36's start and on today's code alike (sims.bench.before): CPU
# seconds of its deals on one thread, after a few that compile and warm.
AGREEMENT_PROGRAM = """
import time
from sims.allfours import simulate_deals
policies = {{"beg": "threshold", "answer": "threshold", "play": ["expert", "maxims"]}}
simulate_deals("two-hand", policies, 20, seed=1, threads=1, agreement=True)
start = time.process_time()
simulate_deals("two-hand", policies, {n}, seed=1, threads=1, agreement=True)
print(time.process_time() - start)
"""


def expert_goal(baseline) -> list[dict]:
    """Issue 36's goal for the expert in the goals table (:mod:`sims.bench.goals` gathers :data:`GOALS`): ten times
    the speed of the search at the issue's start (the choices the same, or, where they changed, as strong:
    docs/performance.md), on the report's agreement run: both codes timed in this run, one thread, CPU seconds
    (:func:`sims.bench.before.same_run`), else against the recorded CPU seconds of the search before.  Beside it
    the expert's plays per CPU second, whether its choices are the search's before, and the same run with every
    hand searched to its end, timed in this run: how much of the speed-up the horizon gives."""
    label, play, n, seat, before_seconds, before_hash = WORKLOADS[0]
    fingerprint(play, 4)  # compiled and warm
    h, plays, _, seconds = fingerprint(play, n)
    end_seconds = fingerprint([TO_THE_END, *play[1:]], n)[3]
    more = {
        "plays/s": float(plays[seat] / seconds),
        "same choices": h == before_hash,
        "x to the end (same run)": end_seconds / seconds,
    }
    timed = same_run(AGREEMENT_PROGRAM.format(n=n), baseline.before)
    if timed is None:
        times, unit = before_seconds / seconds, "x before (recorded)"
    else:
        times, unit = timed[0] / timed[1], f"x {baseline.before} (same run)"
        more["cpu s"], more["cpu s before"] = timed[1], timed[0]
    return [goal_row(baseline, f"All Fours expert, {label}: CPU seconds", times, unit, ">= 10", times >= 10, **more)]


GOALS = [expert_goal]


if __name__ == "__main__":  # pragma: no cover
    from ...bench import format_table

    print(format_table(run()))
