"""The kernels' array copies (sims.core.arrays): what a slice assignment would write, and a shape that differs
refused with a fixed message."""

import numpy as np
import pytest

from sims.core.arrays import copy_into, copy_rows
from sims.core.kernel import njit


@njit(cache=True)
def _copy_views(dst, src):
    """The forms the kernels use: a row, part of a row, a column of a 3-d array's rows, a block of rows."""
    copy_into(dst[1], src[0])
    copy_into(dst[2, 1:3], src[1, :2])
    copy_rows(dst[3:5], src[1:3])


@njit(cache=True)
def _copy_strided(dst, src):
    copy_into(dst[:, 0], src[::2, 1])


def test_copies_write_what_slice_assignment_writes():
    src = np.arange(12, dtype=np.int64).reshape(3, 4)
    dst = np.full((5, 4), -1, dtype=np.int64)
    expected = dst.copy()
    expected[1] = src[0]
    expected[2, 1:3] = src[1, :2]
    expected[3:5] = src[1:3]
    _copy_views(dst, src)
    assert np.array_equal(dst, expected)


def test_strided_views_copy_element_by_element():
    src = np.arange(20, dtype=np.int64).reshape(10, 2)
    dst = np.zeros((5, 3), dtype=np.int64)
    _copy_strided(dst, src)
    assert dst[:, 0].tolist() == [1, 5, 9, 13, 17] and not dst[:, 1:].any()


@pytest.mark.parametrize(
    "copy, dst, src, message",
    [
        (copy_into, np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64), "copy_into: the arrays differ in length"),
        (
            copy_rows,
            np.zeros((2, 3), dtype=np.int64),
            np.zeros((2, 4), dtype=np.int64),
            "copy_rows: the arrays differ in shape",
        ),
        (
            copy_rows,
            np.zeros((2, 3), dtype=np.int64),
            np.zeros((3, 3), dtype=np.int64),
            "copy_rows: the arrays differ in shape",
        ),
    ],
)
def test_a_shape_that_differs_is_refused(copy, dst, src, message):
    with pytest.raises(ValueError, match=message):
        copy(dst, src)
    assert not dst.any(), "nothing was written"
