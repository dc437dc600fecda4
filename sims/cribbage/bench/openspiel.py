"""OpenSpiel's C++ cribbage as a baseline: random two-player games to 121 per second, measured here.

Uniform random bots play whole games inside OpenSpiel's C++ loop (``pyspiel.evaluate_bots``), one
process, the same game the engine benchmark plays with ``--discard random --peg random``.  OpenSpiel
is a benchmark extra, not a dependency: ``pip install 'period-card-sims[bench]'`` (or ``open_spiel``).
"""

from __future__ import annotations

import time

SECONDS = 5.0


def games_per_second(seconds: float = SECONDS) -> float | None:
    """Random two-player cribbage games per second in OpenSpiel, or None when it is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("cribbage")
    bots = [pyspiel.make_uniform_random_bot(player, 1 + player) for player in range(game.num_players())]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)  # warm
    games, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
    return games / elapsed
