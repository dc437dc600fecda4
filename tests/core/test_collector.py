"""While sims loads and plays a job the youngest generation is collected less often; afterwards the collector is
as the process had it."""

from __future__ import annotations

import gc

import pytest

from sims.core.collector import YOUNG, young_collections_every


@pytest.fixture
def threshold():
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


@pytest.mark.parametrize("own", [(700, 10, 10), (0, 10, 10), (2 * YOUNG, 5, 5)])
def test_the_threshold_is_raised_inside_and_put_back_after(threshold, own):
    gc.set_threshold(*own)
    with young_collections_every():
        inside = gc.get_threshold()
    assert gc.get_threshold() == own
    assert inside == (own if own[0] in (0, 2 * YOUNG) else (YOUNG, *own[1:]))


def test_it_is_put_back_when_the_block_raises(threshold):
    gc.set_threshold(700, 10, 10)
    with pytest.raises(ValueError), young_collections_every():
        raise ValueError("a policy's error")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_simulation_leaves_the_collector_as_it_found_it(threshold):
    from sims.cribbage import simulate_deals

    gc.set_threshold(700, 10, 10)
    simulate_deals("six-card", {"discard": "greedy", "peg": "greedy"}, 10, seed=1)
    assert gc.get_threshold() == (700, 10, 10)
