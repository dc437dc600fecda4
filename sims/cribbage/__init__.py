"""Cribbage: rules, scoring, the play, policies and the simulation engine."""
from .pegging import peg_points
from .rules import PRESETS, Rules, get_rules
from .scoring import score_show, score_shows, show_breakdown, show_distribution

__all__ = ["PRESETS", "Rules", "get_rules", "peg_points", "score_show", "score_shows",
           "show_breakdown", "show_distribution"]
from .simulate import play_games, simulate_deals  # noqa: E402

__all__ += ["play_games", "simulate_deals"]
