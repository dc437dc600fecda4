"""Arrays numba counts no references to (:mod:`sims.core.unowned`): :func:`borrowed` of an array and of a tuple."""

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sims.core.kernel import njit
from sims.core.unowned import borrowed


@intrinsic
def owned(typingctx, array):
    """Whether ``array`` records an owner (its meminfo is not null): what numba counts references to."""

    def codegen(context, builder, signature, args):
        meminfo = context.make_array(array)(context, builder, value=args[0]).meminfo
        return builder.not_(cgutils.is_null(builder, meminfo))

    return types.boolean(array), codegen


@njit
def _borrow_all(a, b, n):
    """Borrow ``(a, (b, n))``, write through the views, and say which arrays own their memory before and after."""
    work = (a, (b, n))
    first, (second, number) = borrowed(work)
    first[0], second[1] = 7, 8
    return owned(a), owned(b), owned(first), owned(second), number, owned(borrowed(a))


def test_borrowed_tuple_views_the_same_memory_owned_by_no_one():
    """Each array of a (nested) tuple is the same memory with no owner, as ``borrowed`` of one array; numbers
    pass unchanged (a game's work buffers, handed to an item by the core's loop)."""
    a, b = np.zeros(3, dtype=np.int64), np.zeros((2, 2), dtype=np.float64)[0]
    assert _borrow_all(a, b, 5) == (True, True, False, False, 5, False)
    assert a.tolist() == [7, 0, 0] and b.tolist() == [0.0, 8.0]
