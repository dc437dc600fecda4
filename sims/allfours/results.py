"""Results of All Fours hands and games: means with standard errors, rates with Wilson intervals, text.

The batch layout is :mod:`sims.allfours.engine`'s.  Points are per hand (deals) or per game
(games) by component: ``turned`` (knaves turned up, to the dealer), ``gift`` ("take one"),
``high``, ``low``, ``jack``, ``game`` and their ``total``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.batch import Batch
from ..core.jobs import Job
from ..core.text import MEAN_METHOD, RATE_METHOD, component_table, mean_interval, policy_line, rate_interval
from ..stats import mean_se, wilson
from .engine import role_names, side_names
from .holdings import POINTS as HOLDING_POINTS
from .holdings import table as holding_table
from .maxims import MAXIMS
from .play import COMPONENTS, EVENTS

__all__ = ["DealResult", "GameResult", "render", "summarize"]


def _rate(successes: int, n: int) -> dict:
    rate, lo, hi = wilson(int(successes), int(n))
    return {"rate": rate, "lo": lo, "hi": hi}


def _means(totals: pd.DataFrame, scope: str) -> pd.DataFrame:
    """scope, who, component, mean, se, n of the totals of one scope."""
    t = totals[totals["scope"] == scope]
    mean, se = mean_se(t["sum"].to_numpy(), t["sumsq"].to_numpy(), t["n"].to_numpy())
    return pd.DataFrame(
        {
            "scope": scope,
            "who": t["who"].to_numpy(),
            "component": t["component"].to_numpy(),
            "mean": mean,
            "se": se,
            "n": t["n"].to_numpy(),
        }
    )


@dataclass
class _Result:
    job: Job
    batch: Batch

    def _events(self) -> dict:
        """:meth:`events` as named arrays (a summary reads them without a DataFrame)."""
        m = self.batch.means("hand")
        return {"event": m["component"], "count": m["sum"], "hands": m["n"], "mean": m["mean"], "se": m["se"]}

    def events(self) -> pd.DataFrame:
        """What happened per hand (``play.EVENTS``): event, count, hands, mean per hand and its se.
        The cards can be run several times in a hand, and a hand dealt again (and begged again); the
        other events happen once or not at all."""
        return pd.DataFrame(self._events())

    def _agreement(self) -> list[dict]:
        """The rows of :meth:`agreement`."""
        t = self.batch.total_columns.where(scope="maxim")
        sums = dict(zip(zip(t["who"], t["component"]), t["sum"]))
        rows = []
        for seat in dict.fromkeys(t["who"]):
            for maxim in MAXIMS:
                advised, agreed = int(sums[seat, f"{maxim} advised"]), int(sums[seat, f"{maxim} agreed"])
                rows.append(
                    {"seat": seat, "maxim": maxim, "advised": advised, "agreed": agreed, **_rate(agreed, advised)}
                )
        return rows

    def agreement(self) -> pd.DataFrame:
        """With the option ``agreement``: per seat and maxim, the play decisions where the maxim advised
        some legal cards but not all, and the share where the card played was one it advised."""
        return pd.DataFrame(self._agreement(), columns=["seat", "maxim", "advised", "agreed", "rate", "lo", "hi"])

    def _extras(self) -> dict:
        e = self._events()
        events = {event: {"mean": float(m), "se": float(s)} for event, m, s in zip(e["event"], e["mean"], e["se"])}
        agreement: dict[str, dict[str, dict]] = {}  # seat -> maxim -> its row
        for row in self._agreement():
            agreement.setdefault(row.pop("seat"), {})[row.pop("maxim")] = row
        return {"events_per_hand": events, **({"maxim_agreement": agreement} if agreement else {})}


@dataclass
class DealResult(_Result):
    """Independent hands: points per hand by side (the dealer's, the eldest's; and fixed sides), events."""

    @property
    def roles(self):
        return role_names(self.job.rules)

    def table(self) -> pd.DataFrame:
        """Tidy: scope (``role`` or ``side``), who, component, mean, se, n (points per hand)."""
        return pd.concat([_means(self.batch.totals, "role"), _means(self.batch.totals, "side")], ignore_index=True)

    def histogram(self, role: str, component: str) -> pd.Series:
        """Hands by the points ``role`` made in ``component``."""
        return self.batch.histogram("role", role, component)

    @property
    def records(self) -> pd.DataFrame | None:
        """Per-hand rows (deal, dealer, trump, the events, ``<role>_<component>``) when recorded."""
        return self.batch.rows.get("deals")

    def by_holding(self) -> pd.DataFrame:
        """With the option ``holdings``: the chance that a player's side scores high, low, jack and game by what
        he holds when the play begins (``sims.allfours.holdings.table``): side, held, value, hands, each
        point's rate and Wilson interval."""
        if not (self.batch.totals["scope"] == "holding").any():
            raise ValueError("the points by holding were not counted: play with the option holdings=True")
        return holding_table(self.batch.totals)

    @property
    def summary(self) -> dict:
        counted = (self.batch.total_columns["scope"] == "holding").any()
        return {
            **self.job.describe(),
            "roles": self.batch.nested_means("role"),
            "sides": self.batch.nested_means("side"),
            **self._extras(),
            **({"points_by_holding": self.by_holding().to_dict("records")} if counted else {}),
        }


@dataclass
class GameResult(_Result):
    """Whole games: win rates by side and of the first dealer, hands per game, points per game."""

    @property
    def sides(self):
        return side_names(self.job.rules)

    @property
    def finished(self) -> int:
        """Games that reached the target (the rates are out of these)."""
        return self.batch.n - self.batch.total("game", "all", "unfinished")[1]

    def table(self) -> pd.DataFrame:
        """Tidy: who (side, or first dealer), wins, games, rate, lo, hi."""
        rows = [
            {"who": who, "wins": w, "games": self.finished, **_rate(w, self.finished)}
            for who in (*self.sides, "first dealer")
            for w in [self.batch.total("first dealer" if who == "first dealer" else "side", who, "wins")[1]]
        ]
        return pd.DataFrame(rows)

    def points(self) -> pd.DataFrame:
        """Points per game by side and component: who, component, mean, se, n."""
        return _means(self.batch.totals, "side").query("component != 'wins'").reset_index(drop=True)

    def hands_histogram(self) -> pd.Series:
        """Games by the number of hands they lasted (the last bin holds the longer ones)."""
        return self.batch.histogram("game", "all", "hands")

    def loser_scores(self) -> pd.Series:
        """Losing sides by their final score."""
        return self.batch.histogram("game", "all", "loser score")

    @property
    def games(self) -> pd.DataFrame:
        """One row per game, the columns game, first_dealer (seat), winner (side), hands, score_0, score_1."""
        if "games" not in self.batch.rows:
            raise ValueError("per-game rows were not kept: play with records=True")
        return self.batch.rows["games"]

    @property
    def summary(self) -> dict:
        _, hands, hands_sq = self.batch.total("game", "all", "hands")
        mean, se = mean_se(hands, hands_sq, self.batch.n)
        wins = {row.who: {"rate": row.rate, "lo": row.lo, "hi": row.hi} for row in self.table().itertuples()}
        return {
            **self.job.describe(),
            "win_rate": {s: wins[s] for s in self.sides},
            "first_dealer_win": wins["first dealer"],
            "hands_per_game": {"mean": float(mean), "se": float(se)},
            "points_per_game": self.batch.nested_means("side", leave_out="wins"),
            "unfinished": self.batch.n - self.finished,
            **self._extras(),
        }


def summarize(job: Job, batch: Batch):
    """The result object for a finished batch of a job."""
    return (DealResult if job.kind == "deals" else GameResult)(job, batch)


def render(summary: dict) -> str:
    """A hand or game summary as text (``sims simulate`` / ``sims play --game allfours``)."""
    rules = summary["rules"]
    head = (
        f"{rules['name']} to {rules['target']}: {summary['n']:,} {summary['kind']}, seed {summary['seed']}, "
        f"{policy_line(summary)}"
    )
    events = summary["events_per_hand"]
    event_line = "per hand: " + ", ".join(f"{name} {events[name]['mean']:.4f}" for name in EVENTS)
    if summary["kind"] == "deals":
        lines = [
            head,
            *component_table(summary["roles"], list(COMPONENTS)),
            f"(mean points per hand [{MEAN_METHOD}])",
            event_line,
        ]
    else:
        lines = [head, f"win rate [{RATE_METHOD}]"]
        for side, entry in summary["win_rate"].items():
            lines.append(f"  {side:<14}{rate_interval(entry)}")
        lines.append(f"  {'first dealer':<14}{rate_interval(summary['first_dealer_win'])}")
        hands = summary["hands_per_game"]
        lines += [
            f"hands per game {mean_interval(hands['mean'], hands['se'], 2)} ({MEAN_METHOD})",
            *component_table(summary["points_per_game"], list(COMPONENTS)),
            f"(mean points per game [{MEAN_METHOD}])",
            event_line,
        ]
        if summary.get("unfinished"):
            lines.append(f"{summary['unfinished']:,} games did not reach the target (left out of the rates)")
    if summary.get("points_by_holding"):
        lines.append(
            "chance of each point to the holder's side, by what he holds when the play begins (the "
            f"{RATE_METHOD} intervals are in --json):"
        )
        lines.append(f"  {'side':<8}{'held':<20}{'value':<11}{'hands':>9}" + "".join(f"{p:>8}" for p in HOLDING_POINTS))
        for row in summary["points_by_holding"]:
            if row["hands"]:
                lines.append(
                    f"  {row['side']:<8}{row['held']:<20}{row['value']:<11}{row['hands']:>9,}"
                    + "".join(f"{row[p]:>8.3f}" for p in HOLDING_POINTS)
                )
    for seat, maxims in summary.get("maxim_agreement", {}).items():
        lines.append(
            f"{seat} agrees with the maxims [{RATE_METHOD}]: "
            + ", ".join(f"{m} {rate_interval(e)} of {e['advised']:,}" for m, e in maxims.items())
        )
    return "\n".join(lines)
