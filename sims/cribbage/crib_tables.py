"""Crib discard tables: expected crib points by the ranks of the two cards thrown.

A table is a tidy DataFrame with the columns of ``data/reference/crib_discard_tables.csv``
(``card1_rank, card2_rank, to_whom, expected_crib_points``; ranks written ``A 2 ... 10 J Q K``,
``to_whom`` = ``dealer`` for a throw into your own crib, ``pone`` into the opponent's).
The published Schell and Hessel tables ship in that file with their sources;
:func:`table_params` turns any table into the parameter vector of the
``expected_net`` discard policy, so tables estimated by self-play
(:mod:`sims.cribbage.crib_self_play`) can be swapped in without recompiling;
:func:`compare_tables` sets one table against another.

This module imports nothing from the policies or the engine at import time:
the discard policies read their default table from here.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

REFERENCE_CSV = Path(__file__).resolve().parents[2] / "data" / "reference" / "crib_discard_tables.csv"
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TO_WHOM = ("dealer", "pone")
N_RANKS = 13
PARAMS_SIZE = 2 * N_RANKS * N_RANKS  # dealer table then pone table, row-major by rank


def reference_table(source: str = "schell") -> pd.DataFrame:
    """A published table from ``data/reference`` (``schell`` or ``hessel``)."""
    table = pd.read_csv(REFERENCE_CSV, comment="#", dtype={"card1_rank": str, "card2_rank": str})
    sources = sorted(table["source"].unique())
    if source not in sources:
        raise ValueError(f"unknown crib table source {source!r}; choose from {', '.join(sources)}")
    return table[table["source"] == source].reset_index(drop=True)


def table_matrices(table: pd.DataFrame, column: str = "expected_crib_points",
                   complete: bool = True) -> dict[str, np.ndarray]:
    """``{"dealer": 13x13, "pone": 13x13}`` symmetric matrices of ``column`` indexed by rank (ace 0 ...
    king 12); ``complete`` demands a value for every pair, else a missing one is NaN."""
    missing = {"card1_rank", "card2_rank", "to_whom", column} - set(table.columns)
    if missing:
        raise ValueError(f"crib table lacks column {sorted(missing)[0]!r}")
    index = {label: r for r, label in enumerate(RANK_LABELS)}
    out = {who: np.full((N_RANKS, N_RANKS), np.nan) for who in TO_WHOM}
    for a, b, who, value in table[["card1_rank", "card2_rank", "to_whom", column]].itertuples(index=False):
        a, b = str(a).upper(), str(b).upper()
        if a not in index or b not in index:
            raise ValueError(f"crib table has an unknown rank in ({a}, {b}); ranks are {' '.join(RANK_LABELS)}")
        if who not in out:
            raise ValueError(f"crib table to_whom must be dealer or pone, got {who!r}")
        out[who][index[a], index[b]] = out[who][index[b], index[a]] = float(value)
    for who, matrix in out.items():
        if complete and np.isnan(matrix).any():
            r1, r2 = np.argwhere(np.isnan(matrix))[0]
            raise ValueError(f"crib table lacks the {who} entry for {RANK_LABELS[r1]},{RANK_LABELS[r2]}")
    return out


def table_params(table: pd.DataFrame) -> np.ndarray:
    """The ``expected_net`` parameter vector: 169 dealer values then 169 pone values, row-major by rank."""
    matrices = table_matrices(table)
    return np.concatenate([matrices[who].ravel() for who in TO_WHOM])


def params_matrices(params) -> dict[str, np.ndarray]:
    """The inverse of :func:`table_params`: ``{"dealer": 13x13, "pone": 13x13}``."""
    params = np.asarray(params, dtype=np.float64)
    return {who: params[k * N_RANKS * N_RANKS:(k + 1) * N_RANKS * N_RANKS].reshape(N_RANKS, N_RANKS)
            for k, who in enumerate(TO_WHOM)}


def matrices_table(columns: dict[str, dict[str, np.ndarray]], source: str | None = None) -> pd.DataFrame:
    """A tidy table (one row per rank pair and ``to_whom``, low rank first) from 13x13 matrices;
    ``columns`` maps a column name to ``{"dealer": matrix, "pone": matrix}``."""
    rows = []
    for who in TO_WHOM:
        for a in range(N_RANKS):
            for b in range(a, N_RANKS):
                row = {"card1_rank": RANK_LABELS[a], "card2_rank": RANK_LABELS[b], "to_whom": who}
                row.update({name: matrices[who][a, b] for name, matrices in columns.items()})
                rows.append(row)
    table = pd.DataFrame(rows)
    if source is not None:
        table["source"] = source
    return table


def compare_tables(table: pd.DataFrame, reference: pd.DataFrame) -> pd.DataFrame:
    """Entry by entry: ``table``'s value (NaN where it has none), the reference's, the difference,
    and ``table``'s ``se`` and ``n`` when it has them; largest differences first."""
    columns = {"value": table_matrices(table, complete=False), "reference": table_matrices(reference)}
    for extra in ("se", "n"):
        if extra in table.columns:
            columns[extra] = table_matrices(table, extra, complete=False)
    frame = matrices_table(columns)
    frame["difference"] = frame["value"] - frame["reference"]
    order = frame["difference"].abs().sort_values(ascending=False, kind="stable", na_position="last").index
    return frame.reindex(order).reset_index(drop=True)
