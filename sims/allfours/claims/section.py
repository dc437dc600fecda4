"""Section 9: All Fours (Sections 87-96 §91-94, Mottoes "Laws of All-Fours", "Maxims"): the four maxims, begging
and the dealer's answer, one card counting all fours, a deal with nothing to reckon; law ii's agreed second
beg, law v's question "high or low", the dealer's answer by the hand he holds and the knaves turned while
running the cards (:mod:`sims.allfours.claims.laws`); and, measured without a period claim to judge,
how often the expert plays as each maxim says, the first dealer's chances and the length of a game.

The quantities are pure functions of the engine's results below :func:`run`, so notebook 09 can call them
on results of any size.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sims.analysis import plots
from sims.analysis.claims.context import policy_label
from sims.analysis.claims.model import Claim, Reference, more, source
from sims.analysis.claims.strongest import judged_twice
from sims.analysis.report import Section
from sims.core.text import mean_interval
from sims.stats import Estimate, combine, mean_ci, paired_diff, rate_ci, rate_estimate

from .base import GAIN, GAME, MAIN, POINT_MARGIN, RULES, STRONG_MIN, STRONG_SHARE, seat_net
from .laws import claims as law_claims

NUMBER = "9"
TITLE = "All Fours: the maxims, begging, one card counting all fours"
MAXIMS = ("knave", "tens", "best_cards", "eldest_trumps")
MAXIM_NAMES = ("i knave", "ii tens", "iii best cards", "iv eldest trumps")
BEG_THRESHOLDS = (0, 1, 2, 3, 4, 5, 6, 7, 13)  # beg below this strength: 0 never, 13 always
ANSWER_THRESHOLDS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 13)  # give one from this strength: 0 always, 13 never
MAXIM_BLOCK = 500_000  # the paired maxim runs keep a row per hand: they run in blocks of at most this many
MAXIM_SHARE = 10  # and play ten times the report's hands (0.5 s per 200,000): maxims ii and iv gain about
MAXIM_MAX = 20_000_000  # the margin (0.01), so their interval must be narrow to clear it
EXPERT_SHARE = 100  # the expert plays one hand in a hundred of the report's size (it searches)
PRESETS = ("two-hand", "seven-up", "four-hand")
NOT_AGAIN = {
    "9e": "the begging matrix is 90 runs of the report's size (18,000,000 hands); the expert plays about 350 hands "
    "a second on 2 cores (the agreement run: 2,000 hands in about 6 s), so it would take some 14 hours (the begging "
    "and answering thresholds are the players under test here).",
    "9f": "which cards are in play depends on the deal and on begging (the same thresholds), not on how the cards "
    "are played, and the knave alone always takes its trick: the expert's hands give the same count.",
    "9g": "which cards are in play depends on the deal and on begging (the same thresholds), not on how the cards "
    "are played: the expert's hands give the same count.",
}

SRC_MAXIMS = (
    source("Sections 87-96", "§94 i", "Make your knave as soon as you can."),
    source(
        "Sections 87-96",
        "§94 ii",
        "Secure your tens by playing any small cards, by which you may throw the lead into you adversary's hand.",
    ),
    source(
        "Sections 87-96",
        "§94 iii",
        "Win your adversary's best cards when you can, either by trumping or with superior cards.",
    ),
    source(
        "Sections 87-96",
        "§94 iv",
        "If, being eldest hand, you hold either ace, king, or queen of trumps, "
        "without the knave or ten, play them immediately, as, by this means, you may chance to win the knave or "
        "ten.",
    ),
)
SRC_BEG = source(
    "Sections 87-96", "§93 v", "_Begging_ is when the eldest hand, disliking his cards, uses his privilege"
)
SRC_ONE_CARD = source("Sections 87-96", "§92 vi", "One card may count all-fours")
SRC_NOTHING = source(
    "Sections 87-96", "§93 iv", "thus it may happen that a deal may be played without having any to reckon for game."
)
NOTICE = more(
    0.0,
    0.001,
    "'may happen' is worth a player's notice if it comes up about once in a thousand hands: "
    "a few times a year for someone playing sixty hands an evening once a week; rarer, it "
    "can happen but is negligible in play",
)
MAXIM_STATEMENTS = (
    "Making the knave as soon as one can gains points (maxim i).",
    "Securing one's tens by playing small cards gains points (maxim ii).",
    "Winning the adversary's best cards, by trumping or with superior cards, gains points (maxim iii).",
    "The eldest playing his ace, king or queen of trumps at once, without the knave or ten, gains points (maxim iv).",
)
MAXIM_READINGS = (
    "'make your knave' = play the knave of trumps as soon as it surely takes the trick",
    "'secure your tens' = holding a ten, lead a small card (no trump, nothing that counts for game); following, "
    "play the ten when it surely takes the trick",
    "'your adversary's best cards' = his ace, king, queen, knave or ten winning the trick; take it with any card "
    "that wins, trumps included",
    "'play them immediately' = the eldest, leading, plays his highest of A K Q of trumps while the knave or ten "
    "of trumps is still out",
)


# ---- the quantities ----


def seat_wins(games: pd.DataFrame, seat: int = 0) -> np.ndarray:
    """Per game of a two-handed game run kept with records: 1 if ``seat`` won."""
    return (games["winner"].to_numpy() == seat).astype(np.float64)


def eldest_net(summary: dict) -> Estimate:
    """The eldest's points per hand minus the dealer's (se: the any-correlation bound)."""
    roles = list(summary["roles"])
    dealer, eldest = (summary["roles"][r]["total"] for r in roles)
    return combine([eldest["mean"], dealer["mean"]], [eldest["se"], dealer["se"]], [1, -1], summary["n"])


def event_rate(summary: dict, event: str) -> Estimate:
    """The share of hands in which ``event`` happened (Wilson interval)."""
    e = summary["events_per_hand"][event]
    return rate_ci(round(e["mean"] * summary["n"]), summary["n"])


def nothing_to_reckon_exact() -> float:
    """P(no ace, king, queen, knave or ten among the 12 cards in play) when every hand is played on the first
    card turned: 20 cards count, and the turned card is one of them 20 times in 52."""
    return (20 / 52 * math.comb(32, 12) + 32 / 52 * math.comb(31, 12)) / math.comb(51, 12)


def maxim_hands(deals: int) -> int:
    """The paired hands of the maxim claims for a report of ``deals`` hands a run."""
    return min(MAXIM_SHARE * deals, MAXIM_MAX)


def maxim_differences(ctx, n: int) -> list[np.ndarray]:
    """Per maxim k: seat 0's net points per hand with all four maxims minus without maxim k, the same hands,
    over ``n`` hands in blocks of :data:`MAXIM_BLOCK` (block b plays the report's seed + b)."""
    diffs = [[] for _ in MAXIMS]
    for b, start in enumerate(range(0, n, MAXIM_BLOCK)):
        size, seed = min(MAXIM_BLOCK, n - start), ctx.seed + b
        base, *without = (seat_net(run.records) for run in maxim_runs(ctx, "maxims", size, seed=seed, keep=False))
        for k, other in enumerate(without):
            diffs[k].append((base - other).astype(np.int8))  # a hand's difference is a few points
    return [np.concatenate(d) for d in diffs]


def maxim_runs(ctx, adversary: str, n: int, **options) -> list:
    """The runs of :func:`maxim_policies` with all four maxims, then without each, with records, played
    together (:func:`sims.allfours.sweep.play_maxims_without_each`: a hand is played again only where seat 0
    followed the maxim left out)."""
    from sims.allfours.sweep import play_maxims_without_each

    policies = [maxim_policies(k, adversary) for k in (None, *range(len(MAXIMS)))]
    return ctx.results(GAME, "deals", RULES, policies, play_maxims_without_each, n=n, records=True, **options)


def maxim_policies(k: int | None, adversary: str = "maxims") -> dict:
    """The main policies with seat 0 playing the maxims without maxim ``k`` (None: all four), seat 1
    ``adversary`` (all four maxims; or the strongest player, ``expert``)."""
    switches = [1.0] * 4
    if k is not None:
        switches[k] = 0.0
    return {**MAIN, "play": [{"name": "maxims", "params": switches}, adversary]}


def begging_policies(beg: int, answer: int) -> dict:
    return {
        "beg": {"name": "threshold", "params": [beg]},
        "answer": {"name": "threshold", "params": [answer]},
        "play": MAIN["play"],
    }


def begging_matrix(results: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """From ``{(beg, answer): deal result}``: the eldest's net points per hand (rows: beg thresholds,
    columns: answer thresholds) and its standard errors."""
    est = {key: eldest_net(r.summary) for key, r in results.items()}
    begs = sorted({b for b, _ in est})
    answers = sorted({a for _, a in est})
    value = pd.DataFrame([[est[(b, a)].estimate for a in answers] for b in begs], index=begs, columns=answers)
    se = pd.DataFrame([[est[(b, a)].se for a in answers] for b in begs], index=begs, columns=answers)
    value.index.name, value.columns.name = "beg below", "give one from"
    return value, se


def safest(value: pd.DataFrame) -> tuple[int, int]:
    """The zero-sum game of the begging matrix in pure strategies: the eldest's beg threshold with the best
    worst case (max-min) and the dealer's answer threshold with the best worst case for him (min-max)."""
    return int(value.min(axis=1).idxmax()), int(value.max(axis=0).idxmin())


def begging_gain(value: pd.DataFrame, se: pd.DataFrame, n: int) -> tuple[Estimate, int, int]:
    """What begging gains the eldest: his net points per hand at his safest threshold, against the dealer's
    best answer to it, minus never begging (threshold 0); with those two thresholds."""
    beg = safest(value)[0]
    answer = int(value.loc[beg].idxmin())
    never = value.loc[0]
    e = combine(
        [value.loc[beg, answer], float(never.mean())], [se.loc[beg, answer], float(se.loc[0].max())], [1, -1], n
    )
    return e, beg, answer


def first_dealer(summary: dict) -> Estimate:
    f = summary["first_dealer_win"]
    return rate_estimate(f["rate"], f["lo"], f["hi"], summary["n"] - summary["unfinished"])


def heatmap(value: pd.DataFrame, title: str) -> Figure:
    """The begging matrix as a heat map, each cell written in."""
    fig = Figure(figsize=(plots.WIDTH, 5.0), dpi=plots.DPI, layout="constrained")
    ax = fig.subplots()
    ax.set_title(title, wrap=True)
    lim = float(np.abs(value.to_numpy()).max())
    image = ax.imshow(value.to_numpy(), cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(value.shape[1]), [str(c) for c in value.columns])
    ax.set_yticks(range(value.shape[0]), [str(i) for i in value.index])
    ax.set_xlabel("the dealer gives one from strength (0: always, 13: never)")
    ax.set_ylabel("the eldest begs below strength (0: never, 13: always)")
    for (i, j), v in np.ndenumerate(value.to_numpy()):
        ax.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize="x-small")
    fig.colorbar(image, ax=ax, label="the eldest's points per hand minus the dealer's")
    return fig


# ---- the section ----


def _maxims(ctx, label):
    n = maxim_hands(ctx.deals)
    differences = maxim_differences(ctx, n)
    base_games = ctx.result(GAME, "games", RULES, maxim_policies(None), records=True).games
    claims, rows = [], []
    for k, (name, src, statement, reading) in enumerate(
        zip(MAXIM_NAMES, SRC_MAXIMS, MAXIM_STATEMENTS, MAXIM_READINGS, strict=True)
    ):
        off_games = ctx.result(GAME, "games", RULES, maxim_policies(k), records=True).games
        points = mean_ci(differences[k].astype(np.float64))
        games = paired_diff(seat_wins(base_games), seat_wins(off_games))
        claims.append(
            Claim(
                f"9{'abcd'[k]}",
                statement,
                src,
                "a player's points per hand minus his adversary's, dealing in turn: with the maxim minus without",
                points.estimate,
                points.interval,
                points.n,
                GAIN,
                reading=reading,
                side="the maxim",
                notes=f"Seat 0 plays the maxims with or without this one (the others on); seat 1 plays all four. Same "
                f"hands in both runs (common random numbers), paired interval, {n:,} hands (ten times the "
                f"report's size, in blocks of {MAXIM_BLOCK:,}; at the default size an interval that still "
                f"holds the margin is inconclusive, and `--full` plays {maxim_hands(10_000_000):,}). Games won "
                f"to 10, paired the same way: {games.format(4)} ({games.n:,} games).",
                rules=RULES,
                policies=f"{label}; seat 0 without maxim {name.split()[0]}",
            )
        )
        rows.append(
            {
                "label": name,
                "estimate": points.estimate,
                "lo": points.lo,
                "hi": points.hi,
                "points per hand [95% CI]": points.format(4),
                "games won [95% CI]": games.format(4),
                "hands": points.n,
                "games": games.n,
            }
        )
    return claims, pd.DataFrame(rows)


def _maxims_strongest(ctx, named: list[Claim]) -> dict[str, Claim]:
    """Claims 9a-9d again with the strongest adversary: seat 1 plays the expert, seat 0 the maxims with and
    without each (the same hands, paired)."""
    n = ctx.searched_n(STRONG_SHARE, STRONG_MIN)
    base, *without = (seat_net(run.records) for run in maxim_runs(ctx, "expert", n))
    out = {}
    for k, claim in enumerate(named[: len(MAXIMS)]):
        d = paired_diff(base, without[k])
        out[claim.id] = replace(
            claim,
            estimate=d.estimate,
            interval=d.interval,
            n=d.n,
            notes="",
            policies=f"{policy_label(maxim_policies(None, 'expert'))}; seat 0 without maxim "
            f"{MAXIM_NAMES[k].split()[0]}",
        )
    return out


def _agreement(ctx):
    n = ctx.searched_n(EXPERT_SHARE, 200)
    policies = {**MAIN, "play": ["expert", "maxims"]}
    result = ctx.result(GAME, "deals", RULES, policies, n=n, agreement=True)
    table = result.agreement()
    table = table[table["seat"] == "seat 0"].drop(columns="seat").reset_index(drop=True)
    table["label"], table["estimate"] = table["maxim"], table["rate"]
    side = result.table().set_index(["scope", "who", "component"])
    strength = combine(
        [side.loc[("side", "seat 0", "total"), "mean"], side.loc[("side", "seat 1", "total"), "mean"]],
        [side.loc[("side", "seat 0", "total"), "se"], side.loc[("side", "seat 1", "total"), "se"]],
        [1, -1],
        n,
    )
    return table, strength, n


def _begging(ctx):
    """The begging matrix: the runs differ only in the thresholds, so they are played together
    (:func:`sims.allfours.sweep.play_runs`: each hand played out once per way its bidding went)."""
    from sims.allfours.sweep import play_runs

    pairs = [(beg, answer) for beg in BEG_THRESHOLDS for answer in ANSWER_THRESHOLDS]
    # never begging: the answer is never asked, so one run serves the row
    played = [(beg, answer) if beg else (0, ANSWER_THRESHOLDS[0]) for beg, answer in pairs]
    distinct = list(dict.fromkeys(played))
    results = ctx.results(GAME, "deals", RULES, [begging_policies(*pair) for pair in distinct], play_runs)
    runs = dict(zip(distinct, results, strict=True))
    return begging_matrix({pair: runs[run] for pair, run in zip(pairs, played, strict=True)})


def run(ctx) -> Section:
    label = policy_label(MAIN)
    claims, maxim_table = _maxims(ctx, label)

    value, se = _begging(ctx)
    gain, beg, answer = begging_gain(value, se, ctx.deals)
    safe_beg, safe_answer = safest(value)
    claims.append(
        Claim(
            "9e",
            "Begging pays the eldest when he dislikes his cards.",
            SRC_BEG,
            "the eldest's points per hand minus the dealer's: begging by his safest threshold minus never begging",
            gain.estimate,
            gain.interval,
            gain.n,
            GAIN,
            side="begging",
            reading="'disliking his cards' = the strength of his hand in trumps (trumps held plus trump honours "
            "A K Q J 10) is below a threshold; 'uses his privilege' pays if the best threshold beats never "
            "begging when the dealer answers as well as he can",
            notes=f"Thresholds from self-play on the same hands: the eldest's safest choice is to beg below strength "
            f"{safe_beg} (the best worst case over the dealer's answers), the dealer's to give one from strength "
            f"{safe_answer}; against the eldest's {beg}, the dealer's best answer is {answer}. Never begging "
            f"gives the eldest {value.loc[0].mean():+.3f} a hand. The se is the any-correlation bound.",
            rules=RULES,
            policies=f"threshold begging and answering, {MAIN['play']} play",
        )
    )

    main = ctx.result(GAME, "deals", RULES, MAIN, holdings=True)
    one = event_rate(main.summary, "one card all fours")
    claims.append(
        Claim(
            "9f",
            "One card may count all fours.",
            SRC_ONE_CARD,
            "share of hands in which the knave of trumps is the "
            "only trump in play and the only card in the tricks that counts for game",
            one.estimate,
            one.interval,
            one.n,
            NOTICE,
            side="the law",
            reading="read literally with the law's example ('the knave will be both high, low, Jack, and game'): one "
            "card scores all four, so the knave is the only trump in play (high, low and jack) and the only "
            "counting card in the tricks (game by its one point)",
            rules=RULES,
            policies=label,
            notes=f"Looser readings: all four points to one side with the knave the only trump in play (other counting "
            f"cards allowed): {event_rate(main.summary, 'all fours, one trump').estimate:.2%} of hands; all "
            f"four points to one side with any cards: {event_rate(main.summary, 'all fours').estimate:.2%}.",
        )
    )
    nothing = event_rate(main.summary, "nothing to reckon")
    exact = nothing_to_reckon_exact()
    claims.append(
        Claim(
            "9g",
            "A deal may be played without anything to reckon for game.",
            SRC_NOTHING,
            "share of hands with no ace, king, queen, knave or ten in play",
            nothing.estimate,
            nothing.interval,
            nothing.n,
            NOTICE,
            side="the law",
            reading="'without having any to reckon for game' = no card that "
            "counts for game (A K Q J 10) among the cards played",
            reference=Reference(
                (exact, exact),
                "exact, every hand played on the first card turned (no begging): 12 of 51 cards, 20 of 52 counting",
            ),
            rules=RULES,
            policies=label,
            notes="Running the cards deals more cards, so with begging it is rarer than the exact value without.",
        )
    )

    laws, laws_strongest, laws_tables = law_claims(ctx)
    claims += laws
    claims, judged = judged_twice(claims, {**_maxims_strongest(ctx, claims), **NOT_AGAIN, **laws_strongest})
    agreement, strength, n_expert = _agreement(ctx)
    games = {preset: ctx.result(GAME, "games", preset, MAIN) for preset in PRESETS}
    game_rows = []
    for preset, result in games.items():
        f = first_dealer(result.summary)
        hands = result.summary["hands_per_game"]
        game_rows.append(
            {
                "label": preset,
                "estimate": f.estimate,
                "lo": f.lo,
                "hi": f.hi,
                "first dealer wins [95% CI]": f.format(1, 100),
                "hands per game [95% interval]": mean_interval(hands["mean"], hands["se"], 2),
                "games": f.n,
            }
        )
    game_table = pd.DataFrame(game_rows)
    events = pd.DataFrame(
        [
            {"event": e, "per hand [95% interval]": mean_interval(v["mean"], v["se"])}
            for e, v in main.summary["events_per_hand"].items()
        ]
    )
    text = (
        f"Main policies: {label} (thresholds at the policies' defaults). The expert (determinised search, "
        f"{n_expert:,} hands) against the maxims: {strength.format(3)} points per hand more. Measured without a "
        f"period claim: the first dealer's chances and the length of a game, below."
    )
    return Section(
        NUMBER,
        TITLE,
        claims,
        text=text,
        tables={
            "The maxims: with minus without (paired, same hands and games)": maxim_table[
                ["label", "points per hand [95% CI]", "games won [95% CI]", "hands", "games"]
            ],
            "Each claim judged twice: the named players and the strongest (the expert as the adversary)": judged,
            "How often the expert plays as a maxim advises (when it advises some cards but not all)": agreement[
                ["maxim", "advised", "agreed", "rate", "lo", "hi"]
            ],
            "The eldest's points per hand minus the dealer's, by begging and answering threshold": value.round(3),
            **laws_tables,
            "The first dealer and the length of a game": game_table[
                ["label", "first dealer wins [95% CI]", "hands per game [95% interval]", "games"]
            ],
            "What happens in a hand (main policies)": events,
            "Each point's chance by what the player holds when the play begins (main policies; his side's, "
            "Wilson 95% intervals)": holding_table(main),
        },
        figures={
            "The maxims, with minus without": plots.interval_chart(
                maxim_table,
                f"Each maxim on minus off: seat 0's points per hand minus seat 1's, {RULES}\n"
                f"{int(maxim_table['hands'].iloc[0]):,} paired hands",
                "points per hand",
                lines=[(0, "no difference")],
                bands=[(-POINT_MARGIN, POINT_MARGIN, "± the margin (0.01)")],
                digits=3,
            ),
            "The expert's agreement with each maxim": plots.interval_chart(
                agreement,
                f"Share of the expert's plays that follow the maxim, when it applies\n{n_expert:,} hands, "
                f"expert against the maxims",
                "plays as the maxim advises",
                lines=[(0.5, "half")],
                percent=True,
            ),
            "Begging and answering": heatmap(
                value,
                f"The eldest's net points per hand by threshold, {RULES}\n"
                f"{MAIN['play']} play, {ctx.deals:,} hands each",
            ),
            "The first dealer's chances": plots.interval_chart(
                game_table,
                f"Games won by the first dealer('s side)\n{label}",
                "games won",
                lines=[(0.5, "even")],
                percent=True,
            ),
            "The length of a game": plots.game_lengths(
                {p: r.hands_histogram() for p, r in games.items()}, f"Hands per game\n{label}"
            ),
        },
    )


def holding_table(result) -> pd.DataFrame:
    """:meth:`sims.allfours.results.DealResult.by_holding` as the report shows it: each point's chance in percent
    with its interval, a row per side and holding."""
    table = result.by_holding()
    points = {
        p: [
            f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
            for r, lo, hi in zip(table[p], table[f"{p} lo"], table[f"{p} hi"])
        ]
        for p in ("high", "low", "jack", "game")
    }
    return pd.DataFrame(
        {
            "side": table["side"],
            "held": table["held"],
            "value": table["value"],
            "hands": table["hands"],
            **{f"{p} %": cells for p, cells in points.items()},
        }
    )
