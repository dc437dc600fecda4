"""``sims rate``: every pair of players plays on the same seeds, and one Bradley–Terry scale rates them all
(:mod:`sims.core.ratings`)."""

from __future__ import annotations

from ..core import registry
from .common import positive

HELP = (
    "rate players of one game on one Bradley-Terry scale from their pairwise results (same seeds, seats "
    "exchanged), with 95% intervals and a plot of the ladder"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims rate --game allfours --games 200",
    "sims rate --game cribbage --player discard=greedy,peg=greedy --player defensive --player peg=defensive:pair_bonus=1",
    "sims rate --game loo --objective stakes --deals 400 --plot ladder.png",
]


def add_arguments(parser):
    parser.add_argument(
        "--game",
        default=registry.default_name(),
        choices=registry.names(),
        help=f"the game (default {registry.default_name()})",
    )
    parser.add_argument("--rules", default=None, metavar="PRESET", help="rules preset (default the game's)")
    parser.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="POLICIES",
        help="a player: a policy name for every decision that has it, or DECISION=POLICY,...; the "
        "game's defaults elsewhere (repeat; default some of the game's built-ins)",
    )
    parser.add_argument(
        "--games",
        "--deals",
        dest="n",
        type=positive,
        default=400,
        help="games a pairing plays in each placement, or deals a player plays in each seat with "
        "--objective stakes (default 400)",
    )
    parser.add_argument(
        "--objective",
        default="games",
        choices=["games", "stakes"],
        help="games: the two play each other, seats exchanged; stakes (Loo, no winner): each plays "
        "every seat against the game's defaults on the same deals, and the one who wins more "
        "money on a deal beats the other",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--plot", metavar="FILE", help="write the ladder (PNG) here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> dict:
    from ..core.outcomes import field_policies
    from ..core.ratings import bradley_terry, pairwise

    texts = args.player or list(registry.get_game(args.game).ladder)
    if not texts:
        raise ValueError(f"{args.game} names no players to rate by default: name them with --player")
    if len(set(texts)) != len(texts) or len(texts) < 2:
        raise ValueError(f"name two or more different players, got {texts}")
    players = {text: field_policies(args.game, text) for text in texts}
    pairs = pairwise(
        args.game, players, args.n, args.seed, args.rules, args.objective, args.threads, progress=not args.quiet
    )
    ratings = bradley_terry(pairs)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from ..core.ratings import plot_ladder

        plot_ladder(ratings, title=f"{args.game}: {args.objective}").figure.savefig(
            args.plot, dpi=100, bbox_inches="tight"
        )
    return {
        "game": args.game,
        "objective": args.objective,
        "per_placement": args.n,
        "seed": args.seed,
        "pairs": pairs.to_dict(orient="records"),
        "ratings": ratings.to_dict(orient="records"),
        **({"plot": args.plot} if args.plot else {}),
    }


def render(result: dict) -> str:
    width = max(len(r["player"]) for r in result["ratings"])
    lines = [
        f"{result['game']}: Bradley-Terry strengths from {result['objective']} ({result['per_placement']:,} a "
        f"placement, seats exchanged, seed {result['seed']}); 0 is the mean player",
        f"{'player':<{width}}  strength [95% interval]",
    ]
    for r in result["ratings"]:
        lines.append(f"{r['player']:<{width}}  {r['strength']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]")
    lines.append("")
    lines.append("pairings (wins of the first):")
    for p in result["pairs"]:
        lines.append(f"  {p['player']} v {p['opponent']}: {p['wins']:g}/{p['games']:,}")
    return "\n".join(lines)
