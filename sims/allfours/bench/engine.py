"""All Fours speed and strength: two-hand hands/s and games/s on 1 and all threads with random players (every
decision a uniform draw) and with the default players (threshold begging and answering, the maxims' play),
the expert's play decisions/s, and its strength: games won against ``maxims`` and ``greedy`` with Wilson
intervals.

Issue 20 aims: random two-hand deals >= 1,000,000/s on 2 cores.  Figures are printed, never asserted.
``python -m sims.bench allfours_profile`` says where a deal's time goes.
"""

from __future__ import annotations

import numba

from ...bench.timing import best_rate
from .. import play_games, simulate_deals

NAME = "allfours"
DEALS = 2_000_000
GAMES = 200_000
EXPERT_HANDS = 2_000
STRENGTH_GAMES = 1_000
REPEATS = 3
EXPERT = {"name": "expert", "params": [20, 1_000_000, 9]}
BIDDING = {"beg": "threshold", "answer": "threshold"}
RANDOM = {"beg": "random", "answer": "random", "play": "random", "discard": "random"}


def _best_rate(fn, n) -> float:
    return best_rate(fn, n, REPEATS, warm=4096)


def run() -> list[dict]:
    rows = []
    all_threads = numba.config.NUMBA_NUM_THREADS
    for threads in sorted({1, all_threads}):
        deals = _best_rate(lambda n: simulate_deals("two-hand", RANDOM, n, seed=1, threads=threads), DEALS)
        games = _best_rate(lambda n: play_games("two-hand", RANDOM, n, seed=1, threads=threads), GAMES)
        maxims = _best_rate(
            lambda n: simulate_deals("two-hand", {**BIDDING, "play": "maxims"}, n, seed=1, threads=threads), DEALS // 4
        )
        rows.append(
            {
                "what": "two-hand random",
                "threads": threads,
                "deals/s": deals,
                "games/s": games,
                "x aim (1M deals/s)": deals / 1e6,
            }
        )
        rows.append(
            {
                "what": "two-hand default: maxims + threshold bidding",
                "threads": threads,
                "deals/s": maxims,
                "x aim (1M deals/s)": maxims / 1e6,
            }
        )
    # The expert's decisions: each hand (the eldest stands) is six plays of the expert's seat.
    stand = {"beg": "stand", "play": [EXPERT, "maxims"]}
    hands = _best_rate(lambda n: simulate_deals("two-hand", stand, n, seed=2), EXPERT_HANDS)
    rows.append(
        {
            "what": "expert play decisions (20 samples)",
            "threads": all_threads,
            "decisions/s": 6 * hands,
            "hands/s": hands,
        }
    )
    for other in ("maxims", "greedy"):
        result = play_games("two-hand", {**BIDDING, "play": [EXPERT, other]}, STRENGTH_GAMES, seed=3)
        win = result.summary["win_rate"]["seat 0"]
        rows.append(
            {
                "what": f"expert vs {other}: games won",
                "threads": all_threads,
                "games": STRENGTH_GAMES,
                "rate": win["rate"],
                "lo": win["lo"],
                "hi": win["hi"],
            }
        )
    return rows
