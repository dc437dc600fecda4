"""Triumph's results: tricks and trump-tricks per deal (or per game, and who won it) for each seat, as a DataFrame
and as text."""

from __future__ import annotations

from dataclasses import dataclass

from sims.core.batch import Batch
from sims.core.jobs import Job
from sims.core.text import MEAN_METHOD, mean_interval

from .play import GAME_TALLY, TALLY


@dataclass
class DealResult:
    job: Job
    batch: Batch

    @property
    def records(self):
        return self.batch.rows.get(self.job.kind)

    def table(self):
        """Per deal (game), for each seat: seat, component, mean, se, n."""
        return (GAME_TALLY if self.job.kind == "games" else TALLY).frame(self.batch.totals)

    @property
    def summary(self) -> dict:
        table = self.table().set_index(["seat", "component"])[["mean", "se"]]
        return {**self.job.describe(), "seats": {s: table.loc[s].to_dict("index") for s in table.index.levels[0]}}


summarize = DealResult  # what the core calls: summarize(job, batch)


def render(summary) -> str:
    kind = summary["kind"]
    lines = [f"{summary['n']:,} {kind} of Triumph ({summary['rules']['name']}), per {kind[:-1]} [{MEAN_METHOD}]:"]
    for seat, values in summary["seats"].items():
        lines.append(
            f"  {seat}: " + ", ".join(f"{k} {mean_interval(v['mean'], v['se'], 3)}" for k, v in values.items())
        )
    return "\n".join(lines)
