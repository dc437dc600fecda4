"""Section 7: lurches and skunks: how often the loser ends below the period thresholds (Mottoes and the Article)."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, less, source
from sims.analysis.report import Section

from .measures import GAME, MAIN, lurch_rate

NUMBER = "7"
TITLE = "Lurches and skunks"
SRC_31 = source(
    "Mottoes",
    "Laws",
    "A lurch—scoring the whole sixty-one before your adversary has scored thirty-one—is equivalent to a double game",
)
SRC_45 = source(
    "Article",
    "art. CRIBBAGE",
    "if either of the gamesters reach this before the other is forty-five, "
    "this last is said to be lurched, and the other gains a double gaine.",
)
RARE = less(
    0.10,
    0.01,
    "'one game in ten' is itself a round figure: a rate within a point of it is neither "
    "clearly rare nor clearly common",
)
CLAIM_RULES = "five-card"
TABLE = (("five-card", (31, 45)), ("six-card-61", (31, 45)), ("six-card", (61, 91)), ("eight-card", (61, 91)))


def run(ctx) -> Section:
    label = policy_label(MAIN)
    five = ctx.result(GAME, "games", CLAIM_RULES, MAIN)
    claims = []
    for cid, threshold, src in (("7a", 31, SRC_31), ("7b", 45, SRC_45)):
        e = lurch_rate(five, threshold)
        claims.append(
            Claim(
                cid,
                f"A lurch (winning 61 before the loser reaches {threshold}), paid as a double game, is an "
                f"exceptional result.",
                src,
                f"share of five-card games the loser ends below {threshold}",
                e.estimate,
                e.interval,
                e.n,
                RARE,
                reading="a double stake rewards a rare result: under one game in ten",
                notes="The books give no frequency; the claim tested is the reading that a double stake rewards a "
                "rare result.",
                rules=CLAIM_RULES,
                policies=label,
                percent=True,
            )
        )
    rows, chart, counts = [], [], {}
    for rules, limits in TABLE:
        result = ctx.result(GAME, "games", rules, MAIN)
        counts[rules] = result.loser_score_counts()
        for t in limits:
            e = lurch_rate(result, t)
            rows.append({"rules": rules, "loser below": t, "rate [95% CI]": e.format(1, 100) + " %", "games": e.n})
            chart.append({"label": f"{rules}: below {t}", "estimate": e.estimate, "lo": e.lo, "hi": e.hi})
    n = f"{claims[0].n:,} games each"
    return Section(
        NUMBER,
        TITLE,
        claims,
        tables={"Lurch and skunk rates": pd.DataFrame(rows)},
        figures={
            "Lurch and skunk rates": plots.interval_chart(
                pd.DataFrame(chart),
                f"Games whose loser ends below the threshold\n{label} in self-play, {n}",
                "games",
                lines=[(0.1, "one game in ten")],
                bands=[(0.09, 0.11, "10% ± the margin (1%)")],
                percent=True,
            ),
            "The loser's final score": plots.loser_scores(
                counts,
                [t for _, limits in TABLE for t in limits],
                f"The loser's final score by variant\n{label} in self-play, {n}",
            ),
        },
    )
