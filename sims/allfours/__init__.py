"""All Fours (Sections 87-96 §91-94, Mottoes): rules, the hand and game kernels, policies, and the Python API.

>>> from sims.allfours import simulate_deals
>>> result = simulate_deals("two-hand", {"play": "greedy"}, n_deals=4096, seed=1)   # doctest: +SKIP
>>> result.table()                                                                  # doctest: +SKIP
"""

from __future__ import annotations

from .rules import PRESETS, Rules, get_rules

__all__ = ["PRESETS", "Rules", "get_rules", "play_games", "play_stacked", "simulate_deals", "stacked_deck"]


def simulate_deals(
    rules="two-hand",
    policies=None,
    n_deals: int = 10_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
    **options,
):
    """Play ``n_deals`` independent hands of All Fours, every seat dealing in turn.

    Parameters
    ----------
    rules : str or sims.allfours.rules.Rules
        A preset's name (``"two-hand"``, ``"four-hand"``, ``"seven-up"``) or a :class:`sims.allfours.rules.Rules`.
    policies : dict, optional
        ``beg``, ``answer``, ``play`` and ``discard`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n_deals : int
        Hands to play.
    seed : int
        Master seed: the same seed gives the same numbers on any number of threads or Dask workers.
    records : bool
        Keep one row per deal or game (``.records`` / ``.games``).
    threads : int, optional
        numba threads (default: every core).
    progress : bool
        Show a progress bar (tqdm) on long work.
    **options
        ``agreement=True`` tallies how often the play agrees with each maxim; ``holdings=True`` counts the points
        by what a player holds (:meth:`~sims.allfours.results.DealResult.by_holding`).

    Returns
    -------
    sims.allfours.results.DealResult
        Points per hand by role and component, and the events of a hand.
    """
    from ..core.api import simulate

    return simulate(
        "allfours",
        "deals",
        rules,
        policies,
        n_deals,
        seed,
        records=records,
        threads=threads,
        progress=progress,
        **options,
    )


def play_games(
    rules="two-hand",
    policies=None,
    n_games: int = 1_000,
    seed: int = 0,
    records: bool = False,
    threads: int | None = None,
    progress: bool = False,
    **options,
):
    """Play ``n_games`` whole games of All Fours from the cut for deal to the target.

    Parameters
    ----------
    rules : str or sims.allfours.rules.Rules
        A preset's name (``"two-hand"``, ``"four-hand"``, ``"seven-up"``) or a :class:`sims.allfours.rules.Rules`.
    policies : dict, optional
        ``beg``, ``answer``, ``play`` and ``discard`` mapped to a policy: a built-in or plug-in name (``"maxims:knave=0"`` changes a
        parameter), a ``{"name": ..., "params": [...]}`` table, an njit function with the decision's signature,
        or a list of these, one per seat.  None: the game's default policies.
    n_games : int
        Games to play.
    seed : int
        Master seed: the same seed gives the same numbers on any number of threads or Dask workers.
    records : bool
        Keep one row per deal or game (``.records`` / ``.games``).
    threads : int, optional
        numba threads (default: every core).
    progress : bool
        Show a progress bar (tqdm) on long work.
    **options
        The game's switches, as :func:`simulate_deals` takes them.

    Returns
    -------
    sims.allfours.results.GameResult
        Win rates (Wilson intervals), the first dealer's win rate and the length of a game.
    """
    from ..core.api import simulate

    return simulate(
        "allfours",
        "games",
        rules,
        policies,
        n_games,
        seed,
        records=records,
        threads=threads,
        progress=progress,
        **options,
    )


def __getattr__(name):
    """The stacked-deck replay loads on first use (it compiles a kernel)."""
    if name in ("play_stacked", "stacked_deck"):
        from . import stacked

        return getattr(stacked, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
