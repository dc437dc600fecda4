"""The results of a game that declares no results module of its own (``Game.results`` left at this one): the
means per item of every table its engine adds up for the job's kind (the engine's ``TALLIES[kind]``, a
:class:`~sims.core.layout.Tally`), as a DataFrame and as text."""

from __future__ import annotations

from dataclasses import dataclass

from .batch import Batch
from .jobs import Job
from .policies import load
from .text import MEAN_METHOD, mean_interval


@dataclass
class TallyResult:
    job: Job
    batch: Batch

    @property
    def records(self):
        return self.batch.rows.get(self.job.kind)

    def table(self):
        """Per item (deal or game), for each table of the tally and each of its rows: scope, who, component,
        mean, se, n."""
        import pandas as pd

        tally = load(self.job.game.engine).TALLIES[self.job.kind]
        tables = [t for t in tally.tables if t.totals]
        frames = [t.frame(self.batch.totals).rename(columns={t.scope: "who"}).assign(scope=t.scope) for t in tables]
        return pd.concat(frames, ignore_index=True)[["scope", "who", "component", "mean", "se", "n"]]

    @property
    def summary(self) -> dict:
        means: dict = {}
        for row in self.table().itertuples():
            means.setdefault(row.scope, {}).setdefault(row.who, {})[row.component] = {"mean": row.mean, "se": row.se}
        return {**self.job.describe(), "means": means}


summarize = TallyResult  # what the core calls: summarize(job, batch)


def render(summary) -> str:
    kind, rules = summary["kind"], summary["rules"]["name"]
    lines = [f"{summary['n']:,} {kind} of {summary['game']} ({rules}), per {kind[:-1]} [{MEAN_METHOD}]:"]
    for whos in summary["means"].values():
        for who, values in whos.items():
            means = (f"{k} {mean_interval(v['mean'], v['se'], 3)}" for k, v in values.items())
            lines.append(f"  {who}: " + ", ".join(means))
    return "\n".join(lines)
