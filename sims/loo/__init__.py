"""Loo: three-card loo with the miss and five-card loo with Pam, three to ten players, limited and unlimited.

>>> from sims.loo import get_rules
>>> get_rules("five-card-pam").replace(players=7).players
7
"""
from .rules import PRESETS, Rules, get_rules

__all__ = ["PRESETS", "Rules", "get_rules", "play_games", "simulate_deals"]


def simulate_deals(rules="three-card", policies=None, n_deals: int = 10_000, seed: int = 0, records: bool = False,
                   threads: int | None = None, progress: bool = False, **options):
    """Independent deals, one stake held over in each pool (option ``clean=True``: none).
    Returns a :class:`sims.loo.results.DealResult`."""
    from ..core.api import simulate

    return simulate("loo", "deals", rules, policies, n_deals, seed, records, threads, progress, **options)


def play_games(rules="three-card", policies=None, n_games: int = 1_000, seed: int = 0, records: bool = False,
               threads: int | None = None, progress: bool = False):
    """Sessions of ``session_rounds`` rounds of deals, the pool carried over.  Returns a
    :class:`sims.loo.results.GameResult`."""
    from ..core.api import simulate

    return simulate("loo", "games", rules, policies, n_games, seed, records, threads, progress)
