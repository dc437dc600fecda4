"""Building a win-probability table (:class:`sims.cribbage.odds.table.OddsTable`): :func:`win_table` plays
deals with the timing engine (:mod:`.timings`) through the core's runner (batches, an optional run directory
with resume, Dask workers; the same numbers for the same seed wherever they run), then fills every board
position by backward induction (:mod:`.induction`) with jackknife intervals.
"""

from __future__ import annotations

import numpy as np

from ....core import store as st
from ....core.jobs import Job, check_count
from ...odds.layout import BASE_PLAYERS, N_RANKS, PEG_BINS, PLAYERS, SHOW_BINS, TABLE_NAMES, TOTALS
from ...odds.table import DealModel, OddsTable
from ...rules import get_rules
from .induction import DEFAULT_POINTS, jackknife

ENGINE = "sims.cribbage.lab.odds.timings"
DEFAULT_POLICIES = PLAYERS[BASE_PLAYERS]
DEFAULT_DEALS = 1_000_000
DEFAULT_GROUPS = 20
CHUNK_DEALS = 1024  # small chunks: the jackknife groups are whole chunks, so they come out nearly equal


def _same_both_seats(job: Job) -> None:
    for decision, seats in job.policies.items():
        if len({(p.name, p.params) for p in seats}) != 1:
            raise ValueError(
                f"a board-position table is for one {decision} policy at both seats, got "
                f"{', '.join(p.name for p in seats)}"
            )


def timing_job(
    rules,
    policies=None,
    n_deals: int = DEFAULT_DEALS,
    seed: int = 0,
    groups: int = DEFAULT_GROUPS,
    chunk_size: int = CHUNK_DEALS,
) -> Job:
    """The core job that plays the deals of a table (its engine is :mod:`.timings`)."""
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 2:
        raise ValueError(f"groups must be an integer of at least 2 (the jackknife needs them), got {groups!r}")
    rules = get_rules(rules)
    if rules.players != 2 or rules.partners:
        raise ValueError(f"board-position tables are for two players; {rules.name} has {rules.players}")
    n_deals = check_count(n_deals, "the number of deals")
    if n_deals < groups:
        raise ValueError(f"a table needs at least as many deals as jackknife groups ({groups}), got {n_deals}")
    chunk_size = min(chunk_size, n_deals // groups)  # each group gets deals, even in a small table
    job = Job.make(
        "cribbage",
        "deals",
        rules,
        policies or DEFAULT_POLICIES,
        n_deals,
        seed,
        chunk_size=chunk_size,
        engine=ENGINE,
        groups=int(groups),
    )
    _same_both_seats(job)
    return job


def counts_of(batch, groups: int, target: int):
    """``(counts[groups, 3, target + 1, target + 1], deals[groups])`` from a merged timing Batch."""
    counts = np.zeros((groups, 3, target + 1, target + 1), dtype=np.int64)
    h = batch.histograms
    for k, name in enumerate(TABLE_NAMES):
        sel = h[h["scope"] == name]
        np.add.at(
            counts,
            (sel["who"].astype(int).to_numpy(), k, sel["component"].astype(int).to_numpy(), sel["value"].to_numpy()),
            sel["count"].to_numpy(),
        )
    t = batch.totals
    sel = t[t["scope"] == "group"]
    deals = np.zeros(groups, dtype=np.int64)
    deals[sel["who"].astype(int).to_numpy()] = sel["sum"].to_numpy()
    return counts, deals


def model_of(batch, kept: int, counts: np.ndarray) -> DealModel:
    """The deal model (:class:`DealModel`) from a merged timing Batch and its count tables by group."""
    h = batch.histograms
    h = h[h["scope"] == "model"]
    parts = {}
    for name, who in (("rest", [f"rest {k}" for k in range(2 * kept + 1)]), ("hands", ["hand"]), ("cribs", ["crib"])):
        sel = h[h["who"].isin(who)]
        parts[name] = sel.assign(row=sel["who"].map({w: i for i, w in enumerate(who)}))
    rest = np.zeros((2 * kept + 1, PEG_BINS, PEG_BINS), dtype=np.int64)
    sel = parts["rest"]
    np.add.at(
        rest,
        (sel["row"].to_numpy(), sel["component"].astype(int).to_numpy(), sel["value"].to_numpy()),
        sel["count"].to_numpy(),
    )
    hands = np.zeros((2, SHOW_BINS), dtype=np.int64)
    sel = parts["hands"]
    np.add.at(
        hands,
        (sel["component"].map({"dealer": 0, "pone": 1}).to_numpy(), sel["value"].to_numpy()),
        sel["count"].to_numpy(),
    )
    cribs = np.zeros((2, N_RANKS, N_RANKS, SHOW_BINS), dtype=np.int64)
    sel = parts["cribs"]
    split = sel["component"].str.split(" ", expand=True)
    np.add.at(
        cribs,
        (
            split[0].map({"dealer": 0, "pone": 1}).to_numpy(),
            split[1].astype(int).to_numpy(),
            split[2].astype(int).to_numpy(),
            sel["value"].to_numpy(),
        ),
        sel["count"].to_numpy(),
    )
    return DealModel(rest, hands, cribs, counts[:, TOTALS].sum(0))


def table_from_batch(job: Job, batch, points=DEFAULT_POINTS) -> OddsTable:
    """Backward induction with jackknife intervals over a merged timing Batch of ``job``."""
    rules = job.rules
    groups = job.option("groups")
    counts, deals = counts_of(batch, groups, rules.target)
    win, win_se, gp, gp_se = jackknife(rules.target, counts, deals, rules.lurch, rules.double_lurch, points)
    provenance = {
        **job.describe(),
        "n": int(batch.n),
        "groups": int(groups),
        "method": "backward induction over deal timings; delete-a-group jackknife",
        "game_points": {"win": points[0], "lurch": points[1], "double_lurch": points[2]},
        "git_commit": st.git_commit(),
    }
    return OddsTable(rules, win, win_se, gp, gp_se, provenance, model_of(batch, rules.kept, counts))


def check_points(points) -> tuple[float, float, float]:
    try:
        values = tuple(float(x) for x in points)
    except (TypeError, ValueError):
        values = ()
    if len(values) != 3 or not all(np.isfinite(values)):
        raise ValueError(f"game points are three numbers (a win, a lurch, a double lurch), got {points!r}")
    return values


def win_table(
    rules="six-card",
    policies=None,
    n_deals: int = DEFAULT_DEALS,
    seed: int = 0,
    groups: int = DEFAULT_GROUPS,
    points=DEFAULT_POINTS,
    threads: int | None = None,
    progress: bool = False,
    out=None,
    workers: int | None = None,
    scheduler: str | None = None,
    client=None,
) -> OddsTable:
    """The dealer's chance of winning and expected game points from every position, under ``policies``
    (one discard and one pegging policy for both players, which must not look at the score; default
    expected_net + defensive), from ``n_deals`` deals in ``groups`` jackknife groups.

    ``out``: a run directory (resumed if it holds this job); ``workers`` / ``scheduler`` / ``client``:
    play the deals on Dask (:func:`sims.core.runner.run`); the numbers are the same either way.
    """
    from ....core.runner import play

    points = check_points(points)
    job = timing_job(rules, policies, n_deals, seed, groups)
    batch, _ = play(job, out, threads=threads, workers=workers, scheduler=scheduler, client=client, progress=progress)
    return table_from_batch(job, batch, points)
