"""The Python API: ``simulate_deals`` and ``play_games``."""
from __future__ import annotations

from ..core.api import simulate


def simulate_deals(rules, policies=None, n_deals: int = 10_000, seed: int = 0, records: bool = False,
                   threads: int | None = None, progress: bool = False):
    """Play ``n_deals`` independent deals, every seat dealing in turn.

    ``policies`` is ``{"discard": spec, "peg": spec}``; a spec is a registered name, an njit
    function with the policy signature, or a list of either, one per seat.  Returns per-role and
    per-seat means with standard errors, histograms, and per-deal records when asked.
    """
    return simulate("cribbage", "deals", rules, policies, n_deals, seed, records, threads, progress)


def play_games(rules, policies=None, n_games: int = 1_000, seed: int = 0, records: bool = False,
               score_log: bool = False, threads: int | None = None, progress: bool = False):
    """Play ``n_games`` whole games from the cut for deal to the target.

    The summary gives each side's win rate and the first dealer's with 95% Wilson intervals,
    game length and lurch/skunk rates, all from totals kept as the games are played (memory stays
    flat); ``records=True`` keeps one row per game (``.games``), ``score_log=True`` the score after
    every deal (``.score_log()``, for win probability by board position).
    """
    return simulate("cribbage", "games", rules, policies, n_games, seed, records, threads, progress,
                    score_log=score_log)
