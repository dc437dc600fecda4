"""Every period claim checked by simulation: the main job.

    python -m analysis.claims [--full] [--out data/reports] [--quiet] [--seed N] [--only 2 3 ...]

prints the verdict table and writes the report (analysis.report) into
data/reports/.  The default size finishes in a few minutes on 2 cores;
``--full`` runs publication-size simulations.

Verdict rule
------------
Each claim is read as a range of the simulated quantity: a number such as
"twenty-five" becomes the values that round to it (24.5 to 25.5); a direction
such as "an advantage" becomes an open range ("more than 50%").  With the 95%
interval of the estimate:

- **supported**: the whole interval lies inside the claimed range;
- **not supported**: the whole interval lies outside it;
- **inconclusive**: the interval straddles an end of the range.

All simulations of one run share the seed, so comparisons of policies on the
same rules use the same deals (common random numbers).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd
from sims.cribbage.results import loser_scores

from . import plots
from .report import Section, environment, timestamp, write_report
from .stats import Estimate, breakdown_table, combine, paired_diff, rate_ci

SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE = "supported", "not supported", "inconclusive"
VERDICT_RULE = (
    "**Verdict rule.** Each claim is read as a range of the simulated quantity (a number such as "
    "\"twenty-five\" becomes the values that round to it, a direction such as \"an advantage\" becomes "
    "\"more than 50%\"). *Supported*: the whole 95% interval lies inside the claimed range; "
    "*not supported*: it lies wholly outside; *inconclusive*: it straddles an end of the range.")

# (deals per simulation, games per simulation)
SIZES = {"default": (200_000, 20_000), "full": (10_000_000, 1_000_000)}
SCORE_LOG_GAMES = 100_000  # games in a run with per-deal score logs (64 deals x 5 int16 each, kept in memory)

RANDOM = {"discard": "random", "peg": "random"}
GREEDY = {"discard": "greedy", "peg": "greedy"}
EXPERT = {"discard": "expected_net", "peg": "defensive"}
HOYLE_DISCARD, EV_DISCARD = "hoyle", "expected_net"
# Pegging with and without seed 003's "keep as close as possible" as the last player.
CLOSE_PEG, OPEN_PEG = "defensive", "defensive_no_close"


def judge(interval: tuple[float, float], claimed: tuple[float, float]) -> str:
    """The verdict rule (module docstring): where the interval lies against the claimed range."""
    lo, hi = interval
    c_lo, c_hi = claimed
    if c_lo <= lo and hi <= c_hi:
        return SUPPORTED
    if hi < c_lo or lo > c_hi:
        return NOT_SUPPORTED
    return INCONCLUSIVE


@dataclass(frozen=True)
class Source:
    """The clause a claim comes from: seed number, file, clause label and the quoted words."""

    seed: str
    file: str
    clause: str
    quote: str


@dataclass(frozen=True)
class Reference:
    """A published value or range (lo, hi) for comparison, with its source."""

    value: tuple[float, float]
    source: str


@dataclass(frozen=True)
class Claim:
    """One period claim, the simulated answer and the verdict (see :func:`judge`).

    ``claimed`` is the claim read as a range (lo, hi) of the quantity (±inf for a
    direction); ``percent`` says the quantity is a rate shown in percent.
    """

    id: str
    statement: str
    source: Source
    quantity: str
    estimate: float
    interval: tuple[float, float]
    claimed: tuple[float, float]
    n: int
    reference: Reference | None = None
    notes: str = ""
    rules: str = ""
    policies: str = ""
    percent: bool = False

    def __post_init__(self):
        lo, hi = self.interval
        if not all(map(math.isfinite, (lo, self.estimate, hi))) or not lo <= hi:
            raise ValueError(f"claim {self.id}: the interval must be finite with lo <= hi, got {self.interval}")
        if not self.claimed[0] < self.claimed[1]:
            raise ValueError(f"claim {self.id}: the claimed range must have lo < hi, got {self.claimed}")

    @property
    def verdict(self) -> str:
        return judge(self.interval, self.claimed)

    def _fmt(self, x: float) -> str:
        if self.percent:
            return f"{100 * x:.1f}%"
        return f"{x:.4f}" if 0 < abs(x) < 0.1 else f"{x:.2f}"  # small differences keep their digits

    def format_estimate(self) -> str:
        return f"{self._fmt(self.estimate)} [{self._fmt(self.interval[0])}, {self._fmt(self.interval[1])}]"

    def format_range(self, rng: tuple[float, float]) -> str:
        lo, hi = rng
        if lo == -math.inf:
            return f"< {self._fmt(hi)}"
        if hi == math.inf or (self.percent and hi >= 1):
            return f"> {self._fmt(lo)}"
        if self.percent and lo <= 0:
            return f"< {self._fmt(hi)}"
        return f"{self._fmt(lo)} to {self._fmt(hi)}"

    def claimed_text(self) -> str:
        return self.format_range(self.claimed)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["verdict"] = self.verdict
        for key in ("interval", "claimed"):
            d[key] = [None if math.isinf(x) else x for x in d[key]]
        return d


class ClaimUnavailable(Exception):
    """A claim cannot run yet (a policy it needs is not registered)."""


def policy_label(policies: dict) -> str:
    """``'expected_net + defensive'``; per-seat lists as ``'hoyle/expected_net'``."""
    def one(spec):
        return "/".join(map(str, spec)) if isinstance(spec, (list, tuple)) else str(spec)
    return f"{one(policies['discard'])} + {one(policies['peg'])}"


def _names(policies: dict):
    for kind, spec in policies.items():
        for name in (spec if isinstance(spec, (list, tuple)) else [spec]):
            yield kind, name


def missing_policies(policies: dict) -> list[str]:
    from sims.cribbage.policies import REGISTRY

    return [f"{kind} policy {name!r}" for kind, name in _names(policies) if name not in REGISTRY[kind]]


def main_policies() -> dict:
    """The strongest registered self-play policies: expected-value discards with defensive pegging, else greedy."""
    return EXPERT if not missing_policies(EXPERT) else GREEDY


@dataclass
class Context:
    """Runs and caches the simulations the claims share (same rules + policies -> one run)."""

    simulate_deals: Callable
    play_games: Callable
    deals: int
    games: int
    seed: int = 1
    log: Callable[[str], None] = lambda message: None
    runs: list = field(default_factory=list)
    _cache: dict = field(default_factory=dict, repr=False)

    def deal_result(self, rules: str, policies: dict, records: bool = False):
        """``simulate_deals`` on ``self.deals`` independent deals (with per-deal rows if ``records``)."""
        return self._run("deals", rules, policies, self.deals, records=records)

    def game_result(self, rules: str, policies: dict, score_log: bool = False, n: int | None = None):
        """``play_games`` on ``n`` (default ``self.games``) games with per-game records; with ``score_log``
        the score after every deal too, on at most :data:`SCORE_LOG_GAMES` games."""
        n = n or self.games
        return self._run("games", rules, policies, min(n, SCORE_LOG_GAMES) if score_log else n, score_log)

    def _run(self, kind, rules, policies, n, score_log=False, records=False):
        key = (kind, rules, policy_label(policies), n, score_log, records)
        if key in self._cache:
            return self._cache[key]
        missing = missing_policies(policies)
        if missing:
            raise ClaimUnavailable(f"needs {', '.join(missing)}, not registered yet")
        self.log(f"  {kind}: {rules}, {key[2]}, n={n:,}{' with score log' if score_log else ''} ...")
        start = time.perf_counter()
        if kind == "deals":
            result = self.simulate_deals(rules, policies, n, self.seed, records=records)
        else:
            result = self.play_games(rules, policies, n, self.seed, records=True, score_log=score_log)
        seconds = time.perf_counter() - start
        extra = " + score log" if score_log else " + records" if records else ""
        self.runs.append({"kind": kind + extra, "rules": rules,
                          "policies": key[2], "seed": self.seed, "n": n,
                          "engine version": result.summary.get("version", ""), "seconds": round(seconds, 1)})
        self._cache[key] = result
        return result


# ---- quantities from results (pure functions of the engine's summaries and game tables) ----

def role_mean(summary: dict, role: str, component: str) -> tuple[float, float]:
    """(mean, se) of one role's component per deal from a DealResult summary."""
    try:
        cell = summary["roles"][role][component]
    except KeyError:
        raise ValueError(f"deal summary has no {role}/{component} mean") from None
    return float(cell["mean"]), float(cell["se"])


def points_per_two_deals(summary: dict) -> Estimate:
    """A player's points in two deals, once dealer and once pone: E[dealer total] + E[pone total].

    Both means come from the same deals, so the se is the any-correlation bound (stats.combine).
    """
    (md, sd), (mp, sp) = role_mean(summary, "dealer", "total"), role_mean(summary, "pone", "total")
    return combine([md, mp], [sd, sp], [1, 1], int(summary["n"]))


def _by_side(games: pd.DataFrame, prefix: str) -> np.ndarray:
    """Columns ``{prefix}0``, ``{prefix}1``, ... (one per scoring side) as an (n_games, sides) array."""
    sides = sum(1 for c in games.columns if c.startswith("score_"))
    return games[[f"{prefix}{s}" for s in range(sides)]].to_numpy()


def first_dealer_wins(games: pd.DataFrame) -> Estimate:
    """Rate at which the first dealer's side wins."""
    return rate_ci(int((games["winner"] == games["first_dealer_side"]).sum()), len(games))


def position_win_rates(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate by seat counted left from the first dealer (0 = first dealer), with Wilson intervals."""
    position = (games["winner"].to_numpy() - games["first_dealer"].to_numpy()) % players
    rows = []
    for k in range(players):
        e = rate_ci(int((position == k).sum()), len(games))
        label = "first dealer" if k == 0 else f"{k} left of first dealer"
        rows.append({"label": label, "rate": e.estimate, "lo": e.lo, "hi": e.hi, "n": e.n,
                     "win rate [95% CI]": _pct(e)})
    return pd.DataFrame(rows)


def nondealer_preference(games: pd.DataFrame, threshold: int = 10) -> tuple[Estimate, float, float]:
    """Seed 003 §89: the first non-dealer's win rate in games where he made ``threshold`` or more in the
    first deal and the dealer no more than his average first deal (two players).

    Returns (estimate, the dealer's average first deal, share of games meeting the condition).
    """
    first = _by_side(games, "first_deal_")
    if first.shape[1] != 2:
        raise ValueError("the first non-dealer's preference is a two-player question")
    dealer = games["first_dealer"].to_numpy()
    rows = np.arange(len(games))
    dealer_pts, pone_pts = first[rows, dealer], first[rows, 1 - dealer]
    average = float(dealer_pts.mean())
    mask = (pone_pts >= threshold) & (dealer_pts <= average)
    if not mask.any():
        raise ValueError(f"no game had the first non-dealer at {threshold}+ with the dealer at most average")
    wins = int((games["winner"].to_numpy()[mask] == 1 - dealer[mask]).sum())
    return rate_ci(wins, int(mask.sum())), average, float(mask.mean())


def lurch_rate(games: pd.DataFrame, threshold: int) -> Estimate:
    """Rate at which a losing side ends below ``threshold`` (lurched / skunked), over every loser of every game."""
    losers = loser_scores(games)
    return rate_ci(int((losers < threshold).sum()), losers.size)


def _chart_row(label: str, e: Estimate) -> dict:
    return {"label": label, "estimate": e.estimate, "lo": e.lo, "hi": e.hi}


def _pct(e: Estimate) -> str:
    return e.format(1, 100) + " %"


# ---- the claims: one function per section, each returns a Section ----

def _src(seed: str, clause: str, quote: str) -> Source:
    return Source(seed, SEED_FILES[seed], clause, quote)


SEED_FILES = {"000": "000_316201a56e859ee5.txt", "003": "003_5d5f9a5fddebf1fd.txt",
              "004": "004_9055db097589e349.txt"}
SRC_LAST_PLAYER = _src("003", "§89", "At this game it is of advantage to the last player to keep as close as "
                       "possible, in hope of coming in for fifteen, a sequence, or pair, besides the end hole, "
                       "or thirty-one.")
SRC_TRIFLING = _src("003", "§89", "The first dealer is thought to have some trifling advantage")
SRC_TWENTY_FIVE = _src("003", "§89", "each player may, on the average, expect to make twenty-five points in "
                       "every two deals.")
SRC_PREFERENCE = _src("003", "§89", "The first non-dealer is considered to have the preference, when he gains "
                      "ten or more the first hand, the dealer not making more than his average number.")
SRC_EIGHT = _src("003", "§90", "Six are retained in hand, and the game is conducted on the same plan as before.")
SRC_ROTATION = _src("003", "§88", "wherein one person sits out, not each game, but each deal in rotation. "
                    "In this the first dealer generally wins.")
ART = "art. CRIBBAGE"
SRC_LIFT = _src("004", ART, "as it is an ad vantage to deal, by reason of the crib, itis proper to lift for it")
SRC_HOYLE = _src("004", ART, "the dealer lays down the two best cards he can for his crib ; and his antagonist "
                 "lays down the other two, the very worst in his hand, by reason the crib is the property of "
                 "the dealer.")
SRC_LURCH_31 = _src("000", "Laws", "A lurch—scoring the whole sixty-one before your adversary has scored "
                    "thirty-one—is equivalent to a double game")
SRC_LURCH_45 = _src("004", ART, "if either of the gamesters reach this before the other is forty-five, this "
                    "last is said to be lurched, and the other gains a double gaine.")
EXPERT_PER_DEAL = Reference((26.3, 26.4), "expert play: J. Chambers, Cribbage: A New Concept (pone 10.1 + "
                            "dealer 16.2); D. Colvert, Twenty-Six Theory (10.2 + 16.2)")
FIRST_DEALER_121 = Reference((0.555, 0.56), "Cribbage Pro, several million human-played hands; D. Colvert")
TRIFLING = (0.5, 0.6)
MORE_THAN_HALF = (0.5, 1.0)
RARE = (0.0, 0.1)


def scoring(ctx: Context) -> Section:
    """The exact hand and crib distributions (no simulation)."""
    from sims.cribbage import show_distribution

    counts = pd.DataFrame({"hand": show_distribution(crib=False), "crib": show_distribution(crib=True)})
    counts.index.name = "points"
    prob = counts / counts.sum()
    pts = counts.index.to_numpy()
    summary = pd.DataFrame({"mean": (prob.T * pts).sum(axis=1), "P(0 points)": prob.iloc[0],
                            "most points": [int(pts[counts[c] > 0].max()) for c in counts]})
    summary.index.name = "show"
    return Section("1", "Scoring: exact hand and crib distributions", text=(
        "Exact counts over all 12,994,800 four-card shows with a starter (the crib needs the starter for a "
        "flush). The hand mean matches the published 4.7692 (S. S. Lumetta, 'Amusing Cribbage Facts'). "
        "These are random cards; hands and cribs kept by real discards score more (section 2)."),
        tables={"Exact show distributions": summary.round(4)},
        figures={"Exact hand and crib score distributions": plots.score_distribution(counts, "Exact show scores")})


def twenty_five(ctx: Context) -> Section:
    rows, figure_rows = [], []
    for name, pol in (("random", RANDOM), ("greedy", GREEDY), ("expert", EXPERT)):
        if missing_policies(pol):
            continue
        est = points_per_two_deals(ctx.deal_result("six-card", pol).summary)
        rows.append({"play": f"{name} ({policy_label(pol)})", "points in two deals": est.format(2),
                     "verdict against 25": judge(est.interval, (24.5, 25.5))})
        figure_rows.append(_chart_row(name, est))
    main = main_policies()
    result = ctx.deal_result("six-card", main)
    est = points_per_two_deals(result.summary)
    claim = Claim(
        "2", "Each player makes on average twenty-five points in every two deals (six-card).", SRC_TWENTY_FIVE,
        "a player's points in two deals, once dealer and once pone (mean dealer total + mean pone total per deal)",
        est.estimate, est.interval, (24.5, 25.5), est.n, reference=EXPERT_PER_DEAL,
        notes="The two means come from the same deals; the interval uses the any-correlation bound on the "
              "standard error, so it is conservative. The table shows how the answer moves with playing strength.",
        rules="six-card", policies=policy_label(main))
    fig = plots.interval_chart(pd.DataFrame(figure_rows), "Points per player in two deals", "points",
                               lines=[(25, "the claim: 25")], band=(26.3, 26.4, "expert play, published"))
    return Section("2", "Twenty-five points in every two deals", [claim],
                   tables={"By playing strength": pd.DataFrame(rows),
                           f"Points per deal by role ({policy_label(main)})": breakdown_table(result.table())},
                   figures={"Points in two deals by playing strength": fig,
                            "Points per deal by role and component": plots.components_by_role(result.table())})


EIGHT_NOTE = "§90 says eight-card is played on the same plan as six-card, so §89's sentence is applied to it."
FIRST_DEALER_CASES = (
    ("3a", "six-card-61", SRC_TRIFLING, TRIFLING, None, "",
     "The first dealer has some trifling advantage in six-card to 61 (wins more often, under 60%)."),
    ("3b", "six-card", SRC_TRIFLING, TRIFLING, FIRST_DEALER_121, "",
     "The first dealer has some trifling advantage in six-card to 121 (wins more often, under 60%)."),
    ("3c", "five-card", SRC_LIFT, MORE_THAN_HALF, None, "Three for last (3 to the first non-dealer) is played.",
     "Dealing first is an advantage worth cutting for in five-card to 61 (first dealer wins more often)."),
    ("3d", "eight-card", SRC_EIGHT, TRIFLING, None, EIGHT_NOTE,
     "Eight-card 'on the same plan': the first dealer has some trifling advantage (wins more often, under 60%)."),
)


def first_dealer(ctx: Context) -> Section:
    main = main_policies()
    claims, rates, lengths = [], [], {}
    for cid, rules, src, claimed, ref, notes, statement in FIRST_DEALER_CASES:
        games = ctx.game_result(rules, main).games
        e = first_dealer_wins(games)
        claims.append(Claim(cid, statement, src, "share of games the first dealer wins", e.estimate, e.interval,
                            claimed, e.n, reference=ref, notes=notes, rules=rules, policies=policy_label(main),
                            percent=True))
        rates.append({"label": rules, "rate": e.estimate, "lo": e.lo, "hi": e.hi})
        lengths[rules] = games["deals"]
    logged = ctx.game_result("six-card-61", main, score_log=True)
    positions = plots.board_positions(logged.games, logged.score_log(), 61)
    games = ctx.game_result("six-card-61", main).games
    pref, average, share = nondealer_preference(games)
    base = rate_ci(int((games["winner"] != games["first_dealer_side"]).sum()), len(games))
    claims.append(Claim(
        "3e", "In six-card to 61 the first non-dealer is the favourite when he makes 10+ in the first deal and "
              "the dealer no more than his average.", SRC_PREFERENCE,
        "first non-dealer's win rate in games meeting the condition", pref.estimate, pref.interval,
        MORE_THAN_HALF, pref.n,
        notes=f"'The first hand' is read as all points of the first deal (play and show). The dealer's average "
              f"first deal is {average:.2f} points; {share:.1%} of games meet the condition. Over all games the "
              f"first non-dealer wins {_pct(base)}.",
        rules="six-card-61", policies=policy_label(main), percent=True))
    return Section("3", "The first dealer's advantage", claims,
                   figures={"First dealer's win rate by variant": plots.win_rates(pd.DataFrame(rates),
                                                                                  "First dealer's win rate"),
                            "Game length by variant": plots.game_lengths(lengths, "Deals per game"),
                            "Win probability by the score after a deal, six-card to 61": plots.win_probability_map(
                                positions, 61, bin_size=3, title="P(win) by the score after a deal, six-card to 61")})


THREE_CASES = (("three-rotation", "4a", "4b", "three people, one sitting out each deal in rotation", ""),
               ("three-hand", "4c", "4d", "true three-hand",
                "§88 says this of the rotation game; the same question is asked of true three-hand for comparison."))
READINGS = ((MORE_THAN_HALF, "wins more than half the games"), ((1 / 3, 1.0), "wins more than his third"))


def three_hand(ctx: Context) -> Section:
    main = main_policies()
    claims, tables, figures = [], {}, {}
    for rules, strong_id, weak_id, label, notes in THREE_CASES:
        games = ctx.game_result(rules, main).games
        e = first_dealer_wins(games)
        for cid, (claimed, reading) in zip((strong_id, weak_id), READINGS, strict=True):
            claims.append(Claim(cid, f"In {label}, the first dealer generally wins (read: {reading}).",
                                SRC_ROTATION, "share of games the first dealer wins", e.estimate, e.interval,
                                claimed, e.n, notes=notes, rules=rules, policies=policy_label(main), percent=True))
        table = position_win_rates(games, 3)
        tables[f"Win rate by seat, {rules}"] = table[["label", "win rate [95% CI]", "n"]]
        figures[f"Win rate by seat, {rules}"] = plots.win_rates(table, f"Win rate by seat: {rules}", 1 / 3)
    return Section("4", "Three players: does the first dealer generally win?", claims, tables=tables,
                   figures=figures)


def seed004_discards(ctx: Context) -> Section:
    peg = main_policies()["peg"]
    pol = {"discard": [HOYLE_DISCARD, EV_DISCARD], "peg": peg}
    games = ctx.game_result("five-card", pol, n=max(1, ctx.games // 4)).games  # hoyle's discards are slow
    e = rate_ci(int((games["winner"] == 0).sum()), len(games))
    claim = Claim(
        "5", "Seed 004's discard advice (dealer: the two best cards for his crib; pone: the very worst) plays "
             "as well as discarding by expected value (five-card to 61).", SRC_HOYLE,
        "win rate of a player following the advice against an expected-value discarder (same pegging)",
        e.estimate, e.interval, (0.49, 1.0), e.n,
        notes="'As well as' is read as losing no more than one game in a hundred (win rate 49% or more). "
              "Seats cut for the first deal, so each is first dealer about half the time. A quarter of the usual "
              "number of games: the advice's discard policy is slow.",
        rules="five-card", policies=policy_label(pol), percent=True)
    return Section("5", "Seed 004's discard advice against expected-value play", [claim])


def keep_close(ctx: Context) -> Section:
    discard = main_policies()["discard"]
    with_rule, without = ({"discard": discard, "peg": p} for p in (CLOSE_PEG, OPEN_PEG))
    a = ctx.deal_result("six-card", with_rule, records=True).records
    b = ctx.deal_result("six-card", without, records=True).records
    e = paired_diff(a["dealer_pegging"], b["dealer_pegging"])
    claim = Claim(
        "6", "The last player (the dealer) gains in the play by keeping as close as possible.", SRC_LAST_PLAYER,
        "dealer's pegging points per deal (play + go) with the keep-close rule minus without it",
        e.estimate, e.interval, (0.0, math.inf), e.n,
        notes="Both runs use the same deals (common random numbers) and the same pone; the interval is the "
              "paired one, from the per-deal differences.",
        rules="six-card", policies=f"{policy_label(with_rule)} vs {policy_label(without)}")
    return Section("6", "Pegging: keep as close as possible", [claim])


LURCH_TABLE = (("five-card", (31, 45)), ("six-card-61", (31, 45)), ("six-card", (61, 91)),
               ("eight-card", (61, 91)))


def lurches(ctx: Context) -> Section:
    main = main_policies()
    claims = []
    five = ctx.game_result("five-card", main).games
    for cid, threshold, src in (("7a", 31, SRC_LURCH_31), ("7b", 45, SRC_LURCH_45)):
        e = lurch_rate(five, threshold)
        claims.append(Claim(
            cid, f"A lurch (winning 61 before the loser reaches {threshold}), paid as a double game, is an "
                 f"exceptional result (read: under one game in ten).", src,
            f"share of five-card games the loser ends below {threshold}", e.estimate, e.interval, RARE, e.n,
            notes="The books give no frequency; the claim tested is the reading that a double stake rewards a "
                  "rare result.", rules="five-card", policies=policy_label(main), percent=True))
    rows, chart = [], []
    for rules, thresholds in LURCH_TABLE:
        games = ctx.game_result(rules, main).games
        for t in thresholds:
            e = lurch_rate(games, t)
            rows.append({"rules": rules, "loser below": t, "rate [95% CI]": _pct(e), "games": e.n})
            chart.append(_chart_row(f"{rules} < {t}", e))
    return Section("7", "Lurches and skunks", claims, tables={"Lurch and skunk rates": pd.DataFrame(rows)},
                   figures={"Lurch and skunk rates": plots.interval_chart(
                       pd.DataFrame(chart), "Loser below the threshold", "share of games",
                       lines=[(0.1, "one game in ten")], percent=True)})


SECTIONS: dict[str, Callable[[Context], Section]] = {
    "1": scoring, "2": twenty_five, "3": first_dealer, "4": three_hand, "5": seed004_discards, "6": keep_close,
    "7": lurches}


def run_claims(ctx: Context, only=None) -> tuple[list[Section], list[tuple[str, str, str]]]:
    """Run the sections (all, or the numbers in ``only``); returns (sections, skipped as (number, name, reason))."""
    unknown = sorted(set(only or ()) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown section {unknown[0]!r}; sections are {', '.join(SECTIONS)}")
    sections, skipped = [], []
    for number, fn in SECTIONS.items():
        if only and number not in only:
            continue
        ctx.log(f"{number}. {fn.__name__}")
        try:
            sections.append(fn(ctx))
        except ClaimUnavailable as exc:
            skipped.append((number, fn.__name__, str(exc)))
            ctx.log(f"  skipped: {exc}")
    return sections, skipped


def verdict_text(claims) -> str:
    """The verdict table as fixed-width text for the terminal."""
    rows = [("claim", "verdict", "estimate [95% CI]", "claimed", "n", "statement")]
    rows += [(c.id, c.verdict, c.format_estimate(), c.claimed_text(), f"{c.n:,}", c.statement) for c in claims]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " + r[5] for r in rows)


def rules_table(runs) -> pd.DataFrame:
    """Every field of each rules preset the simulations used."""
    from sims.cribbage import get_rules

    names = sorted({r["rules"] for r in runs})
    return pd.DataFrame([get_rules(name).to_dict() for name in names])


def load_engine() -> tuple[Callable, Callable]:
    from sims.cribbage import play_games, simulate_deals

    return simulate_deals, play_games


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m analysis.claims", description=(
        "Check every period claim by simulation, print the verdicts and write the report."))
    p.add_argument("--full", action="store_true", help="publication-size runs (default: a few minutes on 2 cores)")
    p.add_argument("--out", default="data/reports", help="report directory (default: data/reports)")
    p.add_argument("--quiet", action="store_true", help="no progress messages")
    p.add_argument("--seed", type=int, default=1, help="master seed of every simulation (default: 1)")
    p.add_argument("--deals", type=int, help="deals per deal simulation (overrides the size)")
    p.add_argument("--games", type=int, help="games per game simulation (overrides the size)")
    p.add_argument("--only", nargs="+", metavar="N", help=f"run only these sections ({', '.join(SECTIONS)})")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        deals, games = SIZES["full" if args.full else "default"]
        deals, games = args.deals or deals, args.games or games
        if deals < 1 or games < 1:
            raise ValueError("--deals and --games must be positive")
        log = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
        ctx = Context(*load_engine(), deals=deals, games=games, seed=args.seed, log=log)
        start = time.perf_counter()
        sections, skipped = run_claims(ctx, args.only)
        claims = [c for s in sections for c in s.claims]
        print(verdict_text(claims))
        for number, name, reason in skipped:
            print(f"not run: {number}. {name}: {reason}")
        provenance = {"command": "python -m analysis.claims " + " ".join(argv if argv is not None else sys.argv[1:]),
                      "generated": timestamp(), "seed": args.seed, "deals per simulation": deals,
                      "games per simulation": games, "wall time (s)": round(time.perf_counter() - start, 1),
                      **environment(), "simulations": pd.DataFrame(ctx.runs), "rules": rules_table(ctx.runs)}
        path = write_report(sections, args.out, provenance, skipped, preamble=VERDICT_RULE)
        print(f"report: {path}")
    except ValueError as exc:
        print(f"analysis.claims: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
