"""The Python entry point every game's ``simulate_deals`` / ``play_games`` wraps."""

from __future__ import annotations

from .collector import young_collections_every
from .jobs import Job


def simulate(
    game,
    kind: str,
    rules,
    policies=None,
    n: int = 10_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
    **options,
):
    """Play ``n`` deals or games of any game in batches and return the game's result.

    The garbage collector runs less often while the kernels load and play (``sims.core.collector``).

    Parameters
    ----------
    game : str
        The game's name (``"cribbage"``, ``"allfours"``, ``"loo"`` or an installed game's).
    kind : str
        ``"deals"`` (independent deals, every seat dealing in turn) or ``"games"`` (whole games or sessions).
    rules : str or game rules
        A preset's name or the game's ``Rules``.
    policies : dict, optional
        Each decision of the game mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n : int
        Deals or games to play.
    seed : int
        Master seed: the same seed gives the same numbers on any number of threads or Dask workers.
    records : bool
        Keep one row per deal or game (``.records`` / ``.games``).
    threads : int, optional
        numba threads (default: every core).
    progress : bool
        Show a progress bar (tqdm) on long work.
    **options
        The game's switches (e.g. All Fours ``holdings=True``).

    Returns
    -------
    DealResult or GameResult
        The game's result: tables as pandas DataFrames, provenance in ``.summary``.
    """
    from .runner import run

    with young_collections_every():
        job = Job.make(game, kind, rules, policies, n, seed, records=records, **options)
        return run(job, threads=threads, progress=progress)
