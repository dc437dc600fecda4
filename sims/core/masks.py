"""Sets of cards as int64 bit masks in the kernels: card ``c`` (an id of :mod:`sims.cards`) is bit ``c``."""

from __future__ import annotations

import numpy as np

from .kernel import njit


@njit(cache=True, inline="always")
def bit(card):
    """The card as a one-card mask: sets of cards are int64 bit masks in the kernels."""
    return np.int64(1) << card


@njit(cache=True, inline="always")
def popcount(x):
    """How many cards a mask holds (Kernighan's count)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# The place of the k-th set bit of a byte: KTH_BIT[byte << 3 | k] (k below the byte's bit count; 2 KiB).
KTH_BIT = np.array(
    [
        [i for i in range(8) if byte >> i & 1][k] if k < bin(byte).count("1") else 0
        for byte in range(256)
        for k in range(8)
    ],
    dtype=np.int8,
)


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """The position of the ``k``-th set bit of ``mask`` (from 0, lowest first; ``k`` below its bit count): the
    ``k``-th card of a set, or of the legal cards of a hand, in order.  Looked up in :data:`KTH_BIT` a byte at a
    time, so that no loop runs to a random ``k`` (its exit mispredicted at nearly every step)."""
    first = 0
    while k >= popcount(mask & 255):
        k -= popcount(mask & 255)
        mask >>= 8
        first += 8
    return first + KTH_BIT[(mask & 255) << 3 | k]
