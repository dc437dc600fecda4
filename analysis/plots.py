"""Figures for the claims report and the notebooks.

Each function builds a :class:`matplotlib.figure.Figure` directly (no pyplot
state, Agg rendering on ``savefig``) and returns it; a notebook shows it by
returning it, the report writer saves it as PNG.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .stats import COMPONENT_ORDER, LEVEL, z_value

_SIZE = (7.0, 4.0)


def _figure(title: str, size=_SIZE):
    fig = Figure(figsize=size, layout="constrained")
    ax = fig.subplots()
    ax.set_title(title)
    return fig, ax


def _need(df: pd.DataFrame, columns, what: str):
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} needs columns {', '.join(columns)}; missing {', '.join(missing)}")


def score_distribution(counts, title: str = "Score distribution") -> Figure:
    """Bars of P(score) for each column of ``counts`` (index: points; values: counts or weights).

    A Series is one distribution; a DataFrame (e.g. columns hand, crib) gives
    side-by-side bars.  The legend shows each mean.
    """
    df = counts.to_frame() if isinstance(counts, pd.Series) else pd.DataFrame(counts)
    if df.empty or (df.to_numpy() < 0).any() or not (df.sum() > 0).all():
        raise ValueError("score distribution needs non-negative counts with a positive total in every column")
    prob = df / df.sum()
    points = np.asarray(df.index, dtype=float)
    fig, ax = _figure(title)
    width = 0.8 / df.shape[1]
    for i, col in enumerate(df.columns):
        mean = float((prob[col] * points).sum())
        ax.bar(points + (i - (df.shape[1] - 1) / 2) * width, prob[col], width=width,
               label=f"{col} (mean {mean:.3f})")
    ax.set_xlabel("points")
    ax.set_ylabel("probability")
    ax.legend()
    return fig


def components_by_role(table: pd.DataFrame, title: str = "Points per deal by role",
                       components=None, level: float = LEVEL) -> Figure:
    """Grouped bars of mean points per deal, component × role, with ±z·se error bars.

    ``table``: tidy rows role, component, mean, se (``DealResult.table()``).
    ``components`` defaults to every component present except the sums (pegging, total).
    """
    _need(table, ["role", "component", "mean", "se"], "components_by_role")
    found = list(dict.fromkeys(table["component"]))
    if components is None:
        components = [c for c in COMPONENT_ORDER if c in found and c not in ("pegging", "total")] + \
                     [c for c in found if c not in COMPONENT_ORDER]
    roles = list(dict.fromkeys(table["role"]))
    cell = table.set_index(["role", "component"])
    fig, ax = _figure(title)
    x = np.arange(len(components))
    width = 0.8 / len(roles)
    z = z_value(level)
    for i, role in enumerate(roles):
        rows = cell.loc[role].reindex(components)
        ax.bar(x + (i - (len(roles) - 1) / 2) * width, rows["mean"], width=width,
               yerr=z * rows["se"], capsize=3, label=role)
    ax.set_xticks(x, components)
    ax.set_ylabel("mean points per deal")
    ax.legend(title="role")
    return fig


def win_rates(df: pd.DataFrame, title: str = "Win rate", reference: float | None = 0.5) -> Figure:
    """Bars of win rates with their intervals; ``df`` columns label, rate, lo, hi (fractions)."""
    _need(df, ["label", "rate", "lo", "hi"], "win_rates")
    fig, ax = _figure(title)
    x = np.arange(len(df))
    rate = df["rate"].to_numpy(float) * 100
    err = np.vstack([rate - df["lo"].to_numpy(float) * 100, df["hi"].to_numpy(float) * 100 - rate])
    ax.bar(x, rate, yerr=err, capsize=4, color="tab:blue")
    if reference is not None:
        ax.axhline(reference * 100, color="grey", linestyle="--", label=f"{reference:.1%}")
        ax.legend()
    ax.set_xticks(x, df["label"], rotation=20, ha="right")
    ax.set_ylabel("win rate (%)")
    return fig


def interval_chart(df: pd.DataFrame, title: str, xlabel: str, lines=(), band=None,
                   percent: bool = False) -> Figure:
    """Forest plot: one row per estimate with its interval.

    ``df`` columns label, estimate, lo, hi.  ``lines``: (value, label) pairs drawn
    as vertical lines (e.g. the claimed number); ``band``: (lo, hi, label) shaded
    (e.g. a published range).  ``percent`` shows fractions as percentages.
    """
    _need(df, ["label", "estimate", "lo", "hi"], "interval_chart")
    scale = 100.0 if percent else 1.0
    fig, ax = _figure(title, (7.0, 1.2 + 0.45 * len(df)))
    y = np.arange(len(df))[::-1]
    est = df["estimate"].to_numpy(float) * scale
    err = np.vstack([est - df["lo"].to_numpy(float) * scale, df["hi"].to_numpy(float) * scale - est])
    ax.errorbar(est, y, xerr=err, fmt="o", capsize=4, color="tab:blue")
    if band is not None:
        ax.axvspan(band[0] * scale, band[1] * scale, color="tab:orange", alpha=0.25, label=band[2])
    for value, label in lines:
        ax.axvline(value * scale, color="grey", linestyle="--", label=label)
    if band is not None or lines:
        ax.legend(fontsize="small")
    ax.set_yticks(y, df["label"])
    ax.set_ylim(-0.7, len(df) - 0.3)
    ax.set_xlabel(xlabel + (" (%)" if percent else ""))
    return fig


def game_lengths(lengths: dict, title: str = "Game length") -> Figure:
    """P(game lasts k deals) for each labelled sample of game lengths (whole numbers of deals)."""
    if not lengths:
        raise ValueError("game_lengths needs at least one sample of game lengths")
    fig, ax = _figure(title)
    for label, values in lengths.items():
        v = np.asarray(values, dtype=np.int64)
        if v.size == 0 or v.min() < 1:
            raise ValueError(f"game lengths for {label!r} must be a non-empty list of positive deal counts")
        freq = np.bincount(v) / v.size
        k = np.arange(freq.size)
        ax.step(k[1:], freq[1:], where="mid", label=f"{label} (mean {v.mean():.1f})")
    ax.set_xlabel("deals in the game")
    ax.set_ylabel("probability")
    ax.legend()
    return fig


def board_positions(games: pd.DataFrame, score_log: pd.DataFrame, target: int) -> pd.DataFrame:
    """Two-sided games: each position after a deal that did not end the game, seen from both sides.

    ``games`` and ``score_log`` as ``GameResult.games`` / ``GameResult.score_log()``; returns
    columns score_self, score_opp, won for :func:`win_probability_map`.
    """
    _need(score_log, ["game", "score_0", "score_1"], "board_positions")
    if "score_2" in score_log.columns:
        raise ValueError("board positions are for two sides")
    live = score_log[(score_log["score_0"] < target) & (score_log["score_1"] < target)]
    winner = live["game"].map(games.set_index("game")["winner"]).to_numpy()
    s0, s1 = live["score_0"].to_numpy(), live["score_1"].to_numpy()
    return pd.DataFrame({"score_self": np.concatenate([s0, s1]), "score_opp": np.concatenate([s1, s0]),
                         "won": np.concatenate([winner == 0, winner == 1])})


def win_probability_map(df: pd.DataFrame, target: int, bin_size: int = 1, min_count: int = 20,
                        title: str = "P(win) by board position") -> Figure:
    """Heatmap of P(win) by (my score, opponent's score) from per-deal score logs.

    ``df`` columns score_self, score_opp (scores before a deal) and won (bool or 0/1,
    from the score_self player's view).  Scores are grouped in bins of ``bin_size``
    points; cells with fewer than ``min_count`` observations are left blank.
    """
    _need(df, ["score_self", "score_opp", "won"], "win_probability_map")
    if bin_size < 1 or target < 1:
        raise ValueError("target and bin_size must be positive")
    bins = -(-target // bin_size)
    s = np.clip(df["score_self"].to_numpy(np.int64), 0, target - 1) // bin_size
    o = np.clip(df["score_opp"].to_numpy(np.int64), 0, target - 1) // bin_size
    count = np.zeros((bins, bins))
    wins = np.zeros((bins, bins))
    np.add.at(count, (s, o), 1)
    np.add.at(wins, (s, o), df["won"].to_numpy(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(count >= min_count, wins / count, np.nan)
    fig, ax = _figure(title, (6.0, 5.0))
    edges = np.arange(bins + 1) * bin_size
    mesh = ax.pcolormesh(edges, edges, p, cmap="RdBu", vmin=0, vmax=1, shading="flat")
    fig.colorbar(mesh, ax=ax, label="P(win)")
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("my score")
    ax.set_aspect("equal")
    return fig
