"""Results of cribbage deal and game simulations: summaries with intervals, tables and DataFrames (pandas is
imported when a DataFrame is asked for: a deal summary is made from the batch's arrays)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.batch import Batch
from ..core.jobs import Job
from ..core.text import MEAN_METHOD, RATE_METHOD, component_table, mean_interval, policy_line, rate_interval
from ..stats import mean_se, wilson
from .engine import HIST_BINS, place_names, role_names, side_names
from .play import COMPONENTS

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made: a summary needs none
    import pandas as pd

__all__ = [
    "COMPONENT_ORDER",
    "DealResult",
    "GameResult",
    "bar_components",
    "loser_scores",
    "role_names",
    "side_names",
    "summarize",
]
# Column order of breakdown tables: the rule decisions' components, "pegging" = play + go, "last" the last card.
COMPONENT_ORDER = ("hand", "crib", "play", "go", "pegging", "heels", "last", "total")


def bar_components(table) -> list[str]:
    """The components of a DealResult table that are not sums of others (pegging, total), in
    :data:`COMPONENT_ORDER`: the bars of a role's points by component."""
    found = list(dict.fromkeys(table["component"]))
    order = [c for c in COMPONENT_ORDER if c not in ("pegging", "total")]
    return [c for c in order if c in found] + [c for c in found if c not in COMPONENT_ORDER]


def _thresholds(rules) -> dict[str, int]:
    """Lurch/skunk thresholds to report: period ones at 61, modern ones at 121, and the rules' own."""
    found = {}
    if rules.target == 61:
        found = {"lurch, Mottoes (<31)": 31, "lurch, Article (<45)": 45}
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


def _rate(successes: int, n: int) -> dict:
    rate, lo, hi = wilson(int(successes), int(n))
    return {"rate": rate, "lo": lo, "hi": hi}


def _in(frame: pd.DataFrame, scope: str) -> pd.DataFrame:
    return frame[frame["scope"] == scope]


@dataclass
class DealResult:
    """Independent deals: per-role and per-seat means with standard errors, histograms, optional records."""

    job: Job
    batch: Batch

    @property
    def roles(self):
        return role_names(self.job.rules)

    def _table(self, scope: str) -> pd.DataFrame:
        import pandas as pd

        m = self.batch.means(scope)
        return pd.DataFrame(
            {scope: m["who"], "component": m["component"], "mean": m["mean"], "se": m["se"], "n": m["n"]}
        )

    def table(self) -> pd.DataFrame:
        """Tidy per-role table: role, component, mean, se, n."""
        return self._table("role")

    def seat_table(self) -> pd.DataFrame:
        """Tidy per-seat table (seats deal in turn): seat, component, mean, se, n."""
        table = self._table("seat")
        table["seat"] = table["seat"].str.removeprefix("seat ").astype(int)
        return table

    @property
    def histograms(self) -> dict[str, pd.DataFrame]:
        """Per role, counts of deals by points (0 .. HIST_BINS-1, the last bin holding the rest) per component."""
        import pandas as pd

        h = _in(self.batch.histograms, "role")
        index = pd.RangeIndex(HIST_BINS, name="points")
        out = {}
        for role in self.roles:
            wide = h[h["who"] == role].pivot(index="value", columns="component", values="count")
            out[role] = wide.reindex(index=index, columns=list(COMPONENTS)).fillna(0).astype(np.int64)
        return out

    @property
    def records(self) -> pd.DataFrame | None:
        """Per-deal rows (deal, dealer seat, ``{role}_{component}``) when the job asked for them."""
        return self.batch.rows.get("deals")

    @property
    def summary(self) -> dict:
        return {
            **self.job.describe(),
            "roles": self.batch.nested_means("role"),
            "seats": self.batch.nested_means("seat"),
        }


@dataclass
class GameResult:
    """Whole games: win rates, the first dealer's, game length, lurches; rows per game when recorded."""

    job: Job
    batch: Batch

    @property
    def sides(self):
        return side_names(self.job.rules)

    def _count(self, scope: str, who: str, component: str = "wins") -> int:
        return self.batch.total(scope, who, component)[1]

    @property
    def side_wins(self) -> pd.Series:
        """Games won by each side (side name -> count)."""
        import pandas as pd

        return pd.Series({side: self._count("side", side) for side in self.sides}, name="wins")

    @property
    def first_dealer_wins(self) -> int:
        """Games won by the first dealer's side."""
        return self._count("first_dealer", "first dealer's side")

    @property
    def finished(self) -> int:
        """Games that reached the target within the deal cap (the rates are out of these)."""
        return self.batch.n - self._count("game", "all", "unfinished")

    @property
    def games(self) -> pd.DataFrame:
        """One row per game, the columns game, first_dealer (seat), winner (side), deals, score_<side>, first_deal_<side>,
        first_dealer_side.  Kept only when the job asked for records (memory grows with them)."""
        if "games" not in self.batch.rows:
            raise ValueError("per-game rows were not kept: play with records=True")
        return self.batch.rows["games"]

    def score_log(self) -> pd.DataFrame | None:
        """Per deal of each game (up to 64), the columns game, deal, dealer, score_<side> after the deal."""
        return self.batch.rows.get("score_log")

    def loser_score_counts(self) -> pd.Series:
        """How many losing sides finished on each score."""
        return self.batch.histogram("loser", "all", "score")

    def deal_count_histogram(self) -> pd.Series:
        """How many games lasted each number of deals (the last bin holds the longer ones)."""
        return self.batch.histogram("game", "all", "deals")

    def place_table(self) -> pd.DataFrame:
        """Win rate by place from the first dealer (not in partnership games): place, wins, rate, lo, hi."""
        import pandas as pd

        if self.job.rules.partners:
            return pd.DataFrame(columns=["place", "wins", "rate", "lo", "hi"])
        rows = [
            {"place": p, "wins": w, **_rate(w, self.finished)}
            for p in place_names(self.job.rules)
            for w in [self._count("place", p)]
        ]
        return pd.DataFrame(rows)

    @property
    def summary(self) -> dict:
        n = self.finished
        scores, losers = self.batch.histogram_arrays("loser", "all", "score")  # no DataFrame: a summary needs none
        lurches = {}
        for name, threshold in _thresholds(self.job.rules).items():
            lurches[name] = {"threshold": threshold, **_rate(losers[scores < threshold].sum(), losers.sum())}
        _, deals, deals_sq = self.batch.total("game", "all", "deals")
        mean, se = mean_se(deals, deals_sq, self.batch.n)
        return {
            **self.job.describe(),
            "win_rate": {side: _rate(self._count("side", side), n) for side in self.sides},
            "first_dealer_win": _rate(self.first_dealer_wins, n),
            "deals_per_game": {"mean": float(mean), "se": float(se)},
            "loser_below": lurches,
            "unfinished": self.batch.n - n,
        }


def summarize(job: Job, batch: Batch):
    """The result object for a finished batch of a job."""
    return (DealResult if job.kind == "deals" else GameResult)(job, batch)


def render(summary: dict) -> str:
    """A deal or game summary as text (``sims simulate`` / ``sims play``)."""
    rules = summary["rules"]
    if summary["kind"] == "deals":
        components = list(next(iter(summary["roles"].values())))
        lines = [
            f"{rules['name']}: {summary['n']:,} deals, seed {summary['seed']}, {policy_line(summary)}",
            *component_table(summary["roles"], components),
            f"(mean points per deal [{MEAN_METHOD}])",
        ]
        return "\n".join(lines)
    lines = [
        f"{rules['name']} to {rules['target']}: {summary['n']:,} games, seed {summary['seed']}, {policy_line(summary)}",
        f"win rate [{RATE_METHOD}]",
    ]
    for side, entry in summary["win_rate"].items():
        lines.append(f"  {side:<14}{rate_interval(entry)}")
    lines.append(f"  {'first dealer':<14}{rate_interval(summary['first_dealer_win'])}")
    deals = summary["deals_per_game"]
    lines.append(f"deals per game {mean_interval(deals['mean'], deals['se'], 2)} ({MEAN_METHOD})")
    lines.append(f"losers lurched / skunked [{RATE_METHOD}]")
    for name, entry in summary["loser_below"].items():
        lines.append(f"  {name:<24}{rate_interval(entry)}")
    if summary.get("unfinished"):
        lines.append(
            f"{summary['unfinished']:,} games did not reach the target within the deal cap (left out of the rates)"
        )
    return "\n".join(lines)
