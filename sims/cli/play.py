"""``sims play``: whole games of any game, win rates with 95% intervals and the first dealer's advantage."""
from __future__ import annotations

from .common import (add_simulation_arguments, defaults_used, options_from_args, policies_from_args, render_summary,
                     rules_from_args)

COMMAND = "play"
HELP = "play whole games and report win rates, the first dealer's win rate and game length"
GAME_AWARE = True


def add_arguments(parser, game):
    add_simulation_arguments(parser, game, "--games", "number of games (default 10000)", 10_000)


def run(args) -> dict:
    from ..core.api import simulate

    policies = policies_from_args(args)
    return {**simulate(args.game, "games", rules_from_args(args), policies, args.n, args.seed,
                    records=args.records, threads=args.threads, progress=not args.quiet,
                    **options_from_args(args)).summary, "defaults": defaults_used(args.game, policies)}


render = render_summary
