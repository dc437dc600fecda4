"""Specs: the settings of a run (a TOML file or flags, :class:`RunSpec`) and a job as JSON and back.

A spec file::

    game = "NAME"                  # a registered game; default: sims.core.registry.default_name()
    deals = 10_000_000             # or: games = 100_000
    rules = "six-card"             # a preset, or a table: [rules] preset = "six-card", target = 61
    discard = "greedy"             # one key per decision of the game (here discard, peg): a policy name,
    peg = ["greedy", "random"]     #   "greedy,random", a list (one per seat) or {name = "...", params = [...]}
    seed = 1
    out = "data/runs/greedy-1e7"   # default: data/runs/<game>-<kind>-<rules>-<policies>-n<N>-seed<S>
    records = false                # per-deal (or per-game) rows in the store
    batch_chunks = 32              # chunks per batch; default about a second of work
    threads = 2                    # numba threads (per worker on Dask)
    workers = 2                    # start a local Dask cluster of 2 worker processes, or
    scheduler = "tls://host:8786"  #   use a running Dask scheduler, over TLS with (else Dask's config
    tls_ca_file = "ca.pem"         #   distributed.comm.tls) the CA, this client's certificate and key
    tls_cert = "client.pem"
    tls_key = "client.key"

and the game's switches (:attr:`Game.options`).  Any other key is a one-line error naming it.  A policy
is a built-in's or an installed plug-in's name; a function named by path (``py:module.function``)
imports and runs its module, so ``sims run`` refuses it in a spec file without ``--allow-import``
(:func:`refuse_paths`).

A job as JSON (:func:`job_spec`, :func:`job_from_spec`) is what a run's manifest records and what a
Dask worker rebuilds.  Policies are recorded by name with labelled parameters
(:meth:`Policy.describe`), where their code lives (``module:qualname``), and whether they
are built-ins.  A parameter table that is not one of the policy's named tables is kept
out of the spec proper: :func:`job_spec` returns it under ``"tables"`` (SHA-256 ->
values), which the run store writes to ``params/<sha256>.json`` and :func:`job_from_spec`
reads back, checking the hash.
"""

from __future__ import annotations

import dataclasses
import json
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import plugins
from . import policies as pol
from .jobs import Job, check_count
from .protocol import Game
from .registry import get_game

TLS_KEYS = ("tls_ca_file", "tls_cert", "tls_key")
KEYS = (
    "game",
    "kind",
    "deals",
    "games",
    "rules",
    "seed",
    "records",
    "out",
    "batch_chunks",
    "threads",
    "workers",
    "scheduler",
    *TLS_KEYS,
    "quiet",
)
RUNS_DIR = Path("data") / "runs"
MAX_SPEC_BYTES = 1 << 20


def keys(game: Game) -> tuple[str, ...]:
    return KEYS + tuple(d.name for d in game.decisions) + tuple(game.options)


def read_spec(path) -> dict:
    """The settings of a TOML spec file (keys checked once the game is known)."""
    path = Path(path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a named pipe or a device would never end
            raise ValueError(f"spec file {path} is not a regular file")
        if path.stat().st_size > MAX_SPEC_BYTES:
            raise ValueError(f"spec file {path} is larger than {MAX_SPEC_BYTES // 1024} KiB; a run spec is a few lines")
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ValueError(f"spec file {path} not found") from None
    except RecursionError:
        raise ValueError(f"spec file {path} nests its tables or lists too deeply") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"spec file {path} is not valid TOML: {' '.join(str(exc).split())}") from None


def refuse_paths(settings: dict, game: Game, where) -> None:
    """A spec file names installed policies only (built-ins and plug-ins' entry points): a function named by
    path (``py:module.function``) would import and run its module, so it is a one-line error here (``sims run
    --allow-import`` skips this check)."""
    for d in game.decisions:
        value = settings.get(d.name)
        for item in value if isinstance(value, list) else [value]:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and any(plugins.is_path(part.strip()) for part in name.split(",")):
                raise ValueError(
                    f"{where}: {d.name} = {name!r} names a function by path, which imports and runs "
                    f"its module; a spec file may name only installed policies (built-ins, plug-ins' "
                    f"entry points) unless you pass --allow-import"
                )


def parse_value(rules_type, name: str, text: str):
    """A rules field's value from text (``--rule FIELD=VALUE``), by the field's type."""
    fields = {f.name: f for f in dataclasses.fields(rules_type) if f.name != "name"}
    if name not in fields:
        raise ValueError(f"unknown rules field {name!r}; fields: {', '.join(fields)}")
    kind = fields[name].type
    if kind in (bool, "bool"):
        lowered = text.lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"rules field {name!r} takes true or false, got {text!r}")
        return lowered in ("true", "1", "yes")
    if kind in (int, "int"):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"rules field {name!r} takes an integer, got {text!r}") from None
    return text


def parse_rules(game: Game, value):
    """A preset name, the game's Rules, or a table ``{preset = NAME, FIELD = VALUE ...}``."""
    rules_type = game.rules_module.Rules
    if value is None or isinstance(value, (str, rules_type)):
        return game.get_rules(value)
    if not isinstance(value, dict):
        raise ValueError(f"rules must be a preset name or a table, got {value!r}")
    changes = dict(value)
    base = game.get_rules(changes.pop("preset", None))
    fields = {f.name: f.type for f in dataclasses.fields(rules_type) if f.name != "name"}
    for key, new in changes.items():
        kind = fields.get(key)
        if kind is None:
            raise ValueError(f"unknown rules key {key!r} (known: preset, {', '.join(fields)})")
        if (kind in (bool, "bool")) != isinstance(new, bool) or (kind in (int, "int") and not isinstance(new, int)):
            raise ValueError(
                f"rules.{key} must be {'true or false' if kind in (bool, 'bool') else 'an integer'}, got {new!r}"
            )
    return base.replace(**changes)


def apply_rule_changes(game: Game, rules, changes) -> object:
    """``rules`` with ``FIELD=VALUE`` texts applied (``--rule``)."""
    values = {}
    for item in changes:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise ValueError(f"--rule {item!r}: expected FIELD=VALUE")
        values[key] = parse_value(game.rules_module.Rules, key, value.strip())
    return rules.replace(**values) if values else rules


@dataclass(frozen=True)
class RunSpec:
    """Checked settings of one run."""

    game: Game
    kind: str
    n: int
    rules: Any  # the game's Rules
    policies: dict
    seed: int = 0
    records: bool = False
    options: tuple = ()
    out: Path | None = None
    batch_chunks: int | None = None
    threads: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    quiet: bool = False
    tls: tuple = (None, None, None)  # the TLS_KEYS' files

    @classmethod
    def from_settings(cls, settings: dict) -> RunSpec:
        """Check types and combinations of spec settings (flags already merged in)."""
        s = {k: v for k, v in settings.items() if v is not None}
        if "game" in s and not isinstance(s["game"], str):
            raise ValueError(f"game must be a name, got {s['game']!r}")
        game = get_game(s.get("game"))
        unknown = [key for key in s if key not in keys(game)]
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r} for {game.name} (known: {', '.join(keys(game))})")
        sizes = [k for k in ("deals", "games") if k in s]
        if len(sizes) != 1:
            raise ValueError(
                "give the number of deals or of games (deals = N or games = N), not both"
                if sizes
                else "give the number of deals or of games (deals = N or games = N)"
            )
        kind = s.get("kind", sizes[0])
        if kind not in ("deals", "games"):
            raise ValueError(f"kind must be 'deals' or 'games', got {kind!r}")
        if kind != sizes[0]:
            raise ValueError(f"kind {kind!r} does not match {sizes[0]} = {s[sizes[0]]}")
        for key in ("deals", "games", "seed", "batch_chunks", "threads", "workers"):
            if key in s and (isinstance(s[key], bool) or not isinstance(s[key], int)):
                raise ValueError(f"{key} must be an integer, got {s[key]!r}")
        for key in ("batch_chunks", "threads", "workers"):
            if key in s:
                check_count(s[key], key, 1 << 20)
        for key in ("records", "quiet", *game.options):
            if key in s and not isinstance(s[key], bool):
                raise ValueError(f"{key} must be true or false, got {s[key]!r}")
        for key in ("out", "scheduler", *TLS_KEYS):
            if key in s and not isinstance(s[key], (str, Path)):
                raise ValueError(f"{key} must be a string, got {s[key]!r}")
        if "workers" in s and "scheduler" in s:
            raise ValueError("give workers or scheduler, not both")
        tls = [k for k in TLS_KEYS if k in s]
        if tls and not str(s.get("scheduler", "")).startswith("tls://"):
            raise ValueError(f"{tls[0]} goes with a tls:// scheduler address")
        out = Path(s["out"]).expanduser() if "out" in s else None
        policies = {d.name: s[d.name] for d in game.decisions if d.name in s}
        options = tuple(sorted((k, True) for k in game.options if s.get(k)))
        return cls(
            game,
            kind,
            check_count(s[kind], f"the number of {kind}"),
            parse_rules(game, s.get("rules")),
            policies,
            s.get("seed", 0),
            s.get("records", False),
            options,
            out,
            s.get("batch_chunks"),
            s.get("threads"),
            s.get("workers"),
            s.get("scheduler"),
            s.get("quiet", False),
            tuple(s.get(k) for k in TLS_KEYS),
        )

    def job(self) -> Job:
        return Job.make(
            self.game,
            self.kind,
            self.rules,
            self.policies,
            self.n,
            self.seed,
            records=self.records,
            **dict(self.options),
        )

    def out_dir(self, job: Job) -> Path:
        """``out``, or data/runs/<game>-<kind>-<rules>-<policies>-n<N>-seed<S>[-records][-<option>]."""
        if self.out is not None:
            return self.out
        presets = self.game.presets
        rules = self.rules.name if presets.get(self.rules.name) == self.rules else f"{self.rules.name}-custom"
        names = ["+".join(dict.fromkeys(p.name for p in seats)) for seats in job.policies.values()]
        name = "-".join([self.game.name, self.kind, rules, *names, f"n{self.n}", f"seed{self.seed}"])
        extras = (["records"] if self.records else []) + [k.replace("_", "-") for k, _ in self.options]
        return RUNS_DIR / "-".join([name, *extras])


# ---------------------------------------------------------------- a job as JSON


def job_spec(job: Job) -> dict:
    """Everything that determines a job's numbers, as JSON (custom parameter tables under ``"tables"``)."""
    tables = {}

    def policy(p: pol.Policy) -> dict:
        plugin = isinstance(p.spec, pol.PluginPolicy)
        entry = {
            "name": p.name,
            "params": p.labelled_params(),
            "function": pol.function_path(p.fn),
            "builtin": p.builtin,
            **({"plugin": True} if plugin else {}),
            **({"source": p.origin} if p.origin is not None else {}),
        }
        if isinstance(entry["params"], dict) and entry["params"].get("table") == "custom":
            tables[entry["params"]["sha256"]] = list(p.params)
        return entry

    spec = {
        "game": job.game.name,
        "kind": job.kind,
        "rules": job.rules.to_dict(),
        "policies": {d: [policy(p) for p in seats] for d, seats in job.policies.items()},
        "seed": job.seed,
        "n": job.n,
        "chunk_size": job.chunk_size,
        "records": job.records,
        "options": dict(job.options),
        "engine": job.engine,
    }
    return {**spec, "tables": tables} if tables else spec


def _table_values(entry: dict, spec: dict, run_dir) -> list:
    digest = entry["params"]["sha256"]
    if not isinstance(digest, str) or not re.fullmatch("[0-9a-f]{64}", digest):  # it names a file of the run
        raise ValueError(f"policy {entry['name']!r}: its parameter table is named {digest!r}, not by a SHA-256")
    values = spec.get("tables", {}).get(digest)
    if values is None and run_dir is not None:
        path = Path(run_dir) / "params" / f"{digest}.json"
        try:
            values = json.loads(path.read_text())["values"]
        except (OSError, ValueError, KeyError, TypeError):
            raise ValueError(f"policy {entry['name']!r}: its parameter table {path} is missing or corrupt") from None
    if values is None or pol.sha256(values) != digest:
        raise ValueError(
            f"policy {entry['name']!r}: parameter table {digest[:12]}... is missing or does not match its SHA-256"
        )
    return values


def _policy(game, decision: str, entry: dict, spec: dict, run_dir, import_functions: bool) -> pol.Policy:
    name, params = entry["name"], entry["params"]
    if entry.get("builtin") or entry.get("plugin"):
        declared = plugins.find(game.name, decision, name) if entry.get("plugin") else None
        table = (
            declared.spec
            if declared is not None
            else game.policies[decision].get(name)
            if entry.get("builtin")
            else None
        )
        if table is None and entry.get("plugin") and not import_functions and isinstance(params, dict):
            # a plug-in no longer installed: its stored results still read, its parameters as recorded
            return pol.Policy(name, decision, None, tuple(params.values()), origin=entry.get("source"))
        if table is None:
            raise ValueError(
                f"unknown {decision} policy {name!r} in the spec"
                + (" (a plug-in's: is its distribution installed?)" if entry.get("plugin") else "")
            )
        if isinstance(table.params, pol.TableParams):
            params = (
                _table_values(entry, spec, run_dir)
                if params["table"] == "custom"
                else table.params.named()[params["table"]]
            )
            if pol.sha256(params) != entry["params"]["sha256"]:
                raise ValueError(
                    f"{decision} policy {name!r}: the table {entry['params']['table']!r} has changed "
                    f"since this run was made (SHA-256 differs)"
                )
        else:
            params = [params[k] for k in table.params]
        if declared is None:
            return pol.builtin(game.policies, decision, name, params)
        if import_functions:
            policy = pol.plugin(declared, pol.load(game.decision(decision).signature), params=params)
        else:
            policy = pol.Policy(name, decision, None, pol.spec_params(decision, name, table, params), table)
        return dataclasses.replace(policy, origin=entry.get("source", policy.origin))
    fn = pol.import_function(decision, name, entry.get("function")) if import_functions else None
    if isinstance(params, dict):  # a function that declares its parameters, which are stored by name
        return _declared_function(decision, name, fn, params, entry.get("source"))
    return pol.Policy(name, decision, fn, pol.check_params(decision, name, params), origin=entry.get("source"))


def _declared_function(decision: str, name: str, fn, params: dict, source) -> pol.Policy:
    """A user's function stored with its declared parameters by name: with its function (``fn``), which must
    still declare exactly those names; without (reading stored results), the values as stored."""
    if fn is None:
        return pol.Policy(name, decision, None, pol.check_params(decision, name, list(params.values())), origin=source)
    declared = pol.declaration(fn)
    names = [] if declared is None or isinstance(declared.params, pol.TableParams) else list(declared.params)
    if declared is None or names != list(params):
        raise ValueError(
            f"{decision} policy {name!r} was stored with the parameters {', '.join(params)}; its function now "
            f"declares {', '.join(names) or 'none'}"
        )
    values = pol.spec_params(decision, name, declared, [params[k] for k in names])
    return pol.Policy(name, decision, fn, values, declared, origin=source)


def job_from_spec(spec: dict, run_dir=None, import_functions: bool = True) -> Job:
    """Rebuild a Job from :func:`job_spec`; without ``import_functions`` user policies carry no code
    (enough to summarize stored results)."""
    game = get_game(spec["game"])
    rules = game.rules_module.Rules.from_dict(spec["rules"])
    policies = {
        d.name: tuple(_policy(game, d.name, e, spec, run_dir, import_functions) for e in spec["policies"][d.name])
        for d in game.decisions
    }
    return Job(
        game,
        spec["kind"],
        rules,
        policies,
        spec["seed"],
        spec["n"],
        spec["chunk_size"],
        spec["records"],
        tuple(sorted(spec.get("options", {}).items())),
        spec.get("engine"),
    )
