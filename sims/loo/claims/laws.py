"""Section 10, the laws of the deal (issue 21, item 3): the dealer giving up the stakes to a lone stander,
flushes sweeping the board and Pam's exemption (five-card loo), and the first round dealt as a single against
everyone staking with a miss dealt.

:func:`claims` makes the claims 10f-10i (10d and 10e were once our own expectations of the
pool, now measured without a claim: their ids are not reused) with their strongest-player twins for
:func:`sims.loo.claims.section.run`; the quantities above it are pure functions of results, so notebook 10
can call them on results of any size.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, equal, more, source
from sims.stats import Estimate, combine, mean_ci, paired_diff, rate_estimate

from .base import GAME, MAIN, PLAYERS, STRONG, STRONG_MIN, STRONG_SHARE, civility, single_rules

SRC_GIVE_UP = source(
    "Sections 87-96",
    "§96 vii",
    "who, if only one player stand the chance of the loo, may either play or give up the stakes.",
)
SRC_FLUSH = source(
    "Mottoes", "Five-Card Loo", "Five cards of a suit, or four with pam, make a flush which sweeps the board"
)
SRC_PAM_EXEMPT = source(
    "Mottoes", "Five-Card Loo", "and each, except a player holding pam, of an inferior flush, must pay a stake"
)
SRC_SINGLE = source(
    "Sections 87-96",
    "§96 viii",
    "In the first round it is usual either to deal a _single_; that "
    "is, a round without a _miss_, when all the players must play; or each player puts into the pool "
    "a sum equal to that staked by the dealer in which latter case a miss is dealt.",
)

NOTICE_WHY = (
    "worth a player's notice if it comes about once in a thousand deals: a few times a year for someone "
    "playing sixty deals an evening once a week; rarer, it can happen but is negligible in play"
)
STAKE_WHY = "a hundredth of a stake a deal: half a stake over an evening of fifty deals"
POOL_WHY = "a third of a stake, one trick's share of the dealer's stake: the least money that changes hands in a deal"
LAW_MAX = 1_000_000  # the runs kept with records (a row per deal) play at most this many deals
BEFORE_PLAY = (
    "a flush is shown before any card is played, and the strongest players declare and exchange as the "
    "named ones (the expert's tables): their deals give the same count."
)


# ---- the quantities ----


def dealer_always_plays():
    """The expert declaration policy with the dealer never giving up the stakes to a lone stander: in that
    spot (his order n, one standing before him) every hand of his is worth playing (the miss is not taken
    there either)."""
    from sims.core.jobs import resolve_one
    from sims.core.registry import get_game
    from sims.loo.policies.expert import MISS_CLASS, cell, declare_table

    table = declare_table().copy()
    for n in PLAYERS:
        for klass in range(MISS_CLASS):
            at = cell(3, n, n, 1, klass)
            table[at], table[at + 1] = 1e6, 0.0
    return resolve_one(get_game(GAME), "declare", {"name": "expert", "params": table.tolist()})


def lone_stander(records: pd.DataFrame, roles) -> np.ndarray:
    """Per deal (records of a deal run): True where exactly one player stood before the dealer, so the dealer
    chose between playing and giving up the stakes."""
    given_up = records["ending"].to_numpy() == "stakes given up"
    dealer_played = (records["standers"].to_numpy() == 2) & (records[f"{roles[0]}_stood"].to_numpy() == 1)
    return (given_up | dealer_played) & (records["single"].to_numpy() == 0)


def dealer_money(result) -> np.ndarray:
    """The dealer's money in each deal of a deal run kept with records, in stakes."""
    return result.records[f"{result.roles[0]}_money"].to_numpy(np.float64) / result.job.rules.stake


def next_pool(result) -> Estimate:
    """What a deal carries on into the next pool (the looes), in stakes, from a deal result."""
    m = result.summary["deal"]["carried_on"]
    stake = result.job.rules.stake
    return combine([m["mean"]], [m["se"]], [1 / stake], result.batch.n)


def flush_rate(summary: dict) -> Estimate:
    f = summary["endings"]["flush"]
    return rate_estimate(f["rate"], f["lo"], f["hi"], summary["n"])


# ---- the claims ----


def _give_up(ctx, policies, n):
    choosing = ctx.result(GAME, "deals", "three-card", policies, n=n, records=True, keep=False)
    plays = ctx.result(
        GAME, "deals", "three-card", {**policies, "declare": dealer_always_plays()}, n=n, records=True, keep=False
    )
    d = paired_diff(dealer_money(choosing), dealer_money(plays))
    spot = lone_stander(choosing.records, choosing.roles)
    per_spot = mean_ci(dealer_money(choosing)[spot] - dealer_money(plays)[spot])
    return d, per_spot, float(spot.mean())


def _single(ctx, policies, n=None):
    runs = {
        s: ctx.result(GAME, "deals", single_rules("three-card", s), policies, n=n, clean=True)
        for s in ("always-first", "stake-all")
    }
    single, stake_all = (next_pool(runs[s]) for s in runs)
    d = combine(
        [single.estimate, stake_all.estimate],
        [single.se, stake_all.se],
        [1, -1],
        min(single.n, stake_all.n),
        independent=True,
    )
    return d, single, stake_all


def claims(ctx) -> tuple[list[Claim], dict]:
    """Claims 10f-10i (named players) and their twins with the strongest players (or why not)."""
    label, strong_label = policy_label(MAIN), policy_label(STRONG)
    strong_n = ctx.searched_n(STRONG_SHARE, STRONG_MIN)
    named, strongest = [], {}

    n = min(ctx.deals, LAW_MAX)
    d, per_spot, spot = _give_up(ctx, MAIN, n)
    give_up = Claim(
        "10f",
        "The dealer's choice, with one player standing, to play or give up the stakes is worth having.",
        SRC_GIVE_UP,
        "the dealer's money per deal he deals (stakes): choosing by the tables minus always playing "
        "against a lone stander (the same deals)",
        d.estimate,
        d.interval,
        d.n,
        more(0.0, 0.01, STAKE_WHY),
        side="the dealer's choice",
        reading="'may either play or give up the stakes' = a privilege of the dealer: he chooses by what his hand "
        "is worth in that spot (the expert's tables), against a dealer who must always play it",
        notes=f"One player stood before the dealer in {spot:.1%} of deals; each time, the choice is worth "
        f"{per_spot.format(3)} stakes to him.",
        rules="three-card, five players",
        policies=label,
    )
    named.append(give_up)
    d, *_ = _give_up(ctx, STRONG, strong_n)
    strongest["10f"] = replace(
        give_up, estimate=d.estimate, interval=d.interval, n=d.n, notes="", policies=strong_label
    )

    # kept at the report's size: the section's measure of Pam be civil plays the same deals
    civil = ctx.result(GAME, "deals", "five-card-pam", MAIN, n=n, records=True, keep=n == ctx.deals)
    flush = flush_rate(civil.summary)
    named.append(
        Claim(
            "10g",
            "A flush (five of a suit, or four and Pam) may come and sweep the board.",
            SRC_FLUSH,
            "share of five-card deals swept by a flush",
            flush.estimate,
            flush.interval,
            flush.n,
            more(0.0, 0.001, NOTICE_WHY),
            side="the text",
            percent=True,
            reading="'make a flush which sweeps the board' = a flush among the players who stood takes the pool "
            "without play; the text says it may happen ('when a flush or flushes occur')",
            rules="five-card-pam, five players",
            policies=label,
        )
    )
    strongest["10g"] = BEFORE_PLAY

    from sims.loo import get_rules

    liable = get_rules("five-card-pam").replace(name="five-card-pam, Pam looed by a flush", pam_exempt=False)
    spared = civility(civil, ctx.result(GAME, "deals", liable, MAIN, n=n, records=True, keep=False))
    changed = spared["deals changed"]
    named.append(
        Claim(
            "10h",
            "A flush looes every other player who stood, except the holder of Pam.",
            SRC_PAM_EXEMPT,
            "share of five-card deals in which the exemption spares the holder of Pam a looe (the same deals with and "
            "without it)",
            changed.estimate,
            changed.interval,
            changed.n,
            more(0.0, 0.001, NOTICE_WHY),
            side="the exemption",
            percent=True,
            reading="'each, except a player holding pam, ... must pay a stake' = the holder of Pam who stood is not "
            "looed by another's flush; the exemption matters in play if it spares him often enough to notice",
            notes=f"Money it keeps in the holder of Pam's pocket, per deal: {spared['money moved per deal'].format(3)} "
            f"units (stake 5).",
            rules="five-card-pam, five players; pam_exempt on against off",
            policies=label,
        )
    )
    strongest["10h"] = BEFORE_PLAY

    d, single, stake_all = _single(ctx, MAIN)
    first = Claim(
        "10i",
        "The first round dealt as a single or with everyone staking and a miss dealt are two usual ways to "
        "the same end.",
        SRC_SINGLE,
        "the pool the next deal plays for (stakes), after a deal with nothing held over: a single minus everyone "
        "staking",
        d.estimate,
        d.interval,
        d.n,
        equal(0.0, 1 / 3, POOL_WHY),
        reading="'it is usual either to deal a single ... or each player puts into the pool' = two customs to one "
        "end, money in the pool to play for when nothing was held over: they are alike if the pool they "
        "leave for the next deal (the looes; the next dealer's stake is the same) is the same within the "
        "margin",
        notes=f"Carried on into the next pool: a single {single.format(3)} stakes, everyone staking "
        f"{stake_all.format(3)} (independent runs of clean deals).",
        rules="three-card, five players; single always-first against stake-all",
        policies=label,
        side="the single",
    )
    named.append(first)
    d, *_ = _single(ctx, STRONG, strong_n)
    strongest["10i"] = replace(first, estimate=d.estimate, interval=d.interval, n=d.n, notes="", policies=strong_label)
    return named, strongest
