"""Counting no references in the deal loop: borrowed array views, and kernels compiled without them.

Numba counts the references to an array's memory (``NRT_incref``, ``NRT_decref``: an atomic add each) at
nearly every call that passes an array, every view taken of it and every inlined helper it goes through: a
hand played with random policies spent about 40% of its time there (``perf``).  Two remedies, used
together by the engine (:mod:`sims.allfours.engine`, :mod:`sims.allfours.play`):

* :func:`borrowed` is the same array with no owner recorded, so passing it, and any view of it, counts
  nothing.  The caller keeps the array itself alive: take ``borrowed(x)`` where the call is made, with ``x``
  a variable still in use (never a view that outlives ``x``, never one handed back to Python);
* the hand's kernels and the built-in policies that allocate nothing are compiled with
  ``njit(refcounts=False)`` (:func:`sims.core.kernel.njit`): they emit no reference counting at all (they
  may not allocate arrays or copy one slice into another; numba refuses to compile one that does).
"""
from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.kernel import njit


@intrinsic
def borrowed(typingctx, array):
    """``array``, its memory not owned by the view (see the module docstring)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, name, getattr(source, name))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()

    return array(array), codegen


@njit(cache=True, inline="always")
def borrowed_work(work):
    """The scratch of :func:`sims.allfours.play.new_work`, each array :func:`borrowed`."""
    return (borrowed(work[0]), borrowed(work[1]), borrowed(work[2]), borrowed(work[3]), borrowed(work[4]),
            borrowed(work[5]), borrowed(work[6]))
