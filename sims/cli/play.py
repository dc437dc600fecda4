"""``sims play``: whole games, win rates with 95% intervals and the first dealer's advantage."""
from __future__ import annotations

from ..cribbage.simulate import play_games
from .common import add_simulation_arguments, interval, policies_from_args, rules_from_args

COMMAND = "play"
HELP = "play whole games and report win rates, the first dealer's win rate and lurches"


def add_arguments(parser):
    add_simulation_arguments(parser, "--games", "number of games (default 10000)", 10_000)


def run(args) -> dict:
    result = play_games(rules_from_args(args), policies_from_args(args), args.n, args.seed, threads=args.threads)
    return result.summary


def render(summary: dict) -> str:
    policies = summary["policies"]
    lines = [f"{summary['rules']['name']} to {summary['rules']['target']}: {summary['n']:,} games, "
             f"seed {summary['seed']}, discard {','.join(p['name'] for p in policies['discard'])}, "
             f"peg {','.join(p['name'] for p in policies['peg'])}",
             "win rate [95% interval]"]
    for side, entry in summary["win_rate"].items():
        lines.append(f"  {side:<14}{interval(entry)}")
    lines.append(f"  {'first dealer':<14}{interval(summary['first_dealer_win'])}")
    deals = summary["deals_per_game"]
    lines.append(f"deals per game {deals['mean']:.2f} ± {deals['se']:.2f}")
    lines.append("losers lurched / skunked [95% interval]")
    for name, entry in summary["loser_below"].items():
        lines.append(f"  {name:<24}{interval(entry)}")
    return "\n".join(lines)
