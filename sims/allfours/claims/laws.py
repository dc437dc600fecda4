"""Section 9, the laws and the begging (issue 21, item 3): law ii (an agreed second beg), law v (asking whether a
played trump is high or low), the dealer's answer to a beg by the hand he holds, and the knaves turned while
running the cards.

:func:`claims` makes the claims 9h-9l with their strongest-player twins and tables for
:func:`sims.allfours.claims.section.run`; the quantities above it are pure functions of results, so
notebook 09 can call them on results of any size.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, equal, more, source
from sims.stats import Estimate, paired_diff, rate_ci

from .base import GAIN, GAME, MAIN, POINT_MARGIN, POINT_WHY, RULES, STRONG_MIN, STRONG_SHARE, seat_net

SRC_LAW_II = source(
    "Sections 87-96", "§92 ii", "No person can beg more than once in each hand, except by mutual agreement."
)
SRC_LAW_V = source(
    "Sections 87-96",
    "§92 v",
    "When a trump is played, it is allowable to ask your adversary if it be either high or low.",
)
SRC_ANSWER = source(
    "Sections 87-96",
    "§93 v",
    "the dealer either suffers his adversary to score one point, saying, "
    '"_Take one_," or gives each player three cards more from the pack',
)
SRC_KNAVE_TURNED = source(
    "Sections 87-96",
    "§91",
    "the thirteenth, is turned up for the trump by the dealer, who, if it prove a knave, scores one point.",
)

# The strongest: the expert as the adversary (seat 1), as for the maxims, with a smaller search (5 samples, 100,000
# positions a decision) since these hands are often played after the cards were run, twelve cards or more each.
EXPERT = {"name": "expert", "params": [5.0, 100_000.0, 9.0]}
LAW_SHARE = 4  # the named players play a quarter of the report's hands: the paired intervals are narrow enough,
LAW_MAX = 500_000  # and at most this many (a run keeps a row per hand)
ANSWERS = (*range(9), 13)  # the dealer gives one from this strength (0 always, 13 never)
HOLDS_A_TRUMP = 1  # strength 1 or more: he holds a trump of the suit turned
MIN_HANDS = 30  # a strength with fewer begged hands has no row in the table
ANSWER_WHY = "a hundredth of a point each time he answers a beg so, the margin of a hand (" + POINT_WHY + ")"
KNAVES_NOT_AGAIN = (
    "how often a knave turns while the cards are run depends on the deal and on the begging and "
    "answering (the same thresholds), not on how the cards are played: the expert's hands give the "
    "same count."
)


# ---- the quantities ----


def eldest_net(records: pd.DataFrame) -> np.ndarray:
    """Per hand of a two-handed deal run kept with records: the eldest's points minus the dealer's."""
    return (records["eldest_total"] - records["dealer_total"]).to_numpy(np.float64)


def answer_policies(give_from: int, play=MAIN["play"]) -> dict:
    """The main begging, the dealer giving one from strength ``give_from`` (0: always, 13: never)."""
    return {"beg": MAIN["beg"], "answer": {"name": "threshold", "params": [give_from]}, "play": play}


def give_minus_run(gives: pd.DataFrame, runs: pd.DataFrame, least: int = MIN_HANDS) -> Estimate | None:
    """The dealer's net points, "take one" minus running the cards, on the hands where the first run gave one and
    the second did not (the same hands: the answer is all that differs); None with fewer than ``least`` such
    hands."""
    chose = (gives["gave one"].to_numpy() > 0) & (runs["gave one"].to_numpy() == 0)
    if chose.sum() < max(least, 2):
        return None
    return paired_diff(-eldest_net(gives)[chose], -eldest_net(runs)[chose])


def answer_by_strength(by_threshold: dict) -> pd.DataFrame:
    """From ``{give from strength t: the records of a deal run}`` for thresholds t in order: for each pair of
    neighbours t < u the begged hands where the dealer's strength is t .. u - 1 (threshold t gives one, u runs
    the cards) and the dealer's net points per such hand, giving one minus running, with the answer it favours."""
    rows = []
    thresholds = sorted(by_threshold)
    n = len(by_threshold[thresholds[0]])
    for t, u in zip(thresholds, thresholds[1:]):
        e = give_minus_run(by_threshold[t], by_threshold[u])
        if e is None:
            continue
        better = "take one" if e.lo > 0 else "run the cards" if e.hi < 0 else "either"
        rows.append(
            {
                "dealer's strength": str(t) if u == t + 1 else f"{t} or more",
                "begged hands": e.n,
                "share of hands": e.n / n,
                "take one minus run [95% CI]": e.format(3),
                "estimate": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                "the better answer": better,
            }
        )
    return pd.DataFrame(rows)


def run_knaves_off():
    from sims.allfours import get_rules

    return get_rules(RULES).replace(name=f"{RULES}, knaves turned running not scored", run_knaves=False)


def second_beg_rules():
    from sims.allfours import get_rules

    return get_rules(RULES).replace(name=f"{RULES}, a second beg agreed", begs=2)


def winners_changed(on: pd.DataFrame, off: pd.DataFrame) -> Estimate:
    """The share of games (the same deals) whose winner differs between two game runs kept with records."""
    changed = on["winner"].to_numpy() != off["winner"].to_numpy()
    return rate_ci(int(changed.sum()), len(changed))


# ---- the claims ----


def _records(ctx, rules, policies, n) -> pd.DataFrame:
    """The records of a deal run used once (not cached: a row per hand)."""
    return ctx.result(GAME, "deals", rules, policies, n=n, records=True, keep=False).records


def _second_beg(ctx, policies, n, once=None):
    """A second beg agreed against the law, the same hands; ``once``: the records of the law's run, when at hand."""
    once = _records(ctx, RULES, policies, n) if once is None else once
    twice = _records(ctx, second_beg_rules(), policies, n)
    d = paired_diff(eldest_net(twice), eldest_net(once))
    eldest = paired_diff(twice["eldest_total"].to_numpy(np.float64), once["eldest_total"].to_numpy(np.float64))
    dealer = paired_diff(twice["dealer_total"].to_numpy(np.float64), once["dealer_total"].to_numpy(np.float64))
    second = float((twice["begs"].to_numpy() > once["begs"].to_numpy()).mean())
    return d, eldest, dealer, second


def _asking(ctx, adversary, n):
    """Seat 0's net points per hand, the forgetful player asking and not (seat 1 ``adversary``), the same hands."""

    def net(asks):
        play = [{"name": "forgetful", "params": [asks]}, adversary]
        return seat_net(_records(ctx, RULES, {**MAIN, "play": play}, n))

    return net(1.0), net(0.0)


def _answers(ctx, play, thresholds, n) -> dict:
    """``{give from strength t: the records' answer and points}`` for each threshold."""
    return {
        t: _records(ctx, RULES, answer_policies(t, play), n)[["gave one", "dealer_total", "eldest_total"]]
        for t in thresholds
    }


def _answer_claims(results: dict, label: str) -> list[Claim]:
    """9j (holding a trump: take one) and 9k (holding none: run the cards) from the runs giving one from
    strength 0, 1 and 13."""
    holds = give_minus_run(results[HOLDS_A_TRUMP], results[13], least=2)
    none = give_minus_run(results[0], results[HOLDS_A_TRUMP], least=2)
    run_minus_give = replace(none, estimate=-none.estimate, lo=-none.hi, hi=-none.lo)
    reading = (
        "'either ... Take one ... or gives each player three cards more' = a choice, each answer the better "
        'one in its situation: "take one" keeps the trump turned, so it is the answer when the dealer '
        "holds a trump of that suit; running the cards changes the trump, so it is the answer when he holds "
        "none (in hands dealt at love all: in a game the score matters too, and the players never give the "
        "point that wins the eldest the game)"
    )
    common = dict(source=SRC_ANSWER, reading=reading, rules=RULES, policies=label, side="the answer")
    return [
        Claim(
            "9j",
            'The dealer holding a trump of the suit turned does better to say "take one" than to run the cards.',
            quantity="the dealer's points minus the eldest's, per begged hand in which he holds a "
            "trump: take one minus run the cards (the same hands)",
            estimate=holds.estimate,
            interval=holds.interval,
            n=holds.n,
            claimed=more(0.0, POINT_MARGIN, ANSWER_WHY),
            **common,
        ),
        Claim(
            "9k",
            'The dealer holding no trump of the suit turned does better to run the cards than to say "take one".',
            quantity="the dealer's points minus the eldest's, per begged hand in which he "
            "holds no trump: run the cards minus take one (the same hands)",
            estimate=run_minus_give.estimate,
            interval=run_minus_give.interval,
            n=none.n,
            claimed=more(0.0, POINT_MARGIN, ANSWER_WHY),
            **common,
        ),
    ]


def claims(ctx) -> tuple[list[Claim], dict, dict]:
    """Claims 9h-9l (named players), their twins with the strongest players (or why not), and the tables."""
    label = policy_label(MAIN)
    n = min(max(STRONG_MIN, ctx.deals // LAW_SHARE), LAW_MAX)
    strong_n = ctx.searched_n(STRONG_SHARE, STRONG_MIN)
    strong = {**MAIN, "play": ["maxims", EXPERT]}
    strong_label = policy_label(strong)
    named, strongest, tables = [], {}, {}

    main = _records(ctx, RULES, MAIN, n)  # the law's hands, for claims 9h, 9i and 9l
    d, eldest, dealer, second = _second_beg(ctx, MAIN, n, main)
    beg = Claim(
        "9h",
        "A second beg, by mutual agreement, favours neither side.",
        SRC_LAW_II,
        "the eldest's points per hand minus the dealer's: a second beg agreed minus the law (the same hands)",
        d.estimate,
        d.interval,
        d.n,
        equal(
            0.0,
            POINT_MARGIN,
            POINT_WHY + "; 'by mutual agreement' = both players agree to it, so it should favour neither by more",
        ),
        reading="'except by mutual agreement' = players may agree that the eldest begs again after the cards are "
        "run and a new trump turned (the dealer again gives one or runs the cards until a suit other than "
        "the one begged on turns up); an agreement both would make favours neither side",
        notes=f"A second beg in {second:.1%} of hands. What it is worth to each side, per hand: the eldest "
        f"{eldest.format(4)} points, the dealer {dealer.format(4)} (the same hands, paired).",
        rules=f"{RULES}; begs 2 against 1",
        policies=label,
        side="the eldest",
    )
    named.append(beg)
    d, *_ = _second_beg(ctx, strong, strong_n)
    strongest["9h"] = replace(beg, estimate=d.estimate, interval=d.interval, n=d.n, notes="", policies=strong_label)

    asks, forgets = _asking(ctx, "maxims", n)
    asking = paired_diff(asks, forgets)
    tracker = paired_diff(seat_net(main), forgets)
    ask = Claim(
        "9i",
        "Asking whether a played trump is high or low is worth points to a player who does not track the cards.",
        SRC_LAW_V,
        "seat 0's points per hand minus seat 1's, dealing in turn: asking minus not asking (the same hands)",
        asking.estimate,
        asking.interval,
        asking.n,
        GAIN,
        side="asking",
        reading="'allowable to ask your adversary if it be either high or low' = when a trump falls he may ask "
        "where it stands, so a player need not remember the trumps played; its worth is to one who does "
        "not track the cards: he sees his hand, the card(s) turned up and the trick on the table, and by "
        "asking knows every trump played before as well (not the other cards); he plays the four maxims "
        "on what he knows (the `forgetful` player), seat 1 the maxims tracking every card",
        notes=f"For scale, tracking every card (the maxims) against forgetting the earlier tricks and not asking: "
        f"{tracker.format(4)} points per hand (the same hands).",
        rules=RULES,
        policies=f"{policy_label({**MAIN, 'play': ['forgetful', 'maxims']})}; seat 0 asks or not",
    )
    named.append(ask)
    d = paired_diff(*_asking(ctx, EXPERT, strong_n))
    strongest["9i"] = replace(
        ask,
        estimate=d.estimate,
        interval=d.interval,
        n=d.n,
        notes="",
        policies=f"{policy_label({**MAIN, 'play': ['forgetful', EXPERT]})}; seat 0 asks or not",
    )

    answers = _answers(ctx, MAIN["play"], ANSWERS, n)
    named += _answer_claims(answers, f"{label}; the dealer gives one from strength 0, 1 or 13")
    for claim in _answer_claims(_answers(ctx, strong["play"], (0, HOLDS_A_TRUMP, 13), strong_n), ""):
        strongest[claim.id] = replace(claim, policies=f"{strong_label}; the dealer gives one from strength 0, 1 or 13")
    table = answer_by_strength(answers)
    tables[
        "The dealer's answer to a beg by his strength in trumps (trumps held plus trump honours): his points "
        "minus the eldest's per begged hand, take one minus run the cards"
    ] = table[
        ["dealer's strength", "begged hands", "share of hands", "take one minus run [95% CI]", "the better answer"]
    ]

    off = _records(ctx, run_knaves_off(), MAIN, n)
    d = paired_diff(-eldest_net(main), -eldest_net(off))
    turned = rate_ci(int((main["knaves turned running"] > 0).sum()), len(main))
    games = winners_changed(
        ctx.result(GAME, "games", RULES, MAIN, records=True, keep=False).games,
        ctx.result(GAME, "games", run_knaves_off(), MAIN, records=True, keep=False).games,
    )
    named.append(
        Claim(
            "9l",
            "A knave turned up while the cards are run scores one to the dealer, and moves the score.",
            SRC_KNAVE_TURNED,
            "the dealer's points per hand minus the eldest's: each knave turned while running the "
            "cards scoring one minus not (the same hands)",
            d.estimate,
            d.interval,
            d.n,
            GAIN,
            side="the knaves turned running",
            reading="'if it prove a knave, scores one point' read for every card turned up for trump, the turns of "
            "running the cards included (RULES.md); its effect on the score is what those points add to the "
            "dealer's",
            notes=f"A knave is turned while running the cards in {turned.format(2, 100)}% of hands; scoring them "
            f"changes the winner of {games.format(2, 100)}% of games to 10 (the same deals, {games.n:,} games).",
            rules=f"{RULES}; run_knaves on against off",
            policies=label,
        )
    )
    strongest["9l"] = KNAVES_NOT_AGAIN
    return named, strongest, tables
