"""The Bradley-Terry fit (sims.core.ratings): a hand-computed case, a seeded synthetic one, and sims rate."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from sims.cli import main
from sims.core.ratings import bradley_terry


def test_two_players_differ_by_the_logit_of_the_win_rate():
    """30 wins in 40 games: s_a - s_b = log(30/10) = log 3, each ±log(3)/2 about the mean 0; the observed
    information of the difference is games p (1 - p) = 40 * 3/16 = 7.5, so each centred strength has variance
    1/(4 * 7.5)."""
    frame = bradley_terry(pd.DataFrame({"player": ["a"], "opponent": ["b"], "wins": [30], "games": [40]}))
    assert list(frame["player"]) == ["a", "b"]
    assert frame["strength"].tolist() == pytest.approx([math.log(3) / 2, -math.log(3) / 2], abs=1e-8)
    assert frame["se"].tolist() == pytest.approx([math.sqrt(1 / 30)] * 2, rel=1e-6)
    assert frame["hi"][0] - frame["strength"][0] == pytest.approx(1.959964 * math.sqrt(1 / 30), rel=1e-5)
    assert frame["games"].tolist() == [40, 40]


def test_seeded_synthetic_strengths_are_found_within_their_intervals():
    """Five players of known strengths, every pair 4,000 games drawn with a fixed seed: each fitted strength lies
    within 3 standard errors (about 0.05) of the truth centred."""
    truth = np.array([1.0, 0.5, 0.0, -0.2, -1.3])
    rng = np.random.default_rng(2026)
    rows = []
    for a in range(5):
        for b in range(a + 1, 5):
            games = 4_000
            wins = rng.binomial(games, 1 / (1 + math.exp(truth[b] - truth[a])))
            rows.append({"player": f"p{a}", "opponent": f"p{b}", "wins": wins, "games": games})
    frame = bradley_terry(pd.DataFrame(rows)).set_index("player").loc[[f"p{k}" for k in range(5)]]
    centred = truth - truth.mean()
    assert np.all(np.abs(frame["strength"].to_numpy() - centred) < 3 * frame["se"].to_numpy())
    assert frame["se"].max() < 0.025
    assert frame["strength"].sum() == pytest.approx(0, abs=1e-9)


def test_a_player_who_won_every_game_has_no_finite_strength():
    with pytest.raises(ValueError, match="player 'a' won every game"):
        bradley_terry(pd.DataFrame({"player": ["a", "b"], "opponent": ["b", "c"], "wins": [10, 5], "games": [10, 10]}))


def test_sims_rate_puts_players_on_one_scale(tmp_path, capsys):
    plot = tmp_path / "ladder.png"
    assert (
        main(
            [
                "rate",
                "--game",
                "allfours",
                "--player",
                "play=maxims",
                "--player",
                "play=random",
                "--games",
                "20",
                "--plot",
                str(plot),
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    pair = result["pairs"][0]
    assert pair["games"] == 40
    first = next(r for r in result["ratings"] if r["player"] == "play=maxims")
    assert first["strength"] * 2 == pytest.approx(math.log(pair["wins"] / (pair["games"] - pair["wins"])), abs=1e-6)
    assert plot.stat().st_size > 0


def test_sims_rate_refuses_a_single_player(capsys):
    assert main(["rate", "--game", "allfours", "--player", "maxims", "--quiet"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_loo_player_against_his_twin_wins_half_the_deals():
    """stakes: each player in every seat against the defaults on the same deals; a player and his twin (the
    defaults named) win the same money on every deal, so each wins exactly half; a random card player does not."""
    from sims.core.ratings import pairwise

    pairs = pairwise(
        "loo",
        {"expert": {"declare": "expert"}, "defaults": {}, "random": {"card": "random"}},
        30,
        seed=4,
        objective="stakes",
    ).set_index(["player", "opponent"])
    assert pairs.loc[("expert", "defaults"), "wins"] == 15.0
    assert pairs.loc[("expert", "random"), "wins"] != 15.0
    assert (pairs["games"] == 30).all()
