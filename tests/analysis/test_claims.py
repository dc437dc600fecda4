"""sims.analysis.claims: the verdict rule with its margin, the claim record, the sections' discovery, the Context,
the quantities computed from results, and the main job end to end on a fake engine and on the real one."""

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sims.analysis import claims
from sims.analysis.claims import Claim, ClaimUnavailable, Context, Source, at_least, equal, less, more
from sims.analysis.claims.command import main
from sims.cribbage.claims import measures as cribbage

SRC = Source("Sections 87-96", "003_x.txt", "§89", "quote")
WHY = "a reason"


# ---- the verdict rule ----


@pytest.mark.parametrize(
    "claimed, interval, verdict",
    [
        # equal to 25 within 0.5
        (equal(25, 0.5, WHY), (24.8, 25.2), "supported"),
        (equal(25, 0.5, WHY), (24.5, 25.5), "supported"),
        (equal(25, 0.5, WHY), (26.2, 26.4), "not supported"),
        (equal(25, 0.5, WHY), (25.3, 25.7), "inconclusive"),
        # more than 50% by more than half a point, under a cap of 60%
        (more(0.5, 0.005, WHY), (0.52, 0.56), "supported"),
        (more(0.5, 0.005, WHY), (0.498, 0.503), "negligible"),  # both ways inside the margin
        (more(0.5, 0.005, WHY), (0.503, 0.507), "inconclusive"),  # above 50%, but perhaps negligibly
        (more(0.5, 0.005, WHY), (0.49, 0.504), "not supported"),  # a gain that matters is ruled out
        (more(0.5, 0.005, WHY), (0.45, 0.48), "not supported"),
        (more(0.5, 0.005, WHY, cap=0.6), (0.55, 0.58), "supported"),
        (more(0.5, 0.005, WHY, cap=0.6), (0.55, 0.62), "inconclusive"),
        (more(0.5, 0.005, WHY, cap=0.6), (0.61, 0.62), "not supported"),
        # claim 6 of the old report: -0.0005 points was "not supported"; with a margin it is negligible
        (more(0.0, 0.05, WHY), (-0.0007, -0.0003), "negligible"),
        (more(0.0, 0.05, WHY), (0.06, 0.2), "supported"),
        # less than 10% by more than a point
        (less(0.1, 0.01, WHY), (0.009, 0.012), "supported"),
        (less(0.1, 0.01, WHY), (0.207, 0.218), "not supported"),
        (less(0.1, 0.01, WHY), (0.095, 0.105), "negligible"),
        (less(0.1, 0.01, WHY), (0.085, 0.095), "inconclusive"),
        # at least 50% (no worse by more than the margin)
        (at_least(0.5, 0.005, WHY), (0.497, 0.53), "supported"),
        (at_least(0.5, 0.005, WHY), (0.2, 0.22), "not supported"),
        (at_least(0.5, 0.005, WHY), (0.48, 0.51), "inconclusive"),
    ],
)
def test_verdict_rule(claimed, interval, verdict):
    assert claimed.verdict(interval) == verdict


def test_a_margin_of_zero_is_refused():
    """A margin of 0 would let "may happen" come out supported whatever the rate (issue 21): every claim states
    a margin with its reason, so 0 is refused."""
    with pytest.raises(ValueError, match="margin > 0"):
        more(0.5, 0.0, WHY)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: claims.Claimed("~", 1.0, 0.1, WHY), "relation"),
        (lambda: more(0.5, -0.1, WHY), "margin > 0"),
        (lambda: more(0.5, 0.1, " "), "reason"),
        (lambda: more(0.5, 0.1, WHY, cap=0.55), "cap"),
        (lambda: claims.Claimed("<", 0.5, 0.1, WHY, cap=0.9), "cap"),
        (lambda: claims.source("Lost Book", "§1", "q"), "unknown text"),
    ],
)
def test_bad_readings_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_claim_formatting_and_json():
    c = Claim(
        "3b",
        "Trifling.",
        SRC,
        "rate",
        0.556,
        (0.55, 0.562),
        20000,
        more(0.5, 0.005, WHY, cap=0.6),
        reading="wins more than half",
        percent=True,
    )
    assert c.verdict == "supported" and c.margin == 0.005
    assert c.format_estimate() == "55.6% [55.0%, 56.2%]"
    assert c.claimed_text() == "> 50.0%, under 60.0%" and c.margin_text() == "±0.5%"
    six = Claim("6", "s", SRC, "q", -0.0005, (-0.0007, -0.0003), 10, more(0.0, 0.05, WHY))
    assert six.format_estimate() == "-0.0005 [-0.0007, -0.0003]" and six.margin_text() == "±0.05"
    assert six.format_range((26.3, 26.4)) == "26.30 to 26.40"
    d = json.loads(json.dumps(six.to_dict()))
    assert d["verdict"] == "negligible" and d["claimed"] == {
        "relation": ">",
        "value": 0.0,
        "margin": 0.05,
        "why": WHY,
        "cap": None,
    }
    with pytest.raises(ValueError, match="finite"):
        Claim("x", "s", SRC, "q", 1.0, (math.nan, 2.0), 10, more(0.0, 0.1, WHY))
    with pytest.raises(ValueError, match="Claimed"):
        Claim("x", "s", SRC, "q", 1.0, (0.5, 2.0), 10, (0.0, 1.0))


# ---- the sections ----


def test_sections_are_discovered_in_report_order():
    found = claims.sections()
    assert list(found)[:7] == ["1", "2", "3", "4", "5", "6", "7"]
    for number, module in found.items():
        assert module.NUMBER == number and module.TITLE and callable(module.run)
    assert claims.section("3").__name__ == "sims.cribbage.claims.first_dealer"
    with pytest.raises(ValueError, match="unknown section '99'"):
        claims.section("99")


def test_every_claim_states_its_margin_and_reason():
    """Every claim of the published report (data/reports/claims.json, every section) states a margin above 0 with its
    reason, and its verdict is the one the rule gives again for its interval and that margin."""
    published = json.loads((Path(__file__).resolve().parents[2] / "data/reports/claims.json").read_text())["claims"]
    assert {c["id"][0] for c in published} >= set("2345679") and len({c["id"] for c in published}) == len(published)
    for c in published:
        claimed = claims.Claimed(**c["claimed"])
        assert claimed.margin > 0 and claimed.why.strip(), c["id"]
        assert claimed.verdict(tuple(c["interval"])) == c["verdict"], c["id"]


# ---- the Context ----


class Recorder:
    """A simulate() that records its calls and returns a minimal result."""

    def __init__(self):
        self.calls = []

    def __call__(self, game, kind, rules, policies, n, seed, records=False, **options):
        self.calls.append((kind, rules, n, records, options))
        return type("R", (), {"summary": {"version": "fake", "rules": {"name": rules}}})()


def test_context_runs_once_and_richer_runs_serve_poorer_requests():
    sim = Recorder()
    ctx = Context(deals=100, games=10, seed=3, simulate=sim)
    pol = {"discard": "greedy", "peg": "greedy"}
    rich = ctx.result("cribbage", "games", "six-card-61", pol, records=True, score_log=True)
    assert ctx.result("cribbage", "games", "six-card-61", pol) is rich
    assert ctx.result("cribbage", "games", "six-card-61", pol, records=True) is rich
    ctx.result("cribbage", "games", "six-card-61", pol, n=5)  # another size: a new run
    ctx.result("cribbage", "deals", "six-card", pol, records=True)
    ctx.result("cribbage", "deals", "six-card", pol)
    assert sim.calls == [
        ("games", "six-card-61", 10, True, {"score_log": True}),
        ("games", "six-card-61", 5, False, {}),
        ("deals", "six-card", 100, True, {}),
    ]
    assert [r["kind"] for r in ctx.runs] == ["games + records + score log", "games", "deals + records"]
    assert ctx.runs[0]["policies"] == "greedy + greedy" and ctx.runs[0]["seed"] == 3
    assert ctx.rules_used() == {
        ("cribbage", "six-card-61"): {"name": "six-card-61"},
        ("cribbage", "six-card"): {"name": "six-card"},
    }


def test_searched_sizes_only_the_runs_of_a_searching_player():
    """Unset, a searching player's runs keep the report's rule, a share of the deals with a floor (so the report's
    numbers do not move); set (tests, notebooks under test), it is their size."""
    assert Context(deals=200_000, games=10).searched_n(400, 500) == 500
    assert Context(deals=10_000_000, games=10).searched_n(400, 500) == 25_000
    assert Context(deals=10_000_000, games=10, searched=20).searched_n(400, 500) == 20


def test_context_reports_what_the_package_lacks():
    ctx = Context(deals=10, games=10, simulate=Recorder())
    with pytest.raises(ClaimUnavailable, match="discard policy 'no_such_policy'"):
        ctx.result("cribbage", "deals", "six-card", {"discard": ["greedy", "no_such_policy"], "peg": "greedy"})
    with pytest.raises(ValueError, match="unknown game"):
        ctx.result("whist", "deals", None, {})


def test_rules_objects_are_labelled_and_kept_apart():
    from sims.cribbage import get_rules

    sim = Recorder()
    ctx = Context(deals=10, games=10, simulate=sim)
    pol = {"discard": "greedy", "peg": "greedy"}
    ctx.result("cribbage", "games", get_rules("five-card"), pol)
    ctx.result("cribbage", "games", get_rules("five-card").replace(three_for_last=False), pol)
    assert [r["rules"] for r in ctx.runs] == ["five-card", "five-card*"] and len(sim.calls) == 2


# ---- quantities from results (hand-built) ----

GAMES = pd.DataFrame(
    {  # the columns of GameResult.games for two players
        "game": range(6),
        "first_dealer": [0, 1, 0, 1, 0, 1],
        "winner": [0, 0, 1, 1, 1, 1],
        "deals": [9, 10, 8, 9, 11, 10],
        "score_0": [61, 61, 50, 29, 60, 45],
        "score_1": [30, 44, 61, 61, 61, 62],
        "first_deal_0": [5, 12, 15, 3, 10, 20],
        "first_deal_1": [11, 4, 6, 9, 2, 12],
        "first_dealer_side": [0, 1, 0, 1, 0, 1],
    }
)


def test_nondealer_preference_by_hand():
    # dealer's first-deal points per game: 5, 4, 15, 9, 10, 12 -> average 55/6 = 9.17
    # pone's: 11, 12, 6, 3, 2, 20 -> condition (pone >= 10, dealer <= 9.17): games 0 and 1
    # game 0: pone is seat 1, winner 0 -> lost; game 1: pone is seat 0, winner 0 -> won
    est, average, share = cribbage.nondealer_preference(GAMES)
    assert average == pytest.approx(55 / 6)
    assert (est.estimate, est.n, share) == (0.5, 2, pytest.approx(2 / 6))
    with pytest.raises(ValueError, match="no game"):
        cribbage.nondealer_preference(GAMES, threshold=30)


class Games:
    """What the cribbage quantities read from a game result."""

    def __init__(self, losers, summary=None, places=None):
        self._losers, self.summary, self._places = losers, summary, places

    def loser_score_counts(self):
        return pd.Series(self._losers).value_counts().sort_index()

    def place_table(self):
        return self._places


def test_lurch_rate_counts_losers_strictly_below():
    losers = Games(list(GAMES["score_0"].where(GAMES["winner"] == 1, GAMES["score_1"])))  # 30 44 50 29 60 45
    assert cribbage.lurch_rate(losers, 31).estimate == pytest.approx(2 / 6)
    assert cribbage.lurch_rate(losers, 45).estimate == pytest.approx(3 / 6)
    assert cribbage.lurch_rate(losers, 29).estimate == 0.0


def test_win_rates_come_from_the_results_own_intervals():
    from sims.stats import wilson

    rate, lo, hi = wilson(56, 100)
    summary = {"n": 104, "unfinished": 4, "first_dealer_win": {"rate": rate, "lo": lo, "hi": hi}}
    e = cribbage.first_dealer_wins(summary)
    assert (e.estimate, e.lo, e.hi, e.n) == (0.56, lo, hi, 100)
    places = pd.DataFrame(
        {
            "place": ["first dealer", "first dealer +1"],
            "wins": [56, 44],
            "rate": [0.56, 0.44],
            "lo": [lo, 0.3],
            "hi": [hi, 0.5],
        }
    )
    table = cribbage.place_win_rates(Games([], summary, places))
    assert list(table.columns) == ["label", "rate", "lo", "hi", "n"] and (table["n"] == 100).all()


def test_points_per_two_deals_uses_the_bound():
    summary = {
        "n": 1000,
        "roles": {"dealer": {"total": {"mean": 16.2, "se": 0.02}}, "pone": {"total": {"mean": 10.1, "se": 0.01}}},
    }
    e = cribbage.points_per_two_deals(summary)
    assert e.estimate == pytest.approx(26.3) and e.se == pytest.approx(0.03)
    with pytest.raises(ValueError, match="no pone/total"):
        cribbage.role_mean({"roles": {}}, "pone", "total")


def test_seat_margin_follows_the_deal():
    rec = pd.DataFrame({"deal": [0, 1, 2], "dealer": [0, 1, 0], "dealer_pegging": [5, 1, 2], "pone_pegging": [3, 4, 2]})
    assert cribbage.seat_margin(rec, 0, "pegging").tolist() == [2, 3, 0]
    assert cribbage.seat_margin(rec, 1, "pegging").tolist() == [-2, -3, 0]
    assert cribbage.seat_margin(rec, 0, "pegging", dealing=False).tolist() == [3]


# ---- the main job on a fake engine ----

COMPONENTS = {
    "dealer": {"hand": 8.0, "crib": 4.7, "play": 2.3, "go": 0.9, "heels": 0.3},
    "pone": {"hand": 8.1, "crib": 0.0, "play": 1.5, "go": 0.5, "heels": 0.0},
}


def _seats(spec, players):
    return spec if isinstance(spec, list) else [spec] * players


class FakeDeals:
    """Deal means as COMPONENTS; in the per-deal records seat 0 makes a point more in the play when it keeps close."""

    def __init__(self, rules, policies, n, seed, records):
        pegs = _seats(policies["peg"], 2)
        bonus = 1 if pegs[0] == "defensive" else 0
        self.summary = {
            "kind": "deals",
            "rules": {"name": rules},
            "n": n,
            "seed": seed,
            "version": "fake",
            "roles": {
                role: {
                    **{c: {"mean": m, "se": 0.01} for c, m in comps.items()},
                    "pegging": {"mean": comps["play"] + comps["go"], "se": 0.01},
                    "total": {"mean": sum(comps.values()), "se": 0.01},
                }
                for role, comps in COMPONENTS.items()
            },
        }
        noise = np.random.default_rng(seed).integers(0, 6, size=(2, n))  # the same deals for every policy
        deal = np.arange(n)
        rec = {"deal": deal, "dealer": deal % 2}
        for r, role in enumerate(("dealer", "pone")):
            for comp in ("play", "go"):
                rec[f"{role}_{comp}"] = noise[r]
        seat0_deals = deal % 2 == 0
        rec["dealer_play"] = rec["dealer_play"] + bonus * seat0_deals
        rec["pone_play"] = rec["pone_play"] + bonus * ~seat0_deals
        for role in ("dealer", "pone"):
            rec[f"{role}_pegging"] = rec[f"{role}_play"] + rec[f"{role}_go"]
        self.records = pd.DataFrame(rec) if records else None

    def table(self):
        return pd.DataFrame(
            [
                {"role": r, "component": c, "mean": v["mean"], "se": v["se"], "n": self.summary["n"]}
                for r, comps in self.summary["roles"].items()
                for c, v in comps.items()
            ]
        )


class FakeGames:
    """The first dealer (and seat 0) wins 56%; losers end uniformly on 20..60."""

    def __init__(self, rules, policies, n, seed, records, score_log=False):
        from sims.cribbage import get_rules
        from sims.stats import wilson

        players = get_rules(rules).players
        rng = np.random.default_rng(seed)
        first = rng.integers(0, players, n)
        others = (first + rng.integers(1, players, n)) % players
        winner = np.where(rng.random(n) < 0.56, first, others)
        cols = {"game": np.arange(n), "first_dealer": first, "winner": winner, "deals": rng.integers(5, 15, n)}
        for s in range(players):
            cols[f"score_{s}"] = np.where(winner == s, 61, rng.integers(20, 61, n))
        for s in range(players):
            cols[f"first_deal_{s}"] = rng.integers(0, 25, n)
        self._games = pd.DataFrame(cols).assign(first_dealer_side=first)
        rate = {
            name: dict(zip(("rate", "lo", "hi"), wilson(int(k), n), strict=True))
            for name, k in [(f"seat {s}", (winner == s).sum()) for s in range(players)]
            + [("first", (winner == first).sum())]
        }
        self.summary = {
            "kind": "games",
            "rules": {"name": rules},
            "n": n,
            "unfinished": 0,
            "version": "fake",
            "first_dealer_win": rate.pop("first"),
            "win_rate": rate,
        }
        self.records, self.logged = records, score_log
        self._places = (winner - first) % players

    @property
    def games(self):
        assert self.records, "per-game rows need records=True"
        return self._games

    def score_log(self):
        assert self.logged
        g = self._games
        return pd.concat(
            [g[["game"]].assign(deal=d, score_0=g["score_0"] * d // 3, score_1=g["score_1"] * d // 3) for d in (1, 2)],
            ignore_index=True,
        )

    def place_table(self):
        from sims.stats import wilson

        n = len(self._places)
        rows = [(k, *wilson(int((self._places == k).sum()), n)) for k in range(self._places.max() + 1)]
        return pd.DataFrame(rows, columns=["place", "rate", "lo", "hi"]).assign(
            place=lambda t: ["first dealer"] + [f"first dealer +{k}" for k in t["place"][1:]]
        )

    def loser_score_counts(self):
        g = self._games
        scores = g[[c for c in g if c.startswith("score_")]].to_numpy()
        losers = scores[np.arange(scores.shape[1])[None, :] != g["winner"].to_numpy()[:, None]]
        return pd.Series(losers).value_counts().sort_index()

    def deal_count_histogram(self):
        return self._games["deals"].value_counts().sort_index()


def fake_simulate(game, kind, rules, policies, n, seed, records=False, **options):
    if kind == "deals":
        return FakeDeals(rules, policies, n, seed, records)
    return FakeGames(rules, policies, n, seed, records, **options)


@pytest.fixture
def fake_engine(monkeypatch):
    monkeypatch.setattr(claims.context, "simulate", fake_simulate)


CRIBBAGE_IDS = ["2", "3a", "3b", "3c", "3d", "3e", "4a", "4b", "4c", "4d", "5a", "5b", "6", "7a", "7b"]


def test_main_job_end_to_end(fake_engine, tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["--out", str(out), "--quiet", "--deals", "1000", "--games", "3000", "--only", *"1234567"]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    table = printed.out.splitlines()
    assert table[0].split()[:2] == ["claim", "verdict"]
    assert [
        line.split()[0] for line in table[1 : 2 * len(CRIBBAGE_IDS) + 1 : 2]
    ] == CRIBBAGE_IDS  # each statement under
    assert max(map(len, table)) <= 100
    assert table[-1] == f"report: {out / 'report.md'}"
    text = (out / "report.md").read_text()
    for cid in CRIBBAGE_IDS:
        assert f"### Claim {cid}:" in text
    for link in re.findall(r"\]\((figures/[^)]+)\)", text):
        assert (out / link).is_file()
    assert "Not run" not in text and "**simulations**" in text and "**rules (cribbage)**" in text
    assert "**Margin**: ±0.5%: half a point of win rate" in text and "**Reading of the text**" in text
    data = json.loads((out / "claims.json").read_text())
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["2"]["estimate"] == pytest.approx(26.3)  # fake: dealer 16.2 + pone 10.1
    assert by_id["2"]["verdict"] == "not supported"
    assert by_id["6"]["estimate"] == 1.0 and by_id["6"]["verdict"] == "supported"
    assert by_id["3b"]["verdict"] == "supported"  # fake first dealer wins 56% of 3,000
    assert by_id["5a"]["n"] == 750  # a quarter of the games
    assert data["provenance"]["deals per simulation"] == 1000
    # simulations are shared between claims: one per (kind, rules, policies, size)
    runs = data["provenance"]["simulations"]
    assert len(runs) == len({(r["kind"].split(" +")[0], r["rules"], r["policies"], r["n"]) for r in runs})


def test_the_report_holds_only_what_the_seeds_determine(fake_engine, tmp_path, capsys):
    """Rerun, the tracked report (Markdown, claims.json, figures) is byte for byte the same, so `make run`
    leaves git status clean; time, versions and commit go to the untracked run.json."""
    out = tmp_path / "r"
    args = ["--out", str(out), "--quiet", "--deals", "1000", "--games", "3000", "--only", "2", "3"]

    def tracked():
        return {
            path.relative_to(out): path.read_bytes()
            for path in sorted(out.rglob("*"))
            if path.is_file() and path.name != "run.json"
        }

    assert main(args) == 0
    first = tracked()
    details = json.loads((out / "run.json").read_text())
    assert main(args) == 0
    assert tracked() == first and len(first) > 3
    assert {"generated", "wall time (s)", "sims", "numba", "numpy"} <= set(details)
    assert all("seconds" in run for run in details["simulations"])
    text = first[Path("report.md")].decode()
    assert "run.json beside this report (not tracked by git)" in text
    assert not re.search(r"generated|wall time|git commit|seconds|numba", text)
    assert "| game | kind | rules | policies | seed | n | engine version |" in text


def test_sections_that_cannot_run_are_reported_not_run(fake_engine, tmp_path, capsys, monkeypatch):
    from sims.cribbage.claims import article_discards

    monkeypatch.setattr(article_discards, "READINGS", (("5x", "no_such_policy", "a reading"),))
    out = tmp_path / "r"
    assert main(["--out", str(out), "--quiet", "--games", "500", "--deals", "100", "--only", "5", "7"]) == 0
    printed = capsys.readouterr().out
    assert (
        "not run: 5. The Article's discard advice against expected-value play: needs discard policy "
        "'no_such_policy', not in the package yet" in printed
    )
    text = (out / "report.md").read_text()
    assert "## Not run" in text and "### Claim 7a:" in text and "expected_net + defensive" in text


def test_bad_arguments_exit_2(fake_engine, tmp_path, capsys):
    assert main(["--out", str(tmp_path / "r"), "--only", "99"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("sims.analysis.claims: error: unknown section '99'; sections are 1, 2, 3, 4, 5, 6, 7")
    assert main(["--out", str(tmp_path / "r"), "--deals", "-5"]) == 2
    assert not (tmp_path / "r").exists()


def test_progress_goes_to_stderr(fake_engine, tmp_path, capsys):
    assert main(["--out", str(tmp_path / "r"), "--only", "1"]) == 0
    assert capsys.readouterr().err.lstrip("\r").startswith("1. Scoring")  # a progress line per section (tqdm)


def test_a_cold_kernel_cache_is_announced_before_the_first_section(fake_engine, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SIMS_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["--out", str(tmp_path / "r"), "--deals", "1000", "--games", "3000", "--only", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split(" kernels")[0] for line in err[:3]] == [
        f"sims: compiling the {game}" for game in ("cribbage", "allfours", "loo")
    ]
    assert err[0].endswith(f"once (about a minute or two on 2 cores; later runs load them from {tmp_path / 'cache'})")
    assert [line for line in err[3:] if line][0].startswith("2. Twenty-five points")  # tqdm rewrites it with \r


def test_claims_on_the_real_engine_small(tmp_path):
    """Every cribbage section through the real engine at a tiny size; the estimates must land near the
    default-size report's (seed 1), with tolerances of at least four standard errors at this size."""
    out = tmp_path / "r"
    assert main(["--out", str(out), "--quiet", "--deals", "4000", "--games", "400", "--only", *"1234567"]) == 0
    data = json.loads((out / "claims.json").read_text())
    by_id = {c["id"]: c for c in data["claims"]}
    assert list(by_id) == CRIBBAGE_IDS
    windows = {
        "2": (25.6, 27.4),  # points in two deals, expected_net + defensive: 26.49 at 200,000 deals
        "3e": (0.45, 0.87),  # the first non-dealer's preference: 65.8%
        "4c": (0.35, 0.55),  # true three-hand, first dealer: 45.1% (a fair third is 33.3%)
        "5a": (0.05, 0.40),  # the Article's advice against expected value: 21.1%
        "7b": (0.13, 0.30),
    }  # five-card losers below 45: 21.3%
    for cid, (lo, hi) in windows.items():
        assert lo < by_id[cid]["estimate"] < hi, (cid, by_id[cid]["estimate"])
    assert by_id["7a"]["estimate"] < by_id["7b"]["estimate"]  # below 31 is rarer than below 45
    assert abs(by_id["6"]["estimate"]) < 0.25
    kinds = {r["kind"] for r in data["provenance"]["simulations"]}
    assert kinds == {"deals", "deals + records", "games", "games + records + score log"}


def test_forgotten_records_leave_the_totals_served_and_are_played_again_when_asked():
    """Between sections the cache keeps each run's totals, not its records: the same numbers without them, and a
    request with records plays the run again (the same records, from the same seed)."""
    ctx = Context(deals=200, games=10, seed=2)
    pol = {"discard": "greedy", "peg": "greedy"}
    rich = ctx.result("cribbage", "deals", "six-card", pol, records=True)
    records = rich.records.copy()
    ctx.forget_records()
    poor = ctx.result("cribbage", "deals", "six-card", pol)
    assert poor.records is None and rich.records is not None  # a copy: what a section holds is its own
    pd.testing.assert_frame_equal(poor.table(), rich.table())
    assert len(ctx.runs) == 1  # served from the cache
    again = ctx.result("cribbage", "deals", "six-card", pol, records=True)
    assert len(ctx.runs) == 2 and again is not rich
    pd.testing.assert_frame_equal(again.records, records)
