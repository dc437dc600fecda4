"""The table of the position-aware players' self-play, and the iteration table -> players -> table.

The position-aware players (:mod:`sims.cribbage.policies.position`) play a deal
for the game when it starts within ``zone`` points of the target, and exactly as
their baseline (expected_net + defensive, or expected_peg + distilled) otherwise.  Their table is therefore the baseline's
recursion (:mod:`.induction`, from deal timings) everywhere, except that at each
position of the zone ``per_position`` deals are dealt and played twice from the
same streams: by the baseline (read at the position from its timings) and by
the position-aware players from the position's scores with the engine's own
counting out; the recursion adds their mean difference.  The continuation of
every deal uses the new table, so what the players gain near home is carried
back to every position.

:func:`iterate_position` starts from the baseline's table, makes the players
with it, builds their table, makes the players with that, and so on until the
largest change in the zone is below ``tol`` (as the crib tables were iterated,
:mod:`sims.cribbage.lab.crib_self_play`).  Every round deals the same cards, so a
round in which the players play as in the last one reproduces its table.  The
players keep the deal model of the baseline (its pegging, hands and cribs).

A run for six-card-61 (zone 40: 3,280 positions; 400 deals at each, 1,000,000
baseline deals, seed 0) reached the fixed point in three rounds: the largest
change in the zone 4.80, 0.52, 0.22 percentage points (mean 0.26, 0.02, 0.003).
The change is between rounds on the same cards, so it can fall below the
sampling noise of the table itself, which it did not: the standard error in the
zone is 0.26 points on average (median 0.12) and 2.6 at most, and getting every
position below 0.5 would take some 25 times the deals.  The fixed point differs
from the shipped baseline table by 0.27 points on average and 4.8 at most (dealer
51, pone 54: 14.3% against 19.0%), beyond 1.96 standard errors at a fifth of the
zone's positions, and not at all before the first deal (53.97% against 53.96%).
For six-card to 121 only a smaller run was made (zone 40: 8,080 positions; 100
deals at each): 9.75, 1.24, 0.41 points (mean 0.18, 0.02, 0.00), standard error
up to 4.7; 0.18 points from the shipped table on average, 9.4 at most (110-109:
53.9% against 63.3%, standard error 3.0), 55.94% against 55.90% before the first
deal.  Neither fixed point replaces the baseline's tables that the players are
built from (expected_net + defensive).  The players on ``distilled`` pegging
(``position_distilled``) ship their own table for each preset
(``sims odds --players position_distilled``): iterated twice from the
expected_peg + distilled table, zone 40, 100 deals a position, seed 0; the
largest change 10.0 then 1.8 points (six-card-61; five-card 12.5, 1.5; six-card
10.6, 1.4), 95% half-widths in the zone of 0.57 points at the median and 10.7 at
most (five-card 0.26, 10.9; six-card 0.001, 10.7), 53.98% [53.83, 54.13] before
the first deal against the baseline's 54.31% (six-card 56.05% against 56.06%).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import types

from ....core import store as st
from ....core.chunks import numba_threads
from ....core.driver import chunk_loop
from ....core.errors import E_ITEM, new_err, raise_policy_error
from ....core.jobs import Job, check_count
from ....core.kernel import njit
from ....core.kernel_types import I64_1, I64_2, I64_4, U64_2
from ....core.rng import chunk_keys
from ....core.runner import play
from ...engine import PLAYERS, describe_error
from ...odds.layout import EV_ROWS, MAX_EVENTS, POINTS, ROLE
from ...odds.table import OddsTable
from ...play import A_N_PLAYED, NO_WINNER, POLICY_ERROR, deal_buffers, play_deal, seed_streams
from ...rules import R_TARGET, get_rules
from .build import DEFAULT_DEALS, DEFAULT_GROUPS, check_points, counts_of, model_of, table_from_batch, timing_job
from .induction import DEALER_WINS, DEFAULT_POINTS, GOES_ON, PONE_WINS, jackknife
from .timings import deal_events

DEFAULT_PER_POSITION = 400


@njit(cache=True)
def read_deal(ev, n_events, dealer, pone, target, out):
    """The outcome (:mod:`.induction`) of a deal with events ``ev[:, :n_events]`` from (dealer, pone)."""
    have = np.zeros(2, dtype=np.int64)
    start = (dealer, pone)
    for e in range(n_events):
        r = ev[ROLE, e]
        have[r] += ev[POINTS, e]
        if start[r] + have[r] >= target:
            out[0], out[1], out[2] = (DEALER_WINS if r == 0 else PONE_WINS), start[1 - r] + have[1 - r], 0
            return
    out[0], out[1], out[2] = GOES_ON, have[0], have[1]


@njit(inline="always")
def _zone_chunk(j, rules, keys, positions, first, m, baseline, players, out, err):
    """Position ``j`` (dealer, pone), deal ``first + i`` for ``i < m`` (seat 0 deals, streams of item
    ``first + i`` of chunk ``j``): ``out[j, i, 0]`` the outcome of the ``baseline``'s deal read at the position,
    ``out[j, i, 1]`` of the same cards played from the position by the ``players`` (both
    :data:`~sims.cribbage.engine.PLAYERS`)."""
    base_policies, base_params, base_poff = baseline
    policies, params, poff = players
    target = rules[R_TARGET]
    rules_c, base_params_c, base_poff_c = rules.copy(), base_params.copy(), base_poff.copy()
    params_c, poff_c = params.copy(), poff.copy()
    work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
    ev = np.zeros((EV_ROWS, MAX_EVENTS), dtype=np.int64)
    d, p = positions[j, 0], positions[j, 1]
    for i in range(m):
        seed_streams(keys, j, first + i, deck_rng, seat_rngs)
        scores[:] = 0
        comp[:, :] = 0
        if (
            play_deal(
                rules_c,
                0,
                scores,
                False,
                deck_rng,
                seat_rngs,
                base_policies,
                base_params_c,
                base_poff_c,
                comp,
                err[j],
                work,
            )
            == POLICY_ERROR
        ):
            err[j, E_ITEM] = first + i
            break
        n = deal_events(rules_c, comp, work[6], work[8][A_N_PLAYED], work[2], ev)
        read_deal(ev, n, d, p, target, out[j, i, 0])
        seed_streams(keys, j, first + i, deck_rng, seat_rngs)
        scores[0], scores[1] = d, p
        comp[:, :] = 0
        winner = play_deal(
            rules_c, 0, scores, True, deck_rng, seat_rngs, policies, params_c, poff_c, comp, err[j], work
        )
        if winner == POLICY_ERROR:
            err[j, E_ITEM] = first + i
            break
        o = out[j, i, 1]
        if winner == NO_WINNER:
            o[0], o[1], o[2] = GOES_ON, scores[0] - d, scores[1] - p
        else:
            o[0], o[1], o[2] = (DEALER_WINS if winner == 0 else PONE_WINS), scores[1 - winner], 0


# The parallel kernel over the zone's positions, one chunk of keys each (:func:`sims.core.driver.chunk_loop`).
_zone_deals = chunk_loop(
    "_zone_deals",
    _zone_chunk,
    types.void(
        I64_1,
        U64_2,
        I64_2,
        types.int64,
        types.int64,
        PLAYERS,
        PLAYERS,
        I64_4,
        I64_2,
    ),
)


def zone_of(rules, zone: int) -> np.ndarray:
    """``[target, target]``: the index of each position whose deal starts within ``zone`` of the target, else -1."""
    t = rules.target
    d, p = np.meshgrid(np.arange(t), np.arange(t), indexing="ij")
    inside = np.maximum(d, p) >= t - zone
    index = np.full((t, t), -1, dtype=np.int64)
    index[inside] = np.arange(inside.sum())
    return index


class ZoneDeals:
    """The zone's deals (:func:`zone_of`) of the position-aware ``players``, ``per_position`` at each position,
    played when asked for: ``deals(js, first, stop)`` is ``samples[k, i, (baseline, players), (kind, x, y)]``
    for the positions ``js[k]`` and the deals ``first + i < stop`` (the same deals however they are asked for;
    :func:`sims.cribbage.lab.odds.induction.zoned` asks a diagonal of the board at a time)."""

    def __init__(self, rules, players: dict, zone: int, per_position: int, seed: int, threads=None):
        from ...policies.position import baseline_policies

        self.rules = get_rules(rules)
        self.per_position, self.threads = per_position, threads
        index = zone_of(self.rules, zone)
        self.positions = np.ascontiguousarray(np.argwhere(index >= 0), dtype=np.int64)  # index order (row-major)
        self.base = Job.make("cribbage", "deals", self.rules, baseline_policies(players, self.rules), 1, seed)
        self.job = Job.make("cribbage", "deals", self.rules, players, 1, seed)
        self.base_policies, self.policies = self.base.kernel_policies(), self.job.kernel_policies()
        self.kernel_rules = self.rules.to_kernel()
        self.keys = chunk_keys(seed, 0, len(self.positions), self.job.game.n_streams)

    def __call__(self, js, first: int, stop: int) -> np.ndarray:
        js = np.asarray(js, dtype=np.int64)
        out = np.zeros((len(js), stop - first, 2, 3), dtype=np.int64)
        err = new_err(len(js))
        with numba_threads(self.threads):
            _zone_deals(
                self.kernel_rules,
                np.ascontiguousarray(self.keys[js]),
                np.ascontiguousarray(self.positions[js]),
                first,
                stop - first,
                self.base_policies,
                self.policies,
                out,
                err,
            )
        raise_policy_error(self.job, err, describe_error)
        return out


def zone_deals(rules, players: dict, zone: int, per_position: int, seed: int, threads=None) -> np.ndarray:
    """``samples[j, i, (baseline, players), (kind, x, y)]`` for all the zone's positions (:func:`zone_of`)."""
    deals = ZoneDeals(rules, players, zone, per_position, seed, threads)
    return deals(np.arange(len(deals.positions)), 0, per_position)


def _zone_size(players: dict, rules) -> int:
    """The zone the players' parameter vector gives for ``rules``."""
    from ...policies.position import X_ZONE, section

    zone = int(section(np.asarray(players["peg"].params, dtype=np.float64), rules.to_kernel())[X_ZONE])
    if zone < 0:
        raise ValueError(f"the position-aware players have no table for {rules.name!r}")
    return zone


def position_table(
    rules="six-card-61",
    players=None,
    n_deals: int = DEFAULT_DEALS,
    per_position: int = DEFAULT_PER_POSITION,
    seed: int = 0,
    groups: int = DEFAULT_GROUPS,
    points=DEFAULT_POINTS,
    threads: int | None = None,
    progress: bool = False,
    baseline=None,
) -> OddsTable:
    """The table of the position-aware ``players`` (``{"discard": Policy, "peg": Policy}`` from
    :func:`sims.cribbage.policies.position.position_policies`; default: with the shipped tables) in
    self-play: the baseline's deal timings from ``n_deals`` deals, and ``per_position`` deals at each
    position of the players' zone (module docstring).  ``baseline``: the timing Batch of an earlier call
    with the same rules, deals, seed and groups (the iteration reuses it)."""
    from ...policies.position import baseline_policies, position_policies

    rules = get_rules(rules)
    points = check_points(points)
    per_position = check_count(per_position, "per_position")
    players = players or position_policies()
    zone = _zone_size(players, rules)
    job = timing_job(rules, baseline_policies(players, rules), n_deals, seed, groups)
    batch = baseline if baseline is not None else play(job, threads=threads, progress=progress)[0]
    counts, deals = counts_of(batch, groups, rules.target)
    samples = ZoneDeals(rules, players, zone, per_position, seed, threads)
    index = zone_of(rules, zone)
    win, win_se, gp, gp_se = jackknife(
        rules.target, counts, deals, rules.lurch, rules.double_lurch, points, index, samples
    )
    provenance = {
        **job.describe(),
        "n": int(batch.n),
        "groups": int(groups),
        "zone": zone,
        "per_position": per_position,
        "zone_positions": int((index >= 0).sum()),
        "players": {d: p.describe()["name"] for d, p in players.items()},
        "method": "backward induction over the baseline's deal timings, with the position-aware players' "
        "deals at every position of the zone (paired differences); delete-a-group jackknife",
        "game_points": {"win": points[0], "lurch": points[1], "double_lurch": points[2]},
        "git_commit": st.git_commit(),
    }
    return OddsTable(rules, win, win_se, gp, gp_se, provenance, model_of(batch, rules.kept, counts))


def iterate_position(
    rules="six-card-61",
    zone: int | None = None,
    iterations: int = 4,
    tol: float = 0.005,
    n_deals: int = DEFAULT_DEALS,
    per_position: int = DEFAULT_PER_POSITION,
    seed: int = 0,
    groups: int = DEFAULT_GROUPS,
    base: str = "defensive",
    threads: int | None = None,
    progress: bool = False,
) -> tuple[OddsTable, pd.DataFrame]:
    """Table -> position-aware players -> their table -> ... from the baseline's table (module docstring).

    Returns the last table and the history: per round the largest and the mean absolute change of the
    dealer's chance in the zone, and the largest standard error there.
    """
    from ...policies.position import DEFAULT_ZONE, baseline_policies, position_policies

    rules = get_rules(rules)
    zone = DEFAULT_ZONE if zone is None else zone
    iterations = check_count(iterations, "iterations")
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a non-negative number, got {tol!r}")
    job = timing_job(rules, baseline_policies(position_policies(zone=zone, base=base), rules), n_deals, seed, groups)
    batch = play(job, threads=threads, progress=progress)[0]
    table = table_from_batch(job, batch)
    inside = zone_of(rules, zone) >= 0
    history = []
    for round_ in range(1, iterations + 1):
        players = position_policies([table], zone, base)
        new = position_table(rules, players, n_deals, per_position, seed, groups, threads=threads, baseline=batch)
        change = np.abs(new.win - table.win)[inside]
        history.append(
            {
                "iteration": round_,
                "max_abs_change": float(change.max()),
                "mean_abs_change": float(change.mean()),
                "max_se": float(new.win_se[inside].max()),
            }
        )
        table = OddsTable(
            new.rules,
            new.win,
            new.win_se,
            new.game_points,
            new.game_points_se,
            {**new.provenance, "iteration": round_, "history": list(history)},
            new.model,
        )
        if change.max() < tol:
            break
    return table, pd.DataFrame(history)
