"""Explicit-state random numbers for kernels: xoshiro256** seeded by splitmix64.

Reproducibility contract: work is cut into fixed-size chunks; chunk ``c`` of a
run with master seed ``s`` gets its keys from
``numpy.random.SeedSequence(s, spawn_key=(c,))`` (one key per stream), and
item ``i`` of the chunk seeds each stream from ``(key, i)``.  A deal or game is
therefore a pure function of (seed, chunk, index, stream), whatever the number
of threads or workers.  Stream 0 is the deck; stream 1 + seat is that seat's
policy stream, so changing one seat's policy never changes the cards dealt.
``SeedSequence.generate_state`` is prefix-stable, so a game with more seats
(up to ten seats) draws the same first keys as one with fewer.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from .kernel import njit

DECK_STREAM = 0
MAX_STREAMS = 11  # the deck and up to ten seats

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


MAX_SEED = 2**63 - 1  # a seed fits every int64 column and field it is stored in, unchanged


def check_seed(seed) -> int:
    """A master seed must be an integer from 0 to :data:`MAX_SEED` (a larger one is refused, not reduced)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        shown = f"a number of {len(str(seed))} digits" if isinstance(seed, int) and seed > MAX_SEED else repr(seed)
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1 = {MAX_SEED}, got {shown}")
    return int(seed)


def chunk_keys(seed: int, first_chunk: int, n_chunks: int, n_streams: int) -> np.ndarray:
    """Keys ``[n_chunks, n_streams]`` (uint64) for chunks first_chunk ... first_chunk+n_chunks-1."""
    seed = check_seed(seed)
    if not 1 <= n_streams <= MAX_STREAMS:
        raise ValueError(f"n_streams must be 1..{MAX_STREAMS}, got {n_streams}")
    keys = np.empty((n_chunks, n_streams), dtype=np.uint64)
    for j in range(n_chunks):
        ss = np.random.SeedSequence(seed, spawn_key=(first_chunk + j,))
        keys[j] = ss.generate_state(n_streams, dtype=np.uint64)
    return keys


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True)
def _splitmix64(x):
    z = x + _GOLDEN
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, inline="always")
def fold(key, value):
    """``key`` with one more non-negative integer ``value`` folded in (splitmix64 of the two's exclusive or): the
    values of a position folded in turn make a key for :func:`seed_state` that is a function of that position
    alone, whatever the seeds of the run it comes up in."""
    return _splitmix64(uint64(key) ^ uint64(value))


@njit(cache=True)
def seed_state(state, key, index):
    """Fill ``state`` (uint64[4]) for item ``index`` of a chunk whose stream key is ``key``."""
    x = uint64(key) ^ (uint64(index) * _GOLDEN)
    for j in range(4):
        x = _splitmix64(x)
        state[j] = x
        x = x + uint64(j + 1)


@njit(cache=True, inline="always")
def next_u64(state):
    """xoshiro256**: the next 64 random bits; advances ``state`` in place."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(cache=True, inline="always")
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def randint(state, n):
    """An integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift, unbiased).

    A draw whose low 32 bits are below ``threshold = 2**32 mod n`` is rejected.  The threshold is below ``n``,
    so it is worked out (a division) only for a draw whose low bits are below ``n``, rarely: the draws and the
    answers are the same as when it is worked out first.
    """
    bound = uint64(n)
    m = (next_u64(state) >> uint64(32)) * bound
    if (m & uint64(0xFFFFFFFF)) < bound:
        threshold = (uint64(0x100000000) - bound) % bound
        while (m & uint64(0xFFFFFFFF)) < threshold:
            m = (next_u64(state) >> uint64(32)) * bound
    return np.int64(m >> uint64(32))
