"""``sims run``: a long deal or game simulation in batches, with progress, Parquet shards and resume.

Settings come from a TOML spec file (see :mod:`sims.spec`) and/or flags; a flag
overrides the same key of the spec.  Rerunning the same command resumes an
interrupted run from its finished shards.
"""
from __future__ import annotations

import sys
from types import SimpleNamespace

from .. import runner
from ..spec import KEYS, RunSpec, parse_rules, read_spec
from . import play, simulate
from .common import rules_from_args

COMMAND = "run"
HELP = "run a long simulation in batches: progress bar, Parquet shards, resume, Dask"


def add_arguments(parser):
    parser.add_argument("spec", nargs="?", help="TOML run spec (flags override its keys)")
    parser.add_argument("--kind", choices=("deals", "games"), help="what to simulate (implied by --deals/--games)")
    parser.add_argument("--deals", type=int, metavar="N", help="number of independent deals")
    parser.add_argument("--games", type=int, metavar="N", help="number of whole games")
    parser.add_argument("--rules", metavar="PRESET", help="preset (default six-card)")
    parser.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE",
                        help="change one rules field, e.g. --rule target=61")
    parser.add_argument("--discard", metavar="POLICY",
                        help="discard policy, or a comma list one per seat (default random)")
    parser.add_argument("--peg", metavar="POLICY", help="pegging policy, or a comma list one per seat (default random)")
    parser.add_argument("--seed", type=int, metavar="S", help="master seed (default 0)")
    parser.add_argument("--records", action="store_true", default=None, help="keep one row per deal in the shards")
    parser.add_argument("--score-log", dest="score_log", action="store_true", default=None,
                        help="games: keep the score after every deal")
    parser.add_argument("--out", metavar="DIR", help="run directory (default data/runs/<name from the settings>)")
    parser.add_argument("--batch-chunks", dest="batch_chunks", type=int, metavar="K",
                        help="chunks per batch and shard (default about a second of work)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N", help="start a local Dask cluster with N worker processes")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="use the Dask scheduler at this address, e.g. tcp://host:8786")
    parser.add_argument("--threads", type=int, metavar="T", help="numba threads (per Dask worker); default all cores")
    parser.add_argument("--quiet", action="store_true", default=None, help="no progress bar or messages")


def settings_from_args(args) -> dict:
    """Spec file settings with the flags given on top."""
    settings = read_spec(args.spec) if args.spec else {}
    settings.update({key: getattr(args, key) for key in KEYS if getattr(args, key, None) is not None})
    if args.rule:
        base = parse_rules(settings.get("rules", "six-card"))
        settings["rules"] = rules_from_args(SimpleNamespace(rules=base, rule=args.rule))
    return settings


def run(args) -> dict:
    spec = RunSpec.from_settings(settings_from_args(args))
    job = spec.job()
    out = spec.out_dir()
    result = runner.run(job, out, batch_chunks=spec.batch_chunks, threads=spec.threads, workers=spec.workers,
                        scheduler=spec.scheduler, progress=not spec.quiet)
    if not spec.quiet:
        sys.stderr.write(f"sims run: {job.n:,} {job.kind} in {out}\n")
    return result.summary


def render(summary: dict) -> str:
    return (simulate if summary["kind"] == "deals" else play).render(summary)
