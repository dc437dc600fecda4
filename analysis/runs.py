"""Load a saved run directory for a notebook, refusing a missing or mismatched one in plain words."""

from __future__ import annotations

from pathlib import Path


def load_run(path, kind: str | None = None, rules=None):
    """``sims.load_run(path)``, checked against what the caller expects.

    ``kind``: "deals" or "games" as the run's summary records it; ``rules``: a
    preset name or a ``Rules`` of the run's game (compared field by field).
    Raises ValueError naming the directory and the mismatch.
    """
    import sims

    path = Path(path)
    if not path.is_dir():
        raise ValueError(f"run directory {path} does not exist; run the simulation first (see the README)")
    run = sims.load_run(path)
    summary = run.summary
    if kind is not None and summary.get("kind") != kind:
        raise ValueError(f"run {path} is a {summary.get('kind')!r} run; this needs a {kind!r} run")
    if rules is not None:
        want, got = run.job.game.get_rules(rules), summary.get("rules")
        got_name = got.get("name") if isinstance(got, dict) else got
        if got_name != want.name:
            raise ValueError(f"run {path} used rules {got_name!r}; this needs {want.name!r}")
        if isinstance(got, dict) and got != want.to_dict():
            raise ValueError(f"run {path} used other settings of the rules {want.name!r} than this needs")
    return run
