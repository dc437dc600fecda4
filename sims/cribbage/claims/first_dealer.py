"""Section 3: the first dealer's advantage (Sections 87-96 §89-90, Article) and the first non-dealer's preference."""

from __future__ import annotations

import pandas as pd

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, Reference, more, source
from sims.analysis.report import Section

from .measures import (
    GAME,
    MAIN,
    SCORE_LOG_GAMES,
    WIN_MARGIN,
    WIN_WHY,
    finished,
    first_dealer_wins,
    nondealer_preference,
)

NUMBER = "3"
TITLE = "The first dealer's advantage"
SRC_TRIFLING = source("Sections 87-96", "§89", "The first dealer is thought to have some trifling advantage")
SRC_PREFERENCE = source(
    "Sections 87-96",
    "§89",
    "The first non-dealer is considered to have the preference, when he "
    "gains ten or more the first hand, the dealer not making more than his average number.",
)
SRC_EIGHT = source(
    "Sections 87-96", "§90", "Six are retained in hand, and the game is conducted on the same plan as before."
)
SRC_LIFT = source(
    "Article", "art. CRIBBAGE", "as it is an ad vantage to deal, by reason of the crib, itis proper to lift for it"
)
FIRST_DEALER_121 = Reference((0.555, 0.56), "Cribbage Pro, several million human-played hands; D. Colvert")
TRIFLING = more(0.5, WIN_MARGIN, WIN_WHY, cap=0.6)
ADVANTAGE = more(0.5, WIN_MARGIN, WIN_WHY)
TRIFLING_READING = "'some trifling advantage': the first dealer wins more than half the games, but under 60%"
PREFERENCE_RULES = "six-card-61"
CASES = (  # id, rules, source, claimed, reference, reading, notes, statement
    (
        "3a",
        "six-card-61",
        SRC_TRIFLING,
        TRIFLING,
        None,
        TRIFLING_READING,
        "",
        "The first dealer has some trifling advantage in six-card to 61.",
    ),
    (
        "3b",
        "six-card",
        SRC_TRIFLING,
        TRIFLING,
        FIRST_DEALER_121,
        TRIFLING_READING,
        "",
        "The first dealer has some trifling advantage in six-card to 121.",
    ),
    (
        "3c",
        "five-card",
        SRC_LIFT,
        ADVANTAGE,
        None,
        "'an advantage to deal': the first dealer wins more than half",
        "Three for last (3 to the first non-dealer) is played.",
        "Dealing first is an advantage worth cutting for in five-card to 61.",
    ),
    (
        "3d",
        "eight-card",
        SRC_EIGHT,
        TRIFLING,
        None,
        TRIFLING_READING,
        "§90 says eight-card is played on the same plan as six-card, so §89's sentence is applied to it.",
        "Eight-card 'on the same plan': the first dealer has some trifling advantage.",
    ),
)


def run(ctx) -> Section:
    label = policy_label(MAIN)
    # the richest run first: at the default size it serves claim 3a and 3e too (same rules and size)
    logged = ctx.result(
        GAME, "games", PREFERENCE_RULES, MAIN, n=min(ctx.games, SCORE_LOG_GAMES), records=True, score_log=True
    )
    games = ctx.result(GAME, "games", PREFERENCE_RULES, MAIN, records=True)  # claim 3e's; it serves 3a too
    claims, rates, lengths = [], [], {}
    for cid, rules, src, claimed, ref, reading, notes, statement in CASES:
        result = ctx.result(GAME, "games", rules, MAIN)
        e = first_dealer_wins(result.summary)
        claims.append(
            Claim(
                cid,
                statement,
                src,
                "share of games the first dealer wins",
                e.estimate,
                e.interval,
                e.n,
                claimed,
                reading=reading,
                reference=ref,
                notes=notes,
                rules=rules,
                policies=label,
                percent=True,
            )
        )
        rates.append({"label": rules, "estimate": e.estimate, "lo": e.lo, "hi": e.hi})
        lengths[rules] = result.deal_count_histogram()
    pref, average, share = nondealer_preference(games.games)
    base = 1 - first_dealer_wins(games.summary).estimate
    claims.append(
        Claim(
            "3e",
            "In six-card to 61 the first non-dealer is the favourite when he makes 10+ in the first deal and "
            "the dealer no more than his average.",
            SRC_PREFERENCE,
            "first non-dealer's win rate in games meeting the condition",
            pref.estimate,
            pref.interval,
            pref.n,
            ADVANTAGE,
            reading="'the first hand' = all his points of the first deal (play and show); "
            "'has the preference' = wins more than half of those games",
            notes=f"The dealer's average first deal is {average:.2f} points; {share:.1%} of games meet the condition. "
            f"Over all games the first non-dealer wins {100 * base:.1f}%. The other reading of 'the first hand' "
            f"(the show of his four cards alone) needs the first deal's components per game, which the game "
            f"rows do not keep; it is not tested.",
            rules=PREFERENCE_RULES,
            policies=label,
            percent=True,
        )
    )
    n_games = f"{finished(games.summary):,} games each"
    positions = plots.board_positions(logged.games, logged.score_log(), 61)
    return Section(
        NUMBER,
        TITLE,
        claims,
        figures={
            "First dealer's win rate by variant": plots.interval_chart(
                pd.DataFrame(rates),
                f"First dealer's win rate by variant\n{label} in self-play, {n_games}",
                "games won by the first dealer",
                lines=[(0.5, "even: 50%"), (0.6, "'trifling': under 60%")],
                bands=[(0.5 - WIN_MARGIN, 0.5 + WIN_MARGIN, "50% ± the margin (0.5%)")],
                percent=True,
            ),
            "Game length by variant": plots.game_lengths(
                lengths, f"Deals per game by variant\n{label} in self-play, {n_games}"
            ),
            "Win probability by the score after a deal, six-card to 61": plots.win_probability_map(
                positions,
                61,
                bin_size=3,
                title=f"P(win) by the score after a deal, six-card to 61\n{label} in "
                f"self-play, {finished(logged.summary):,} games",
            ),
        },
    )
