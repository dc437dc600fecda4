"""A kernel called from Python again with arguments of the same types runs the machine code numba's dispatcher
chose the first time, without typing the arguments again (:meth:`sims.core.kernel.LazyKernel.__call__`): the key it
remembers them by gives numba's type and nothing else, and any other call still goes to the dispatcher."""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest
from numba.core import types

from sims.core.kernel import _types_key, _Untyped, njit

UNARY = types.FunctionType(types.int64(types.int64))


@njit(cache=False)
def _add_one(x):
    return x + 1


@njit(cache=False)
def _add_two(x):
    return x + 2


def _apply(values, fns, k):
    total = 0
    for i in range(values.shape[0]):
        total += fns[k](values[i])
    return total


APPLY = types.int64(types.Array(types.int64, 1, "C", readonly=True), types.UniTuple(UNARY, 2), types.int64)


def _kernel():
    return njit(APPLY, cache=False)(_apply)


class _Dispatcher:
    """Stands in for numba's dispatcher: every call that reaches it is counted, then refused."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        raise LookupError("the dispatcher was asked")


def test_a_call_with_the_types_of_an_earlier_one_skips_the_dispatcher():
    kernel, values = _kernel(), np.arange(5, dtype=np.int64)
    assert kernel(values, (_add_one, _add_two), 1) == 20  # through the dispatcher: typed, run, remembered
    stub = _Dispatcher()
    kernel._compiled = stub
    # Other values of the same types, the functions in the tuple the same objects: run without the dispatcher.
    assert kernel(values[::-1].copy(), (_add_one, _add_two), 0) == 15
    assert kernel(np.zeros(3, dtype=np.int64), (_add_one, _add_two), 1) == 6
    assert stub.calls == 0
    # Any other type goes to the dispatcher: another dtype, a view that is not contiguous, other functions.
    for args in (
        (values.astype(np.int32), (_add_one, _add_two), 1),
        (np.arange(10, dtype=np.int64)[::2], (_add_one, _add_two), 1),
        (values, (_add_two, _add_one), 1),
        (values, (_add_one, _add_two), 1.0),
        (values, [_add_one, _add_two], 1),
    ):
        with pytest.raises(LookupError):
            kernel(*args)
    assert stub.calls == 5


def test_a_call_numba_refuses_is_refused_every_time_and_remembered_never():
    kernel = _kernel()
    for _ in range(2):
        with pytest.raises(TypeError, match="No matching definition"):
            kernel(np.arange(5, dtype=np.float64), (_add_one, _add_two), 1)
    assert not kernel._entries


SAMPLES = [
    np.zeros(3, dtype=np.int64),
    np.zeros(3, dtype=np.int32),
    np.zeros(3, dtype=np.dtype(">i8")),
    np.zeros((2, 3), dtype=np.int64),
    np.zeros((2, 3), dtype=np.int64, order="F"),
    np.zeros((2, 3), dtype=np.int64)[:, ::2],
    np.zeros(6, dtype=np.int64)[::2],
    np.zeros(3, dtype=np.int64).view(),
    np.frombuffer(bytes(24), dtype=np.int64),  # read-only
    np.zeros(1, dtype=np.uint64),
    0,
    -1,
    2**62,
    2**63 - 1,
    2**63,  # numba types it uint64
    -(2**63),
    1.5,
    True,
    np.int64(3),
    np.int32(3),
    np.float64(1.0),
    np.bool_(True),
    (1, 2),
    (1, 2.0),
    (np.zeros(2), (1, True)),
    (_add_one, _add_two),
    (_add_two, _add_one),
    (_add_one, _add_one),
]


def _numba_type(value):
    try:
        return numba.typeof(value)
    except ValueError:  # a big-endian array: refused by the dispatcher, so never remembered
        return "refused"


def test_equal_keys_are_equal_types():
    # A remembered call is one the dispatcher would type the same; and the key tells these samples apart.
    keys = [_types_key(x) for x in SAMPLES]
    for (x, kx), (y, ky) in itertools.combinations(zip(SAMPLES, keys), 2):
        if kx == ky:
            assert _numba_type(x) == _numba_type(y), (x, y)
    assert len(set(keys)) == len(SAMPLES) - 5  # alike: an array and its view; five ints typed int64


def test_a_value_the_key_does_not_read_goes_to_the_dispatcher():
    for value in ([1, 2], "text", None, {1: 2}, np.ma.zeros(2)):  # an array of a subclass too
        with pytest.raises(_Untyped):
            _types_key(value)
