"""analysis.claims: the verdict rule, the quantities computed from game tables, and the main job end to end
on a fake engine (synthetic results shaped like DealResult / GameResult)."""
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import claims
from analysis.claims import Claim, Source, judge
from sims.cribbage import get_rules

SEEDS = Path("/work/shared/seeds")
SRC = Source("003", "003_x.txt", "§89", "quote")


# ---- the verdict rule ----

@pytest.mark.parametrize("interval, claimed, verdict", [
    ((24.8, 25.2), (24.5, 25.5), "supported"),
    ((26.2, 26.4), (24.5, 25.5), "not supported"),
    ((25.3, 25.7), (24.5, 25.5), "inconclusive"),
    ((0.52, 0.56), (0.5, math.inf), "supported"),
    ((0.49, 0.51), (0.5, math.inf), "inconclusive"),
    ((0.45, 0.48), (0.5, math.inf), "not supported"),
    ((0.55, 0.62), (0.5, 0.6), "inconclusive"),
    ((-0.3, -0.1), (0.0, math.inf), "not supported"),
    ((24.5, 25.5), (24.5, 25.5), "supported"),
])
def test_judge(interval, claimed, verdict):
    assert judge(interval, claimed) == verdict


def test_claim_verdict_formatting_and_validation():
    c = Claim("3b", "Trifling.", SRC, "rate", 0.556, (0.55, 0.562), (0.5, 0.6), 20000, percent=True)
    assert c.verdict == "supported"
    assert c.format_estimate() == "55.6% [55.0%, 56.2%]"
    assert c.claimed_text() == "50.0% to 60.0%"
    assert Claim("6", "s", SRC, "q", 0.1, (0.05, 0.15), (0.0, math.inf), 10).claimed_text() == "> 0.00"
    assert Claim("x", "s", SRC, "q", 0.9, (0.8, 0.95), (0.5, 1.0), 10, percent=True).claimed_text() == "> 50.0%"
    d = Claim("6", "s", SRC, "q", 0.1, (0.05, 0.15), (0.0, math.inf), 10).to_dict()
    assert d["claimed"] == [0.0, None] and d["verdict"] == "supported"
    json.dumps(d)
    with pytest.raises(ValueError, match="finite"):
        Claim("x", "s", SRC, "q", 1.0, (math.nan, 2.0), (0.0, 1.0), 10)
    with pytest.raises(ValueError, match="lo < hi"):
        Claim("x", "s", SRC, "q", 1.0, (0.5, 2.0), (1.0, 1.0), 10)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not on this machine")
def test_every_source_quote_is_in_its_seed_file():
    def norm(text):
        return re.sub(r"\s+", " ", text)
    sources = [v for v in vars(claims).values() if isinstance(v, Source)]
    assert len(sources) >= 10
    for src in sources:
        assert norm(src.quote) in norm((SEEDS / src.file).read_text(encoding="utf-8")), src


# ---- quantities from game tables (hand-built) ----

GAMES = pd.DataFrame({  # the columns of GameResult.games for two players
    "game": range(6),
    "first_dealer": [0, 1, 0, 1, 0, 1],
    "winner": [0, 0, 1, 1, 1, 1],
    "deals": [9, 10, 8, 9, 11, 10],
    "score_0": [61, 61, 50, 29, 60, 45],
    "score_1": [30, 44, 61, 61, 61, 62],
    "first_deal_0": [5, 12, 15, 3, 10, 20],
    "first_deal_1": [11, 4, 6, 9, 2, 12],
    "first_dealer_side": [0, 1, 0, 1, 0, 1],
})


def test_first_dealer_wins_and_lurch_rate():
    assert claims.first_dealer_wins(GAMES).estimate == pytest.approx(3 / 6)
    assert claims.lurch_rate(GAMES, 31).estimate == pytest.approx(2 / 6)
    assert claims.lurch_rate(GAMES, 45).estimate == pytest.approx(3 / 6)


def test_nondealer_preference_by_hand():
    # dealer's first-deal points per game: 5, 4, 15, 9, 10, 12 -> average 55/6 = 9.17
    # pone's: 11, 12, 6, 3, 2, 20 -> condition (pone >= 10, dealer <= 9.17): games 0 and 1
    # game 0: pone is seat 1, winner 0 -> lost; game 1: pone is seat 0, winner 0 -> won
    est, average, share = claims.nondealer_preference(GAMES)
    assert average == pytest.approx(55 / 6)
    assert (est.estimate, est.n, share) == (0.5, 2, pytest.approx(2 / 6))
    with pytest.raises(ValueError, match="no game"):
        claims.nondealer_preference(GAMES, threshold=30)


def test_position_win_rates_three_players():
    games = pd.DataFrame({"first_dealer": [0, 1, 2, 2], "winner": [0, 2, 0, 2]})
    table = claims.position_win_rates(games, 3)
    assert list(table["label"]) == ["first dealer", "1 left of first dealer", "2 left of first dealer"]
    assert list(table["rate"]) == [0.5, 0.5, 0.0]


def test_points_per_two_deals_uses_the_bound():
    summary = {"n": 1000, "roles": {"dealer": {"total": {"mean": 16.2, "se": 0.02}},
                                    "pone": {"total": {"mean": 10.1, "se": 0.01}}}}
    e = claims.points_per_two_deals(summary)
    assert e.estimate == pytest.approx(26.3) and e.se == pytest.approx(0.03)
    with pytest.raises(ValueError, match="no pone/total"):
        claims.role_mean({"roles": {}}, "pone", "total")


# ---- the main job on a fake engine ----

COMPONENTS = {"dealer": {"hand": 8.0, "crib": 4.7, "play": 2.3, "go": 0.9, "heels": 0.3},
              "pone": {"hand": 8.1, "crib": 0.0, "play": 1.5, "go": 0.5, "heels": 0.0}}


class FakeDeals:
    def __init__(self, rules, policies, n, seed, records=False):
        bonus = 0.2 if policies["peg"] == claims.CLOSE_PEG else 0.0
        roles = {}
        for role, comps in COMPONENTS.items():
            cells = {c: {"mean": m, "se": 0.01} for c, m in comps.items()}
            cells["pegging"] = {"mean": comps["play"] + comps["go"] + bonus * (role == "dealer"), "se": 0.01}
            cells["total"] = {"mean": sum(comps.values()) + bonus * (role == "dealer"), "se": 0.02}
            roles[role] = cells
        self.summary = {"kind": "deals", "rules": rules, "n": n, "seed": seed, "version": "fake", "roles": roles}
        noise = np.random.default_rng(seed).normal(0.0, 1.0, n)  # the same deals for every policy
        self.records = (pd.DataFrame({"dealer_pegging": roles["dealer"]["pegging"]["mean"] + noise})
                        if records else None)

    def table(self):
        return pd.DataFrame([{"role": r, "component": c, "mean": v["mean"], "se": v["se"], "n": self.summary["n"]}
                             for r, comps in self.summary["roles"].items() for c, v in comps.items()])


class FakeGames:
    def __init__(self, rules, policies, n, seed, records=False, score_log=False):
        assert records, "claims need the per-game records"
        self.logged = score_log
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
        self.games = pd.DataFrame(cols).assign(first_dealer_side=first)
        self.summary = {"kind": "games", "rules": rules, "n": n, "version": "fake"}

    def score_log(self):
        assert self.logged
        g = self.games
        halves = [g[["game", "score_0", "score_1"]].assign(deal=d, score_0=g["score_0"] * d // 2,
                                                            score_1=g["score_1"] * d // 2) for d in (1, 2)]
        return pd.concat(halves, ignore_index=True)


@pytest.fixture
def fake_engine(monkeypatch):
    monkeypatch.setattr(claims, "load_engine", lambda: (FakeDeals, FakeGames))


def test_main_job_end_to_end(fake_engine, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(claims, "missing_policies", lambda policies: [])  # pretend the strategy policies exist
    out = tmp_path / "reports"
    assert claims.main(["--out", str(out), "--quiet", "--deals", "1000", "--games", "3000"]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    ids = ["2", "3a", "3b", "3c", "3d", "3e", "4a", "4b", "4c", "4d", "5", "6", "7a", "7b"]
    table = printed.out.splitlines()
    assert table[0].split()[:2] == ["claim", "verdict"]
    assert [line.split()[0] for line in table[1:len(ids) + 1]] == ids
    assert table[-1] == f"report: {out / 'report.md'}"
    text = (out / "report.md").read_text()
    for cid in ids:
        assert f"### Claim {cid}:" in text
    for link in re.findall(r"\]\((figures/[^)]+)\)", text):
        assert (out / link).is_file()
    assert "Not run" not in text and "**simulations**" in text and "**rules**" in text
    data = json.loads((out / "claims.json").read_text())
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["2"]["estimate"] == pytest.approx(26.5)  # fake: dealer 16.2 + 0.2 keep-close bonus, pone 10.1
    assert by_id["6"]["estimate"] == pytest.approx(0.2) and by_id["6"]["verdict"] == "supported"
    assert by_id["3b"]["verdict"] == "supported"                  # fake first dealer wins 56%
    assert data["provenance"]["deals per simulation"] == 1000
    # simulations are shared between claims: one per (kind, rules, policies)
    runs = data["provenance"]["simulations"]
    assert len(runs) == len({(r["kind"], r["rules"], r["policies"]) for r in runs})


def test_unregistered_policies_are_reported_not_run(fake_engine, tmp_path, capsys, monkeypatch):
    from sims.cribbage.policies import REGISTRY

    monkeypatch.delitem(REGISTRY["discard"], "hoyle")
    out = tmp_path / "r"
    assert claims.main(["--out", str(out), "--quiet", "--games", "500", "--deals", "100", "--only", "5", "7"]) == 0
    printed = capsys.readouterr().out
    assert "not run: 5. seed004_discards: needs discard policy 'hoyle'" in printed
    text = (out / "report.md").read_text()
    assert "## Not run" in text and "### Claim 7a:" in text and "expected_net + defensive" in text


def test_bad_arguments_exit_2(fake_engine, tmp_path, capsys):
    assert claims.main(["--out", str(tmp_path / "r"), "--only", "9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "analysis.claims: error: unknown section '9'; sections are 1, 2, 3, 4, 5, 6, 7"
    assert claims.main(["--out", str(tmp_path / "r"), "--deals", "-5"]) == 2
    assert not (tmp_path / "r").exists()


def test_progress_goes_to_stderr(fake_engine, tmp_path, capsys):
    assert claims.main(["--out", str(tmp_path / "r"), "--only", "1"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("1. scoring")


def test_claims_on_the_real_engine_small(tmp_path, capsys):
    """Sections 2, 3 and 7 through the real simulate_deals / play_games at a tiny size."""
    out = tmp_path / "r"
    assert claims.main(["--out", str(out), "--quiet", "--deals", "4000", "--games", "300",
                        "--only", "2", "3", "7"]) == 0
    data = json.loads((out / "claims.json").read_text())
    by_id = {c["id"]: c for c in data["claims"]}
    assert set(by_id) == {"2", "3a", "3b", "3c", "3d", "3e", "7a", "7b"}
    assert 15 < by_id["2"]["estimate"] < 35  # points per player in two deals
    assert all(0 <= by_id[k]["estimate"] <= 1 for k in ("3a", "3b", "3c", "3d", "3e", "7a", "7b"))
    assert by_id["7a"]["estimate"] <= by_id["7b"]["estimate"]  # below 31 is rarer than below 45
    assert {r["kind"] for r in data["provenance"]["simulations"]} == {"deals", "games", "games + score log"}
