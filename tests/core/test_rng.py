"""The kernels' random integers: ``randint`` is Lemire's multiply-shift with rejection, and gives the same
answers from the same draws as the method written out plainly (the rejection threshold worked out first),
so a faster form of it cannot change a stream."""

import numpy as np
import pytest

from sims.core.rng import next_u64, randint, seed_state

LOW32 = 0xFFFFFFFF


def lemire(state, n):
    """Lemire's method as first written: reject draws whose low 32 bits are below 2**32 mod n."""
    threshold = (2**32 - n) % n
    while True:
        m = (int(next_u64(state)) >> 32) * n
        if m & LOW32 >= threshold:
            return m >> 32


# Small bounds as the games use them, and bounds just over 2**31 and near 2**32, where about half or nearly
# all of the draws are rejected.
@pytest.mark.parametrize("n", [1, 2, 3, 13, 52, 2**31 + 1, 3 * 2**30 + 7, 2**32 - 1])
def test_randint_is_lemires_method(n):
    fast, plain = np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.uint64)
    seed_state(fast, 12345, n)
    plain[:] = fast
    draws = [int(randint(fast, n)) for _ in range(2000)]
    assert draws == [lemire(plain, n) for _ in range(2000)]
    assert np.array_equal(fast, plain)  # as many 64-bit draws used
    assert all(0 <= x < n for x in draws)


def test_randint_rejects_below_the_threshold():
    """With n = 2**31 + 1 about half the draws are rejected: the answers still cover both halves evenly."""
    state = np.empty(4, dtype=np.uint64)
    seed_state(state, 7, 0)
    n = 2**31 + 1
    draws = np.array([randint(state, n) for _ in range(4000)])
    assert 0.45 < (draws < n // 2).mean() < 0.55
