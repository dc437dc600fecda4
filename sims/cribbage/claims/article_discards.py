"""Section 5: the Article's discard advice against expected-value discards (five-card), under both readings
of the pone's "the very worst in his hand"."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, at_least, source
from sims.analysis.report import Section
from sims.stats import rate_estimate

from .measures import GAME, MAIN, WIN_MARGIN, WIN_WHY, finished

NUMBER = "5"
TITLE = "The Article's discard advice against expected-value play"
RULES = "five-card"
SRC = source(
    "Article",
    "art. CRIBBAGE",
    "the dealer lays down the two best cards he can for his crib ; and his "
    "antagonist lays down the other two, the very worst in his hand, by reason the crib is the property "
    "of the dealer.",
)
AS_WELL_AS = at_least(0.5, WIN_MARGIN, WIN_WHY)
READINGS = (  # id, discard policy, reading of "the very worst in his hand"
    (
        "5a",
        "hoyle",
        "the pone's 'very worst in his hand' = the two cards worth least to the dealer's crib (he spoils the crib)",
    ),
    (
        "5b",
        "hoyle_hand",
        "the pone's 'very worst in his hand' = the two cards worth least to his own hand (he keeps his best hand)",
    ),
)


def run(ctx) -> Section:
    n = max(1, ctx.games // 4)  # the advice's exact crib values make its discards slow
    claims, rows = [], []
    for cid, advice, reading in READINGS:
        policies = {"discard": [advice, MAIN["discard"]], "peg": MAIN["peg"]}
        summary = ctx.result(GAME, "games", RULES, policies, n=n).summary
        cell = summary["win_rate"]["seat 0"]
        e = rate_estimate(cell["rate"], cell["lo"], cell["hi"], finished(summary))
        claims.append(
            Claim(
                cid,
                "The Article's discard advice (dealer: the two best cards for his crib; pone: the very worst) plays "
                "as well as discarding by expected value (five-card to 61).",
                SRC,
                "win rate of a player following the advice against an expected-value discarder (same pegging)",
                e.estimate,
                e.interval,
                e.n,
                AS_WELL_AS,
                reading=reading + "; 'as well as' = wins at least half",
                notes="Seats cut for the first deal, so each is first dealer about half the time. A quarter of the "
                "report's number of games: the advice's discard policies are slow.",
                rules=RULES,
                policies=policy_label(policies),
                percent=True,
            )
        )
        rows.append({"label": f"{cid}: {advice}", "estimate": e.estimate, "lo": e.lo, "hi": e.hi})
    figure = plots.interval_chart(
        pd.DataFrame(rows),
        f"The Article's advice against expected-value discards, {RULES}\n"
        f"win rate of the advice's player, {claims[0].n:,} games each; both peg {MAIN['peg']}",
        "games won by the advice",
        lines=[(0.5, "as well as: 50%")],
        bands=[(0.5 - WIN_MARGIN, 0.5 + WIN_MARGIN, "50% ± the margin (0.5%)")],
        percent=True,
    )
    return Section(NUMBER, TITLE, claims, figures={"The advice's win rate under each reading": figure})
