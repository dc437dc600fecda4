"""``sims simulate``: independent deals, per-role means with standard errors."""
from __future__ import annotations

from ..cribbage.simulate import simulate_deals
from .common import add_simulation_arguments, policies_from_args, rules_from_args

COMMAND = "simulate"
HELP = "play independent deals and report each role's points per deal by component"


def add_arguments(parser):
    add_simulation_arguments(parser, "--deals", "number of deals (default 100000)", 100_000)


def run(args) -> dict:
    result = simulate_deals(rules_from_args(args), policies_from_args(args), args.n, args.seed,
                            threads=args.threads)
    return result.summary


def render(summary: dict) -> str:
    roles = list(summary["roles"])
    components = list(next(iter(summary["roles"].values())))
    policies = summary["policies"]
    lines = [f"{summary['rules']['name']}: {summary['n']:,} deals, seed {summary['seed']}, "
             f"discard {','.join(p['name'] for p in policies['discard'])}, "
             f"peg {','.join(p['name'] for p in policies['peg'])}",
             f"{'component':<10}" + "".join(f"{role:>22}" for role in roles)]
    for comp in components:
        cells = "".join(f"{summary['roles'][role][comp]['mean']:>12.4f} ± {summary['roles'][role][comp]['se']:<7.4f}"
                        for role in roles)
        lines.append(f"{comp:<10}{cells}")
    lines.append("(mean points per deal ± standard error)")
    return "\n".join(lines)
