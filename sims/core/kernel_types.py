"""The numba array types of the kernels' explicit signatures (C-contiguous), shared by every game's engine."""
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
