"""Figures for the claims report and the notebooks.

Each function builds a :class:`matplotlib.figure.Figure` directly (no pyplot
state, Agg rendering on ``savefig``) and returns it; a notebook shows it by
returning it, the report writer saves it as PNG at :data:`DPI`.  Conventions:
the title names the variant and the policies (the caller's ``title``, a second
line for details); estimates are drawn with their 95% intervals and the numbers
are written beside them, so an interval narrower than its marker still reads;
rate axes fit the data instead of starting at 0; legends sit below the axes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from sims.core.text import counted
from sims.stats import LEVEL, z_value

DPI = 150  # the report's PNGs: 8 in wide = 1200 pixels
WIDTH = 8.0
BAND_COLOURS = ("0.55", "tab:orange", "tab:green")  # the margin band first, then a published range


def _figure(title: str, size=(WIDTH, 4.5)):
    fig = Figure(figsize=size, dpi=DPI, layout="constrained")
    ax = fig.subplots()
    ax.set_title(title, wrap=True)
    return fig, ax


def _legend_below(fig: Figure, ax) -> None:
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=min(3, len(handles)), fontsize="small")


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
        ax.bar(points + (i - (df.shape[1] - 1) / 2) * width, prob[col], width=width, label=f"{col} (mean {mean:.3f})")
    ax.set_xticks(points[::2] if points.size > 16 else points)
    ax.set_xlabel("points")
    ax.set_ylabel("probability")
    ax.grid(axis="y", alpha=0.3)
    _legend_below(fig, ax)
    return fig


def components_by_role(
    table: pd.DataFrame, title: str = "Points per deal by role", components=None, level: float = LEVEL
) -> Figure:
    """Grouped bars of mean points per deal, component × role, with ±z·se error bars and the means written on.

    ``table``: tidy rows role, component, mean, se (``DealResult.table()``).
    ``components`` defaults to every component present, in order of appearance.
    """
    _need(table, ["role", "component", "mean", "se"], "components_by_role")
    if components is None:
        components = list(dict.fromkeys(table["component"]))
    roles = list(dict.fromkeys(table["role"]))
    cell = table.set_index(["role", "component"])
    fig, ax = _figure(title)
    x = np.arange(len(components))
    width = 0.8 / len(roles)
    z = z_value(level)
    for i, role in enumerate(roles):
        rows = cell.loc[role].reindex(components)
        bars = ax.bar(
            x + (i - (len(roles) - 1) / 2) * width,
            rows["mean"],
            width=width,
            yerr=z * rows["se"],
            capsize=3,
            label=role,
        )
        ax.bar_label(bars, fmt="%.2f", fontsize="x-small", padding=2)
    ax.set_xticks(x, components)
    ax.set_ylabel(f"mean points per deal (±{level:.0%} interval)")
    ax.margins(y=0.12)
    ax.grid(axis="y", alpha=0.3)
    _legend_below(fig, ax)
    return fig


def _value_text(e: float, lo: float, hi: float, digits: int, scale: float) -> str:
    unit = "%" if scale == 100 else ""
    return f"{e * scale:.{digits}f}{unit} [{lo * scale:.{digits}f}, {hi * scale:.{digits}f}]"


def interval_chart(
    df: pd.DataFrame, title: str, xlabel: str, lines=(), bands=(), percent: bool = False, digits: int | None = None
) -> Figure:
    """Forest plot: one row per estimate with its 95% interval, the numbers written at the right.

    ``df`` columns label, estimate, lo, hi (fractions when ``percent``).  ``lines``: (value, label)
    pairs drawn as dashed vertical lines (the claimed value, 50%); ``bands``: (lo, hi, label) shaded
    (a published range, the margin of practical equivalence).  The axis fits the estimates, lines and
    bands (it does not start at 0), so differences of a point or two show.
    """
    _need(df, ["label", "estimate", "lo", "hi"], "interval_chart")
    scale = 100.0 if percent else 1.0
    digits = (1 if percent else 2) if digits is None else digits
    fig, ax = _figure(title, (WIDTH, 1.9 + 0.5 * len(df)))
    y = np.arange(len(df))[::-1]
    est, lo, hi = (df[c].to_numpy(float) for c in ("estimate", "lo", "hi"))
    ax.errorbar(
        est * scale,
        y,
        xerr=np.vstack([est - lo, hi - est]) * scale,
        fmt="o",
        markersize=4,
        capsize=5,
        elinewidth=2,
        color="tab:blue",
        label="estimate, 95% interval",
    )
    for (b_lo, b_hi, label), colour in zip(bands, BAND_COLOURS, strict=False):
        ax.axvspan(b_lo * scale, b_hi * scale, color=colour, alpha=0.25, label=label)
    for value, label in lines:
        ax.axvline(value * scale, color="0.3", linestyle="--", linewidth=1, label=label)
    ax.set_yticks(y, df["label"])
    ax.set_ylim(-0.7, len(df) - 0.3)
    ax.margins(x=0.08)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(xlabel + (" (%)" if percent else ""))
    right = ax.twinx()
    right.set_ylim(ax.get_ylim())
    right.set_yticks(y, [_value_text(*v, digits, scale) for v in zip(est, lo, hi, strict=True)], fontsize="small")
    right.tick_params(length=0)
    _legend_below(fig, ax)
    return fig


def game_lengths(counts: dict, title: str = "Game length") -> Figure:
    """P(game lasts k deals) for each labelled count of games by deals (a Series: index deals, values games)."""
    if not counts:
        raise ValueError("game_lengths needs at least one count of games by length")
    fig, ax = _figure(title)
    for label, series in counts.items():
        s = pd.Series(series).sort_index()
        if s.empty or s.sum() <= 0 or (s < 0).any() or s.index.min() < 1:
            raise ValueError(f"game lengths for {label!r} need non-negative counts of games by deals (1 or more)")
        freq = s / s.sum()
        mean = float((freq * s.index.to_numpy(float)).sum())
        ax.step(s.index, freq, where="mid", label=f"{label} (mean {mean:.1f} deals)")
    ax.set_xlabel("deals in the game")
    ax.set_ylabel("share of games")
    ax.grid(alpha=0.3)
    _legend_below(fig, ax)
    return fig


def loser_scores(counts: dict, thresholds=(), title: str = "The loser's final score") -> Figure:
    """Share of losers ending on each score per variant (``counts``: label -> Series of losers by score),
    with the lurch / skunk ``thresholds`` (values) as grey dashed lines, each labelled at the top."""
    fig, ax = _figure(title)
    for label, series in counts.items():
        s = pd.Series(series).sort_index()
        ax.step(s.index, s / s.sum(), where="mid", label=label)
    for t in sorted(set(thresholds)):
        ax.axvline(t, color="0.4", linestyle="--", linewidth=1)
        ax.annotate(
            f"{t}",
            (t, 1),
            xycoords=("data", "axes fraction"),
            xytext=(2, -12),
            textcoords="offset points",
            fontsize="small",
            color="0.3",
        )
    ax.set_xlabel("loser's final score (dashed: lurch / skunk thresholds)")
    ax.set_ylabel("share of losers")
    ax.grid(alpha=0.3)
    _legend_below(fig, ax)
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
    return pd.DataFrame(
        {
            "score_self": np.concatenate([s0, s1]),
            "score_opp": np.concatenate([s1, s0]),
            "won": np.concatenate([winner == 0, winner == 1]),
        }
    )


def win_probability_map(
    df: pd.DataFrame, target: int, bin_size: int = 1, min_count: int = 20, title: str = "P(win) by board position"
) -> Figure:
    """Heatmap of P(win) by (my score, opponent's score) from per-deal score logs.

    ``df`` columns score_self, score_opp (scores before a deal) and won (bool or 0/1,
    from the score_self player's view).  Scores are grouped in bins of ``bin_size``
    points; cells with fewer than ``min_count`` positions are hatched grey ("too few"),
    never coloured, so they cannot be mistaken for 50% (white).
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
    fig, ax = _figure(title, (7.0, 6.6))
    edges = np.arange(bins + 1) * bin_size
    few = Rectangle((0, 0), edges[-1], edges[-1], facecolor="0.85", edgecolor="0.6", hatch="//", linewidth=0, zorder=0)
    ax.add_patch(few)
    mesh = ax.pcolormesh(edges, edges, np.ma.masked_invalid(p), cmap="RdBu", vmin=0, vmax=1, shading="flat", zorder=1)
    fig.colorbar(mesh, ax=ax, label="P(win) of the player whose score is on the y axis", shrink=0.85)
    ax.plot([0, edges[-1]], [0, edges[-1]], color="0.3", linewidth=0.8, linestyle=":", label="level scores")
    fig.legend(
        handles=[
            Patch(
                facecolor="0.85", edgecolor="0.6", hatch="//", label=f"fewer than {min_count} positions: no estimate"
            ),
            *ax.get_legend_handles_labels()[0],
        ],
        loc="outside lower center",
        ncols=2,
        fontsize="small",
    )
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("my score")
    ax.set_xlim(0, edges[-1])
    ax.set_ylim(0, edges[-1])
    ax.set_aspect("equal")
    return fig


def win_through_game(trail: pd.DataFrame, player: str, title: str = "The chance of winning through the game") -> Figure:
    """A player's chance of winning after each decision (:func:`sims.core.record.win_trail`): the line the choices
    made, the best choice's chance where it was better, and each inaccuracy, mistake and blunder marked (the legend
    counts them: ``1 blunder``, ``2 mistakes``)."""
    _need(trail, ["line", "win", "best_win", "mover", "grade"], "win_through_game")
    fig, ax = _figure(title)
    x = np.arange(len(trail))
    ax.plot(x, 100 * trail["win"], color="tab:blue", marker=".", label=f"{player}'s chance after the choice made")
    missed = trail["best_win"] != trail["win"]
    ax.vlines(
        x[missed],
        100 * trail["win"][missed],
        100 * trail["best_win"][missed],
        color="0.6",
        label="had the player to choose chosen best",
    )
    for grade, colour in (("inaccuracy", "gold"), ("mistake", "tab:orange"), ("blunder", "tab:red")):
        hit = (trail["grade"] == grade).to_numpy()
        if hit.any():
            ax.scatter(x[hit], 100 * trail["win"][hit], color=colour, zorder=3, label=counted(int(hit.sum()), grade))
    ax.axhline(50, color="black", linewidth=0.6)
    ax.set_xlabel("decision (each player's, in the order taken)")
    ax.set_ylabel(f"{player} wins (%)")
    ax.set_ylim(0, 100)
    _legend_below(fig, ax)
    return fig
