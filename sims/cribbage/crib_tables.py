"""Crib discard tables: expected crib points by the ranks of the two cards thrown.

The tables ship inside the package, in ``sims/cribbage/data/`` (read with
:mod:`importlib.resources`, so an installed wheel finds them), each with its source:

* ``schell`` and ``hessel``: the published tables, in ``crib_discard_tables.csv``
  (sources in its header and in ``data/README.md``);
* ``self_play``: the six-card table by self-play (:mod:`sims.cribbage.lab.crib_self_play`,
  ``expected_net`` iterated from Schell's), in ``six_card_self_play.csv`` with its
  provenance in ``six_card_self_play.json``.

A table is a tidy DataFrame with the columns of those files (``card1_rank, card2_rank,
to_whom, expected_crib_points, source``, and ``se``, ``n`` for self-play; ranks written
``A 2 ... 10 J Q K``, ``to_whom`` = ``dealer`` for a throw into your own crib, ``pone``
into the opponent's).  :func:`table_params` turns any table into the parameter vector
of the ``expected_net`` discard policy, so tables estimated by self-play can be swapped
in without recompiling; :func:`named_tables` gives the shipped ones as such vectors
without pandas (making and comparing tables is the builder's, :mod:`sims.cribbage.lab.crib_tables`).

This module imports nothing from the policies or the engine, and pandas only when a
DataFrame is asked for: the discard policies and ``sims discard`` read their tables here.
"""

from __future__ import annotations

import csv
import json
from functools import cache
from importlib import resources

import numpy as np

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TO_WHOM = ("dealer", "pone")
N_RANKS = 13
PARAMS_SIZE = 2 * N_RANKS * N_RANKS  # dealer table then pone table, row-major by rank

PUBLISHED = "crib_discard_tables.csv"
SELF_PLAY = "six_card_self_play.csv"
# name -> (file in sims/cribbage/data, value of its ``source`` column)
SOURCES = {"schell": (PUBLISHED, "schell"), "hessel": (PUBLISHED, "hessel"), "self_play": (SELF_PLAY, "self-play")}
TITLES = {
    "schell": "M. Schell's published table",
    "hessel": "C. Hessel's published table (crib flushes ignored)",
    "self_play": "the shipped six-card self-play table",
}
_INTEGER = ("n",)
_TEXT = ("card1_rank", "card2_rank", "to_whom", "source")


def _data(name: str):
    return resources.files(__package__).joinpath("data", name)


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown crib table source {source!r}; choose from {', '.join(SOURCES)}")


@cache
def _columns(source: str) -> dict[str, tuple]:
    """The rows of one shipped table as columns (numbers converted); ``#`` lines are comments."""
    _check_source(source)
    name, label = SOURCES[source]
    lines = [line for line in _data(name).read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    rows = [row for row in csv.DictReader(lines) if row["source"] == label]
    convert = {key: (str if key in _TEXT else int if key in _INTEGER else float) for key in rows[0]}
    return {key: tuple(fn(row[key]) for row in rows) for key, fn in convert.items()}


def provenance(source: str) -> dict:
    """Where a shipped table comes from: its file and title, and for self-play the recorded provenance."""
    _check_source(source)
    name, _ = SOURCES[source]
    out = {"name": source, "title": TITLES[source], "file": f"sims/cribbage/data/{name}"}
    if name == SELF_PLAY:
        out["provenance"] = json.loads(_data(name.replace(".csv", ".json")).read_text(encoding="utf-8"))
    return out


def reference_table(source: str = "schell"):
    """A shipped table as a DataFrame: ``schell``, ``hessel`` or ``self_play``."""
    import pandas as pd

    return pd.DataFrame(_columns(source))


@cache
def named_tables() -> dict[str, tuple[float, ...]]:
    """Every shipped table as the ``expected_net`` parameter vector (:func:`table_params`), by name."""
    out = {}
    for source in SOURCES:
        columns = _columns(source)
        matrices = _matrices(
            columns["card1_rank"], columns["card2_rank"], columns["to_whom"], columns["expected_crib_points"], True
        )
        out[source] = tuple(np.concatenate([matrices[who].ravel() for who in TO_WHOM]).tolist())
    return out


def _matrices(card1, card2, to_whom, values, complete: bool) -> dict[str, np.ndarray]:
    index = {label: r for r, label in enumerate(RANK_LABELS)}
    out = {who: np.full((N_RANKS, N_RANKS), np.nan) for who in TO_WHOM}
    for a, b, who, value in zip(card1, card2, to_whom, values):
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


def table_matrices(table, column: str = "expected_crib_points", complete: bool = True) -> dict[str, np.ndarray]:
    """``{"dealer": 13x13, "pone": 13x13}`` symmetric matrices of ``column`` indexed by rank (ace 0 ...
    king 12); ``complete`` demands a value for every pair, else a missing one is NaN."""
    missing = {"card1_rank", "card2_rank", "to_whom", column} - set(table.columns)
    if missing:
        raise ValueError(f"crib table lacks column {sorted(missing)[0]!r}")
    return _matrices(table["card1_rank"], table["card2_rank"], table["to_whom"], table[column], complete)


def table_params(table) -> np.ndarray:
    """The ``expected_net`` parameter vector: 169 dealer values then 169 pone values, row-major by rank."""
    matrices = table_matrices(table)
    return np.concatenate([matrices[who].ravel() for who in TO_WHOM])
