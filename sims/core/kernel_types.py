"""The numba array types of the kernels' explicit signatures (C-contiguous), shared by every game's engine.

A policy's signature takes what it sees read-only (``*_R``): numba then refuses at compile time a policy
that writes into its hand, the cards played, the game state, the rules or its parameters (a kernel's
own, writable arrays convert to these when it calls the policy)."""

from numba import types

I16_3 = types.Array(types.int16, 3, "C")
I64_1 = types.Array(types.int64, 1, "C")
I64_2 = types.Array(types.int64, 2, "C")
I64_3 = types.Array(types.int64, 3, "C")
I64_4 = types.Array(types.int64, 4, "C")
I64_5 = types.Array(types.int64, 5, "C")
U64_1 = types.Array(types.uint64, 1, "C")
U64_2 = types.Array(types.uint64, 2, "C")
F64_1 = types.Array(types.float64, 1, "C")
F64_2 = types.Array(types.float64, 2, "C")
F64_3 = types.Array(types.float64, 3, "C")

I64_1R = types.Array(types.int64, 1, "C", readonly=True)
I64_2R = types.Array(types.int64, 2, "C", readonly=True)
F64_1R = types.Array(types.float64, 1, "C", readonly=True)
