"""A job as JSON and back: what a manifest records and what a Dask worker rebuilds.

Policies are recorded by name with labelled parameters (:meth:`Policy.describe`),
where their code lives (``module:qualname``), and whether they are built-ins.  A
parameter table that is not one of the policy's named tables is kept out of the
spec proper: :func:`job_spec` returns it under ``"tables"`` (SHA-256 -> values), which
the run store writes to ``params/<sha256>.json`` and :func:`job_from_spec` reads back,
checking the hash.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import policies as pol
from .jobs import Job
from .registry import get_game


def job_spec(job: Job) -> dict:
    """Everything that determines a job's numbers, as JSON (custom parameter tables under ``"tables"``)."""
    tables = {}

    def policy(p: pol.Policy) -> dict:
        entry = {"name": p.name, "params": p.labelled_params(), "function": pol.function_path(p.fn),
                 "builtin": p.spec is not None}
        if isinstance(entry["params"], dict) and entry["params"].get("table") == "custom":
            tables[entry["params"]["sha256"]] = list(p.params)
        return entry

    spec = {"game": job.game.name, "kind": job.kind, "rules": job.rules.to_dict(),
            "policies": {d: [policy(p) for p in seats] for d, seats in job.policies.items()},
            "seed": job.seed, "n": job.n, "chunk_size": job.chunk_size, "records": job.records,
            "options": dict(job.options), "engine": job.engine}
    return {**spec, "tables": tables} if tables else spec


def _table_values(entry: dict, spec: dict, run_dir) -> list:
    digest = entry["params"]["sha256"]
    values = spec.get("tables", {}).get(digest)
    if values is None and run_dir is not None:
        path = Path(run_dir) / "params" / f"{digest}.json"
        try:
            values = json.loads(path.read_text())["values"]
        except (OSError, ValueError, KeyError, TypeError):
            raise ValueError(f"policy {entry['name']!r}: its parameter table {path} is missing or corrupt") from None
    if values is None or pol.sha256(values) != digest:
        raise ValueError(f"policy {entry['name']!r}: parameter table {digest[:12]}... is missing or does not match "
                         f"its SHA-256")
    return values


def _policy(game, decision: str, entry: dict, spec: dict, run_dir, import_functions: bool) -> pol.Policy:
    name, params = entry["name"], entry["params"]
    if entry.get("builtin"):
        table = game.policies[decision].get(name)
        if table is None:
            raise ValueError(f"unknown {decision} policy {name!r} in the spec")
        if isinstance(table.params, pol.TableParams):
            params = (_table_values(entry, spec, run_dir) if params["table"] == "custom"
                      else table.params.named()[params["table"]])
            if pol.sha256(params) != entry["params"]["sha256"]:
                raise ValueError(f"{decision} policy {name!r}: the table {entry['params']['table']!r} has changed "
                                 f"since this run was made (SHA-256 differs)")
        else:
            params = [params[k] for k in table.params]
        return pol.builtin(game.policies, decision, name, params)
    fn = pol.import_function(decision, name, entry.get("function")) if import_functions else None
    return pol.Policy(name, decision, fn, pol.check_params(decision, name, params, None))


def job_from_spec(spec: dict, run_dir=None, import_functions: bool = True) -> Job:
    """Rebuild a Job from :func:`job_spec`; without ``import_functions`` user policies carry no code
    (enough to summarize stored results)."""
    game = get_game(spec["game"])
    rules = game.rules_module.Rules.from_dict(spec["rules"])
    policies = {d.name: tuple(_policy(game, d.name, e, spec, run_dir, import_functions)
                              for e in spec["policies"][d.name]) for d in game.decisions}
    return Job(game, spec["kind"], rules, policies, spec["seed"], spec["n"], spec["chunk_size"], spec["records"],
               tuple(sorted(spec.get("options", {}).items())), spec.get("engine"))
