"""Strategy speed: exact discard analysis per hand (issue 4 aims at <= 10 ms for a six-card hand
after compiling; MichaelCook/cribbage's C program takes 0.26 s), its compile time cold and cached,
self-play rates of the strategy policies (aim: >= 100,000 six-card deals/s with expected_net +
defensive on 2 cores), rollout pegging, whole games, and crib tables by self-play.  ``sims discard``
from start to exit is the ``startup`` benchmark's.
"""

from __future__ import annotations

import tempfile

import numba
import numpy as np

from ...bench.timing import best_seconds, compile_seconds
from ..discards import analyze_discards
from ..expectations import throw_expectations
from ..lab.crib_self_play import self_play_tables
from ..rules import get_rules
from ..simulate import play_games, simulate_deals

NAME = "strategy"
HAND = "5H 5S JD 6C 4H KD"
MICHAELCOOK_C_SECONDS = 0.26
REPEATS = 5

_COMPILE_SCRIPT = """
import json, time
t0 = time.perf_counter()
from sims.cribbage.discards import analyze_discards
t1 = time.perf_counter()
analyze_discards("5H 5S JD 6C 4H KD", "dealer")
t2 = time.perf_counter()
analyze_discards("5H 5S JD 6C 4H KD", "dealer", opponent="expected_net", samples=10)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first analysis": t2 - t1, "first opponent sampling": t3 - t2}))
"""


def _best(fn, repeats=REPEATS) -> float:
    return best_seconds(fn, repeats)


def _hand(preset: str) -> np.ndarray:
    n = get_rules(preset).cards_dealt
    return np.random.default_rng(0).choice(52, n, replace=False).astype(np.int64)


def run() -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="sims-numba-cache-") as cache_dir:
        cold = compile_seconds(_COMPILE_SCRIPT, cache_dir)
        cached = compile_seconds(_COMPILE_SCRIPT, cache_dir)
    rows += [{"what": f"compile: {step} (s)", "cold": cold[step], "cached": cached[step]} for step in cold]

    hand = np.asarray([int(c) for c in _hand("six-card")], dtype=np.int64)
    kernel = _best(lambda: throw_expectations(hand, 2, False, True), 20)
    rows.append(
        {
            "what": "six-card exact hand + crib, 15 throws (kernel)",
            "ms": kernel * 1e3,
            "x MichaelCook C": MICHAELCOOK_C_SECONDS / kernel,
        }
    )
    full = _best(lambda: analyze_discards(HAND, "dealer"))
    rows.append(
        {
            "what": "six-card analyze_discards (DataFrame)",
            "ms": full * 1e3,
            "x MichaelCook C": MICHAELCOOK_C_SECONDS / full,
        }
    )
    for preset in ("five-card", "eight-card", "three-hand", "four-hand"):
        rules = get_rules(preset)
        h = _hand(preset)
        seconds = _best(lambda h=h, k=rules.throw: throw_expectations(h, k, False, True), 5)
        rows.append({"what": f"{preset} exact hand + crib (kernel)", "ms": seconds * 1e3})
    sampled = _best(lambda: analyze_discards(HAND, "pone", opponent="expected_net", samples=2000), 2)
    rows.append({"what": "six-card opponent expected_net, 2000 samples", "ms": sampled * 1e3})

    threads = numba.config.NUMBA_NUM_THREADS
    for discard, peg, n in (
        ("expected_net", "defensive", 200_000),
        ("expected_hand", "defensive", 100_000),
        ("hoyle", "defensive", 50_000),
        ("exact_net", "defensive", 50_000),
        ("expected_net", "distilled", 200_000),
        ("expected_peg", "distilled", 200_000),
        ("expected_net", "greedy", 200_000),
        ("expected_net", "rollout", 2_000),
        ("expected_net", ["rollout", "defensive"], 4_000),
    ):
        policies = {"discard": discard, "peg": peg}
        seconds = _best(lambda p=policies, n=n: simulate_deals("six-card", p, n, seed=1), 2)
        label = peg if isinstance(peg, str) else " vs ".join(peg)
        rows.append({"what": f"six-card self-play {discard} + {label}", "threads": threads, "deals/s": n / seconds})
    for discard, peg, n in (
        ("expected_net", "defensive", 20_000),
        ("hoyle", "defensive", 2_000),
        ("expected_net", "rollout", 100),
    ):
        policies = {"discard": discard, "peg": peg}
        seconds = _best(lambda p=policies, n=n: play_games("six-card", p, n, seed=1), 1)
        rows.append({"what": f"six-card games {discard} + {peg}", "threads": threads, "games/s": n / seconds})
    seconds = _best(lambda: self_play_tables("six-card", None, 500_000, seed=1), 2)
    rows.append({"what": "crib tables by self-play (expected_net)", "threads": threads, "deals/s": 500_000 / seconds})
    return rows
