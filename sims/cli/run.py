"""``sims run``: a long simulation of any game in batches, with progress, a Parquet run store and resume.

Settings come from a TOML spec file (see :mod:`sims.core.spec`) and/or flags; a flag
overrides the same key of the spec.  Rerunning the same command resumes an
interrupted run from its finished batches.
"""

from __future__ import annotations

import sys

from .common import add_game_arguments, defaults_used, positive, render_summary

HELP = "run a long simulation in batches: progress bar, Parquet run store, resume, Dask"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims run --deals 200000 --discard greedy --peg greedy --seed 1 --out data/runs/demo --quiet",
    "sims run spec.toml --seed 2               # settings from a TOML file; flags override its keys",
    "sims run spec.toml --allow-import         # the spec names a policy by path: py:MODULE.FUNCTION",
    "sims run --game loo --games 100000 --workers 2 --out data/runs/loo --json --quiet",
]
GAME_AWARE = True


def add_arguments(parser, game):
    parser.add_argument("spec", nargs="?", help="TOML run spec (flags override its keys)")
    add_game_arguments(parser, game, defaults=False)
    parser.add_argument("--kind", choices=("deals", "games"), help="what to simulate (implied by --deals/--games)")
    parser.add_argument("--deals", type=positive, metavar="N", help="number of independent deals")
    parser.add_argument("--games", type=positive, metavar="N", help="number of whole games")
    parser.add_argument("--seed", type=int, metavar="S", help="master seed (default 0)")
    parser.add_argument("--records", action="store_true", default=None, help="keep one row per deal or game")
    parser.add_argument("--out", metavar="DIR", help="run directory (default data/runs/<name from the settings>)")
    parser.add_argument(
        "--batch-chunks",
        dest="batch_chunks",
        type=positive,
        metavar="K",
        help="chunks per batch (default about a second of work)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive, metavar="N", help="start a local Dask cluster with N workers")
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="use the Dask scheduler at this address, e.g. tls://host:8786"
    )
    for flag, what in (
        ("ca-file", "the CA's certificate"),
        ("cert", "this client's certificate"),
        ("key", "this client's private key"),
    ):
        parser.add_argument(
            f"--tls-{flag}",
            metavar="PEM",
            help=f"with a tls:// --scheduler: {what} (default: Dask's config distributed.comm.tls)",
        )
    parser.add_argument("--threads", type=positive, metavar="T", help="numba threads (per Dask worker)")
    parser.add_argument("--quiet", action="store_true", default=None, help="no progress bar or messages")
    parser.add_argument(
        "--allow-import",
        action="store_true",
        help="let the spec file name policies by path (py:MODULE.FUNCTION), which imports and runs "
        "that module; without it a spec file names only built-in and installed plug-in policies",
    )


def settings_from_args(args, game) -> dict:
    """Spec file settings with the flags given on top (``--game`` only when given or in the spec)."""
    from ..core.spec import KEYS, apply_rule_changes, parse_rules, read_spec, refuse_paths

    settings = read_spec(args.spec) if args.spec else {}
    if not args.allow_import:
        refuse_paths(settings, game, f"spec file {args.spec}")
    flags = list(KEYS) + [d.name for d in game.decisions] + list(game.options)
    settings.update({key: getattr(args, key) for key in flags if getattr(args, key, None) is not None})
    if args.rule:
        settings["rules"] = apply_rule_changes(game, parse_rules(game, settings.get("rules")), args.rule)
    return settings


def run(args) -> dict:
    from ..core.executors import tls_security
    from ..core.paths import removed_on_failure
    from ..core.registry import get_game
    from ..core.runner import run as run_job
    from ..core.spec import RunSpec, read_spec

    game = get_game(args.game or (read_spec(args.spec).get("game") if args.spec else None))
    settings = settings_from_args(args, game)
    spec = RunSpec.from_settings(settings)
    job = spec.job()
    out = spec.out_dir(job)
    security = tls_security(*spec.tls)
    with removed_on_failure(out):  # a refused run leaves no --out folder
        result = run_job(
            job,
            out,
            batch_chunks=spec.batch_chunks,
            threads=spec.threads,
            workers=spec.workers,
            scheduler=spec.scheduler,
            progress=not spec.quiet,
            security=security,
        )
    if not spec.quiet:
        sys.stderr.write(f"sims run: {job.n:,} {job.kind} in {out}\n")
    return {**result.summary, "defaults": defaults_used(game, settings)}


render = render_summary
