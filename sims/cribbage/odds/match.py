"""Strength, measured on common random numbers: two players' games paired seat for seat.

:func:`paired_match` plays ``n_games`` whole games (the cut for deal, then to the
target) with the challenger at seat 0, and the same games again, from the same
streams, with the seats exchanged.  Game ``i`` of both runs deals the same cards
as long as it lasts, so the luck of the cards largely cancels: the challenger's
score of a pair is the mean of its two results (0, 1/2 or 1), and the 95%
interval of its rate comes from the spread of those pair scores.  Games are kept
as totals per pair only (one small row per game), so 200,000 games fit easily.
"""

from __future__ import annotations

import numpy as np

from ...stats import Z95
from ..rules import get_rules


def _seats(first: dict, second: dict) -> dict:
    return {d: [first[d], second[d]] for d in ("discard", "peg")}


def paired_match(
    rules,
    challenger: dict,
    holder: dict,
    n_games: int = 20_000,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> dict:
    """The challenger's win rate (and game points) against the holder over ``n_games`` paired games each
    way (module docstring).  ``challenger`` and ``holder`` are ``{"discard": ..., "peg": ...}``."""
    from ..simulate import play_games

    rules = get_rules(rules)
    if rules.players != 2:
        raise ValueError(f"a paired match is two-handed; {rules.name} has {rules.players} players")
    runs = []
    for seats, seat in ((_seats(challenger, holder), 0), (_seats(holder, challenger), 1)):
        games = play_games(rules, seats, n_games, seed, records=True, threads=threads, progress=progress).games
        won = (games["winner"] == seat).to_numpy(dtype=np.float64)
        loser = np.where(games["winner"] == 0, games["score_1"], games["score_0"])
        worth = 1.0 + (loser < rules.lurch) + (loser < rules.double_lurch)
        runs.append((won, np.where(won == 1, worth, -worth), games["deals"].to_numpy()))
    pair = (runs[0][0] + runs[1][0]) / 2
    points = (runs[0][1] + runs[1][1]) / 2
    rate, se = pair.mean(), pair.std(ddof=1) / np.sqrt(len(pair))
    gp, gp_se = points.mean(), points.std(ddof=1) / np.sqrt(len(points))
    unpaired = np.sqrt(rate * (1 - rate) / (2 * len(pair)))
    return {
        "rules": rules.name,
        "games": 2 * int(n_games),
        "seed": int(seed),
        "rate": float(rate),
        "lo": float(rate - Z95 * se),
        "hi": float(rate + Z95 * se),
        "se": float(se),
        "se_unpaired": float(unpaired),
        "game_points": float(gp),
        "game_points_se": float(gp_se),
        "deals_per_game": float(np.concatenate([runs[0][2], runs[1][2]]).mean()),
    }
