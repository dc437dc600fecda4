"""A kernel compiles once per argument types its callers pass, a constant counted as its type
(:func:`sims.core.kernel._one_per_type`)."""
import numba
import numpy as np

from sims.core.kernel import njit


def test_constant_arguments_share_one_specialisation():
    @njit
    def step(a, flag, k):
        return a[k] * 2 if flag else a[k]

    @njit
    def caller(a, flag):
        return step(a, True, 0) + step(a, False, 1) + step(a, flag, 2) + step(a, flag, a.shape[0] - 1)

    a = np.array([1, 10, 100, 1000], dtype=np.int64)
    assert caller(a, False) == 2 + 10 + 100 + 1000 and caller(a, True) == 2 + 10 + 200 + 2000
    assert [tuple(map(str, sig)) for sig in step.signatures] == [("array(int64, 1d, C)", "bool", "int64")]


def test_numba_alone_compiles_one_per_constant():
    """Why: with numba's own njit the callee is compiled for each constant it is given."""
    @numba.njit
    def step(a, flag, k):
        return a[k] * 2 if flag else a[k]

    @njit
    def caller(a, flag):
        return step(a, True, 0) + step(a, False, 1) + step(a, flag, 2)

    assert caller(np.array([1, 10, 100], dtype=np.int64), False) == 2 + 10 + 100
    assert len(step.signatures) == 3
