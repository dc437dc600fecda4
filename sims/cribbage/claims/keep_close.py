"""Section 6: Sections 87-96 §89, "it is of advantage to the last player to keep as close as possible" (six-card)."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import TEXTS, Claim, more, source
from sims.analysis.report import Section
from sims.stats import paired_diff

from .measures import GAME, MAIN, seat_margin

NUMBER = "6"
TITLE = "Pegging: keep as close as possible"
RULES = "six-card"
SRC = source(
    "Sections 87-96",
    "§89",
    "At this game it is of advantage to the last player to keep as close as "
    "possible, in hope of coming in for fifteen, a sequence, or pair, besides the end hole, or thirty-one.",
)
# Seat 0 pegs with and without the keep-close rule; seat 1 pegs with the main policy (which keeps close) in both.
CLOSE_PEG, OPEN_PEG = "defensive", "defensive_no_close"
GAIN = more(
    0.0,
    0.05,
    "a twentieth of a point per deal is half a point over a game of 121 (about nine deals) "
    "and under 2% of the 2.7 points a player pegs a deal: too little to change who wins",
)


def run(ctx) -> Section:
    with_rule, without = ({"discard": MAIN["discard"], "peg": [p, CLOSE_PEG]} for p in (CLOSE_PEG, OPEN_PEG))
    a = ctx.result(GAME, "deals", RULES, with_rule, records=True).records
    b = ctx.result(GAME, "deals", RULES, without, records=True).records
    rows = []
    for label, dealing in (("all deals", None), ("as dealer", True), ("as pone", False)):
        for comp in ("play", "go", "pegging"):
            c = paired_diff(seat_margin(a, 0, comp, dealing), seat_margin(b, 0, comp, dealing))
            rows.append(
                {
                    "label": f"{comp}, {label}",
                    "estimate": c.estimate,
                    "lo": c.lo,
                    "hi": c.hi,
                    "difference [95% CI]": c.format(4),
                    "deals": c.n,
                }
            )
    e = paired_diff(seat_margin(a, 0, "pegging"), seat_margin(b, 0, "pegging"))
    claim = Claim(
        "6",
        "The last player gains in the play by keeping as close as possible.",
        SRC,
        "a player's pegging (play + go) minus his opponent's per deal, dealing in turn: keeping close minus not",
        e.estimate,
        e.interval,
        e.n,
        GAIN,
        reading="'the last player' = the one who plays on after his opponent has said go (as in the end hole of "
        f"{TEXTS['Mottoes'].cite()}); 'keep as close as possible' = lay the card that comes nearest 31",
        notes=f"Seat 0 pegs {CLOSE_PEG} or {OPEN_PEG} (the last player lays his lowest card instead); seat 1 pegs "
        f"{CLOSE_PEG} in both runs. Both runs use the same deals (common random numbers); the interval is "
        "the paired one, from the per-deal differences. Read as 'the dealer' (who plays second), the "
        "table's 'as dealer' rows give the same comparison in the deals he deals.",
        rules=RULES,
        policies=f"{policy_label(with_rule)} vs {policy_label(without)}",
    )
    table = pd.DataFrame(rows)
    figure = plots.interval_chart(
        table,
        f"Keeping close minus not: a player's pegging lead per deal, {RULES}\n"
        f"seat 0 {CLOSE_PEG} or {OPEN_PEG}, seat 1 {CLOSE_PEG}; {e.n:,} paired deals",
        "points per deal (his pegging minus his opponent's)",
        lines=[(0, "no difference")],
        bands=[(-GAIN.margin, GAIN.margin, "± the margin (0.05)")],
        digits=4,
    )
    return Section(
        NUMBER,
        TITLE,
        [claim],
        tables={"Keeping close minus not (paired, same deals)": table[["label", "difference [95% CI]", "deals"]]},
        figures={"Keeping close minus not, by role": figure},
    )
