"""``sims verify``: check every file of a run directory against its manifest (see :func:`sims.core.store.verify`).

Run it before reading a run's Parquet files with pandas, pyarrow or DuckDB directly:
those readers check neither the manifest nor (by default) the pages' checksums.
"""

from __future__ import annotations

HELP = "check every file of a run directory against its manifest and checksums (exit 0 ok, 2 with the first bad file)"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims verify data/runs/demo            # every file against the manifest, before pandas or DuckDB read it",
]


def add_arguments(parser):
    parser.add_argument("run", metavar="RUN", help="a run directory written by sims run")


def run(args) -> dict:
    from ..core.store import verify

    return verify(args.run)


def render(result: dict) -> str:
    return f"{result['run']}: ok, {result['batches']} batches and {result['files']} files match the manifest"
