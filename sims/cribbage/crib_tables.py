"""Crib discard tables: expected crib points by the ranks of the two cards thrown.

A table is a tidy DataFrame with the columns of ``data/reference/crib_discard_tables.csv``
(``card1_rank, card2_rank, to_whom, expected_crib_points``; ranks written ``A 2 ... 10 J Q K``,
``to_whom`` = ``dealer`` for a throw into your own crib, ``pone`` into the opponent's).
The published Schell and Hessel tables ship in that file with their sources;
:func:`table_params` turns any table into the parameter vector of the
``expected_net`` discard policy, so tables estimated by self-play can be swapped
in without recompiling.

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


def table_matrices(table: pd.DataFrame) -> dict[str, np.ndarray]:
    """``{"dealer": 13x13, "pone": 13x13}`` symmetric matrices indexed by rank (ace 0 ... king 12)."""
    missing = {"card1_rank", "card2_rank", "to_whom", "expected_crib_points"} - set(table.columns)
    if missing:
        raise ValueError(f"crib table lacks column {sorted(missing)[0]!r}")
    index = {label: r for r, label in enumerate(RANK_LABELS)}
    out = {who: np.full((N_RANKS, N_RANKS), np.nan) for who in TO_WHOM}
    for a, b, who, value in table[["card1_rank", "card2_rank", "to_whom", "expected_crib_points"]].itertuples(
            index=False):
        a, b = str(a).upper(), str(b).upper()
        if a not in index or b not in index:
            raise ValueError(f"crib table has an unknown rank in ({a}, {b}); ranks are {' '.join(RANK_LABELS)}")
        if who not in out:
            raise ValueError(f"crib table to_whom must be dealer or pone, got {who!r}")
        out[who][index[a], index[b]] = out[who][index[b], index[a]] = float(value)
    for who, matrix in out.items():
        if np.isnan(matrix).any():
            r1, r2 = np.argwhere(np.isnan(matrix))[0]
            raise ValueError(f"crib table lacks the {who} entry for {RANK_LABELS[r1]},{RANK_LABELS[r2]}")
    return out


def table_params(table: pd.DataFrame) -> np.ndarray:
    """The ``expected_net`` parameter vector: 169 dealer values then 169 pone values, row-major by rank."""
    matrices = table_matrices(table)
    return np.concatenate([matrices[who].ravel() for who in TO_WHOM])
