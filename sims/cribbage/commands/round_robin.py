"""``sims round-robin``: every pair of policy combos plays whole games (see :mod:`sims.cribbage.lab.tournament`)."""

from __future__ import annotations

from ...cli.common import positive

HELP = "every pair of discard+peg policy combos plays games; win rates with 95% intervals and a matrix"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims round-robin --games 400 --quiet",
    "sims round-robin --policies expected_peg+distilled,expected_net+defensive --games 2000",
]


def add_arguments(parser):
    parser.add_argument("--rules", default="six-card", help="a two-sided preset (default six-card)")
    parser.add_argument("--games", type=int, default=1_000, help="games per pair, half in each seat (default 1000)")
    parser.add_argument(
        "--policies",
        help="comma list of DISCARD+PEG combos, each a built-in's, an installed "
        "plug-in's or py:MODULE.FUNCTION (default expected_net+defensive, "
        "hoyle+defensive, greedy+greedy, random+random)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> dict:
    from ..lab.tournament import DEFAULT_COMBOS, round_robin, win_matrix  # the engine: only when run

    combos = args.policies.split(",") if args.policies else DEFAULT_COMBOS
    frame = round_robin(args.rules, combos, args.games, args.seed, threads=args.threads, progress=not args.quiet)
    matrix = win_matrix(frame)
    return {
        **frame.attrs,
        "pairs": frame.to_dict(orient="records"),
        "matrix": matrix.astype(object).where(matrix.notna(), None).to_dict(orient="index"),
    }


def render(result: dict) -> str:
    combos = result["combos"]
    width = max(len(c) for c in combos)
    lines = [
        f"{result['rules']}: {result['games_per_pair']:,} games per pair, half with each combo in seat 0 "
        f"(same deals), seed {result['seed']}",
        f"{'combo':<{width}}  {'opponent':<{width}}  win rate [95% interval]",
    ]
    for row in result["pairs"]:
        lines.append(
            f"{row['combo']:<{width}}  {row['opponent']:<{width}}  "
            f"{row['rate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]  ({row['wins']:,}/{row['games']:,})"
        )
    lines.append("")
    lines.append("win rate of the row against the column:")
    short = [f"({i + 1})" for i in range(len(combos))]
    lines.append(" " * (width + 6) + "".join(f"{s:>8}" for s in short))
    for i, combo in enumerate(combos):
        cells = "".join(
            f"{'-':>8}" if result["matrix"][combo][col] is None else f"{result['matrix'][combo][col]:>8.3f}"
            for col in combos
        )
        lines.append(f"{short[i]:<5} {combo:<{width}}{cells}")
    return "\n".join(lines)
