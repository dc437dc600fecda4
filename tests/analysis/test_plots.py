"""sims.analysis.plots: every figure builds with its title and axes, renders to PNG at 150 dpi or more, shows the
intervals and the numbers, fits rate axes to the data, keeps legends off the data, and tells "too few games"
apart from 50% on the P(win) map."""

import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.image import imread

from sims.analysis import plots


def _png(fig: Figure) -> np.ndarray:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    buf.seek(0)
    return imread(buf)


def _check(fig, title, xlabel, ylabel):
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() == title
    assert ax.get_xlabel() == xlabel and ax.get_ylabel() == ylabel
    assert fig.dpi >= 150 and _png(fig).shape[1] >= 1000  # pixels across at the figure's own dpi
    return ax


def _legend_below_axes(fig):
    """The figure's legend lies wholly below the plotting area (so it hides no data)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    (legend,) = fig.legends
    return legend.get_window_extent(renderer).y1 <= fig.axes[0].get_window_extent(renderer).y0


def test_score_distribution_bars_and_means():
    counts = pd.DataFrame({"hand": [1, 2, 1], "crib": [2, 1, 1]}, index=[0, 1, 2])
    ax = _check(plots.score_distribution(counts, "Scores"), "Scores", "points", "probability")
    fig = ax.figure
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["hand (mean 1.000)", "crib (mean 0.750)"]
    assert len(ax.patches) == 6
    assert sum(p.get_height() for p in ax.patches[:3]) == pytest.approx(1.0)
    assert _legend_below_axes(fig)
    with pytest.raises(ValueError, match="non-negative"):
        plots.score_distribution(pd.Series([0, 0]))


def test_components_by_role_error_bars_and_values():
    tidy = pd.DataFrame(
        {
            "role": ["dealer"] * 3 + ["pone"] * 3,
            "component": ["hand", "crib", "total"] * 2,
            "mean": [8.0, 4.7, 16.2, 8.1, 0.0, 10.1],
            "se": [0.01] * 6,
        }
    )
    ax = _check(
        plots.components_by_role(tidy, "By role", components=["hand", "crib"]),
        "By role",
        "",
        "mean points per deal (±95% interval)",
    )
    assert [t.get_text() for t in ax.get_xticklabels()] == ["hand", "crib"]  # total left out, as asked
    assert len(ax.patches) == 4
    assert {t.get_text() for t in ax.texts} == {"8.00", "4.70", "8.10", "0.00"}
    with pytest.raises(ValueError, match="missing se"):
        plots.components_by_role(tidy.drop(columns="se"))


RATES = pd.DataFrame(
    {
        "label": ["six-card-61", "six-card", "five-card", "eight-card"],
        "estimate": [0.533, 0.550, 0.484, 0.460],
        "lo": [0.527, 0.543, 0.477, 0.454],
        "hi": [0.540, 0.556, 0.491, 0.467],
    }
)


def test_interval_chart_of_rates_fits_the_data_and_writes_the_numbers():
    fig = plots.interval_chart(
        RATES, "First dealer", "games won", lines=[(0.5, "even")], bands=[(0.495, 0.505, "margin")], percent=True
    )
    ax = _check(fig, "First dealer", "games won (%)", "")
    lo, hi = ax.get_xlim()
    assert 40 < lo < 46 and 55.6 < hi < 60  # not from 0: 46-55% fill the axis
    assert [t.get_text() for t in ax.get_yticklabels()] == list(RATES["label"])
    right = fig.axes[1]
    assert [t.get_text() for t in right.get_yticklabels()] == [
        "53.3% [52.7, 54.0]",
        "55.0% [54.3, 55.6]",
        "48.4% [47.7, 49.1]",
        "46.0% [45.4, 46.7]",
    ]
    caps = ax.containers[0].lines[2][0].get_segments()  # the interval drawn for each row
    assert caps[0][:, 0].tolist() == pytest.approx([52.7, 54.0])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["margin", "even", "estimate, 95% interval"]
    assert _legend_below_axes(fig)


def test_interval_chart_points_lines_bands():
    df = pd.DataFrame(
        {"label": ["x", "y", "z"], "estimate": [25.1, 26.3, 24.0], "lo": [25.0, 26.2, 23.9], "hi": [25.2, 26.4, 24.1]}
    )
    fig = plots.interval_chart(
        df, "Two deals", "points", lines=[(25, "claim")], bands=[(24.5, 25.5, "margin"), (26.3, 26.4, "published")]
    )
    ax = _check(fig, "Two deals", "points", "")
    assert [t.get_text() for t in fig.axes[1].get_yticklabels()] == [
        "25.10 [25.00, 25.20]",
        "26.30 [26.20, 26.40]",
        "24.00 [23.90, 24.10]",
    ]
    assert len(ax.patches) == 2 and ax.patches[1].get_facecolor()[:3] != ax.patches[0].get_facecolor()[:3]
    with pytest.raises(ValueError, match="missing hi"):
        plots.interval_chart(df.drop(columns="hi"), "t", "x")


def test_game_lengths_from_counts():
    counts = {"six-card": pd.Series([1, 2, 1], index=[8, 9, 10]), "five-card": pd.Series([3, 1], index=[12, 13])}
    ax = _check(plots.game_lengths(counts, "Length"), "Length", "deals in the game", "share of games")
    assert len(ax.lines) == 2
    assert ax.lines[0].get_ydata().sum() == pytest.approx(1.0)
    assert [t.get_text() for t in ax.figure.legends[0].get_texts()] == [
        "six-card (mean 9.0 deals)",
        "five-card (mean 12.2 deals)",
    ]
    with pytest.raises(ValueError, match="counts of games"):
        plots.game_lengths({"bad": pd.Series([1, 3], index=[0, 3])})


def test_loser_scores_with_thresholds():
    fig = plots.loser_scores(
        {"five-card": pd.Series([1, 3], index=[30, 50]), "six-card-61": pd.Series([2, 2], index=[40, 55])},
        [31, 45, 31, 45],
        "Losers",
    )
    ax = _check(fig, "Losers", "loser's final score (dashed: lurch / skunk thresholds)", "share of losers")
    assert ax.lines[0].get_ydata().tolist() == [0.25, 0.75]
    assert [line.get_xdata()[0] for line in ax.lines[2:]] == [31, 45]  # each threshold drawn once
    assert [t.get_text() for t in ax.texts] == ["31", "45"]


def test_win_probability_map_bins_and_too_few():
    rng = np.random.default_rng(0)
    me, opp = rng.integers(0, 61, 5000), rng.integers(0, 61, 5000)
    df = pd.DataFrame({"score_self": me, "score_opp": opp, "won": me + rng.normal(0, 10, 5000) > opp})
    fig = plots.win_probability_map(df, target=61, bin_size=10, min_count=20, title="Board")
    ax = _check(fig, "Board", "opponent's score", "my score")
    grid = ax.collections[0].get_array().reshape(7, 7)
    assert grid[5, 0] > 0.9 and grid[0, 5] < 0.1  # far ahead wins, far behind loses
    assert len(fig.axes) == 2  # with its colour bar
    sparse = plots.win_probability_map(df.head(30), target=61, bin_size=10, min_count=20)
    assert np.ma.getmaskarray(sparse.axes[0].collections[0].get_array()).all()
    # "too few" is a hatched grey layer under the colours, named in the legend; 50% is white in RdBu
    (layer,) = [p for p in sparse.axes[0].patches if p.get_hatch()]
    assert layer.get_facecolor()[:3] != (1.0, 1.0, 1.0) and layer.zorder < sparse.axes[0].collections[0].zorder
    assert "fewer than 20 positions: no estimate" in [t.get_text() for t in sparse.legends[0].get_texts()]
    image = _png(sparse)
    assert not np.allclose(image[image.shape[0] // 2, image.shape[1] // 3, :3], 1.0)  # a blank cell is not white
    with pytest.raises(ValueError, match="missing won"):
        plots.win_probability_map(df.drop(columns="won"), target=61)


def test_board_positions_both_sides_and_live_positions_only():
    games = pd.DataFrame({"game": [0, 1], "winner": [1, 0]})
    log = pd.DataFrame(
        {"game": [0, 0, 1], "deal": [0, 1, 0], "dealer": [0, 1, 1], "score_0": [10, 30, 61], "score_1": [20, 61, 5]}
    )
    pos = plots.board_positions(games, log, 61)
    assert pos.to_dict("list") == {"score_self": [10, 20], "score_opp": [20, 10], "won": [False, True]}
    with pytest.raises(ValueError, match="two sides"):
        plots.board_positions(games, log.assign(score_2=0), 61)


def test_the_chance_of_winning_through_a_game_counts_each_grade_in_its_legend():
    """``1 blunder``, ``2 mistakes``: the legend counts the decisions of each grade, the noun agreeing."""
    trail = pd.DataFrame(
        {
            "line": range(2, 8),
            "win": [0.5, 0.4, 0.45, 0.3, 0.6, 0.55],
            "best_win": [0.5, 0.5, 0.45, 0.42, 0.6, 0.62],
            "mover": ["a", "b"] * 3,
            "grade": ["", "blunder", "", "mistake", "", "mistake"],
        }
    )
    fig = plots.win_through_game(trail, "a")
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "1 blunder" in labels and "2 mistakes" in labels and not any("inaccurac" in label for label in labels)
