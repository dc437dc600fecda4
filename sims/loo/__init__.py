"""Loo: three-card loo with the miss and five-card loo with Pam, three to ten players, limited and unlimited.

>>> from sims.loo import get_rules
>>> get_rules("five-card-pam").replace(players=7).players
7
"""

from .rules import PRESETS, Rules, get_rules

__all__ = ["PRESETS", "Rules", "get_rules", "play_games", "simulate_deals"]


def simulate_deals(
    rules="three-card",
    policies=None,
    n_deals: int = 10_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
    **options,
):
    """Play ``n_deals`` independent deals of Loo, one stake held over in each pool.

    Parameters
    ----------
    rules : str or sims.loo.rules.Rules
        A preset's name (``"three-card"``, ``"five-card-pam"``, ...) or a :class:`sims.loo.rules.Rules`.
    policies : dict, optional
        ``declare``, ``exchange`` and ``card`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
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
    **options
        ``clean=True``: no stake held over in the pools.

    Returns
    -------
    sims.loo.results.DealResult
        Money per deal by seat from the dealer, standing, looed and the miss.
    """
    from ..core.api import simulate

    return simulate("loo", "deals", rules, policies, n_deals, seed, records, threads, progress, **options)


def play_games(
    rules="three-card",
    policies=None,
    n_games: int = 1_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
):
    """Play ``n_games`` sessions of Loo: ``session_rounds`` rounds of deals, the pool carried over.

    Parameters
    ----------
    rules : str or sims.loo.rules.Rules
        A preset's name (``"three-card"``, ``"five-card-pam"``, ...) or a :class:`sims.loo.rules.Rules`.
    policies : dict, optional
        ``declare``, ``exchange`` and ``card`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n_games : int
        Sessions to play.
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
    sims.loo.results.GameResult
        Money per session by seat, and the pool through a session.
    """
    from ..core.api import simulate

    return simulate("loo", "games", rules, policies, n_games, seed, records, threads, progress)
