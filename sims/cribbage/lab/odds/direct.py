"""Whole games played on from given board positions: the direct check of the tables, and matches.

Game ``g`` starts from position ``g % len(positions)``: seat 0 deals first on the
position's dealer score, seat 1 has the pone score, and deals alternate with
:func:`sims.cribbage.play.play_deal` until a side reaches the target (the engine's
own counting out, independent of the deal timings the tables are built from).
The kernel is an engine for :class:`sims.core.jobs.Job` (``engine=`` this module,
options ``positions`` = flat (dealer, pone, dealer, pone, ...) and ``points``), so
the core runs it in batches, on threads or Dask, with the same numbers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import types

from ....core.batch import HIST_KEYS, HIST_VALUES, Batch, concat, total_columns
from ....core.driver import chunk_loop
from ....core.errors import E_ITEM
from ....core.jobs import Job
from ....core.kernel import njit
from ....core.kernel_types import F64_1, F64_3, I64_1, I64_2, I64_3, U64_2
from ....stats import mean_se, wilson
from ...engine import PLAYERS, describe_error  # noqa: F401  (this module is an engine: the core asks it for errors)
from ...play import MAX_DEALS, NO_WINNER, POLICY_ERROR, deal_buffers, play_deal, seed_streams
from ...rules import R_DOUBLE_LURCH, R_LURCH, get_rules
from .induction import DEFAULT_POINTS

ENGINE = "sims.cribbage.lab.odds.direct"
OPTIONS = {
    "positions": "flat (dealer, pone, ...) scores games start from",
    "points": "game points of a win, a lurch and a double lurch",
}  # this engine's job options
COMPONENTS = ("dealer wins", "game points", "deals")


@njit(cache=True, inline="always")
def game_value(rules, points, loser_score):
    """A win's worth: ``points[0]``, ``points[1]`` if the loser is lurched, ``points[2]`` if double lurched."""
    if loser_score < rules[R_DOUBLE_LURCH]:
        return points[2]
    if loser_score < rules[R_LURCH]:
        return points[1]
    return points[0]


@njit(inline="always")
def _games_chunk(c, rules, keys, span, positions, points, players, counts, sums, err):
    """The games of chunk ``c`` (``span``: the call's first game, its number of games, the chunk size) between the
    ``players`` (:data:`~sims.cribbage.engine.PLAYERS`) add, per position ``j``: ``counts[c, j]`` games, the first
    dealer's wins, deals; ``sums[c, j]`` his net game points and their squares."""
    policies, params, poff = players
    first_item, n_items, chunk_size = span[0], span[1], span[2]
    n_pos = positions.shape[0]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as in the engine
    work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_streams(keys, c, i, deck_rng, seat_rngs)
        g = start + i
        j = g % n_pos
        scores[:] = 0
        scores[0], scores[1] = positions[j, 0], positions[j, 1]
        dealer, winner, deals = 0, NO_WINNER, 0
        while winner == NO_WINNER and deals < MAX_DEALS:
            winner = play_deal(
                rules_c, dealer, scores, True, deck_rng, seat_rngs, policies, params_c, poff_c, comp, err[c], work
            )
            deals += 1
            dealer = 1 - dealer
        if winner == POLICY_ERROR:
            err[c, E_ITEM] = g
            break
        counts[c, j, 0] += 1
        counts[c, j, 2] += deals
        if winner == NO_WINNER:
            continue
        value = game_value(rules_c, points, scores[1 - winner])
        net = value if winner == 0 else -value
        counts[c, j, 1] += winner == 0
        sums[c, j, 0] += net
        sums[c, j, 1] += net * net


# The parallel kernel over chunks (:func:`sims.core.driver.chunk_loop`).
_games_from = chunk_loop(
    "_games_from",
    _games_chunk,
    types.void(
        I64_1,
        U64_2,
        I64_1,
        I64_2,
        F64_1,
        PLAYERS,
        I64_3,
        F64_3,
        I64_2,
    ),
)


def play_chunks(job, keys, first_item, n_items, err) -> Batch:
    """The core's entry point: games ``first_item ..`` of ``job`` as totals per position."""
    positions = np.asarray(job.option("positions"), dtype=np.int64).reshape(-1, 2)
    points = np.asarray(job.option("points", DEFAULT_POINTS), dtype=np.float64)
    n_chunks, n_pos = keys.shape[0], len(positions)
    counts = np.zeros((n_chunks, n_pos, 3), dtype=np.int64)
    sums = np.zeros((n_chunks, n_pos, 2))
    _games_from(
        job.rules.to_kernel(),
        keys,
        np.array([first_item, n_items, job.chunk_size], dtype=np.int64),
        positions,
        points,
        job.kernel_policies(),
        counts,
        sums,
        err,
    )
    counts, sums = counts.sum(0), sums.sum(0)
    who = [f"{d}-{p}" for d, p in positions]
    # Game points are multiples of 1/1000 of a game point here, so that the totals stay exact integers.
    milli = np.round(sums * np.array([1e3, 1e6])).astype(np.int64)
    totals = concat(
        [
            total_columns("position", who, ["dealer wins"], counts[:, 1], counts[:, 1], counts[:, 0]),
            total_columns("position", who, ["game points (1/1000)"], milli[:, 0], milli[:, 1], counts[:, 0]),
            total_columns("position", who, ["deals"], counts[:, 2], np.zeros(n_pos, dtype=np.int64), counts[:, 0]),
        ]
    )
    return Batch("games", n_items, totals, pd.DataFrame(columns=HIST_KEYS + HIST_VALUES), {})


def check_positions(rules, positions) -> list[tuple[int, int]]:
    """``[(dealer, pone), ...]`` with both scores 0 .. target - 1; else a one-line error."""
    out = []
    for pos in positions:
        try:
            d, p = (int(x) for x in pos)
        except (TypeError, ValueError):
            raise ValueError(f"a position is two scores (dealer, pone), got {pos!r}") from None
        if not (0 <= d < rules.target and 0 <= p < rules.target):
            raise ValueError(f"scores must be 0..{rules.target - 1} for a game to {rules.target}, got {d}-{p}")
        out.append((d, p))
    if not out:
        raise ValueError("give at least one position")
    return out


def games_job(rules, policies, positions, n_games: int, seed: int, points=DEFAULT_POINTS) -> Job:
    """The core job: ``n_games`` games from each position (seat 0 the position's dealer)."""
    rules = get_rules(rules)
    if rules.players != 2 or rules.partners:
        raise ValueError(f"games from a position are two-handed; {rules.name} has {rules.players} players")
    positions = check_positions(rules, positions)
    flat = tuple(x for pos in positions for x in pos)
    return Job.make(
        "cribbage",
        "games",
        rules,
        policies,
        n_games * len(positions),
        seed,
        engine=ENGINE,
        positions=flat,
        points=tuple(float(x) for x in points),
    )


def games_from(
    rules,
    policies,
    positions,
    n_games: int = 10_000,
    seed: int = 0,
    points=DEFAULT_POINTS,
    threads: int | None = None,
    progress: bool = False,
    workers: int | None = None,
    client=None,
) -> pd.DataFrame:
    """Play ``n_games`` whole games from each ``(dealer, pone)`` position, seat 0 dealing first.

    One row per position: ``dealer, pone, games, win`` (seat 0's rate) with its 95% Wilson interval
    ``win_lo, win_hi``, ``game_points`` (his net expected game points) with ``game_points_se``, and
    ``deals`` per game.
    """
    from ....core.runner import play

    job = games_job(rules, policies, positions, n_games, seed, points)
    batch, _ = play(job, threads=threads, workers=workers, client=client, progress=progress)
    return results_frame(job, batch)


def results_frame(job: Job, batch) -> pd.DataFrame:
    t = batch.totals
    rows = []
    flat = job.option("positions")
    for d, p in zip(flat[::2], flat[1::2]):
        sel = t[t["who"] == f"{d}-{p}"].set_index("component")
        n = int(sel.loc["dealer wins", "n"])
        rate, lo, hi = wilson(int(sel.loc["dealer wins", "sum"]), n)
        gp, gp_se = mean_se(
            sel.loc["game points (1/1000)", "sum"] / 1e3, sel.loc["game points (1/1000)", "sumsq"] / 1e6, n
        )
        rows.append(
            {
                "dealer": d,
                "pone": p,
                "games": n,
                "win": rate,
                "win_lo": lo,
                "win_hi": hi,
                "game_points": float(gp),
                "game_points_se": float(gp_se),
                "deals": sel.loc["deals", "sum"] / n,
            }
        )
    frame = pd.DataFrame(rows)
    frame.attrs["provenance"] = job.describe()
    return frame
