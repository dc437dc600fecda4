"""Section 10: Loo (Mottoes "Three-Card Loo", "Five-Card Loo"; Sections 87-96 §95-96): "five or seven make the
best game" under three readings; the dealer giving up the stakes to a lone stander, flushes and Pam's
exemption, the single against everyone staking (:mod:`sims.loo.claims.laws`); and, measured without a period claim to judge, how the pool goes through a
session in unlimited and limited loo (our expectations, not the seeds'), how many are looed in a deal, the
worth of taking the miss, the single, Pam be civil and each place's money.

The quantities are pure functions of the engine's results below :func:`run`, so the notebook (10) can
call them on results of any size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, more, source
from sims.analysis.claims.strongest import judged_twice
from sims.analysis.report import Section
from sims.core.text import interval
from sims.stats import Estimate, combine, normal_ci, paired_diff

from .base import GAME, MAIN, PLAYERS, STRONG, STRONG_MIN, STRONG_SHARE, civility, single_rules
from .laws import claims as law_claims

NUMBER = "10"
TITLE = "Loo: the best number of players, the pool, the miss, the single, Pam"
BEST = (5, 7)

SRC_BEST = source(
    "Sections 87-96",
    "§96 i",
    "This game is played by any number of persons, from three, but five or seven make the best game.",
)
SRC_UNLIMITED = source(
    "Mottoes",
    "Five-Card Loo",
    "sometimes it is settled that each person looed shall pay a sum "
    "equal to what happens to be on the table at the time.",
)
SRC_LIMITED = source("Sections 87-96", "§95", "This game is played both Limited and Unlimited Loo")

# The readings of "the best game" (each: id, name, higher is better?, margin, why, reading).
READINGS = (
    (
        "10a",
        "a contest when standing",
        True,
        0.01,
        "one stand in a hundred: less than a player would notice in an evening",
        "of the deals in which a player stands, the share in which he plays for the tricks against at least one "
        "other player (not taking the pool unopposed when the dealer gives up the stakes): the best game gives "
        "whoever stands a game. It is not divided among the seats, so a small table is not favoured by "
        "construction; the earlier reading, a seat's share of all deals in which it plays a contest, is about 1/n "
        "of the contests and so favours three players by construction (both are in the table below; this one "
        "rises with more rivals, so it can single out five or seven only if it peaks there)",
    ),
    (
        "10b",
        "even places",
        False,
        0.05,
        "a twentieth of a stake a deal: a few stakes over an evening of 60 deals",
        "the spread of the money per deal between the best and the worst place at the table (in stakes, the "
        "dealer's own stake set aside): the best game is the most even",
    ),
    (
        "10c",
        "the pool played for",
        True,
        0.01,
        "one deal in a hundred",
        "the share of deals whose pool is won in play rather than taken without play (by the dealer when nobody "
        "stands, or by a lone stander when the dealer gives up): the best game is played out most often",
    ),
)
# Our expectations of the pool through a session (not statements of the seeds, so not claims): the rules they
# concern, the seed sentence that sets those rules, and what we expected.
EXPECTATIONS = (
    (
        "three-card-unlimited",
        SRC_UNLIMITED,
        "unlimited loo: the pool grows from deal to deal (late pools larger than early ones)",
    ),
    ("three-card", SRC_LIMITED, "limited loo: the pool settles (late pools as large as early ones)"),
)
THRESHOLD = {"declare": "threshold", "exchange": "threshold", "card": "greedy"}


def contest_when_standing(summary: dict) -> Estimate:
    """Of the deals a player stands, the share he plays a contest: (E[standers] - P(stakes given up)) /
    E[standers]; the lone stander of a deal given up plays no trick.  The se bounds the numerator's by the
    any-correlation rule and carries it and the denominator's through the ratio (delta method, any sign)."""
    contested = contested_share(summary)
    n = summary["rules"]["players"]
    standers = summary["deal"]["standers"]
    ratio = n * contested.estimate / standers["mean"]
    se = ratio * (n * contested.se / (n * contested.estimate) + standers["se"] / standers["mean"])
    return normal_ci(ratio, se, summary["n"])


def contested_share(summary: dict) -> Estimate:
    """A seat's chance to play in a contested deal: (E[standers] - P(stakes given up)) / players; the lone
    stander of a deal given up plays no trick.  The se is the any-correlation bound (same deals)."""
    n = summary["rules"]["players"]
    standers, given = summary["deal"]["standers"], summary["endings"]["stakes given up"]
    given_se = np.sqrt(given["rate"] * (1 - given["rate"]) / summary["n"])
    return combine([standers["mean"], given["rate"]], [standers["se"], given_se], [1 / n, -1 / n], summary["n"])


def place_spread(summary: dict) -> Estimate:
    """The money per deal of the best place less that of the worst, in stakes, the dealer's stake added back
    (it evens out as the deal goes round; deals held over one stake, so only the dealer stakes).  The se is
    the any-correlation bound."""
    stake = summary["rules"]["stake"]
    money = {
        role: (r["money"]["mean"] + (stake if role == "dealer" else 0), r["money"]["se"])
        for role, r in summary["roles"].items()
    }
    best = max(money, key=lambda r: money[r][0])
    worst = min(money, key=lambda r: money[r][0])
    return combine(
        [money[best][0], money[worst][0]], [money[best][1], money[worst][1]], [1 / stake, -1 / stake], summary["n"]
    )


def played_share(summary: dict) -> Estimate:
    """The share of deals won in play (ended "played", or swept by a flush)."""
    e = summary["endings"]
    rate = e["played"]["rate"] + e["flush"]["rate"]
    se = np.sqrt(rate * (1 - rate) / summary["n"])
    return normal_ci(rate, se, summary["n"])


MEASURES = {
    "a contest when standing": contest_when_standing,
    "even places": place_spread,
    "the pool played for": played_share,
}
# Readings shown beside the claims, not judged (each decides the answer by construction).
OTHER_READINGS = {"a seat's share of contests (favours small tables)": contested_share}


def best_of(estimates: dict[int, Estimate], higher: bool, among=BEST) -> Estimate:
    """How much the better of ``among`` beats the best of the other table sizes (positive: it is better),
    with the two estimates' standard errors combined as independent runs."""
    sign = 1 if higher else -1
    ours = max(among, key=lambda n: sign * estimates[n].estimate)
    theirs = max((n for n in estimates if n not in among), key=lambda n: sign * estimates[n].estimate)
    a, b = estimates[ours], estimates[theirs]
    return combine([a.estimate, b.estimate], [a.se, b.se], [sign, -sign], min(a.n, b.n), independent=True)


def best_game(ctx, policies: dict, n: int | None = None) -> tuple[dict, list[Claim]]:
    """Three-card loo at every table size with ``policies`` (``n`` deals each, default the report's): the results
    by number of players and the claims 10a-10c, one per reading."""
    results = {k: ctx.result(GAME, "deals", _players("three-card", k), policies, n=n) for k in PLAYERS}
    claims = []
    for cid, name, higher, margin, why, reading in READINGS:
        e = best_of({k: MEASURES[name](results[k].summary) for k in PLAYERS}, higher)
        claims.append(
            Claim(
                cid,
                f"Five or seven make the best game ({name}).",
                SRC_BEST,
                f"{name}: the better of 5 and 7 players against the best other table size "
                f"({'higher' if higher else 'lower'} is better)",
                e.estimate,
                (e.lo, e.hi),
                e.n,
                more(0.0, margin, why),
                reading=reading,
                rules="three-card, 3-10 players",
                policies=policy_label(policies),
                percent=name != "even places",
            )
        )
    return results, claims


def by_players(results: dict[int, object]) -> pd.DataFrame:
    """The three readings by number of players: one row per (players, reading) with estimate, lo, hi."""
    rows = []
    for n, result in results.items():
        for name, fn in {**MEASURES, **OTHER_READINGS}.items():
            e = fn(result.summary)
            rows.append({"players": n, "reading": name, "estimate": e.estimate, "lo": e.lo, "hi": e.hi, "se": e.se})
    return pd.DataFrame(rows)


def pool_growth(result) -> Estimate:
    """The mean pool of a session's last round of deals over that of its second round (1: no growth).  The
    se of each round's mean is bounded by the mean of its deals' se (any correlation), and the ratio's by the
    delta method."""
    pools = result.pool_by_deal()
    n = result.job.rules.players
    second, last = pools.iloc[n : 2 * n], pools.iloc[-n:]
    a, b = last["pool"].mean(), second["pool"].mean()
    sa, sb = last["se"].mean(), second["se"].mean()
    ratio = a / b
    return normal_ci(ratio, ratio * np.hypot(sa / a, sb / b), result.batch.n)


def pool_quantiles(result, deals=(1, 2, 5)) -> pd.DataFrame:
    """The pool at some deals of a session and at its middle and last deal: mean (stakes) and quantiles (whole
    stakes), from a session result."""
    pools = result.pool_by_deal()
    last = len(pools)
    rows = pools[pools["deal"].isin({*deals, last // 2, last})].copy()
    rows["mean (stakes)"] = (rows["pool"] / result.job.rules.stake).round(2)
    return rows[["deal", "mean (stakes)", "q25", "median", "q75", "q90", "largest"]].reset_index(drop=True)


def seat_money(result, seat: int = 0) -> np.ndarray:
    """Money of ``seat`` in each deal of a deal result kept with records (seat = dealer + role)."""
    rec = result.records
    n = result.job.rules.players
    by_role = rec[[f"{role}_money" for role in result.roles]].to_numpy(np.float64)
    return by_role[np.arange(len(rec)), (seat - rec["dealer"].to_numpy()) % n]


def without_miss():
    """The expert declaration policy with the miss never worth taking (its cells: nothing won, always looed)."""
    from sims.core.jobs import resolve_one
    from sims.core.registry import get_game
    from sims.loo.policies.expert import MISS_CLASS, cell, declare_table

    table = declare_table().copy()
    for n in PLAYERS:
        for order in range(1, n + 1):
            for before in range(3):
                at = cell(3, n, order, before, MISS_CLASS)
                table[at], table[at + 1] = 0.0, 1.0
    return resolve_one(get_game(GAME), "declare", {"name": "expert", "params": table.tolist()})


def miss_worth(with_miss, no_miss, seat: int = 0):
    """Seat 0's money per deal taking the miss when the tables say, less never taking it (same deals)."""
    return paired_diff(seat_money(with_miss, seat), seat_money(no_miss, seat))


def money_by_place(summary: dict) -> pd.DataFrame:
    """Money per deal and the rates by place from the dealer (as the result summarises them)."""
    rows = []
    for role, r in summary["roles"].items():
        money = r["money"]
        rows.append(
            {
                "place": role,
                "money per deal [95% interval]": interval(money["mean"], money["lo"], money["hi"], 3, "+"),
                "stands": f"{100 * r['stood']['rate']:.1f}%",
                "takes the miss": f"{100 * r['miss']['rate']:.1f}%",
                "looed of stands": f"{100 * r['looed of stands']['rate']:.1f}%",
                "looed of deals": f"{100 * r['looed of deals']['rate']:.1f}%",
                "tricks": f"{r['tricks']['mean']:.3f}",
            }
        )
    return pd.DataFrame(rows)


def growth_figure(results: dict, title: str) -> Figure:
    """The mean pool at each deal of a session (in stakes), one line per labelled session result."""
    fig = Figure(figsize=(plots.WIDTH, 4.5))
    ax = fig.subplots()
    for label, result in results.items():
        pools = result.pool_by_deal()
        stake = result.job.rules.stake
        ax.plot(pools["deal"], pools["pool"] / stake, label=label)
        ax.fill_between(
            pools["deal"],
            (pools["pool"] - 1.96 * pools["se"]) / stake,
            (pools["pool"] + 1.96 * pools["se"]) / stake,
            alpha=0.25,
        )
    ax.set_xlabel("deal of the session")
    ax.set_ylabel("mean pool played for (stakes)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


def run(ctx) -> Section:
    label = policy_label(MAIN)
    claims, tables, figures = [], {}, {}

    # Five or seven make the best game: three-card loo at every table size (five players with records first: the
    # same run serves the worth of the miss below).
    with_miss = ctx.result(GAME, "deals", "three-card", MAIN, records=True)
    results, named = best_game(ctx, MAIN)
    # The strongest players' five the same way: their run with records serves their dealer's choice (claim 10f).
    strong_n = ctx.searched_n(STRONG_SHARE, STRONG_MIN)
    ctx.result(GAME, "deals", "three-card", STRONG, n=strong_n, records=True)
    _, strong = best_game(ctx, STRONG, n=strong_n)
    judged, tables["Five or seven, judged twice: the named players and the strongest (every card by the expert)"] = (
        judged_twice(named, {c.id: c for c in strong})
    )
    claims += judged
    laws, laws_strongest = law_claims(ctx)
    (
        judged,
        tables["The laws of the deal, judged twice: the named players and the strongest (every card by the expert)"],
    ) = judged_twice(laws, laws_strongest)
    claims += judged
    measured = by_players(results)
    for _, name, higher, *_ in READINGS:
        chart = measured[measured["reading"] == name].assign(label=lambda d: d["players"].astype(str) + " players")
        figures[f"Five or seven: {name}"] = plots.interval_chart(
            chart,
            f"Three-card loo, {name} by number of players\n{label}, {ctx.deals:,} deals each",
            name + ("" if higher else " (stakes; lower is better)"),
            percent=name != "even places",
            digits=3 if name == "even places" else 1,
        )
    tables["Five or seven: the readings by number of players"] = measured.pivot(
        index="players", columns="reading", values="estimate"
    ).round(4)

    # The pool in unlimited and limited loo: our expectations, measured (not claims of the seeds).
    sessions = {name: ctx.result(GAME, "games", name, MAIN) for name in ("three-card-unlimited", "three-card")}
    tables[
        "The pool through a session: our expectations, not statements of the seeds (last round's mean pool "
        "over the second round's; 1 is no growth)"
    ] = pd.DataFrame(
        [
            {
                "expectation": expectation,
                "rules set by": f'{src.clause}: "{src.quote}"',
                "last round / second round [95% CI]": _fmt(pool_growth(sessions[name]), signed=False),
                "sessions": f"{sessions[name].batch.n:,} of {sessions[name].job.rules.session_deals} deals",
            }
            for name, src, expectation in EXPECTATIONS
        ]
    )
    for name, result in sessions.items():
        tables[f"The pool by deal of a session, {_loo(name)} loo, five players ({label})"] = pool_quantiles(result)
    tables["How many players are looed in a deal, three-card loo (share of deals)"] = pd.DataFrame(
        {f"{n} players": results[n].looed_per_deal().set_index("looed")["share"].round(4) for n in (3, 5, 7, 10)}
    )
    bold = {name: ctx.result(GAME, "games", name, THRESHOLD) for name in sessions}
    figures["The pool through a session"] = growth_figure(
        {
            **{f"{_loo(name)}, {label}": r for name, r in sessions.items()},
            **{f"{_loo(name)}, {policy_label(THRESHOLD)}": r for name, r in bold.items()},
        },
        f"Mean pool by deal of a session, five players, {ctx.games:,} sessions each\n"
        f"(threshold players stand on the strength of their hands, whatever a looe costs)",
    )
    tables["Money by place, three-card loo, five players"] = money_by_place(results[5].summary)

    # The worth of taking the miss: seat 0 with and without it, the others expert; the same deals.
    others = [MAIN["declare"]] * 4
    no_miss = ctx.result(GAME, "deals", "three-card", {**MAIN, "declare": [without_miss(), *others]}, records=True)
    worth = miss_worth(with_miss, no_miss)
    # The single against stake-all, on deals with nothing held over.
    single = {
        s: ctx.result(GAME, "deals", single_rules("three-card", s), MAIN, clean=True)
        for s in ("always-first", "stake-all")
    }
    # Pam be civil, on and off: five-card, the same deals.
    civil = ctx.result(GAME, "deals", "five-card-pam", MAIN, records=True)
    rude = ctx.result(GAME, "deals", _rude(), MAIN, records=True)
    manners = civility(civil, rude)
    tables["Measured without a period claim"] = pd.DataFrame(
        [
            {
                "quantity": "taking the miss when the tables say, against never: seat 0's money per deal (three-card)",
                "estimate [95% CI]": _fmt(worth),
            },
            *(
                {
                    "quantity": f"clean deals, {s}: pool played for; money carried on (three-card)",
                    "estimate [95% CI]": f"{_fmt(_mean(r, 'pool'), signed=False)}; {_fmt(_mean(r, 'carried_on'), signed=False)}",
                }
                for s, r in single.items()
            ),
            {
                "quantity": "Pam be civil against not: share of five-card deals whose money changes",
                "estimate [95% CI]": _fmt(manners["deals changed"], percent=True),
            },
            {
                "quantity": "Pam be civil against not: money moved per deal",
                "estimate [95% CI]": _fmt(manners["money moved per deal"]),
            },
        ]
    )
    runs = [*results.values(), *sessions.values(), *bold.values(), with_miss, no_miss, *single.values(), civil, rude]
    text = (
        f"Policies: {label} (declarations and exchanges from the self-play tables, the cards played "
        "greedily). Independent deals hold one stake over from the deal before unless said otherwise; where "
        "the seeds are silent the rules are the readings of docs/rules.md (Loo). Money was conserved in "
        f"every run: {all(r.summary['money']['conserved'] for r in runs)}."
    )
    return Section(NUMBER, TITLE, claims, text=text, tables=tables, figures=figures)


def _mean(result, what: str) -> Estimate:
    m = result.summary["deal"][what]
    return normal_ci(m["mean"], m["se"], result.batch.n)


def _fmt(e: Estimate, percent: bool = False, signed: bool = True) -> str:
    s = 100 if percent else 1
    unit = "%" if percent else ""
    f = "+.3f" if signed else ".3f"
    return f"{s * e.estimate:{f}}{unit} [{s * e.lo:{f}}, {s * e.hi:{f}}]"


def _loo(preset: str) -> str:
    return "unlimited" if preset.endswith("unlimited") else "limited"


def _players(preset: str, n: int):
    from sims.loo import get_rules

    rules = get_rules(preset)
    return rules if n == rules.players else rules.replace(name=f"{preset}, {n} players", players=n)


def _rude():
    from sims.loo import get_rules

    return get_rules("five-card-pam").replace(name="five-card-pam, Pam not civil", pam_be_civil=False)
