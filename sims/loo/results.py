"""Results of Loo deals and sessions: money by place with intervals, rates, the pool, and the money check.

Every result says whether money was conserved, from exact integer totals: in
independent deals, what the players won and lost adds up to what the pools held
over from before less what they carried on; in sessions, the seats' money and
the pools left on the table add up to nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.batch import Batch
from ..core.jobs import Job
from ..stats import Z95, mean_se, wilson
from .engine import POOL_BINS, place_names, role_names
from .play import ENDINGS

RATES = ("stood", "miss", "looed", "swept")


def _rate(successes: int, n: int) -> dict:
    rate, lo, hi = wilson(int(successes), int(n))
    return {"rate": rate, "lo": lo, "hi": hi, "n": int(n)}


def _mean(total: int, total_sq: int, n: int) -> dict:
    mean, se = mean_se(total, total_sq, n)
    mean, se = float(mean), float(se)
    return {"mean": mean, "se": se, "lo": mean - Z95 * se, "hi": mean + Z95 * se}


def _scope(frame: pd.DataFrame, scope: str) -> pd.DataFrame:
    return frame[frame["scope"] == scope]


@dataclass
class _Result:
    job: Job
    batch: Batch

    @property
    def roles(self) -> tuple[str, ...]:
        return role_names(self.job.rules.players)

    def _get(self, scope, who, component) -> tuple[int, int, int]:
        return self.batch.total(scope, who, component)

    def table(self) -> pd.DataFrame:
        """Per deal, by role (place from the dealer): role, outcome, mean, se, n."""
        t = _scope(self.batch.totals, "role")
        mean, se = mean_se(t["sum"].to_numpy(), t["sumsq"].to_numpy(), t["n"].to_numpy())
        return pd.DataFrame({"role": t["who"].to_numpy(), "outcome": t["component"].to_numpy(), "mean": mean,
                             "se": se, "n": t["n"].to_numpy()})

    def rates(self) -> pd.DataFrame:
        """By role: how often the player stood, took the miss, was looed (of the deals he stood) and swept the
        board with a flush, with Wilson intervals."""
        rows = []
        for role in self.roles:
            n, stood, _ = self._get("role", role, "stood")
            for what in RATES:
                count = self._get("role", role, what)[1]
                rows.append({"role": role, "rate of": what, **_rate(count, stood if what == "looed" else n)})
        return pd.DataFrame(rows)

    def endings(self) -> pd.DataFrame:
        """How deals ended: played out, the dealer taking the pool, the stakes given up, a flush."""
        return pd.DataFrame([{"ending": e, **_rate(self._get("ending", e, "deals")[1], self.deals)}
                             for e in ENDINGS])

    def pool_histogram(self, component: str = "next_pool") -> pd.Series:
        """Deals by the size of a pool in stakes (bin v: 2**(v-1) <= pool/stake < 2**v; v = 0: empty)."""
        return self.batch.histogram("deal", "all", component).reindex(range(POOL_BINS), fill_value=0)

    def _mean_of(self, scope, who, component) -> dict:
        n, s, ss = self._get(scope, who, component)
        return _mean(s, ss, n)

    def _role_summary(self) -> dict:
        out = {}
        for role in self.roles:
            n, stood, _ = self._get("role", role, "stood")
            entry = {"money": self._mean_of("role", role, "money")}
            for what in RATES:
                entry[what] = _rate(self._get("role", role, what)[1], stood if what == "looed" else n)
            entry["tricks"] = self._mean_of("role", role, "tricks")
            out[role] = entry
        return out

    def _common(self) -> dict:
        deal = {k: self._mean_of("deal", "all", k) for k in ("carry", "pool", "next_pool", "standers")}
        return {"roles": self._role_summary(), "deal": deal,
                "endings": {row["ending"]: {k: row[k] for k in ("rate", "lo", "hi")}
                            for row in self.endings().to_dict("records")}}


@dataclass
class DealResult(_Result):
    """Independent deals: money and rates by role and by seat, the pools, how deals ended, optional records."""

    @property
    def deals(self) -> int:
        return self.batch.n

    def seat_table(self) -> pd.DataFrame:
        """By seat (every seat deals in turn): seat, outcome, mean, se, n."""
        t = _scope(self.batch.totals, "seat")
        mean, se = mean_se(t["sum"].to_numpy(), t["sumsq"].to_numpy(), t["n"].to_numpy())
        return pd.DataFrame({"seat": t["who"].str.removeprefix("seat ").astype(int).to_numpy(),
                             "outcome": t["component"].to_numpy(), "mean": mean, "se": se, "n": t["n"].to_numpy()})

    @property
    def records(self) -> pd.DataFrame | None:
        """Per deal: deal, carry, pool, next_pool, standers, single, ending, dealer, ``{role}_{outcome}``."""
        return self.batch.rows.get("deals")

    def money(self) -> dict:
        """Money conserved: the players' money, what the pools held over and what they carried on (exact)."""
        players = int(_scope(self.batch.totals, "role").query("component == 'money'")["sum"].sum())
        carried_in = self._get("deal", "all", "carry")[1]
        carried_on = self._get("deal", "all", "next_pool")[1]
        return {"players": players, "carried_in": carried_in, "carried_on": carried_on,
                "conserved": players == carried_in - carried_on}

    @property
    def summary(self) -> dict:
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
        """One row per session: game, first_dealer, pool_left, largest_pool, money_<seat>."""
        if "games" not in self.batch.rows:
            raise ValueError("per-session rows were not kept: play with records=True")
        return self.batch.rows["games"]

    def money_table(self) -> pd.DataFrame:
        """By seat and by place from the first dealer: money per session and per deal with 95% intervals."""
        rows = []
        deals = self.job.rules.session_deals
        for scope, names in (("seat", [f"seat {s}" for s in range(self.job.rules.players)]),
                             ("place", place_names(self.job.rules.players))):
            for who in names:
                n, s, ss = self._get(scope, who, "money")
                m = _mean(s, ss, n)
                rows.append({"scope": scope, "who": who, "per_session": m["mean"], "se": m["se"],
                             "per_deal": m["mean"] / deals, "per_deal_lo": m["lo"] / deals,
                             "per_deal_hi": m["hi"] / deals, "sessions": n})
        return pd.DataFrame(rows)

    def pool_by_deal(self) -> pd.DataFrame:
        """The mean pool played for at each deal of a session, with its standard error."""
        t = _scope(self.batch.totals, "deal number")
        mean, se = mean_se(t["sum"].to_numpy(), t["sumsq"].to_numpy(), t["n"].to_numpy())
        return pd.DataFrame({"deal": np.arange(1, len(t) + 1), "pool": mean, "se": se})

    def largest_pool_histogram(self) -> pd.Series:
        """Sessions by their largest pool in stakes (bins as :meth:`pool_histogram`)."""
        return self.batch.histogram("session", "all", "largest_pool").reindex(range(POOL_BINS), fill_value=0)

    def money(self) -> dict:
        """Money conserved: the seats' money and the pools left on the table add up to nothing (exact)."""
        players = int(_scope(self.batch.totals, "seat")["sum"].sum())
        left = self._get("session", "all", "pool_left")[1]
        return {"players": players, "pool_left": left, "conserved": players + left == 0}

    @property
    def summary(self) -> dict:
        money = {row["who"]: {k: row[k] for k in ("per_session", "se", "per_deal", "per_deal_lo", "per_deal_hi")}
                 for row in self.money_table().to_dict("records")}
        pools = {k: self._mean_of("session", "all", k) for k in ("pool_left", "largest_pool")}
        return {**self.job.describe(), "session_deals": self.job.rules.session_deals, "seat_money": money,
                **self._common(), "pools": pools, "money": self.money()}


def summarize(job: Job, batch: Batch):
    """The result object for a finished batch of a job."""
    return (DealResult if job.kind == "deals" else GameResult)(job, batch)


def _interval(m: dict, digits: int = 3) -> str:
    return f"{m['mean']:+.{digits}f} ({m['lo']:+.{digits}f} to {m['hi']:+.{digits}f})"


def render(summary: dict) -> str:
    """A summary as text: the rules and size, money and rates by role, how deals ended, the money check."""
    rules = summary["rules"]
    kind = "deals" if summary["kind"] == "deals" else f"sessions of {summary['session_deals']} deals"
    lines = [f"Loo, {rules['name']}: {rules['players']} players, {summary['n']:,} {kind}, seed {summary['seed']}",
             "", f"{'role':<10} {'money per deal (95% interval)':>34} {'stood':>7} {'miss':>7} {'looed':>7}"
             f" {'tricks':>7}"]
    for role, r in summary["roles"].items():
        lines.append(f"{role:<10} {_interval(r['money']):>34} {r['stood']['rate']:>7.3f} {r['miss']['rate']:>7.3f}"
                     f" {r['looed']['rate']:>7.3f} {r['tricks']['mean']:>7.3f}")
    if "seat_money" in summary:
        lines += ["", f"{'seat':<16} {'money per session':>18} {'per deal (95% interval)':>34}"]
        for who, m in summary["seat_money"].items():
            per_deal = f"{m['per_deal']:+.3f} ({m['per_deal_lo']:+.3f} to {m['per_deal_hi']:+.3f})"
            lines.append(f"{who:<16} {m['per_session']:>+18.2f} {per_deal:>34}")
        lines.append(f"pool left at the end {summary['pools']['pool_left']['mean']:.2f}, largest pool "
                     f"{summary['pools']['largest_pool']['mean']:.2f} (means per session)")
    lines += ["", "deals ending: " + ", ".join(f"{e} {v['rate']:.3f}" for e, v in summary["endings"].items()),
              f"mean pool played for {summary['deal']['pool']['mean']:.2f}, carried on "
              f"{summary['deal']['next_pool']['mean']:.2f}; standers per deal "
              f"{summary['deal']['standers']['mean']:.2f}",
              f"money conserved: {'yes' if summary['money']['conserved'] else 'NO'}"]
    return "\n".join(lines)
