"""``sims simulate``: independent deals of any game, each role's or seat's result per deal."""

from __future__ import annotations

from .common import (
    add_simulation_arguments,
    defaults_used,
    options_from_args,
    policies_from_args,
    render_summary,
    rules_from_args,
)

HELP = "play independent deals and report each role's points (or money) per deal by component"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims simulate --deals 100000 --seed 1                 # the default (strongest) players",
    "sims simulate --deals 100000 --discard expected_net --peg defensive --seed 1",
    "sims simulate --game allfours --deals 100000 --play maxims:knave=0",
    "sims simulate --game loo --rule players=7 --deals 50000 --declare threshold",
]
GAME_AWARE = True


def add_arguments(parser, game):
    add_simulation_arguments(parser, game, "--deals", "number of deals (default 100000)", 100_000)


def run(args) -> dict:
    from ..core.api import simulate

    policies = policies_from_args(args)
    return {
        **simulate(
            args.game,
            "deals",
            rules_from_args(args),
            policies,
            args.n,
            args.seed,
            records=args.records,
            threads=args.threads,
            progress=not args.quiet,
            **options_from_args(args),
        ).summary,
        "defaults": defaults_used(args.game, policies),
    }


render = render_summary
