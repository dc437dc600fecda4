"""Array copies for kernels: :func:`copy_into` and :func:`copy_rows` where a kernel would write
``dst[...] = src`` with an array ``src``.

numba compiles such a slice assignment with a check that, when the shapes differ, raises an error naming both
shapes, formatted as text.  Compiling that formatting (string building, ``str`` of integers) costs each process
seconds for every pair of dimensions it meets, and its code is linked into every kernel holding one such line and
optimised again at every level above it.  These copies check the shapes with a fixed message instead, and are
inlined where they are called.
"""

from __future__ import annotations

from .kernel import njit


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for one-dimensional arrays of one length that do not overlap."""
    if dst.shape[0] != src.shape[0]:
        raise ValueError("copy_into: the arrays differ in length")
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_rows(dst, src):
    """``dst[:, :] = src`` for two-dimensional arrays of one shape that do not overlap."""
    if dst.shape[0] != src.shape[0] or dst.shape[1] != src.shape[1]:
        raise ValueError("copy_rows: the arrays differ in shape")
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            dst[i, j] = src[i, j]
