"""``sims odds``: the dealer's chance of winning from every board position (see :mod:`sims.cribbage.odds`)."""

from __future__ import annotations

from ...cli.common import percent, positive
from ...core.text import two_scores
from ..odds.layout import DEFAULT_PLAYERS, PLAYERS, players_of

DEFAULT_POLICIES = PLAYERS[DEFAULT_PLAYERS]

HELP = (
    "the dealer's chance of winning and expected game points from board positions before a deal "
    "(two-handed cribbage), from the shipped table or built by simulation"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims odds --score 95-110 --score 35-37      # the dealer's chance from two positions",
    "sims odds --rules six-card-61 --figure board.png --out board.parquet",
]


def add_arguments(parser):
    parser.add_argument(
        "--rules",
        default="six-card",
        metavar="PRESET",
        help="a two-handed preset: six-card, six-card-61, five-card, eight-card (default six-card)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field (then the table must be built: --build)",
    )
    parser.add_argument(
        "--score",
        action="append",
        default=[],
        metavar="DEALER-PONE",
        help="a position before the deal, the dealer's score first, e.g. 95-110 (repeatable)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--table", metavar="FILE", help="read a table written with --out")
    source.add_argument(
        "--build",
        action="store_true",
        help="play deals and build the table (default: the table that ships for the preset)",
    )
    source.add_argument(
        "--position",
        action="store_true",
        help="build the table of the position-aware players' self-play, iterated from the built "
        "table (--iterate rounds)",
    )
    parser.add_argument(
        "--players",
        metavar="NAME",
        help="the shipped table of these players' self-play: " + ", ".join(PLAYERS) + f" (default {DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--discard",
        help="discard policy of both players: with --build (default "
        f"{DEFAULT_POLICIES['discard']}), else the shipped table of players "
        "who discard by it",
    )
    parser.add_argument(
        "--peg",
        help=f"pegging policy of both players: with --build (default "
        f"{DEFAULT_POLICIES['peg']}), else the shipped table of players who peg by it",
    )
    parser.add_argument("--deals", type=positive, default=None, help="deals to play with --build (default 1000000)")
    parser.add_argument("--groups", type=positive, default=None, help="jackknife groups with --build (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="master seed with --build (default 0)")
    parser.add_argument(
        "--iterate",
        type=positive,
        default=1,
        metavar="K",
        help="with --position: rounds of table -> players -> table (default 1)",
    )
    parser.add_argument(
        "--zone",
        type=positive,
        default=None,
        help="with --position: the players play for the game within this many points of home (default 40)",
    )
    parser.add_argument(
        "--per-position",
        type=positive,
        default=None,
        help="with --position: deals played from each position of the zone (default 400)",
    )
    parser.add_argument(
        "--base",
        choices=("defensive", "distilled"),
        default="defensive",
        help="with --position: the players' pegging outside the zone (default defensive)",
    )
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--workers", type=positive, default=None, help="play the deals on this many Dask workers")
    parser.add_argument("--out", metavar="FILE", help="write the whole table (.csv or .parquet)")
    parser.add_argument("--figure", metavar="FILE", help="write the heatmap (.png, .svg, ...)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_score(text: str) -> tuple[int, int]:
    """``"95-110"`` -> (95, 110); else a one-line error."""
    return two_scores(text, "--score takes DEALER-PONE, e.g. 95-110")


def run(args) -> dict:
    from ...core.registry import get_game
    from ...core.spec import apply_rule_changes
    from ..odds import table as odds

    game = get_game("cribbage")
    rules = apply_rule_changes(game, game.get_rules(args.rules), args.rule)
    scores = [parse_score(s) for s in args.score]
    build_only = [
        flag
        for flag, value in (("--deals", args.deals), ("--groups", args.groups), ("--workers", args.workers))
        if value is not None
    ]
    if build_only and not (args.build or args.position):
        raise ValueError(f"{build_only[0]} goes with --build or --position")
    position_only = [
        flag for flag, value in (("--zone", args.zone), ("--per-position", args.per_position)) if value is not None
    ]
    if position_only and not args.position:
        raise ValueError(f"{position_only[0]} goes with --position")
    if args.players is not None and (args.build or args.position or args.table):
        raise ValueError("--players chooses a shipped table: leave out --build, --position and --table")
    if (args.discard or args.peg) and (args.position or args.table):
        raise ValueError(f"{'--discard' if args.discard else '--peg'} goes with --build or a shipped table")
    if args.table:
        table, source = odds.read_table(args.table, rules), args.table
    elif args.position:
        from ..lab.odds import build
        from ..lab.odds.position import DEFAULT_PER_POSITION, iterate_position

        if args.workers:
            raise ValueError("--position runs on this machine's threads (--threads), not on Dask workers")
        if args.deals is None:  # long work is asked for by name, not by looking up a position
            raise ValueError(
                f"--position builds a table by playing deals, {build.DEFAULT_DEALS:,} and more a round "
                f"at the shipped size: say how many with --deals N"
            )
        table, _ = iterate_position(
            rules,
            args.zone,
            args.iterate,
            n_deals=args.deals,
            per_position=args.per_position or DEFAULT_PER_POSITION,
            seed=args.seed,
            groups=args.groups or build.DEFAULT_GROUPS,
            base=args.base,
            threads=args.threads,
            progress=not args.quiet,
        )
        source = f"position-aware ({args.iterate} round(s))"
    elif args.build:
        from ..lab.odds import build

        table = build.win_table(
            rules,
            {"discard": args.discard or DEFAULT_POLICIES["discard"], "peg": args.peg or DEFAULT_POLICIES["peg"]},
            args.deals or build.DEFAULT_DEALS,
            args.seed,
            args.groups or build.DEFAULT_GROUPS,
            threads=args.threads,
            progress=not args.quiet,
            workers=args.workers,
        )
        source = "built"
    else:
        players = players_of(args.players, discard=args.discard, peg=args.peg)
        table, source = odds.shipped_table(rules, players), "shipped"
    positions = [table.at(d, p) for d, p in scores]
    files = []
    if args.out:
        files.append(str(table.write(args.out)))
    if args.figure:
        from ..odds.figure import save_heatmap

        files.append(str(save_heatmap(table, args.figure)))
    start = (0, 3) if rules.three_for_last else (0, 0)
    step = 10 if rules.target > 61 else 5
    marks = list(range(0, rules.target, step))
    p = table.provenance
    policies = p.get("players") or {d: seats[0]["name"] for d, seats in p.get("policies", {}).items()}
    return {
        "rules": rules.name,
        "target": rules.target,
        "source": source,
        "players": "+".join(dict.fromkeys(policies.values())),
        "history": p.get("history", []),
        "policies": policies,
        "deals": p.get("n"),
        "seed": p.get("seed"),
        "largest_half_width": float(table.half_width * table.win_se.max()),
        "first_dealer": table.at(*start),
        "positions": positions,
        "grid": {
            "win": "the dealer's chance of winning, by the dealer's score (rows) and the pone's (columns)",
            "dealer": marks,
            "pone": marks,
            "chance": [[float(table.win[d, q]) for q in marks] for d in marks],
        },
        "files": files,
    }


def render(result: dict) -> str:
    policies = " + ".join(dict.fromkeys(result["policies"].values()))
    lines = [
        f"{result['rules']} (to {result['target']}), {result['source']} table: {policies} in self-play, "
        f"{result['deals']:,} deals, seed {result['seed']}; 95% intervals within "
        f"±{100 * result['largest_half_width']:.2f} percentage points"
    ]
    for h in result["history"]:
        lines.append(
            f"  round {h['iteration']}: largest change in the zone {100 * h['max_abs_change']:.2f} "
            f"percentage points, mean {100 * h['mean_abs_change']:.3f}"
        )
    first = result["first_dealer"]
    lines.append(
        f"first dealer (before the first deal, {first['dealer']}-{first['pone']}): "
        f"{percent(first['win'])}% [{percent(first['win_lo'])}, {percent(first['win_hi'])}]"
    )
    if result["positions"]:
        lines.append(f"{'dealer-pone':<12} {'dealer wins':>12} {'95% interval':>18} {'game points':>12}")
        for at in result["positions"]:
            lines.append(
                f"{at['dealer']:>5}-{at['pone']:<6} {percent(at['win'], width=11)}% "
                f"[{percent(at['win_lo'], width=6)}, {percent(at['win_hi'], width=6)}] "
                f"{at['game_points']:+12.3f}"
            )
    else:
        grid = result["grid"]
        lines.append("dealer wins (%) by dealer's score (rows) and pone's score (columns):")
        lines.append("dealer " + "".join(f"{m:>5}" for m in grid["pone"]))
        for d, row in zip(grid["dealer"], grid["chance"]):
            lines.append(f"{d:>6} " + "".join(f"{100 * w:5.0f}" for w in row))
    lines += [f"wrote {f}" for f in result["files"]]
    return "\n".join(lines)
