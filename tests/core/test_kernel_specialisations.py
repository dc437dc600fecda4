"""A kernel compiles once per argument types its callers pass, a constant counted as its type and an array it
only ``reads`` as read-only (:func:`sims.core.kernel._one_per_type`); Python calls one with a policy's read-only
arrays through :func:`sims.core.kernel.read_only`."""

import numba
import numpy as np
import pytest

from sims.core.kernel import njit, read_only
from sims.core.kernel_types import I64_1, I64_1R


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


def test_python_calls_through_read_only_views_run_the_policy_callers_specialisation():
    """A policy sees read-only arrays, so its callees compile for those; Python calling one with its own writable
    arrays would compile it again, with read-only views it runs the same machine code."""

    @njit
    def total(a, out):
        out[0] = a.sum()

    total.compile((I64_1R, I64_1))  # what a policy's call compiled
    a, out = np.arange(4, dtype=np.int64), np.zeros(1, dtype=np.int64)
    total(read_only(a), out)
    assert out[0] == 6 and len(total.signatures) == 1
    assert a.flags.writeable  # the view is read-only, the array is not
    total(a, out)
    assert len(total.signatures) == 2  # why: a writable array is another type


def test_an_array_a_kernel_only_reads_compiles_once_for_writable_and_read_only_callers():
    """A policy passes the game's arrays read-only, the engine that owns them writable: one specialisation."""

    @njit(reads=("hand",))
    def best(hand, out):
        out[0] = hand.max()
        return out[0]

    @njit
    def engine(hand, out):  # writable arrays
        return best(hand, out)

    @njit
    def policy(hand, out):
        return best(hand, out)

    hand, out = np.array([3, 9, 4], dtype=np.int64), np.zeros(1, dtype=np.int64)
    policy.compile((I64_1R, I64_1))
    assert engine(hand, out) == 9 and policy(read_only(hand), out) == 9
    assert [tuple(map(str, sig)) for sig in best.signatures] == [
        ("readonly array(int64, 1d, C)", "array(int64, 1d, C)")
    ]


def test_a_kernel_that_writes_an_array_it_declares_read_is_refused_when_it_compiles():
    @njit(reads=("hand",))
    def spoil(hand):
        hand[0] = 0

    @njit
    def caller(hand):
        spoil(hand)

    with pytest.raises(numba.TypingError):
        caller(np.zeros(2, dtype=np.int64))


def test_reads_names_an_argument_the_kernel_has():
    with pytest.raises(TypeError, match="'hands'"):

        @njit(reads=("hands",))
        def count(hand):
            return hand.shape[0]


def test_reads_is_refused_beside_explicit_types_which_say_it_already():
    with pytest.raises(TypeError, match="without explicit types"):

        @njit((I64_1R,), reads=("hand",))
        def count(hand):
            return hand.shape[0]
