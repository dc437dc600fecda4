"""The Python API: ``simulate_deals`` and ``play_games``."""
from __future__ import annotations

from .engine import Job, run_job
from .results import DealResult, GameResult, summarize


def simulate_deals(rules, policies=None, n_deals: int = 10_000, seed: int = 0, records: bool = False,
                   threads: int | None = None) -> DealResult:
    """Play ``n_deals`` independent deals, every seat dealing in turn.

    ``policies`` is ``{"discard": spec, "peg": spec}``; a spec is a registered name, an njit
    function with the policy signature, or a list of either, one per seat.  Returns per-role and
    per-seat means with standard errors, histograms, and per-deal records when asked.
    """
    job = Job.make("deals", rules, policies, n_deals, seed, records=records)
    return summarize(job, run_job(job, threads))


def play_games(rules, policies=None, n_games: int = 1_000, seed: int = 0, records: bool = False,
               score_log: bool = False, threads: int | None = None) -> GameResult:
    """Play ``n_games`` whole games from the cut for deal to the target.

    The summary gives each side's win rate and the first dealer's with 95% Wilson intervals,
    game length and lurch/skunk rates; ``.games`` has one row per game (``records`` is kept for
    symmetry with :func:`simulate_deals`: game rows are always small), ``score_log=True`` adds
    the score after every deal (for win probability by board position).
    """
    job = Job.make("games", rules, policies, n_games, seed, records=records, score_log=score_log)
    return summarize(job, run_job(job, threads))
