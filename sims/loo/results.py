"""Results of Loo deals and sessions: money by place with intervals, rates, the pool, and the money check.

Every result says whether money was conserved, from exact integer totals: in
independent deals, what the players won and lost adds up to what the pools held
over from before less what they carried on; in sessions, the seats' money and
the pools left on the table add up to nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ..core.batch import Batch, quantile
from ..core.jobs import Job
from ..core.text import MEAN_METHOD, interval
from ..stats import Z95, mean_se, wilson
from .engine import POOL_BINS, place_names, role_names
from .play import ENDINGS

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made: a summary is made from the batch's arrays
    import pandas as pd

# Each rate by place: its outcome and what it is a rate of ("deals": every deal; "stands": the deals he stood).
# "looed of stands" is the chance a player who stands is looed; "looed of deals" his chance per deal.
RATES = {
    "stood": ("stood", "deals"),
    "miss": ("miss", "deals"),
    "looed of stands": ("looed", "stands"),
    "looed of deals": ("looed", "deals"),
    "swept": ("swept", "deals"),
}


def _frame(data) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(data)


def _rate(successes: int, n: int) -> dict:
    rate, lo, hi = wilson(int(successes), int(n))
    return {"rate": rate, "lo": lo, "hi": hi, "n": int(n)}


def _mean(total: int, total_sq: int, n: int) -> dict:
    mean, se = mean_se(total, total_sq, n)
    mean, se = float(mean), float(se)
    return {"mean": mean, "se": se, "lo": mean - Z95 * se, "hi": mean + Z95 * se}


@dataclass
class _Result:
    job: Job
    batch: Batch

    @property
    def roles(self) -> tuple[str, ...]:
        return role_names(self.job.rules.players)

    @property
    def deals(self) -> int:
        """How many deals were played (each session holds several)."""
        raise NotImplementedError

    def _get(self, scope, who, component) -> tuple[int, int, int]:
        return self.batch.total(scope, who, component)

    def table(self) -> pd.DataFrame:
        """Per deal, by role (place from the dealer), the columns role, outcome, mean, se, n."""
        m = self.batch.means("role")
        return _frame({"role": m["who"], "outcome": m["component"], "mean": m["mean"], "se": m["se"], "n": m["n"]})

    def _rates(self, role: str) -> dict:
        """:data:`RATES` of one role, with Wilson intervals."""
        n, stood, _ = self._get("role", role, "stood")
        return {
            name: _rate(self._get("role", role, outcome)[1], stood if of == "stands" else n)
            for name, (outcome, of) in RATES.items()
        }

    def rates(self) -> pd.DataFrame:
        """By role: how often the player stood, took the miss, was looed (of the deals he stood, and of all
        deals) and swept the board with a flush, with Wilson intervals."""
        return _frame(
            [{"role": role, "rate of": name, **r} for role in self.roles for name, r in self._rates(role).items()]
        )

    def _looed_per_deal(self) -> dict:
        """:meth:`looed_per_deal` as named arrays (a summary reads them without a DataFrame)."""
        values, counts = self.batch.histogram_arrays("deal", "all", "looed")
        deals = np.zeros(self.job.rules.players + 1, dtype=np.int64)
        deals[values] = counts
        return {"looed": np.arange(len(deals)), "deals": deals, "share": deals / max(int(deals.sum()), 1)}

    def looed_per_deal(self) -> pd.DataFrame:
        """How many players are looed in a deal: looed (0 .. players), deals, share."""
        return _frame(self._looed_per_deal())

    def _endings(self) -> list[dict]:
        """The rows of :meth:`endings`."""
        return [{"ending": e, **_rate(self._get("ending", e, "deals")[1], self.deals)} for e in ENDINGS]

    def endings(self) -> pd.DataFrame:
        """How deals ended: played out, the dealer taking the pool, the stakes given up, a flush."""
        return _frame(self._endings())

    def pool_histogram(self, component: str = "carried_on") -> pd.Series:
        """Deals by the size of a pool in stakes (bin v: 2**(v-1) <= pool/stake < 2**v; v = 0: empty)."""
        return self.batch.histogram("deal", "all", component).reindex(range(POOL_BINS), fill_value=0)

    def _mean_of(self, scope, who, component) -> dict:
        n, s, ss = self._get(scope, who, component)
        return _mean(s, ss, n)

    def _role_summary(self) -> dict:
        return {
            role: {
                "money": self._mean_of("role", role, "money"),
                **self._rates(role),
                "tricks": self._mean_of("role", role, "tricks"),
            }
            for role in self.roles
        }

    def _common(self) -> dict:
        deal = {k: self._mean_of("deal", "all", k) for k in ("carry", "pool", "carried_on", "standers")}
        looed = self._looed_per_deal()
        return {
            "roles": self._role_summary(),
            "deal": deal,
            "looed_per_deal": {int(k): float(v) for k, v in zip(looed["looed"], looed["share"], strict=True)},
            "endings": {row["ending"]: {k: row[k] for k in ("rate", "lo", "hi")} for row in self._endings()},
        }


@dataclass
class DealResult(_Result):
    """Independent deals: money and rates by role and by seat, the pools, how deals ended, optional records."""

    @property
    def deals(self) -> int:
        return self.batch.n

    def seat_table(self) -> pd.DataFrame:
        """By seat (every seat deals in turn): seat, outcome, mean, se, n."""
        m = self.batch.means("seat")
        seats = np.array([int(who.removeprefix("seat ")) for who in m["who"]], dtype=np.int64)
        return _frame({"seat": seats, "outcome": m["component"], "mean": m["mean"], "se": m["se"], "n": m["n"]})

    @property
    def records(self) -> pd.DataFrame | None:
        """Per deal, the columns deal, carry, pool, carried_on, standers, single, ending, dealer, ``{role}_{outcome}``."""
        return self.batch.rows.get("deals")

    def money(self) -> dict:
        """Money conserved: the players' money, what the pools held over and what they carried on (exact)."""
        players = int(self.batch.total_columns.where(scope="role", component="money")["sum"].sum())
        carried_in = self._get("deal", "all", "carry")[1]
        carried_on = self._get("deal", "all", "carried_on")[1]
        return {
            "players": players,
            "carried_in": carried_in,
            "carried_on": carried_on,
            "conserved": players == carried_in - carried_on,
        }

    @cached_property
    def summary(self) -> dict:
        """Computed once (the claims read it many times, and describing the expert's tables is slow)."""
        return {**self.job.describe(), **self._common(), "money": self.money()}


@dataclass
class GameResult(_Result):
    """Sessions: each seat's money by seat and by place from the first dealer, per session and per deal; the
    per-deal tables by role over every deal played; the pool through a session; optional rows."""

    @property
    def deals(self) -> int:
        return self.batch.n * self.job.rules.session_deals

    @property
    def games(self) -> pd.DataFrame:
        """One row per session, the columns game, first_dealer, pool_left, largest_pool, money_<seat>."""
        if "games" not in self.batch.rows:
            raise ValueError("per-session rows were not kept: play with records=True")
        return self.batch.rows["games"]

    def _money_rows(self) -> list[dict]:
        """The rows of :meth:`money_table`."""
        rows = []
        deals = self.job.rules.session_deals
        for scope, names in (
            ("seat", [f"seat {s}" for s in range(self.job.rules.players)]),
            ("place", place_names(self.job.rules.players)),
        ):
            for who in names:
                n, s, ss = self._get(scope, who, "money")
                m = _mean(s, ss, n)
                rows.append(
                    {
                        "scope": scope,
                        "who": who,
                        "per_session": m["mean"],
                        "se": m["se"],
                        "per_deal": m["mean"] / deals,
                        "per_deal_lo": m["lo"] / deals,
                        "per_deal_hi": m["hi"] / deals,
                        "sessions": n,
                    }
                )
        return rows

    def money_table(self) -> pd.DataFrame:
        """By seat and by place from the first dealer: money per session and per deal with 95% intervals."""
        return _frame(self._money_rows())

    def _pool_by_deal(self) -> dict:
        """:meth:`pool_by_deal` as named columns, made from the arrays (a summary reads them)."""
        m = self.batch.means("deal number")
        columns: dict[str, np.ndarray | list[float]] = {
            "deal": np.arange(1, len(m) + 1),
            "pool": m["mean"],
            "se": m["se"],
        }
        hists = [self.batch.histogram_arrays("deal number", f"deal {d}", "pool in stakes") for d in columns["deal"]]
        for name, q in POOL_QUANTILES.items():
            columns[name] = [quantile(values, counts, q) for values, counts in hists]
        return columns

    def pool_by_deal(self) -> pd.DataFrame:
        """The pool played for at each deal of a session: its mean and standard error (money units), and its
        quartiles, 90th percentile and largest in whole stakes (the pool divided by the stake, rounded down;
        the quantiles of its distribution over the sessions, ``engine.POOL_STAKES`` - 1 standing for that
        or more)."""
        return _frame(self._pool_by_deal())

    def largest_pool_histogram(self) -> pd.Series:
        """Sessions by their largest pool in stakes (bins as :meth:`pool_histogram`)."""
        return self.batch.histogram("session", "all", "largest_pool").reindex(range(POOL_BINS), fill_value=0)

    def money(self) -> dict:
        """Money conserved: the seats' money and the pools left on the table add up to nothing (exact)."""
        players = int(self.batch.total_columns.where(scope="seat")["sum"].sum())
        left = self._get("session", "all", "pool_left")[1]
        return {"players": players, "pool_left": left, "conserved": players + left == 0}

    @cached_property
    def summary(self) -> dict:
        """Computed once, as for :attr:`DealResult.summary`."""
        money = {
            row["who"]: {k: row[k] for k in ("per_session", "se", "per_deal", "per_deal_lo", "per_deal_hi")}
            for row in self._money_rows()
        }
        pool = self._pool_by_deal()
        by_deal = zip(*(np.asarray(column).tolist() for column in pool.values()))  # python numbers, as to_dict gives
        pools = {k: self._mean_of("session", "all", k) for k in ("pool_left", "largest_pool")}
        return {
            **self.job.describe(),
            "session_deals": self.job.rules.session_deals,
            "seat_money": money,
            **self._common(),
            "pools": pools,
            "pool_by_deal": [dict(zip(pool, row)) for row in by_deal],
            "money": self.money(),
        }


POOL_QUANTILES = {"q25": 0.25, "median": 0.5, "q75": 0.75, "q90": 0.9, "largest": 1.0}


def summarize(job: Job, batch: Batch):
    """The result object for a finished batch of a job."""
    return (DealResult if job.kind == "deals" else GameResult)(job, batch)


def render(summary: dict) -> str:
    """A summary as text: the rules and size, money and rates by role, how deals ended, the money check."""
    rules = summary["rules"]
    kind = "deals" if summary["kind"] == "deals" else f"sessions of {summary['session_deals']} deals"
    lines = [
        f"Loo, {rules['name']}: {rules['players']} players, {summary['n']:,} {kind}, seed {summary['seed']}",
        "",
        f"{'role':<10} {'money per deal [95% interval]':>34} {'stood':>7} {'miss':>7} {'looed/stood':>12}"
        f" {'looed/deal':>11} {'tricks':>7}",
    ]
    for role, r in summary["roles"].items():
        lines.append(
            f"{role:<10} {interval(r['money']['mean'], r['money']['lo'], r['money']['hi'], 3, '+'):>34} {r['stood']['rate']:>7.3f} {r['miss']['rate']:>7.3f}"
            f" {r['looed of stands']['rate']:>12.3f} {r['looed of deals']['rate']:>11.3f}"
            f" {r['tricks']['mean']:>7.3f}"
        )
    if "seat_money" in summary:
        lines += ["", f"{'seat':<16} {'money per session':>18} {'per deal [95% interval]':>34}"]
        for who, m in summary["seat_money"].items():
            per_deal = interval(m["per_deal"], m["per_deal_lo"], m["per_deal_hi"], 3, "+")
            lines.append(f"{who:<16} {m['per_session']:>+18.2f} {per_deal:>34}")
        lines.append(
            f"pool left at the end {summary['pools']['pool_left']['mean']:.2f}, largest pool "
            f"{summary['pools']['largest_pool']['mean']:.2f} (means per session)"
        )
        lines += [
            "",
            "pool by deal of the session (mean in units; quantiles in whole stakes):",
            f"{'deal':>6} {'mean':>10} {'q25':>5} {'median':>7} {'q75':>5} {'q90':>5} {'largest':>8}",
        ]
        lines += [
            f"{row['deal']:>6} {row['pool']:>10.2f} {row['q25']:>5} {row['median']:>7} {row['q75']:>5}"
            f" {row['q90']:>5} {row['largest']:>8}"
            for row in summary["pool_by_deal"]
        ]
    lines += [
        "",
        "deals ending: " + ", ".join(f"{e} {v['rate']:.3f}" for e, v in summary["endings"].items()),
        f"mean pool played for {summary['deal']['pool']['mean']:.2f}, carried on "
        f"{summary['deal']['carried_on']['mean']:.2f}; standers per deal "
        f"{summary['deal']['standers']['mean']:.2f}",
        "players looed in a deal: " + ", ".join(f"{k} {v:.3f}" for k, v in summary["looed_per_deal"].items()),
        f"money conserved: {'yes' if summary['money']['conserved'] else 'NO'}",
        f"[lo, hi]: {MEAN_METHOD}",
    ]
    return "\n".join(lines)
