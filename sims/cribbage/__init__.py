"""Cribbage: rules, scoring, the play, policies and the simulation engine."""
from .pegging import peg_points
from .rules import PRESETS, Rules, get_rules
from .scoring import score_show, score_shows, show_breakdown, show_distribution

__all__ = ["PRESETS", "Rules", "analyze_discards", "get_rules", "peg_points", "play_games", "score_show",
           "score_shows", "show_breakdown", "show_distribution", "simulate_deals"]

_LAZY = {"simulate_deals": ".simulate", "play_games": ".simulate", "analyze_discards": ".discards"}


def __getattr__(name):
    """The engine and the optimiser load on first use, so scoring alone starts fast."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
