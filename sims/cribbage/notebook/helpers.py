"""Cribbage's helpers for its numbered notebooks (01, 03, 05 and 06): the few tables and figures the notebooks show
beyond the report: exact hand counts beside the published ones, threshold tables, seat margins, crib table heatmaps,
per-event pegging points and paired differences on common deals.  The notebooks only load, call and plot;
running and showing a report's section is :mod:`sims.analysis.notebook_helpers`'s.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...stats import mean_ci, paired_diff
from ..claims.measures import nondealer_preference, published_hand_counts, seat_margin

# ---- 01: scoring ----


def against_published(hand_counts) -> pd.DataFrame:
    """Exact hand counts by points beside Lumetta's published counts, and their difference."""
    table = pd.DataFrame({"exact": pd.Series(hand_counts), "published (Lumetta)": published_hand_counts()})
    table = table.fillna(0).astype(np.int64).rename_axis("points")
    table["difference"] = table["exact"] - table["published (Lumetta)"]
    return table


def impossible_scores(counts: pd.DataFrame) -> dict[str, list[int]]:
    """Per column: the scores from 0 to the highest reached that no show makes."""
    out = {}
    for col in counts:
        reached = counts.index[counts[col] > 0]
        out[col] = [int(p) for p in counts.index[(counts[col] == 0) & (counts.index < reached.max())]]
    return out


# ---- 03: the first non-dealer's preference ----


def preference_by_threshold(games: pd.DataFrame, thresholds) -> pd.DataFrame:
    """:func:`sims.cribbage.claims.measures.nondealer_preference` for each threshold of the first non-dealer's
    first deal (rows with no qualifying game have n = 0 and no estimate)."""
    rows = []
    for t in thresholds:
        try:
            e, _average, share = nondealer_preference(games, int(t))
        except ValueError:
            rows.append(
                {
                    "label": f"{t}+",
                    "estimate": math.nan,
                    "lo": math.nan,
                    "hi": math.nan,
                    "n": 0,
                    "share of games": 0.0,
                    "win rate [95% CI]": "",
                }
            )
            continue
        rows.append(
            {
                "label": f"{t}+",
                "estimate": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                "n": e.n,
                "share of games": share,
                "win rate [95% CI]": e.format(1, 100) + " %",
            }
        )
    return pd.DataFrame(rows)


# ---- 05: discards ----


def seat_margins(result, seat: int = 0, components=("hand", "crib", "pegging", "total")) -> pd.DataFrame:
    """Two players: per deal, ``seat``'s points minus the other seat's, by component, with normal
    intervals (seats deal in turn, so each is dealer in half the deals).  Needs ``records=True``."""
    rec = result.records
    if rec is None:
        raise ValueError("seat margins need per-deal records: simulate with records=True")
    if result.job.rules.active != 2:
        raise ValueError("seat margins are for two players")
    rows = []
    for comp in components:
        e = mean_ci(seat_margin(rec, seat, comp))
        rows.append(
            {
                "component": comp,
                "estimate": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                f"seat {seat} minus seat {1 - seat} [95% CI]": e.format(3),
            }
        )
    return pd.DataFrame(rows)


def crib_table_figure(tables: dict, title: str = "Expected crib points by the two cards thrown") -> Figure:
    """Heatmaps of crib tables (label -> table as in data/reference): one row per table,
    columns: thrown into one's own crib (dealer), into the opponent's (pone); one colour scale."""
    from ..crib_tables import RANK_LABELS, TO_WHOM, table_matrices

    if not tables:
        raise ValueError("crib_table_figure needs at least one table")
    matrices = {label: table_matrices(table) for label, table in tables.items()}
    lo = min(float(np.nanmin(m[w])) for m in matrices.values() for w in TO_WHOM)
    hi = max(float(np.nanmax(m[w])) for m in matrices.values() for w in TO_WHOM)
    fig = Figure(figsize=(9.0, 4.0 * len(tables) + 0.6), dpi=150, layout="constrained")
    axes = np.atleast_2d(fig.subplots(len(tables), len(TO_WHOM)))
    fig.suptitle(title)
    ticks = np.arange(len(RANK_LABELS))
    for row, (label, matrix) in zip(axes, matrices.items(), strict=True):
        for ax, who in zip(row, TO_WHOM, strict=True):
            image = ax.imshow(matrix[who], cmap="viridis", origin="upper", vmin=lo, vmax=hi)
            ax.set_title(
                f"{label}: the {who}'s throw " + ("(his own crib)" if who == "dealer" else "(the dealer's crib)"),
                fontsize="medium",
            )
            ax.set_xticks(ticks, RANK_LABELS)
            ax.set_yticks(ticks, RANK_LABELS)
    fig.colorbar(image, ax=axes, shrink=0.6, label="expected crib points")
    return fig


# ---- 06: pegging ----

PEG_EVENTS = ("end hole", "thirty-one", "last card", "other play")


def peg_events(rules, policies, n_deals: int, seed: int) -> pd.DataFrame:
    """Points per deal by role from the end hole (the go under 31), thirty-one (2 each), the last
    card of all, and the rest of the play, plus their sum "pegging".

    Played by the slow reference engine (:mod:`sims.cribbage.reference`), which records
    each card laid; it deals the same cards from the same seed as the compiled engine, so its
    "end hole" + "last card" equal the engine's ``go`` component on the same deals.  Returns a
    tidy table role, component, mean, se, n (as ``DealResult.table()``).
    """
    from .. import get_rules, reference
    from ..results import role_names

    rules = get_rules(rules)
    roles = role_names(rules)
    deals = reference.simulate_deals(rules, policies, n_deals, seed)
    points = np.zeros((len(deals), len(roles), len(PEG_EVENTS) + 1))
    for i, deal in enumerate(deals):
        for peg in deal.pegs:
            if peg.component == "go":
                points[i, peg.role, 0 if peg.what == "go" else 2] += peg.points
            elif peg.component == "play":
                points[i, peg.role, 3] += peg.points
        for role, _card, count in deal.laid:
            if count == 31:
                points[i, role, 1] += 2
                points[i, role, 3] -= 2
    points[:, :, -1] = points[:, :, :-1].sum(axis=2)
    rows = []
    for r, role in enumerate(roles):
        for k, comp in enumerate(PEG_EVENTS + ("pegging",)):
            e = mean_ci(points[:, r, k])
            rows.append((role, comp, e.estimate, e.se, e.n))
    return pd.DataFrame(rows, columns=["role", "component", "mean", "se", "n"])


def paired_components(a, b, components=("play", "pegging", "total")) -> pd.DataFrame:
    """Per role and component: the mean per-deal difference ``a - b`` of two deal runs on the same
    deals (same seed and size: common random numbers), with paired intervals.  Needs ``records=True``."""
    ra, rb = a.records, b.records
    if ra is None or rb is None:
        raise ValueError("paired differences need per-deal records: simulate with records=True")
    if len(ra) != len(rb) or not (ra["deal"].to_numpy() == rb["deal"].to_numpy()).all():
        raise ValueError("paired differences need two runs of the same deals (same seed and number of deals)")
    rows = []
    for role in a.roles:
        for comp in components:
            c = paired_diff(ra[f"{role}_{comp}"], rb[f"{role}_{comp}"])
            rows.append(
                {
                    "role": role,
                    "component": comp,
                    "estimate": c.estimate,
                    "lo": c.lo,
                    "hi": c.hi,
                    "difference [95% CI]": c.format(3),
                    "p": c.p,
                }
            )
    return pd.DataFrame(rows)
