"""analysis.plots: every figure builds, has its title and axes, and renders to PNG."""
import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis import plots


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=40)
    return buf.getvalue()


def _check(fig, title, xlabel, ylabel):
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() == title
    assert ax.get_xlabel() == xlabel and ax.get_ylabel() == ylabel
    assert _png(fig).startswith(b"\x89PNG")
    return ax


def test_score_distribution_bars_and_means():
    counts = pd.DataFrame({"hand": [1, 2, 1], "crib": [2, 1, 1]}, index=[0, 1, 2])
    ax = _check(plots.score_distribution(counts, "Scores"), "Scores", "points", "probability")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["hand (mean 1.000)", "crib (mean 0.750)"]
    assert len(ax.patches) == 6
    assert sum(p.get_height() for p in ax.patches[:3]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="non-negative"):
        plots.score_distribution(pd.Series([0, 0]))


def test_components_by_role_error_bars():
    tidy = pd.DataFrame({"role": ["dealer"] * 3 + ["pone"] * 3, "component": ["hand", "crib", "total"] * 2,
                         "mean": [8.0, 4.7, 16.2, 8.1, 0.0, 10.1], "se": [0.01] * 6})
    ax = _check(plots.components_by_role(tidy, "By role"), "By role", "", "mean points per deal")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["hand", "crib"]  # total left out
    assert len(ax.patches) == 4
    with pytest.raises(ValueError, match="missing se"):
        plots.components_by_role(tidy.drop(columns="se"))


def test_win_rates_percent_and_reference():
    df = pd.DataFrame({"label": ["a", "b"], "rate": [0.55, 0.45], "lo": [0.5, 0.4], "hi": [0.6, 0.5]})
    ax = _check(plots.win_rates(df, "Wins"), "Wins", "", "win rate (%)")
    assert [p.get_height() for p in ax.patches] == pytest.approx([55, 45])
    assert ax.lines[-1].get_ydata()[0] == pytest.approx(50)


def test_interval_chart_rows_lines_band():
    df = pd.DataFrame({"label": ["x", "y", "z"], "estimate": [25.1, 26.3, 24.0], "lo": [25.0, 26.2, 23.9],
                       "hi": [25.2, 26.4, 24.1]})
    fig = plots.interval_chart(df, "Two deals", "points", lines=[(25, "claim")], band=(26.3, 26.4, "published"))
    ax = _check(fig, "Two deals", "points", "")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "y", "z"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["published", "claim"]
    pct = plots.interval_chart(df.assign(estimate=0.1, lo=0.05, hi=0.15), "R", "share", percent=True)
    assert pct.axes[0].get_xlabel() == "share (%)"


def test_game_lengths_histogram():
    fig = plots.game_lengths({"six-card": [8, 9, 9, 10], "five-card": np.array([12, 13])}, "Length")
    ax = _check(fig, "Length", "deals in the game", "probability")
    assert len(ax.lines) == 2
    assert ax.lines[0].get_ydata().sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="positive deal counts"):
        plots.game_lengths({"bad": [0, 3]})


def test_win_probability_map_bins_and_blanks():
    rng = np.random.default_rng(0)
    me, opp = rng.integers(0, 61, 5000), rng.integers(0, 61, 5000)
    df = pd.DataFrame({"score_self": me, "score_opp": opp, "won": me + rng.normal(0, 10, 5000) > opp})
    fig = plots.win_probability_map(df, target=61, bin_size=10, min_count=20, title="Board")
    ax = _check(fig, "Board", "opponent's score", "my score")
    grid = ax.collections[0].get_array().reshape(7, 7)
    assert grid.shape == (7, 7)
    assert grid[5, 0] > 0.9 and grid[0, 5] < 0.1  # far ahead wins, far behind loses
    assert len(fig.axes) == 2  # with its colour bar
    sparse = plots.win_probability_map(df.head(30), target=61, bin_size=10, min_count=20)
    assert np.ma.getmaskarray(sparse.axes[0].collections[0].get_array()).all()
    with pytest.raises(ValueError, match="missing won"):
        plots.win_probability_map(df.drop(columns="won"), target=61)


def test_board_positions_both_sides_and_live_positions_only():
    games = pd.DataFrame({"game": [0, 1], "winner": [1, 0]})
    log = pd.DataFrame({"game": [0, 0, 1], "deal": [0, 1, 0], "dealer": [0, 1, 1],
                        "score_0": [10, 30, 61], "score_1": [20, 61, 5]})
    pos = plots.board_positions(games, log, 61)
    assert pos.to_dict("list") == {"score_self": [10, 20], "score_opp": [20, 10], "won": [False, True]}
    with pytest.raises(ValueError, match="two sides"):
        plots.board_positions(games, log.assign(score_2=0), 61)
