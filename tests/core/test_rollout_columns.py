"""The advisors' shared statistics (:func:`sims.core.advice.rollout_columns`), computed by hand."""

import warnings

import numpy as np
import pytest

from sims.core.advice import rollout_columns


def test_means_and_paired_differences_with_their_standard_errors():
    """Two choices over three rollouts: means 2 and 1; the differences from the best (0, -2, -1) have SD 1."""
    columns = rollout_columns(np.array([[1.0, 1.0], [3.0, 1.0], [2.0, 1.0]]), False, "value")
    assert columns["value"].tolist() == [2.0, 1.0] and columns["vs_best"].tolist() == [0.0, -1.0]
    assert columns["se"] == pytest.approx([1 / np.sqrt(3), 0.0])
    assert columns["vs_best_se"] == pytest.approx([0.0, 1 / np.sqrt(3)])


def test_exact_values_have_no_error_and_one_sampled_rollout_has_none_to_give():
    values = np.array([[1.0, 0.0]])
    assert rollout_columns(values, True, "win")["win_se"].tolist() == [0.0, 0.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning for the one rollout's spread
        columns = rollout_columns(values, False, "win")
    assert np.isnan(columns["win_se"]).all() and np.isnan(columns["win_vs_best_se"]).all()
