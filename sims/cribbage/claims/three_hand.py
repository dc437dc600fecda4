"""Section 4: Sections 87-96 §88, three people with one sitting out each deal in rotation: "the first dealer generally
wins" — under two readings, and asked of true three-hand (§87) for comparison."""

from __future__ import annotations

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, more, source
from sims.analysis.report import Section

from .measures import GAME, MAIN, WIN_MARGIN, WIN_WHY, finished, first_dealer_wins, place_win_rates

NUMBER = "4"
TITLE = "Three players: does the first dealer generally win?"
SRC = source(
    "Sections 87-96",
    "§88",
    "wherein one person sits out, not each game, but each deal in rotation. In this the first dealer generally wins.",
)
CASES = (
    ("three-rotation", "4a", "4b", "three people, one sitting out each deal in rotation", ""),
    (
        "three-hand",
        "4c",
        "4d",
        "true three-hand",
        "§88 says this of the rotation game; the same question is asked of true three-hand for comparison.",
    ),
)
READINGS = (
    (more(0.5, WIN_MARGIN, WIN_WHY), "'generally wins' = wins more than half the games"),
    (more(1 / 3, WIN_MARGIN, WIN_WHY), "'generally wins' = wins more than his fair third"),
)


def run(ctx) -> Section:
    label = policy_label(MAIN)
    claims, tables, figures = [], {}, {}
    for rules, strong_id, weak_id, what, notes in CASES:
        result = ctx.result(GAME, "games", rules, MAIN)
        e = first_dealer_wins(result.summary)
        for cid, (claimed, reading) in zip((strong_id, weak_id), READINGS, strict=True):
            claims.append(
                Claim(
                    cid,
                    f"In {what}, the first dealer generally wins.",
                    SRC,
                    "share of games the first dealer wins",
                    e.estimate,
                    e.interval,
                    e.n,
                    claimed,
                    reading=reading,
                    notes=notes,
                    rules=rules,
                    policies=label,
                    percent=True,
                )
            )
        table = place_win_rates(result)
        table["win rate [95% CI]"] = [
            f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] %"
            for r, lo, hi in zip(table["rate"], table["lo"], table["hi"], strict=True)
        ]
        tables[f"Win rate by seat, {rules}"] = table[["label", "win rate [95% CI]", "n"]]
        figures[f"Win rate by seat, {rules}"] = plots.interval_chart(
            table.rename(columns={"rate": "estimate"}),
            f"Win rate by place from the first dealer, {rules}\n{label} in self-play, "
            f"{finished(result.summary):,} games ('+1': on his left)",
            "games won",
            lines=[(1 / 3, "a fair third"), (0.5, "half")],
            percent=True,
        )
    return Section(NUMBER, TITLE, claims, tables=tables, figures=figures)
