"""``sims crib-tables``: crib discard tables by self-play, compared with a published table
(see :mod:`sims.cribbage.lab.crib_self_play`)."""

from __future__ import annotations

import sys

from ...cli.common import positive
from ...core.paths import check_output_file
from ...core.text import cut

HELP = "expected crib by the rank pair thrown, by self-play (optionally iterated), against Schell's table"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims crib-tables --deals 20000 --iterate 2 --quiet   # self-play crib tables against Schell's",
]
LARGEST = 10
MAX_ITERATE = 50  # rounds of --iterate: the tables settle within a handful (tests/cribbage), 50 is far past that
TOL = 0.05
MIN_DEALS = 100  # entries from fewer deals are too noisy to list among the largest differences


def add_arguments(parser):
    parser.add_argument("--rules", default="six-card", help="a two-player preset (default six-card)")
    parser.add_argument("--deals", type=positive, default=200_000, help="deals per self-play round (default 200000)")
    parser.add_argument(
        "--iterate",
        type=int,
        default=0,
        metavar="K",
        help=f"rounds of tables -> expected_net -> tables, from Schell's, 1 .. {MAX_ITERATE} "
        f"(default 0: one self-play with --discard)",
    )
    parser.add_argument(
        "--tol",
        type=float,
        default=None,
        help=f"with --iterate: stop when no entry changes by this much (default {TOL})",
    )
    parser.add_argument(
        "--discard",
        default=None,
        help="without --iterate: the discard policy, or a comma list one per seat (default expected_net)",
    )
    parser.add_argument("--compare", default="schell", help="published table to compare with: schell, hessel")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--out", metavar="PATH.csv", help="write the table here, its provenance beside it (.json)")


def check_flags(args) -> None:
    """Refuse a flag the run would ignore, and an --iterate past :data:`MAX_ITERATE`; say first how much an
    iterated run may take."""
    if args.iterate and args.discard is not None:
        raise ValueError(
            "--discard is not used with --iterate (each round discards by expected_net with the "
            "tables of the round before)"
        )
    if not args.iterate and args.tol is not None:
        raise ValueError("--tol is used only with --iterate")
    if not 0 <= args.iterate <= MAX_ITERATE:
        raise ValueError(f"--iterate must be 1 .. {MAX_ITERATE} rounds (0: none), got {cut(args.iterate)}")
    if args.iterate and not args.quiet:
        sys.stderr.write(
            f"sims crib-tables: up to {args.iterate} round(s) of {args.deals:,} deals, "
            f"{args.iterate * args.deals:,} deals at most; each round shows its progress\n"
        )


def run(args) -> dict:
    from ..crib_tables import reference_table
    from ..lab.crib_self_play import iterate_tables, self_play_tables, write_table  # the engine: when run
    from ..lab.crib_tables import compare_tables

    check_flags(args)
    if args.out:  # the table and its provenance beside it, before the self-play
        if not args.out.endswith(".csv"):
            raise ValueError(f"--out {cut(args.out)}: the table file must end in .csv")
        for path in (args.out, args.out[:-4] + ".json"):
            check_output_file(path, "--out", new_folder=True)
    reference = reference_table(args.compare)
    history = []
    if args.iterate:
        table, frame = iterate_tables(
            args.rules,
            n_deals=args.deals,
            seed=args.seed,
            iterations=args.iterate,
            tol=TOL if args.tol is None else args.tol,
            threads=args.threads,
            progress=not args.quiet,
        )
        history = frame.to_dict(orient="records")
    else:
        discard = [name.strip() for name in (args.discard or "expected_net").split(",")]
        table = self_play_tables(
            args.rules, {"discard": discard}, args.deals, args.seed, threads=args.threads, progress=not args.quiet
        )
    files = [str(p) for p in write_table(table, args.out)] if args.out else []
    diff = compare_tables(table, reference)
    mean_abs = diff.groupby("to_whom")["difference"].apply(lambda d: float(d.abs().mean())).to_dict()
    largest = diff[diff["n"] >= MIN_DEALS].head(LARGEST)
    return {
        "provenance": table.attrs["provenance"],
        "history": history,
        "files": files,
        "compare": {
            "source": args.compare,
            "mean_abs_difference": mean_abs,
            "largest": largest.astype({"n": "int64"}).to_dict(orient="records"),
        },
        "table": table.astype(object).where(table.notna(), None).to_dict(orient="records"),
    }


def render(result: dict) -> str:
    p = result["provenance"]
    discard = ", ".join(d["name"] for d in p["policies"]["discard"])
    lines = [
        f"{p['rules']}: {p['n_deals']:,} deals per round, seed {p['seed']}, discard {discard}, "
        f"{p['iterations']} iteration(s)"
    ]
    for h in result["history"]:
        lines.append(
            f"  round {h['iteration']}: largest change {h['max_abs_change']:.3f}, "
            f"mean change {h['mean_abs_change']:.4f}"
        )
    c = result["compare"]
    lines.append(
        f"against {c['source']}: mean absolute difference dealer {c['mean_abs_difference']['dealer']:.3f}, "
        f"pone {c['mean_abs_difference']['pone']:.3f}"
    )
    lines.append(f"largest differences (entries from at least {MIN_DEALS} deals):")
    lines.append(f"{'throw':<7} {'to_whom':<7} {'here':>6} {'± se':>6} {'n':>8} {c['source']:>7} {'diff':>6}")
    for row in c["largest"]:
        lines.append(
            f"{row['card1_rank'] + '-' + row['card2_rank']:<7} {row['to_whom']:<7} {row['value']:6.2f} "
            f"{row['se']:6.2f} {row['n']:8,} {row['reference']:7.2f} {row['difference']:+6.2f}"
        )
    for path in result["files"]:
        lines.append(f"wrote {path}")
    return "\n".join(lines)
