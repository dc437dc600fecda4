"""Cribbage: rules, scoring, the play, policies and the simulation engine."""

from .rules import PRESETS, Rules, get_rules

__all__ = [
    "PRESETS",
    "Rules",
    "analyze_discards",
    "get_rules",
    "peg_points",
    "play_games",
    "score_show",
    "score_shows",
    "show_breakdown",
    "show_distribution",
    "simulate_deals",
]

_LAZY = {
    "simulate_deals": ".simulate",
    "play_games": ".simulate",
    "analyze_discards": ".discards",
    "peg_points": ".pegging",
    "score_show": ".scoring",
    "score_shows": ".scoring",
    "show_breakdown": ".scoring",
    "show_distribution": ".scoring",
}


def __getattr__(name):
    """The kernels load on first use: the game's record, its rules and its policies' names (``sims policies``,
    ``sims --help``) need no numba; the engine and the optimiser load only when asked for."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
