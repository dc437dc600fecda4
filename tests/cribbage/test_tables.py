"""The rank table shipped as package data is the one its derivation builds."""

import numpy as np

from sims.cribbage.tables import RANK_TABLE, TABLE_SIZE, build_rank_table


def test_the_shipped_rank_table_is_built_by_its_derivation():
    assert RANK_TABLE.dtype == np.int8 and RANK_TABLE.shape == (TABLE_SIZE,)
    assert np.array_equal(RANK_TABLE, build_rank_table())
