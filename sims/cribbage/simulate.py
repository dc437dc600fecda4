"""The Python API: ``simulate_deals`` and ``play_games``."""

from __future__ import annotations

from ..core.api import simulate


def simulate_deals(
    rules,
    policies=None,
    n_deals: int = 10_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
):
    """Play ``n_deals`` independent deals of cribbage, every seat dealing in turn.

    Parameters
    ----------
    rules : str or sims.cribbage.rules.Rules
        A preset's name (``"six-card"``, ...) or a :class:`sims.cribbage.rules.Rules`.
    policies : dict, optional
        ``discard`` and ``peg`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n_deals : int
        Deals to play.
    seed : int
        Master seed: the same seed gives the same numbers on any number of threads or Dask workers.
    records : bool
        Keep one row per deal or game (``.records`` / ``.games``).
    threads : int, optional
        numba threads (default: every core).
    progress : bool
        Show a progress bar (tqdm) on long work.

    Returns
    -------
    sims.cribbage.results.DealResult
        Per-role and per-seat means with standard errors, histograms, and per-deal records when asked.
    """
    return simulate("cribbage", "deals", rules, policies, n_deals, seed, records, threads, progress)


def play_games(
    rules,
    policies=None,
    n_games: int = 1_000,
    seed: int = 0,
    records: bool = False,
    score_log: bool = False,
    threads: int | None = None,
    progress: bool = False,
):
    """Play ``n_games`` whole games of cribbage from the cut for deal to the target.

    Parameters
    ----------
    rules : str or sims.cribbage.rules.Rules
        A preset's name (``"six-card"``, ...) or a :class:`sims.cribbage.rules.Rules`.
    policies : dict, optional
        ``discard`` and ``peg`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n_games : int
        Games to play.
    seed : int
        Master seed: the same seed gives the same numbers on any number of threads or Dask workers.
    records : bool
        Keep one row per deal or game (``.records`` / ``.games``).
    score_log : bool
        Keep the score after every deal (``.score_log()``, for win probability by board position).
    threads : int, optional
        numba threads (default: every core).
    progress : bool
        Show a progress bar (tqdm) on long work.

    Returns
    -------
    sims.cribbage.results.GameResult
        Each side's win rate and the first dealer's with 95% Wilson intervals, game length and lurch/skunk
        rates, all from totals kept as the games are played (memory stays flat).
    """
    return simulate(
        "cribbage", "games", rules, policies, n_games, seed, records, threads, progress, score_log=score_log
    )
