"""Section 2: Sections 87-96 §89, "each player may, on the average, expect to make twenty-five points in every
two deals" (six-card), across playing strengths; and why more points in self-play is not stronger play."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, Reference, equal, source
from sims.analysis.report import Section
from sims.stats import breakdown_table, rate_estimate

from ..results import COMPONENT_ORDER, bar_components
from .measures import GAME, GREEDY, MAIN, RANDOM, finished, points_per_two_deals, role_mean

NUMBER = "2"
TITLE = "Twenty-five points in every two deals"
RULES = "six-card"
SRC = source(
    "Sections 87-96", "§89", "each player may, on the average, expect to make twenty-five points in every two deals."
)
TWENTY_FIVE = equal(25.0, 0.5, '"twenty-five" is a round number: the claim holds for the values that round to it')
EXPERT_PER_DEAL = Reference(
    (26.3, 26.4),
    "expert play: J. Chambers, Cribbage: A New Concept (pone 10.1 + "
    "dealer 16.2); D. Colvert, Twenty-Six Theory (10.2 + 16.2)",
)
STRENGTHS = {
    "random": RANDOM,
    "greedy": GREEDY,
    "expected value": MAIN,
    "expected-value discards, greedy pegging": {"discard": MAIN["discard"], "peg": "greedy"},
    "greedy discards, defensive pegging": {"discard": "greedy", "peg": MAIN["peg"]},
}
HEAD_TO_HEAD = {"discard": ["greedy", MAIN["discard"]], "peg": ["greedy", MAIN["peg"]]}


def strength_rows(ctx, strengths: dict, rules: str = RULES) -> pd.DataFrame:
    """A player's points in two deals for each labelled policy pair in self-play, the dealer's and the pone's
    mean totals, and the verdict against twenty-five (same deals for every pair: common random numbers)."""
    rows = []
    for label, policies in strengths.items():
        summary = ctx.result(GAME, "deals", rules, policies).summary
        e = points_per_two_deals(summary)
        rows.append(
            {
                "label": label,
                "policies": policy_label(policies),
                "dealer": role_mean(summary, "dealer", "total")[0],
                "pone": role_mean(summary, "pone", "total")[0],
                "crib": role_mean(summary, "dealer", "crib")[0],
                "pegging": role_mean(summary, "dealer", "pegging")[0] + role_mean(summary, "pone", "pegging")[0],
                "estimate": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                "points in two deals [95% CI]": e.format(2),
                "verdict against 25": TWENTY_FIVE.verdict(e.interval),
            }
        )
    return pd.DataFrame(rows)


def head_to_head(ctx, policies: dict = HEAD_TO_HEAD, rules: str = RULES):
    """Seat 1's win rate over whole games of per-seat ``policies`` (by default greedy in seat 0 against the
    main policies in seat 1)."""
    summary = ctx.result(GAME, "games", rules, policies).summary
    cell = summary["win_rate"]["seat 1"]
    return rate_estimate(cell["rate"], cell["lo"], cell["hi"], finished(summary))


def run(ctx) -> Section:
    table = strength_rows(ctx, STRENGTHS)
    main = ctx.result(GAME, "deals", RULES, MAIN)
    est = points_per_two_deals(main.summary)
    claim = Claim(
        "2",
        "Each player makes on average twenty-five points in every two deals (six-card).",
        SRC,
        "a player's points in two deals, once dealer and once pone (mean dealer total + mean pone total per deal)",
        est.estimate,
        est.interval,
        est.n,
        TWENTY_FIVE,
        reference=EXPERT_PER_DEAL,
        notes="The two means come from the same deals; the interval uses the any-correlation bound on the "
        "standard error, so it is conservative. The table shows how the answer moves with playing strength.",
        rules=RULES,
        policies=policy_label(MAIN),
    )
    greedy, ev = table.set_index("label").loc["greedy"], table.set_index("label").loc["expected value"]
    wins = head_to_head(ctx)
    text = (
        f"**More points is not stronger play.** Greedy self-play makes {greedy['estimate']:.2f} points in two deals, "
        f"more than expected-value play ({ev['estimate']:.2f}), yet greedy is the weaker player. The extra points "
        f"come from the play ({greedy['pegging']:.2f} pegging points in two deals against {ev['pegging']:.2f}): "
        "greedy pegging lays the card that scores most at once and often leaves the count open to a reply (a "
        "pair, a fifteen, a run), so it gives points away; in self-play each player takes what the other gives, and "
        "both totals rise together. Greedy discards alone score less (the last two rows), and the dealer's crib is "
        f"no larger ({greedy['crib']:.2f} points a deal against {ev['crib']:.2f}). Points per player in self-play "
        "measure how freely both players give points, not how strong either is. Head to head over whole games "
        f"({RULES}, seat 0 greedy, seat 1 {policy_label(MAIN)}), the expected-value player wins "
        f"{wins.format(1, 100)} % of {wins.n:,} games."
    )
    chart = table[["label", "estimate", "lo", "hi"]]
    n = f"{int(main.summary['n']):,} deals each"
    fig = plots.interval_chart(
        chart,
        f"Points per player in two deals, {RULES}, by policies in self-play\n({n}; the same deals for each)",
        "points in two deals",
        lines=[(25, "the claim: 25")],
        bands=[(24.5, 25.5, "25 ± the margin (0.5)"), (*EXPERT_PER_DEAL.value, "expert play, published 26.3-26.4")],
    )
    return Section(
        NUMBER,
        TITLE,
        [claim],
        text=text,
        tables={
            "By playing strength (self-play; crib: the dealer's per deal; pegging: both roles' in two deals)": table[
                [
                    "label",
                    "policies",
                    "dealer",
                    "pone",
                    "crib",
                    "pegging",
                    "points in two deals [95% CI]",
                    "verdict against 25",
                ]
            ].round(2),
            f"Points per deal by role ({policy_label(MAIN)})": breakdown_table(main.table(), order=COMPONENT_ORDER),
        },
        figures={
            "Points in two deals by playing strength": fig,
            "Points per deal by role and component": plots.components_by_role(
                main.table(),
                f"Points per deal by role and component, {RULES}\n{policy_label(MAIN)} in self-play, {n}",
                components=bar_components(main.table()),
            ),
        },
    )
