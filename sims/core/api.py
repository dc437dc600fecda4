"""The Python entry point every game's ``simulate_deals`` / ``play_games`` wraps."""
from __future__ import annotations

from .collector import young_collections_every
from .jobs import Job


def simulate(game, kind: str, rules, policies=None, n: int = 10_000, seed: int = 0, records: bool = False,
             threads: int | None = None, progress: bool = False, **options):
    """Play ``n`` deals or games of ``game`` in batches (a progress bar when ``progress``) and return the
    game's result; ``policies`` maps each decision to a name, an njit function or a list, one per seat.  The
    garbage collector runs less often while the kernels load and play (``sims.core.collector``)."""
    from .runner import run

    with young_collections_every():
        job = Job.make(game, kind, rules, policies, n, seed, records=records, **options)
        return run(job, threads=threads, progress=progress)
