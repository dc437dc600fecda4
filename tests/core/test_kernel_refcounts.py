"""Kernels compiled without reference counting (``njit(refcounts=False)``, :mod:`sims.core.kernel`)."""

import numba
import numpy as np
import pytest

from sims.core.kernel import njit


def test_a_kernel_without_refcounts_can_call_one_that_allocates():
    """numba compiles a callee the way its first caller is compiled unless the callee says otherwise; sims'
    kernels say so, so one that allocates still compiles when a kernel without reference counting calls it
    first (a pegging policy that allocates failed to compile inside the deal loop)."""

    @njit
    def allocates(n):
        return np.arange(n).sum()

    @njit(refcounts=False)
    def caller(n):
        return allocates(n)

    assert caller(5) == 10


def test_numba_alone_would_not_compile_it():
    """Why sims' njit says so: with numba's own njit the callee is compiled without reference counting."""

    @numba.njit
    def allocates(n):
        return np.arange(n).sum()

    @njit(refcounts=False)
    def caller(n):
        return allocates(n)

    with pytest.raises(numba.core.errors.TypingError):
        caller(5)


def test_views_and_writes_without_refcounts():
    """Views of a caller's arrays are read and written as usual."""

    @njit(refcounts=False)
    def bump_rows(a):
        for r in range(a.shape[0]):
            row = a[r]
            row[0] += r
        return a[1:].sum()

    a = np.zeros((3, 2), dtype=np.int64)
    assert bump_rows(a) == 3 and a[:, 0].tolist() == [0, 1, 2]
