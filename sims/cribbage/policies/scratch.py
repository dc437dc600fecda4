"""Scratch arrays on the stack, for policies compiled without reference counting.

A policy is called at every decision, and its scratch (a copy of the cards played to lay candidate cards in,
counts by score level) used to be allocated each time, with numba counting the references to it (an atomic
add at nearly every call and view): about a third of ``distilled``'s time.  :func:`stack_ints` and
:func:`stack_floats` give an array of a fixed length in the calling kernel's own stack frame, owned by no one
(no allocation, nothing counted), so the policy can be compiled with ``njit(refcounts=False)``
(:func:`sims.core.kernel.njit`).

The array lives as long as the frame of the kernel that takes it: take it in the policy itself (the call is
compiled into that kernel), pass it down to the routines it calls, and never return it or keep a view of it.
Its values start undefined.
"""
from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _stack_array(dtype):
    def typer(typingctx, length):
        if not isinstance(length, types.IntegerLiteral):
            return None                  # the length must be a constant
        n = length.literal_value
        array = types.Array(dtype, 1, "C")

        def codegen(context, builder, signature, args):
            item = context.get_value_type(dtype)
            size = context.get_abi_sizeof(item)
            view = context.make_array(array)(context, builder)
            context.populate_array(view, data=cgutils.alloca_once(builder, item, size=n),
                                   shape=cgutils.pack_array(builder, [context.get_constant(types.intp, n)]),
                                   strides=cgutils.pack_array(builder, [context.get_constant(types.intp, size)]),
                                   itemsize=context.get_constant(types.intp, size), meminfo=None)
            return view._getvalue()

        return array(length), codegen

    typer.__name__ = f"stack_{dtype}"
    return typer


stack_ints = intrinsic(_stack_array(types.int64))
stack_ints.__doc__ = """``stack_ints(n)``: an int64 array of the constant length ``n`` in the caller's frame (module docstring)."""
stack_floats = intrinsic(_stack_array(types.float64))
stack_floats.__doc__ = """``stack_floats(n)``: a float64 array of the constant length ``n`` in the caller's frame (module docstring)."""
