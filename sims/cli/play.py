"""``sims play``: whole games of any game, win rates with 95% intervals and the first dealer's advantage; with
``--record FILE`` also the games as a game record (:mod:`sims.core.record`)."""

from __future__ import annotations

from .common import (
    add_simulation_arguments,
    defaults_used,
    options_from_args,
    policies_from_args,
    render_summary,
    rules_from_args,
)

HELP = "play whole games and report win rates, the first dealer's win rate and game length"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims play --games 5000 --seed 1                          # the default (strongest) players",
    "sims play --rules six-card-61 --games 5000 --discard greedy,random   # one policy per seat",
    "sims play --game allfours --rules seven-up --games 5000 --play greedy,maxims",
    "sims play --game loo --rules five-card-pam-unlimited --games 200",
    "sims play --game allfours --games 1 --seed 3 --play expert,random --record game.jsonl   # then sims review",
]
GAME_AWARE = True


def add_arguments(parser, game):
    add_simulation_arguments(parser, game, "--games", "number of games (default 10000)", 10_000)
    parser.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="also write the games, decision by decision, as a game record (JSON Lines; replayed "
        "by the reference engine, so keep --games small); read it with sims review",
    )


def run(args) -> dict:
    from ..core.api import simulate
    from ..core.paths import check_output_file

    if args.record is not None:  # before any game is played
        check_output_file(args.record, "--record")
    rules, policies = rules_from_args(args), policies_from_args(args)
    result = {
        **simulate(
            args.game,
            "games",
            rules,
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
    if args.record is not None:
        result["record"] = _record(args, rules, policies)
    return result


def _record(args, rules, policies) -> dict:
    """The games again, decision by decision, written to ``--record`` (the same games: the table plays the
    kernel's games for the same seed)."""
    from ..core.table import play

    games = play(args.game, rules, policies, args.seed, args.n, record=args.record, progress=not args.quiet)
    return {"path": str(args.record), "games": args.n, "decisions": games.attrs["decisions"]}


def render(result: dict) -> str:
    text = render_summary(result)
    if "record" in result:
        r = result["record"]
        text += (
            f"\ngame record: {r['path']} ({r['games']:,} game(s), {r['decisions']:,} decisions; sims review "
            f"{r['path']})"
        )
    return text
