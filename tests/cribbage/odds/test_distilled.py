"""The distilled pegging policy (sims.cribbage.policies.distilled, .distilled_play_outs, .distillation): legal
everywhere, its fitting recovers known values, its starting tables play as defensive does, and the shipped
tables beat defensive."""

from __future__ import annotations

import numpy as np
import pytest

from sims.cribbage import simulate_deals
from sims.cribbage.lab import distillation as fitting
from sims.cribbage.lab import distilled_play_outs as play_outs
from sims.cribbage.policies import distilled as D
from sims.cribbage.rules import PRESETS


@pytest.fixture(scope="module")
def shipped():
    """The shipped distilled player (made when a test asks: making it compiles its kernel)."""
    return D.distilled_policy()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_legally_in_every_variant(preset, shipped):
    # The engine checks every answer and raises PolicyError on an illegal one.
    assert simulate_deals(preset, {"discard": "greedy", "peg": shipped}, 200, seed=3).batch.n == 200


def test_the_fit_recovers_known_values():
    # Synthetic decisions: two to four legal cards with random features; the return of the card laid is
    # its value under known parameters plus noise.  The fit must find the weights and the table cells.
    rng = np.random.default_rng(0)
    truth = np.zeros(D.N_PARAMS)
    truth[D.P_POINTS], truth[D.P_REPLY] = 0.9, -1.1
    used = rng.choice(np.arange(D.RANK_COUNT, D.N_PARAMS), 40, replace=False)
    truth[used] = rng.normal(0, 0.5, 40)
    n = 60_000
    legal = np.zeros((n, 2), dtype=np.int64)
    legal[:, 0] = rng.integers(2, 5, n)
    legal[:, 1] = rng.integers(0, 10**6, n) % legal[:, 0]
    x = rng.normal(0, 1, (n, 4, 2))
    cells = rng.choice(used, (n, 4, D.N_TABLES))
    value = truth[D.P_POINTS] * x[..., 0] + truth[D.P_REPLY] * x[..., 1] + truth[cells].sum(-1)
    y = value[np.arange(n), legal[:, 1]] + rng.normal(0, 0.5, n) + rng.normal(0, 2, n).round()  # + the deal's luck
    fitted = fitting.fit({"x": x, "cells": cells, "legal": legal, "y": y}, ridge=1e-3)
    assert fitted[D.P_POINTS] == pytest.approx(0.9, abs=0.03) and fitted[D.P_REPLY] == pytest.approx(-1.1, abs=0.03)
    # Table values are fixed up to a constant within each table (only differences between cards count).
    est = fitted[used] - fitted[used].mean()
    assert np.corrcoef(est, truth[used] - truth[used].mean())[0, 1] > 0.95


def test_the_starting_tables_play_as_defensive():
    gain, se = fitting.head_to_head(D.distilled_policy(fitting.initial_params()), "defensive", n_deals=20_000, seed=2)
    assert abs(gain) < 0.03, (gain, se)


def test_the_shipped_tables_beat_defensive(shipped):
    # Paired deals, seats exchanged: the distilled player's pegging less defensive's, per deal.
    gain, se = fitting.head_to_head(shipped, "defensive", n_deals=20_000, seed=4)
    assert gain > 4 * se and gain > 0.05, (gain, se)


def test_play_outs_explore_one_card_a_deal():
    samples = play_outs.play_outs("six-card", fitting.initial_params(), 6000, seed=5)
    legal, y = samples["legal"], samples["y"]
    assert 0.4 * 6000 < len(y) < 6000  # one decision a deal, when it was a choice
    assert (legal[:, 0] >= 2).all() and (legal[:, 1] < legal[:, 0]).all()
    # The card laid was drawn at random: each place among the legal cards about equally often.
    share = np.bincount(legal[legal[:, 0] == 2, 1], minlength=2) / (legal[:, 0] == 2).sum()
    assert abs(share[0] - 0.5) < 0.05
    assert np.isfinite(y).all() and abs(y.mean()) < 2


def test_the_card_fit_recovers_known_values():
    # Every legal card's return is its value under known parameters plus noise shared by the decision
    # (the deal's luck, which the play-out of every card has in common) and a little of its own.
    rng = np.random.default_rng(1)
    truth = np.zeros(D.N_PARAMS)
    truth[D.P_POINTS], truth[D.P_REPLY] = 1.1, -0.8
    used = rng.choice(np.arange(D.RANK_COUNT, D.N_PARAMS), 40, replace=False)
    truth[used] = rng.normal(0, 0.5, 40)
    n = 20_000
    legal = np.zeros((n, 2), dtype=np.int64)
    legal[:, 0] = rng.integers(2, 5, n)
    x = rng.normal(0, 1, (n, 4, 2))
    cells = rng.choice(used, (n, 4, D.N_TABLES))
    q = (
        truth[D.P_POINTS] * x[..., 0]
        + truth[D.P_REPLY] * x[..., 1]
        + truth[cells].sum(-1)
        + rng.normal(0, 3, (n, 1))
        + rng.normal(0, 0.3, (n, 4))
    )
    fitted = fitting.fit_cards({"x": x, "cells": cells, "legal": legal, "q": q}, ridge=1e-3)
    assert fitted[D.P_POINTS] == pytest.approx(1.1, abs=0.02) and fitted[D.P_REPLY] == pytest.approx(-0.8, abs=0.02)
    est = fitted[used] - fitted[used].mean()
    assert np.corrcoef(est, truth[used] - truth[used].mean())[0, 1] > 0.97


def test_card_play_outs_return_every_legal_card():
    both = play_outs.card_play_outs("six-card", fitting.initial_params(), 3000, seed=5)
    one = play_outs.card_play_outs("six-card", fitting.initial_params(), 3000, seed=5, opponent="defensive")
    for s in (both, one):
        legal, q = s["legal"], s["q"]
        assert (legal[:, 0] >= 2).all() and (legal[:, 1] < legal[:, 0]).all()
        live = np.arange(q.shape[1])[None, :] < legal[:, :1]
        assert np.isfinite(q[live]).all() and np.abs(q[live]).max() < 40
    # Every decision that was a choice, a few a deal; with an opponent, only the first seat's.
    assert 3 * 3000 < len(both["q"]) < 8 * 3000
    assert 0.4 < len(one["q"]) / len(both["q"]) < 0.6
