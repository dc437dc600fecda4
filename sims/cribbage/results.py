"""Results of deal and game simulations: summaries with intervals, tables and DataFrames."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..stats import mean_se, wilson
from .engine import HIST_BINS, ROLE_NAMES, Batch, Job
from .play import COMPONENTS, G_DEALS, G_FIRST_DEAL, G_FIRST_DEALER, G_SCORE, G_WINNER, MAX_SEATS


def role_names(rules) -> tuple[str, ...]:
    """Names of the places at a deal: dealer, pone (two-handed) or eldest and the rest."""
    return ROLE_NAMES[rules.active]


def side_names(rules) -> tuple[str, ...]:
    """Scoring sides: each seat, or the two partnerships in four-hand."""
    if rules.partners:
        return ("seats 0+2", "seats 1+3")
    return tuple(f"seat {s}" for s in range(rules.players))


def _thresholds(rules) -> dict[str, int]:
    """Lurch/skunk thresholds to report: period ones at 61, modern ones at 121, and the rules' own."""
    found = {}
    if rules.target == 61:
        found = {"lurch, seed 000 (<31)": 31, "lurch, seed 004 (<45)": 45}
    elif rules.target == 121:
        found = {"skunk (<91)": 91, "double skunk (<61)": 61}
    for name, threshold in (("lurch (rules)", rules.lurch), ("double lurch (rules)", rules.double_lurch)):
        if threshold > 0 and threshold not in found.values():
            found[f"{name[:-1]}, <{threshold})"] = threshold
    return found


def loser_scores(games: pd.DataFrame) -> np.ndarray:
    """Final score of every losing side of every game (two per game with three players)."""
    sides = sum(1 for c in games.columns if c.startswith("score_"))
    scores = games[[f"score_{s}" for s in range(sides)]].to_numpy()
    return scores[np.arange(sides)[None, :] != games["winner"].to_numpy()[:, None]]


@dataclass
class DealResult:
    """Independent deals: per-role and per-seat means with standard errors, histograms, optional records."""

    job: Job
    batch: Batch

    @property
    def roles(self):
        return role_names(self.job.rules)

    def table(self) -> pd.DataFrame:
        """Tidy per-role table: role, component, mean, se, n."""
        a = self.batch.arrays
        n = self.batch.n
        mean, se = mean_se(a["role_sums"], a["role_sumsq"], n)
        rows = [(role, comp, mean[r, k], se[r, k], n) for r, role in enumerate(self.roles)
                for k, comp in enumerate(COMPONENTS)]
        return pd.DataFrame(rows, columns=["role", "component", "mean", "se", "n"])

    def seat_table(self) -> pd.DataFrame:
        """Tidy per-seat table (seats deal in turn): seat, component, mean, se, n."""
        a = self.batch.arrays
        rows = []
        for s in range(self.job.rules.players):
            mean, se = mean_se(a["seat_sums"][s], a["seat_sumsq"][s], a["seat_n"][s])
            rows += [(s, comp, mean[k], se[k], int(a["seat_n"][s])) for k, comp in enumerate(COMPONENTS)]
        return pd.DataFrame(rows, columns=["seat", "component", "mean", "se", "n"])

    @property
    def histograms(self) -> dict[str, pd.DataFrame]:
        """Per role: counts of deals by points (0 .. HIST_BINS-1, the last bin holding the rest) per component."""
        hist = self.batch.arrays["hist"]
        index = pd.RangeIndex(HIST_BINS, name="points")
        return {role: pd.DataFrame(hist[r].T, index=index, columns=list(COMPONENTS))
                for r, role in enumerate(self.roles)}

    @property
    def records(self) -> pd.DataFrame | None:
        """Per-deal rows (deal, dealer seat, ``{role}_{component}``) when the job asked for them."""
        a = self.batch.arrays
        if "records" not in a:
            return None
        deal = a["record_index"]
        data = {"deal": deal, "dealer": deal % self.job.rules.players}
        for r, role in enumerate(self.roles):
            for k, comp in enumerate(COMPONENTS):
                data[f"{role}_{comp}"] = a["records"][:, r, k].astype(np.int64)
        return pd.DataFrame(data)

    @property
    def summary(self) -> dict:
        by_role = {}
        for row in self.table().itertuples():
            by_role.setdefault(row.role, {})[row.component] = {"mean": float(row.mean), "se": float(row.se)}
        by_seat = {}
        for row in self.seat_table().itertuples():
            by_seat.setdefault(f"seat {row.seat}", {})[row.component] = {"mean": float(row.mean),
                                                                          "se": float(row.se)}
        return {**self.job.describe(), "roles": by_role, "seats": by_seat}


@dataclass
class GameResult:
    """Whole games: winners, first dealer, final scores, game length, lurches."""

    job: Job
    batch: Batch

    @property
    def sides(self):
        return side_names(self.job.rules)

    @property
    def games(self) -> pd.DataFrame:
        """One row per game: game, first_dealer (seat), winner (side), score_<side>, deals, first_deal_<side>."""
        rows = self.batch.arrays["rows"]
        n_sides = len(self.sides)
        data = {"game": self.batch.arrays["record_index"], "first_dealer": rows[:, G_FIRST_DEALER],
                "winner": rows[:, G_WINNER], "deals": rows[:, G_DEALS]}
        for s in range(n_sides):
            data[f"score_{s}"] = rows[:, G_SCORE + s]
        for s in range(n_sides):
            data[f"first_deal_{s}"] = rows[:, G_FIRST_DEAL + s]
        frame = pd.DataFrame(data)
        frame["first_dealer_side"] = frame["first_dealer"] % 2 if self.job.rules.partners else frame["first_dealer"]
        return frame

    def score_log(self) -> pd.DataFrame | None:
        """Per deal of each game (up to 64): game, deal, dealer, score_<side> after the deal."""
        logs = self.batch.arrays.get("logs")
        if logs is None:
            return None
        deals = self.batch.arrays["rows"][:, G_DEALS]
        n_games, length = logs.shape[:2]
        game = np.repeat(self.batch.arrays["record_index"], length)
        deal = np.tile(np.arange(length), n_games)
        keep = deal < np.repeat(np.minimum(deals, length), length)
        flat = logs.reshape(n_games * length, 1 + MAX_SEATS).astype(np.int64)[keep]
        data = {"game": game[keep], "deal": deal[keep], "dealer": flat[:, 0]}
        for s in range(len(self.sides)):
            data[f"score_{s}"] = flat[:, 1 + s]
        return pd.DataFrame(data)

    @property
    def summary(self) -> dict:
        g = self.games
        n = len(g)
        wins = {}
        for s, name in enumerate(self.sides):
            rate, lo, hi = wilson(int((g["winner"] == s).sum()), n)
            wins[name] = {"rate": rate, "lo": lo, "hi": hi}
        rate, lo, hi = wilson(int((g["winner"] == g["first_dealer_side"]).sum()), n)
        losers = loser_scores(g)
        lurches = {}
        for name, threshold in _thresholds(self.job.rules).items():
            rate_t, lo_t, hi_t = wilson(int((losers < threshold).sum()), losers.size)
            lurches[name] = {"threshold": threshold, "rate": rate_t, "lo": lo_t, "hi": hi_t}
        deals = g["deals"].to_numpy(dtype=np.float64)
        return {**self.job.describe(), "win_rate": wins, "first_dealer_win": {"rate": rate, "lo": lo, "hi": hi},
                "deals_per_game": {"mean": float(deals.mean()), "se": float(deals.std(ddof=1) / np.sqrt(n))
                                   if n > 1 else float("nan")},
                "loser_below": lurches}


def summarize(job: Job, batch: Batch):
    """The result object for a finished batch of a job."""
    return (DealResult if job.kind == "deals" else GameResult)(job, batch)
