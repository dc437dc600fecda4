"""Arrays numba counts no references to, for the deal loops compiled with ``njit(refcounts=False)``.

numba counts the references to an array's memory (``NRT_incref``, ``NRT_decref``: an atomic add each) at nearly
every call that passes an array, every view taken of it and every inlined helper it goes through: up to 40% of a
deal loop's time, and a third of a strong policy's whose scratch was allocated at each call (``perf``).  Two
remedies, used with kernels compiled without reference counting
(:func:`sims.core.kernel.njit`; they may not allocate arrays, numba refuses to compile one that does):

* :func:`borrowed` is the same array with no owner recorded, so passing it, and any view of it, counts nothing.
  The caller keeps the array itself alive: take ``borrowed(x)`` where the call is made, with ``x`` a variable
  still in use (never a view that outlives ``x``, never one handed back to Python);
* :func:`stack_ints` and :func:`stack_floats` give scratch of a constant length in the calling kernel's own stack
  frame, owned by no one (no allocation, nothing counted).  The array lives as long as the frame of the kernel
  that takes it: take it in the policy itself (the call is compiled into that kernel), pass it down to the
  routines it calls, and never return it or keep a view of it.  Its values start undefined.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _borrowable(typ) -> bool:
    """An array, a number, or a tuple of such values (a game's work buffers)."""
    if isinstance(typ, types.BaseTuple):
        return all(_borrowable(t) for t in typ)
    return isinstance(typ, (types.Array, types.Number, types.Boolean))


def _borrow(context, builder, typ, value):
    """``value`` of type ``typ``, every array in it owned by no one."""
    if isinstance(typ, types.BaseTuple):
        items = [_borrow(context, builder, t, builder.extract_value(value, k)) for k, t in enumerate(typ)]
        return context.make_tuple(builder, typ, items)
    if not isinstance(typ, types.Array):
        return value
    source = context.make_array(typ)(context, builder, value=value)
    view = context.make_array(typ)(context, builder)
    for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
        setattr(view, name, getattr(source, name))
    view.meminfo = cgutils.get_null_value(view.meminfo.type)
    return view._getvalue()


@intrinsic
def borrowed(typingctx, array):
    """``array``, its memory not owned by the view (see the module docstring); of a tuple (of arrays, numbers
    and such tuples), each array so."""
    if not _borrowable(array):
        return None

    def codegen(context, builder, signature, args):
        return _borrow(context, builder, array, args[0])

    return array(array), codegen


def _stack_array(dtype):
    def typer(typingctx, length):
        if not isinstance(length, types.IntegerLiteral):
            return None  # the length must be a constant
        n = length.literal_value
        array = types.Array(dtype, 1, "C")

        def codegen(context, builder, signature, args):
            item = context.get_value_type(dtype)
            size = context.get_abi_sizeof(item)
            view = context.make_array(array)(context, builder)
            context.populate_array(
                view,
                data=cgutils.alloca_once(builder, item, size=n),
                shape=cgutils.pack_array(builder, [context.get_constant(types.intp, n)]),
                strides=cgutils.pack_array(builder, [context.get_constant(types.intp, size)]),
                itemsize=context.get_constant(types.intp, size),
                meminfo=None,
            )
            return view._getvalue()

        return array(length), codegen

    typer.__name__ = f"stack_{dtype}"
    return typer


stack_ints = intrinsic(_stack_array(types.int64))
stack_ints.__doc__ = (
    """``stack_ints(n)``: an int64 array of the constant length ``n`` in the caller's frame (module docstring)."""
)
stack_floats = intrinsic(_stack_array(types.float64))
stack_floats.__doc__ = (
    """``stack_floats(n)``: a float64 array of the constant length ``n`` in the caller's frame (module docstring)."""
)
