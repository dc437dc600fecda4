"""``sims strength``: the strongest policies in self-play against the published expert figures
(see :func:`sims.cribbage.lab.tournament.strength`)."""

from __future__ import annotations

import math

from ...cli.common import positive

HELP = "self-play averages per deal by role and component, and the first dealer's wins, against expert figures"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims strength --deals 20000 --games 1000 --quiet   # self-play against the published expert figures",
]
DEFAULT_COMBOS = "expected_peg+distilled"  # the strongest fast pair


def add_arguments(parser):
    parser.add_argument("--rules", default="six-card", help="a two-player preset (default six-card)")
    parser.add_argument(
        "--policies",
        default=DEFAULT_COMBOS,
        help=f"comma list of DISCARD+PEG combos, each in self-play (built-in, installed plug-in "
        f"or py:MODULE.FUNCTION policies; default {DEFAULT_COMBOS})",
    )
    parser.add_argument("--deals", type=int, default=200_000, help="independent deals (default 200000)")
    parser.add_argument("--games", type=int, default=20_000, help="games for the first dealer (default 20000)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> dict:
    from ..lab.tournament import LITERATURE_SOURCES, strength  # the engine: only when run

    rows = []
    for combo in args.policies.split(","):
        frame = strength(
            args.rules, combo.strip(), args.deals, args.games, args.seed, threads=args.threads, progress=not args.quiet
        )
        rows += frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
    return {
        "rules": frame.attrs["rules"],
        "seed": args.seed,
        "deals": args.deals,
        "games": args.games,
        "sources": LITERATURE_SOURCES,
        "rows": rows,
    }


def _cell(value, percent):
    return (
        ""
        if value is None or (isinstance(value, float) and math.isnan(value))
        else (f"{100 * value:.1f}%" if percent else f"{value:.2f}")
    )


def render(result: dict) -> str:
    lines = [
        f"{result['rules']}: {result['deals']:,} deals and {result['games']:,} games per combo in self-play, "
        f"seed {result['seed']}",
        f"{'combo':<24} {'role':<13} {'component':<13} {'estimate':>9} {'95% interval':>17} {'experts':>13}",
    ]
    for row in result["rows"]:
        pct = row["component"] == "wins"
        est = f"{100 * row['estimate']:.1f}%" if pct else f"{row['estimate']:.3f}"
        ci = f"[{100 * row['lo']:.1f}, {100 * row['hi']:.1f}]" if pct else f"[{row['lo']:.3f}, {row['hi']:.3f}]"
        lit = f"{_cell(row['lit_lo'], pct)}-{_cell(row['lit_hi'], pct)}" if row["lit_lo"] is not None else ""
        lines.append(f"{row['combo']:<24} {row['role']:<13} {row['component']:<13} {est:>9} {ci:>17} {lit:>13}")
    lines.append(
        "pegging = play + go; the literature's 'play' is set beside the dealer's pegging, and beside his "
        "pegging with his heels (the parts of Chambers' totals hold every point); experts: " + result["sources"]
    )
    return "\n".join(lines)
