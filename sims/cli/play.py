"""``sims play``: whole games of any game, win rates with 95% intervals and the first dealer's advantage."""
from __future__ import annotations

from .common import (add_simulation_arguments, defaults_used, options_from_args, policies_from_args, render_summary,
                     rules_from_args)

COMMAND = "play"
HELP = "play whole games and report win rates, the first dealer's win rate and game length"
EXAMPLES = [   # the foot of --help (tests/cli/test_help.py parses each)
    "sims play --games 5000 --seed 1                          # the default (strongest) players",
    "sims play --rules six-card-61 --games 5000 --discard greedy,random   # one policy per seat",
    "sims play --game allfours --rules seven-up --games 5000 --play greedy,maxims",
    "sims play --game loo --rules five-card-pam-unlimited --games 200",
]
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
