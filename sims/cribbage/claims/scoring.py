"""Section 1: the exact hand and crib distributions (no simulation), against Lumetta's published counts."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.report import Section

from .measures import published_hand_counts

NUMBER = "1"
TITLE = "Scoring: exact hand and crib distributions"


def exact_counts() -> pd.DataFrame:
    """Shows by points over all 12,994,800 four cards with a starter: columns hand, crib."""
    from sims.cribbage import show_distribution

    counts = pd.DataFrame({"hand": show_distribution(crib=False), "crib": show_distribution(crib=True)})
    counts.index.name = "points"
    return counts


def run(ctx) -> Section:
    counts = exact_counts()
    prob = counts / counts.sum()
    pts = counts.index.to_numpy()
    summary = pd.DataFrame(
        {
            "mean": (prob.T * pts).sum(axis=1),
            "P(0 points)": prob.iloc[0],
            "most points": [int(pts[counts[c] > 0].max()) for c in counts],
        }
    )
    summary.index.name = "show"
    published = published_hand_counts().reindex(counts.index, fill_value=0)
    same = bool((published.to_numpy() == counts["hand"].to_numpy()).all())
    return Section(
        NUMBER,
        TITLE,
        text=(
            "Exact counts over all 12,994,800 four-card shows with a starter (the crib needs the starter for a "
            f"flush). The hand counts {'equal' if same else 'DIFFER FROM'} S. S. Lumetta's published counts "
            "('Amusing Cribbage Facts', `data/reference/hand_score_counts.csv`) at every score. These are random "
            "cards; hands and cribs kept by real discards score more (section 2)."
        ),
        tables={"Exact show distributions": summary.round(4)},
        figures={
            "Exact hand and crib score distributions": plots.score_distribution(
                counts, "Exact show scores: every four cards with a starter\n(hand; crib: a flush needs the starter)"
            )
        },
    )
