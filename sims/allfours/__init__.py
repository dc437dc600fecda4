"""All Fours (Sections 87-96 §91-94, Mottoes): rules, the hand and game kernels, policies, and the Python API.

>>> from sims.allfours import simulate_deals
>>> result = simulate_deals("two-hand", {"play": "greedy"}, n_deals=4096, seed=1)   # doctest: +SKIP
>>> result.table()                                                                  # doctest: +SKIP
"""
from __future__ import annotations

from .rules import PRESETS, Rules, get_rules

__all__ = ["PRESETS", "Rules", "get_rules", "play_games", "play_stacked", "simulate_deals", "stacked_deck"]


def simulate_deals(rules="two-hand", policies=None, n_deals: int = 10_000, seed: int = 0, records: bool = False,
                   threads: int | None = None, progress: bool = False, **options):
    """Play ``n_deals`` independent hands, every seat dealing in turn.

    ``policies`` maps ``beg``, ``answer``, ``play`` and ``discard`` to a built-in name, a
    ``{"name": ..., "params": [...]}`` table, an njit function, or a list of these, one per seat.
    ``agreement=True`` tallies how often the play agrees with each maxim; ``holdings=True`` counts the
    points by what a player holds (:meth:`~sims.allfours.results.DealResult.by_holding`).  Returns a
    :class:`sims.allfours.results.DealResult`.
    """
    from ..core.api import simulate

    return simulate("allfours", "deals", rules, policies, n_deals, seed, records=records, threads=threads,
                    progress=progress, **options)


def play_games(rules="two-hand", policies=None, n_games: int = 1_000, seed: int = 0, records: bool = False,
               threads: int | None = None, progress: bool = False, **options):
    """Play ``n_games`` whole games from the cut for deal to the target; a
    :class:`sims.allfours.results.GameResult` with win rates (Wilson intervals), the first dealer's
    win rate and the length of a game."""
    from ..core.api import simulate

    return simulate("allfours", "games", rules, policies, n_games, seed, records=records, threads=threads,
                    progress=progress, **options)


def __getattr__(name):
    """The stacked-deck replay loads on first use (it compiles a kernel)."""
    if name in ("play_stacked", "stacked_deck"):
        from . import stacked

        return getattr(stacked, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
