"""weighted_peg and weighted_distilled: expected_peg's and distilled's weights as numbers to tune, their tables
fixed.  At weights of 1 they play exactly as the policies they weigh; a weight of 0 drops a term, so that
weighted_peg without pegging throws as expected_net with Schell's table, and without either crib as
expected_hand; sims tune searches the weights over their declared ranges."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sims.cli import main
from sims.core.api import simulate
from sims.cribbage.policies import resolve
from sims.cribbage.policies.discard import N_WEIGHTS
from sims.cribbage.policies.distilled import N_SCALES

DEALS = 1_500


def totals(discard="expected_peg", peg="distilled", seed=4):
    """Every role's and seat's sums of every component over the same deals."""
    result = simulate("cribbage", "deals", "six-card", {"discard": discard, "peg": peg}, DEALS, seed)
    return result.batch.totals.sort_values(["scope", "who", "component"]).reset_index(drop=True)


@pytest.mark.parametrize(
    "weighted, plain",
    [
        ("weighted_peg", "expected_peg"),
        ("weighted_peg:pegging=0", "expected_net"),
        ("weighted_peg:own_crib=0:their_crib=0:pegging=0", "expected_hand"),
    ],
)
def test_weighted_peg_drops_the_terms_weighed_zero(weighted, plain):
    pd.testing.assert_frame_equal(totals(discard=weighted), totals(discard=plain))


def test_a_weight_changes_the_throws():
    assert not totals(discard="weighted_peg:their_crib=2").equals(totals(discard="expected_peg"))


def test_weighted_distilled_at_one_is_distilled():
    pd.testing.assert_frame_equal(totals(peg="weighted_distilled"), totals(peg="distilled"))
    assert not totals(peg="weighted_distilled:reply=0").equals(totals(peg="distilled"))


def test_the_tables_are_fixed_the_weights_are_the_parameters():
    """The function reads the weights, then the table of the policy weighed; only the weights are parameters."""
    throw, peg = resolve("discard", "weighted_peg:pegging=0.5"), resolve("peg", "weighted_distilled")
    assert throw.describe() == {
        "name": "weighted_peg",
        "params": {"own_crib": 1.0, "their_crib": 1.0, "pegging": 0.5},
        "label": "weighted_peg:pegging=0.5",
    }
    np.testing.assert_array_equal(throw.params_array()[:N_WEIGHTS], [1.0, 1.0, 0.5])
    np.testing.assert_array_equal(throw.params_array()[N_WEIGHTS:], resolve("discard", "expected_peg").params)
    np.testing.assert_array_equal(peg.params_array()[N_SCALES:], resolve("peg", "distilled").params)
    with pytest.raises(ValueError, match="parameter 'reply' takes a number of at least 0, got -1"):
        resolve("peg", "weighted_distilled:reply=-1")


def test_tune_searches_the_discard_weights_against_position_distilled(tmp_path, capsys):
    argv = ["tune", "--game", "cribbage", "--discard", "weighted_peg", "--against", "position_distilled"]
    small = ["--objective", "net", "--trials", "2", "--per-trial", "8", "--storage", str(tmp_path / "s.sqlite3")]
    assert main([*argv, *small, "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["best"]) == {"own_crib", "their_crib", "pegging"}
    assert all(0 <= v <= 3 for v in result["best"].values())  # at least 0, to the default + 2
    assert result["check"]["default"] == {"own_crib": 1.0, "their_crib": 1.0, "pegging": 1.0}
