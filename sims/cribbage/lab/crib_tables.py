"""Making and comparing crib tables: the builder's half of :mod:`sims.cribbage.crib_tables` (a table's 13x13
matrices from a parameter vector, a tidy table from matrices, one table set against another), for the
self-play tables (:mod:`.crib_self_play`) and ``sims crib-tables``."""

from __future__ import annotations

import numpy as np

from ..crib_tables import N_RANKS, RANK_LABELS, TO_WHOM, table_matrices


def params_matrices(params) -> dict[str, np.ndarray]:
    """The inverse of :func:`table_params`: ``{"dealer": 13x13, "pone": 13x13}``."""
    params = np.asarray(params, dtype=np.float64)
    return {
        who: params[k * N_RANKS * N_RANKS : (k + 1) * N_RANKS * N_RANKS].reshape(N_RANKS, N_RANKS)
        for k, who in enumerate(TO_WHOM)
    }


def matrices_table(columns: dict[str, dict[str, np.ndarray]], source: str | None = None):
    """A tidy table (one row per rank pair and ``to_whom``, low rank first) from 13x13 matrices;
    ``columns`` maps a column name to ``{"dealer": matrix, "pone": matrix}``."""
    import pandas as pd

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


def compare_tables(table, reference):
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
