"""Cribbage quantities the claims measure, computed from the engine's results (pure functions).

Deal results give means per role (``summary["roles"]``); game results give win rates with
the project's Wilson intervals (``summary``), win rates by place from the first dealer,
the losers' final scores and game lengths as counts (memory flat at any size), and per-game
rows only when a run keeps records.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sims.stats import Estimate, combine, rate_ci, rate_estimate

GAME = "cribbage"
RANDOM = {"discard": "random", "peg": "random"}
GREEDY = {"discard": "greedy", "peg": "greedy"}
MAIN = {"discard": "expected_net", "peg": "defensive"}  # the strongest fast self-play pair
SCORE_LOG_GAMES = 100_000  # games in a run with per-deal score logs (64 deals x 5 int16 each, kept in memory)


def role_mean(summary: dict, role: str, component: str) -> tuple[float, float]:
    """(mean, se) of one role's component per deal from a deal summary."""
    try:
        cell = summary["roles"][role][component]
    except KeyError:
        raise ValueError(f"deal summary has no {role}/{component} mean") from None
    return float(cell["mean"]), float(cell["se"])


def points_per_two_deals(summary: dict) -> Estimate:
    """A player's points in two deals, once dealer and once pone: E[dealer total] + E[pone total].

    Both means come from the same deals, so the se is the any-correlation bound (stats.combine).
    """
    (md, sd), (mp, sp) = role_mean(summary, "dealer", "total"), role_mean(summary, "pone", "total")
    return combine([md, mp], [sd, sp], [1, 1], int(summary["n"]))


def finished(summary: dict) -> int:
    """Games of a game summary that reached the target (the win rates are out of these)."""
    return int(summary["n"]) - int(summary["unfinished"])


def first_dealer_wins(summary: dict) -> Estimate:
    """Rate at which the first dealer's side wins, from a game summary."""
    cell = summary["first_dealer_win"]
    return rate_estimate(cell["rate"], cell["lo"], cell["hi"], finished(summary))


def place_win_rates(result) -> pd.DataFrame:
    """Win rate by place from the first dealer (``first dealer``, ``first dealer +1`` on his left, ...):
    columns label, rate, lo, hi, n (Wilson intervals from the result)."""
    table = result.place_table()
    n = finished(result.summary)
    return pd.DataFrame({"label": table["place"], "rate": table["rate"], "lo": table["lo"], "hi": table["hi"], "n": n})


def lurch_rate(result, threshold: int) -> Estimate:
    """Rate at which a losing side ends below ``threshold`` (lurched / skunked), over every loser of every game."""
    counts = result.loser_score_counts()
    return rate_ci(int(counts[counts.index < threshold].sum()), int(counts.sum()))


def nondealer_preference(games: pd.DataFrame, threshold: int = 10) -> tuple[Estimate, float, float]:
    """Sections 87-96 §89: the first non-dealer's win rate in games where he made ``threshold`` or more in the
    first deal and the dealer no more than his average first deal (two players; per-game rows).

    Returns (estimate, the dealer's average first deal, share of games meeting the condition).
    """
    sides = sum(1 for c in games.columns if c.startswith("first_deal_"))
    if sides != 2:
        raise ValueError("the first non-dealer's preference is a two-player question")
    first = games[["first_deal_0", "first_deal_1"]].to_numpy()
    dealer = games["first_dealer"].to_numpy()
    rows = np.arange(len(games))
    dealer_pts, pone_pts = first[rows, dealer], first[rows, 1 - dealer]
    average = float(dealer_pts.mean())
    mask = (pone_pts >= threshold) & (dealer_pts <= average)
    if not mask.any():
        raise ValueError(f"no game had the first non-dealer at {threshold}+ with the dealer at most average")
    wins = int((games["winner"].to_numpy()[mask] == 1 - dealer[mask]).sum())
    return rate_ci(wins, int(mask.sum())), average, float(mask.mean())


REFERENCE_DIR = Path(__file__).resolve().parents[3] / "data" / "reference"


def published_hand_counts() -> pd.Series:
    """Lumetta's published counts of hand scores over all 12,994,800 hands (data/reference), by points."""
    table = pd.read_csv(REFERENCE_DIR / "hand_score_counts.csv", comment="#")
    return table.set_index("score")["hand_count"].rename_axis("points")


WIN_MARGIN = 0.005
WIN_WHY = (
    "half a point of win rate, one game in 200: no player could notice it over a lifetime of play "
    "(telling 50.5% from 50% takes some 38,000 games at 95% confidence)"
)


def seat_margin(records: pd.DataFrame, seat: int, component: str, dealing: bool | None = None) -> np.ndarray:
    """Per deal of two players' deal records: ``seat``'s ``component`` minus the other seat's (seats deal
    in turn); ``dealing`` True / False keeps only the deals ``seat`` deals / does not deal."""
    dealer = records["dealer"].to_numpy() == seat
    d, p = (records[f"{role}_{component}"].to_numpy(np.int64) for role in ("dealer", "pone"))
    margin = np.where(dealer, d - p, p - d)
    return margin if dealing is None else margin[dealer == dealing]
