"""How the distilled pegging tables (:mod:`sims.cribbage.policies.distilled`) are learned: least-squares fits
to play-outs (:mod:`sims.cribbage.lab.distilled_play_outs`) and policy iteration.

:func:`distill`: a least-squares fit of each exploring play-out's advantage (the return of the card laid
at random less the mean over the legal cards) to the centred features, with a little ridge, gives the
tables; playing by the fitted tables and fitting again is policy iteration.

:func:`distill_cards`, a second fit with less noise: every legal card's return, at every decision that is a
choice, less the mean over the legal cards, fitted on the centred features.  Play-outs among the tables
alone teach them to exploit their own play (the next round beats the one before and loses to others), so
half the deals are played against ``defensive``, and a round is judged by a panel of fixed players
(``defensive`` and the tables it started from).  The tables that ship are one such round from the tables of
the exploring fit (their provenance, in ``sims/cribbage/data/odds/distilled-peg.json``, names the calls).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np

from ..policies.distilled import (
    DATA,
    GO,
    N_COUNTS,
    N_PARAMS,
    N_TABLES,
    NR,
    P_POINTS,
    P_REPLY,
    RANK_COUNT,
    SETUP,
    distilled_policy,
)
from ..policies.pegging import DEFAULT_PARAMS as DEFENSIVE_PARAMS
from .distilled_play_outs import card_play_outs, merge, play_outs


def initial_params() -> np.ndarray:
    """Tables that play about as ``defensive`` does: points now less the expected best reply, half a point
    off a count of 5 or 21, half a point for leading from a pair, and the last player keeping close."""
    p = np.zeros(N_PARAMS)
    p[P_POINTS], p[P_REPLY] = 1.0, -DEFENSIVE_PARAMS[0]
    for rank in range(NR):
        for after in (5, 21):
            p[RANK_COUNT + rank * N_COUNTS + after] -= DEFENSIVE_PARAMS[1]
        for near in range(2):
            p[SETUP + rank * 8 + 4 + near * 2 + 1] += DEFENSIVE_PARAMS[2]
    p[GO + N_COUNTS : GO + 2 * N_COUNTS] = 0.01 * np.arange(N_COUNTS)
    return p


def fit(samples: dict, ridge: float = 1.0) -> np.ndarray:
    """The parameters that fit the advantage of the card laid (its return less the mean over the legal
    cards) by least squares on the centred features, with ``ridge`` on every parameter."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.linalg import lsqr

    x, cells, legal, y = samples["x"], samples["cells"], samples["legal"], samples["y"]
    n, width = len(y), x.shape[1]
    n_legal, chosen = legal[:, 0], legal[:, 1]
    weight = np.where(np.arange(width)[None, :] < n_legal[:, None], -1.0 / n_legal[:, None], 0.0)
    weight[np.arange(n), chosen] += 1.0  # the card laid, less the mean of the legal cards
    continuous = (weight[:, :, None] * x).sum(1)
    rows = np.concatenate([np.repeat(np.arange(n), width * N_TABLES), np.arange(n), np.arange(n)])
    cols = np.concatenate([cells.reshape(-1), np.full(n, P_POINTS), np.full(n, P_REPLY)])
    data = np.concatenate([np.repeat(weight.reshape(-1), N_TABLES), continuous[:, 0], continuous[:, 1]])
    design = coo_matrix((data, (rows, cols)), shape=(n, N_PARAMS)).tocsr()
    return lsqr(design, y - y.mean(), damp=np.sqrt(ridge), atol=1e-10, btol=1e-10, iter_lim=20_000)[0]


def head_to_head(
    challenger, holder, rules="six-card", n_deals: int = 100_000, seed: int = 0, discard="expected_net", threads=None
) -> tuple[float, float]:
    """The challenger's pegging less the holder's, per deal, with its standard error: the same deals twice,
    the seats exchanged (each deals half of them), so that the luck of the cards cancels."""
    from ..simulate import simulate_deals

    sides = []
    for pegs in ([challenger, holder], [holder, challenger]):
        rec = simulate_deals(
            rules, {"discard": discard, "peg": pegs}, n_deals, seed, records=True, threads=threads
        ).records
        seat0 = np.where(rec["dealer"] == 0, 1, -1) * (rec["dealer_pegging"] - rec["pone_pegging"]).to_numpy()
        sides.append(seat0)
    diff = (sides[0] - sides[1]) / 2
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff)))


def distill(
    rules="six-card",
    rounds: int = 3,
    n_deals: int = 2_000_000,
    seed: int = 0,
    ridge: float = 1.0,
    check_deals: int = 200_000,
    threads=None,
) -> tuple[np.ndarray, list]:
    """Policy iteration (module docstring) from :func:`initial_params`: each round fits new tables to
    play-outs of the current ones and keeps them if they beat ``defensive`` head to head, over
    ``check_deals`` paired deals, by more than the current tables do; stops at the first round that does
    not.  (Each round's tables also beat the round before, but the rounds are not transitive: later ones,
    fitted to play-outs among themselves, lose some of what the first gains against other players, so the
    yardstick is a fixed player.)  Returns the tables kept and the history (per round: samples, the
    head-to-head against the tables before and against defensive)."""
    params = initial_params()
    current = distilled_policy(params)
    best = head_to_head(current, "defensive", rules, check_deals, seed, threads=threads)[0]
    history = []
    for round_ in range(1, rounds + 1):
        samples = play_outs(rules, params, n_deals, seed + round_, threads=threads)
        new = fit(samples, ridge)
        challenger = distilled_policy(new)
        gain, gain_se = head_to_head(challenger, current, rules, check_deals, seed, threads=threads)
        vs_defensive, vs_defensive_se = head_to_head(challenger, "defensive", rules, check_deals, seed, threads=threads)
        kept = vs_defensive > best
        history.append(
            {
                "round": round_,
                "samples": len(samples["y"]),
                "gain": gain,
                "gain_se": gain_se,
                "vs_defensive": vs_defensive,
                "vs_defensive_se": vs_defensive_se,
                "kept": kept,
            }
        )
        if not kept:
            break
        params, current, best = new, challenger, vs_defensive
    return params, history


def write_tables(params, provenance: dict, path=None) -> Path:
    """Write the tables and how they were made (JSON); by default over the tables that ship."""
    from ...core.store import write_json

    path = Path(path) if path is not None else Path(str(resources.files(DATA[0]).joinpath(DATA[1])))
    write_json(path, {"format": "sims-distilled-peg/1", "provenance": provenance, "params": [float(v) for v in params]})
    return path


def fit_cards(samples: dict, ridge: float = 1.0, chunk: int = 500_000) -> np.ndarray:
    """The parameters that fit every legal card's return less the mean over the legal cards (its advantage)
    by least squares on the centred features, with ``ridge`` on every parameter: the normal equations,
    summed over ``chunk`` decisions at a time (memory stays near a gigabyte; 3.3 million decisions in one
    piece took over 15 GB)."""
    x, cells, legal, q = samples["x"], samples["cells"], samples["legal"], samples["q"]
    gram = ridge * np.eye(N_PARAMS)
    rhs = np.zeros(N_PARAMS)
    for lo in range(0, len(q), chunk):
        part = slice(lo, lo + chunk)
        design, target = _card_design(x[part], cells[part], legal[part], q[part])
        gram += (design.T @ design).toarray()
        rhs += design.T @ target
    return np.linalg.solve(gram, rhs)


def _card_design(x, cells, legal, q):
    """The rows of :func:`fit_cards` for some decisions: one per legal card, as a sparse matrix, and the
    card's advantage."""
    from scipy.sparse import coo_matrix

    width = x.shape[1]
    n_legal = legal[:, 0]
    live = np.arange(width)[None, :] < n_legal[:, None]  # [n, width]
    mean_x = (x * live[:, :, None]).sum(1) / n_legal[:, None]
    mean_q = (q * live).sum(1) / n_legal
    r_dec, r_card = np.nonzero(live)  # one row per legal card
    m = len(r_dec)
    row = np.arange(m)
    # Cells: the card's own cells +1, every legal card's cells -1/n_legal.
    own_rows = np.repeat(row, N_TABLES)
    own_cols = cells[r_dec, r_card].reshape(-1)
    own_data = np.ones(m * N_TABLES)
    all_rows = np.repeat(row, width * N_TABLES)
    all_cols = cells[r_dec].reshape(-1)
    all_data = np.repeat(np.where(live[r_dec], -1.0 / n_legal[r_dec, None], 0.0).reshape(-1), N_TABLES)
    cont = x[r_dec, r_card] - mean_x[r_dec]
    rows = np.concatenate([own_rows, all_rows, row, row])
    cols = np.concatenate([own_cols, all_cols, np.full(m, P_POINTS), np.full(m, P_REPLY)])
    data = np.concatenate([own_data, all_data, cont[:, 0], cont[:, 1]])
    design = coo_matrix((data, (rows, cols)), shape=(m, N_PARAMS)).tocsr()
    return design, q[r_dec, r_card] - mean_q[r_dec]


def distill_cards(
    rules="six-card",
    start=None,
    rounds: int = 1,
    n_deals: int = 400_000,
    seed: int = 2000,
    opponents=("self", "defensive"),
    ridge: float = 1.0,
    check_deals: int = 200_000,
    threads=None,
) -> tuple[np.ndarray, list]:
    """Policy iteration on every card's play-out (:func:`card_play_outs`, :func:`fit_cards`) from the tables
    ``start`` (default: the shipped ones).  Round ``r`` plays ``n_deals`` deals against each of
    ``opponents`` (``"self"``: the current tables in both seats; else a pegging policy in the other seat,
    seed ``seed + 10 r + j`` for the ``j``-th), fits new tables to them, and scores them by a panel of fixed
    players: the mean of their pegging less ``defensive``'s and less the starting tables', head to head over
    ``check_deals`` paired deals (seed 4).  Returns the tables of the best score (the start's own score is
    half its margin over defensive) and the history.  (Tables fitted to play-outs among themselves learn to
    exploit their own play, so later rounds gain against the round before and lose against others: the
    panel of fixed players is the yardstick.)"""
    start = np.asarray(distilled_policy().params if start is None else start, dtype=np.float64)
    first = distilled_policy(start)
    vs_def = head_to_head(first, "defensive", rules, check_deals, 4, threads=threads)
    best, best_score = start, vs_def[0] / 2
    history = [
        {
            "round": 0,
            "vs_defensive": vs_def[0],
            "vs_defensive_se": vs_def[1],
            "vs_start": 0.0,
            "vs_start_se": 0.0,
            "score": best_score,
            "kept": True,
        }
    ]
    params = start
    for round_ in range(1, rounds + 1):
        parts = [
            card_play_outs(
                rules, params, n_deals, seed + 10 * round_ + j, opponent=None if o == "self" else o, threads=threads
            )
            for j, o in enumerate(opponents)
        ]
        samples = merge(*parts)
        new = fit_cards(samples, ridge)
        challenger = distilled_policy(new)
        vs_start = head_to_head(challenger, first, rules, check_deals, 4, threads=threads)
        vs_def = head_to_head(challenger, "defensive", rules, check_deals, 4, threads=threads)
        score = (vs_start[0] + vs_def[0]) / 2
        kept = score > best_score
        history.append(
            {
                "round": round_,
                "decisions": int(len(samples["q"])),
                "vs_defensive": vs_def[0],
                "vs_defensive_se": vs_def[1],
                "vs_start": vs_start[0],
                "vs_start_se": vs_start[1],
                "score": score,
                "kept": kept,
            }
        )
        if kept:
            best, best_score = new, score
        params = new
    return best, history
