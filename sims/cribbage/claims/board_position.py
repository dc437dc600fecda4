"""Section 11: board position: the chance of winning from every score, and players that play for the game.

The board-position table (:mod:`sims.cribbage.odds`) answers the sentence of Sections 87-96 §89 on the first
non-dealer's preference exactly, from the position the first deal leaves, instead of from the few
games that happen to start that way; and the position-aware players retest the first dealer's
advantage when both players play for the game.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, more, source
from sims.analysis.report import Section
from sims.cribbage.lab.odds.build import win_table
from sims.cribbage.odds.figure import heatmap
from sims.cribbage.odds.match import paired_match
from sims.cribbage.policies.position import position_policies

from .measures import GAME, MAIN, WIN_MARGIN, WIN_WHY, finished, first_dealer_wins

NUMBER = "11"
TITLE = "Board position: the chance of winning from every score"
RULES = "six-card-61"
SRC_PREFERENCE = source(
    "Sections 87-96",
    "§89",
    "The first non-dealer is considered to have the preference, when he "
    "gains ten or more the first hand, the dealer not making more than his average number.",
)
SRC_TRIFLING = source("Sections 87-96", "§89", "The first dealer is thought to have some trifling advantage")
ADVANTAGE = more(0.5, WIN_MARGIN, WIN_WHY)
TRIFLING = more(0.5, WIN_MARGIN, WIN_WHY, cap=0.6)
GRID = (0, 10, 20, 30, 40, 50, 55, 58, 60)


def _record(ctx, what: str, n: int, seconds: float, version: str) -> None:
    """A run of this section in the report's provenance table (the tables are not Context results)."""
    ctx.runs.append(
        {
            "game": GAME,
            "kind": what,
            "rules": RULES,
            "policies": policy_label(MAIN),
            "seed": ctx.seed,
            "n": n,
            "engine version": version,
            "seconds": round(seconds, 1),
        }
    )


def run(ctx) -> Section:
    start = time.perf_counter()
    table = win_table(RULES, MAIN, n_deals=ctx.deals, seed=ctx.seed)
    _record(
        ctx, "deals (board-position table)", ctx.deals, time.perf_counter() - start, table.provenance.get("version", "")
    )
    totals = table.model.totals.astype(np.float64)  # [dealer's points, pone's points] of a deal
    deals = totals.sum()
    dealer_points = np.arange(totals.shape[0])
    average = float((totals.sum(1) * dealer_points).sum() / deals)
    label = policy_label(MAIN)
    t = table.half_width

    # 11a: the boundary of the sentence: the non-dealer made exactly ten, the dealer his average (in whole
    # points, not more).  The non-dealer deals the second deal on 10 against the old dealer's points.
    worst = int(np.floor(average))
    w, se = table.win[10, worst], table.win_se[10, worst]
    claims = [
        Claim(
            "11a",
            "In six-card to 61 the first non-dealer is the favourite when he makes 10 in the first deal and the "
            "dealer no more than his average (the board-position table at that position).",
            SRC_PREFERENCE,
            "first non-dealer's chance of winning, dealing second on 10 against the dealer's average",
            float(w),
            (float(w - t * se), float(w + t * se)),
            int(table.provenance["n"]),
            ADVANTAGE,
            reading=f"'the first hand' = his points of the first deal; the least the sentence allows: 10 against "
            f"{worst} (the dealer's average first deal is {average:.2f})",
            notes="Exact counting out from the table (backward induction over deal timings, jackknife interval).",
            rules=RULES,
            policies=label,
            percent=True,
        )
    ]

    # 11b: the sentence over every first deal it covers, weighted by how often each occurs.
    pone_points = np.arange(totals.shape[1])
    mask = (pone_points[None, :] >= 10) & (dealer_points[:, None] <= average)
    weights = np.where(mask, totals, 0.0)
    d_idx, p_idx = np.nonzero(weights)
    share = weights[d_idx, p_idx] / weights.sum()
    est = float((share * table.win[p_idx, d_idx]).sum())
    half = float(t * (share * table.win_se[p_idx, d_idx]).sum())  # errors taken as fully correlated
    claims.append(
        Claim(
            "11b",
            "In six-card to 61 the first non-dealer is the favourite over all first deals where he makes 10+ "
            "and the dealer no more than his average.",
            SRC_PREFERENCE,
            "first non-dealer's chance of winning, averaged over the first deals meeting the condition",
            est,
            (est - half, est + half),
            int(weights.sum()),
            ADVANTAGE,
            reading="'the first hand' = his points of the first deal; every first deal meeting the condition, "
            "weighted by its frequency",
            notes=f"{weights.sum() / deals:.1%} of first deals meet the condition. The interval adds the positions' "
            f"intervals as if their errors were one (conservative). Section 3 (claim 3e) answers the same "
            f"sentence from whole games.",
            rules=RULES,
            policies=label,
            percent=True,
        )
    )

    # 11c: the first dealer's advantage when both players play for the game.
    players = position_policies()
    games = ctx.result(GAME, "games", RULES, players)
    e = first_dealer_wins(games.summary)
    claims.append(
        Claim(
            "11c",
            "The first dealer has some trifling advantage in six-card to 61 when both play for the game "
            "(position-aware players).",
            SRC_TRIFLING,
            "share of games the first dealer wins",
            e.estimate,
            e.interval,
            e.n,
            TRIFLING,
            reading="'some trifling advantage': more than half the games, under 60%",
            notes=f"Claim 3a asks the same of {label}; the board-position table gives "
            f"{100 * table.win[0, 0]:.1f}% for it.",
            rules=RULES,
            policies=policy_label(players),
            percent=True,
        )
    )

    start = time.perf_counter()
    match = paired_match(RULES, players, MAIN, max(ctx.games // 2, 2), ctx.seed)
    _record(
        ctx,
        "games (paired match, seats exchanged)",
        match["games"],
        time.perf_counter() - start,
        table.provenance.get("version", ""),
    )
    strength = pd.DataFrame(
        [
            {
                "player": policy_label(players),
                "against": label,
                "games": match["games"],
                "win rate": match["rate"],
                "lo": match["lo"],
                "hi": match["hi"],
                "game points": match["game_points"],
            }
        ]
    )
    grid = pd.DataFrame(
        100 * table.win[np.ix_(GRID, GRID)],
        index=pd.Index(GRID, name="dealer's score"),
        columns=pd.Index(GRID, name="pone's score"),
    ).round(1)
    fig_win = heatmap(table).figure
    text = (
        f"The table plays {table.provenance['n']:,} deals of {label} once and reads every position from "
        f"them by counting out in the order the rules give (heels, the play card by card, the pone's hand, "
        f"the dealer's hand, the crib). Before the first deal the first dealer wins "
        f"{100 * table.win[0, 0]:.1f}%; the largest 95% half-width at any position is "
        f"{100 * t * table.win_se.max():.2f} percentage points. The position-aware players "
        f"({finished(games.summary):,} games in self-play) and their paired match against {label} show "
        f"what playing for the game changes."
    )
    return Section(
        NUMBER,
        TITLE,
        claims,
        text=text,
        tables={
            "The dealer's chance of winning before a deal (%), six-card to 61": grid,
            "Position-aware players against expected_net + defensive, paired games": strength,
        },
        figures={"The dealer's chance of winning from every position, six-card to 61": fig_win},
    )
