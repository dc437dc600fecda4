"""The results of a game that declares no results module of its own (``Game.results`` left at this one): the
means per item of every table its engine adds up for the job's kind (the engine's ``TALLIES[kind]``, a
:class:`~sims.core.layout.Tally`), each with its 95% interval (a table of counts, values 0 or 1, gives rates:
Wilson's score interval; any other the mean's normal interval), as a DataFrame and as text."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats import Z95, wilson
from .batch import Batch
from .jobs import Job
from .policies import load
from .text import MEAN_METHOD, RATE_METHOD, interval


@dataclass
class TallyResult:
    job: Job
    batch: Batch

    @property
    def records(self):
        return self.batch.rows.get(self.job.kind)

    def table(self):
        """Per item (deal or game), for each table of the tally and each of its rows: scope, who, component,
        mean, se, n, and the 95% interval ``lo``, ``hi`` (a count's, Wilson's: ``rate`` says which)."""
        import pandas as pd

        tally = load(self.job.game.engine).TALLIES[self.job.kind]
        frames = []
        for t in (t for t in tally.tables if t.totals):
            frame = t.frame(self.batch.totals).rename(columns={t.scope: "who"}).assign(scope=t.scope)
            frame["rate"] = t.totals == "count"
            frames.append(frame)
        frame = pd.concat(frames, ignore_index=True)
        frame["lo"], frame["hi"] = zip(
            *(
                wilson(round(m * n), n)[1:] if rate else (m - Z95 * se, m + Z95 * se)
                for m, se, n, rate in zip(frame["mean"], frame["se"], frame["n"], frame["rate"])
            )
        )
        return frame[["scope", "who", "component", "mean", "se", "lo", "hi", "n", "rate"]]

    @property
    def summary(self) -> dict:
        means: dict = {}
        for row in self.table().itertuples():
            means.setdefault(row.scope, {}).setdefault(row.who, {})[row.component] = {
                "mean": row.mean,
                "se": row.se,
                "lo": row.lo,
                "hi": row.hi,
                "interval": RATE_METHOD if row.rate else MEAN_METHOD,
            }
        return {**self.job.describe(), "means": means}


summarize = TallyResult  # what the core calls: summarize(job, batch)


def render(summary) -> str:
    kind, rules = summary["kind"], summary["rules"]["name"]
    methods = {v["interval"] for whos in summary["means"].values() for values in whos.values() for v in values.values()}
    how = f"{MEAN_METHOD}; rates: Wilson score" if RATE_METHOD in methods else MEAN_METHOD
    lines = [f"{summary['n']:,} {kind} of {summary['game']} ({rules}), per {kind[:-1]} [{how}]:"]
    for whos in summary["means"].values():
        for who, values in whos.items():
            means = (f"{k} {interval(v['mean'], v['lo'], v['hi'], 3)}" for k, v in values.items())
            lines.append(f"  {who}: " + ", ".join(means))
    return "\n".join(lines)
