"""Run specs: the settings of ``sims run`` as a TOML file (or as flags), checked key by key.

A spec file::

    deals = 10_000_000             # or: games = 100_000
    rules = "six-card"             # a preset, or a table: [rules] preset = "six-card", target = 61
    discard = "greedy"             # a policy name, "greedy,random" or a list (one per seat),
    peg = ["greedy", "random"]     #   or {name = "...", params = [...]} for a parametric policy
    seed = 1
    out = "data/runs/greedy-1e7"   # default: data/runs/<kind>-<rules>-<discard>-<peg>-n<N>-seed<S>
    records = false                # per-deal rows in the shards (games always keep one row per game)
    batch_chunks = 32              # chunks per batch (a shard); default about a second of work
    threads = 2                    # numba threads (per worker on Dask)
    workers = 2                    # start a local Dask cluster of 2 worker processes, or
    scheduler = "tcp://host:8786"  #   use a running Dask scheduler

Every key must be one of :data:`KEYS`; anything else is a one-line error naming it.
"""
from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .cribbage.engine import Job
from .cribbage.policies import resolve
from .cribbage.rules import PRESETS, Rules, get_rules

KEYS = ("kind", "deals", "games", "rules", "discard", "peg", "seed", "records", "score_log", "out",
        "batch_chunks", "threads", "workers", "scheduler", "quiet")
RUNS_DIR = Path("data") / "runs"
_RULE_FIELDS = {f.name: f.type for f in dataclasses.fields(Rules)}


def read_spec(path) -> dict:
    """The settings of a TOML spec file, every key known."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            settings = tomllib.load(f)
    except FileNotFoundError:
        raise ValueError(f"spec file {path} not found") from None
    except IsADirectoryError:
        raise ValueError(f"spec file {path} is a directory") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"spec file {path} is not valid TOML: {' '.join(str(exc).split())}") from None
    unknown = [key for key in settings if key not in KEYS]
    if unknown:
        raise ValueError(f"spec file {path}: unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
    return settings


@dataclass(frozen=True)
class RunSpec:
    """Checked settings of one run."""

    kind: str
    n: int
    rules: Rules
    discard: tuple
    peg: tuple
    seed: int = 0
    records: bool = False
    score_log: bool = False
    out: Path | None = None
    batch_chunks: int | None = None
    threads: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    quiet: bool = False

    @classmethod
    def from_settings(cls, settings: dict) -> RunSpec:
        """Check types and combinations of spec settings (flags already merged in)."""
        s = {k: v for k, v in settings.items() if v is not None}
        unknown = [key for key in s if key not in KEYS]
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        sizes = [k for k in ("deals", "games") if k in s]
        if len(sizes) != 1:
            raise ValueError("give the number of deals or of games (deals = N or games = N), not both" if sizes
                             else "give the number of deals or of games (deals = N or games = N)")
        kind = s.get("kind", sizes[0])
        if kind not in ("deals", "games"):
            raise ValueError(f"kind must be 'deals' or 'games', got {kind!r}")
        if kind != sizes[0]:
            raise ValueError(f"kind {kind!r} does not match {sizes[0]} = {s[sizes[0]]}")
        for key in ("deals", "games", "seed", "batch_chunks", "threads", "workers"):
            if key in s and (isinstance(s[key], bool) or not isinstance(s[key], int)):
                raise ValueError(f"{key} must be an integer, got {s[key]!r}")
        for key in ("records", "score_log", "quiet"):
            if key in s and not isinstance(s[key], bool):
                raise ValueError(f"{key} must be true or false, got {s[key]!r}")
        for key in ("out", "scheduler"):
            if key in s and not isinstance(s[key], (str, Path)):
                raise ValueError(f"{key} must be a string, got {s[key]!r}")
        if "workers" in s and "scheduler" in s:
            raise ValueError("give workers or scheduler, not both")
        out = Path(s["out"]).expanduser() if "out" in s else None
        return cls(kind, s[kind], parse_rules(s.get("rules", "six-card")),
                   _policies("discard", s.get("discard", "random")), _policies("peg", s.get("peg", "random")),
                   s.get("seed", 0), s.get("records", False), s.get("score_log", False), out, s.get("batch_chunks"),
                   s.get("threads"), s.get("workers"), s.get("scheduler"), s.get("quiet", False))

    def job(self) -> Job:
        return Job.make(self.kind, self.rules, {"discard": list(self.discard), "peg": list(self.peg)}, self.n,
                        self.seed, records=self.records, score_log=self.score_log)

    def out_dir(self) -> Path:
        """``out``, or data/runs/<kind>-<rules>-<discard>-<peg>-n<N>-seed<S>[-records][-log]."""
        if self.out is not None:
            return self.out
        rules = self.rules.name if PRESETS.get(self.rules.name) == self.rules else f"{self.rules.name}-custom"
        name = "-".join([self.kind, rules, _names(self.discard), _names(self.peg), f"n{self.n}", f"seed{self.seed}"])
        return RUNS_DIR / (name + ("-records" if self.records else "") + ("-log" if self.score_log else ""))


def _names(policies) -> str:
    return "+".join(dict.fromkeys(p.name for p in policies))


def parse_rules(value) -> Rules:
    """A preset name, a Rules, or a table ``{preset = NAME, FIELD = VALUE ...}``."""
    if isinstance(value, (str, Rules)):
        return get_rules(value)
    if not isinstance(value, dict):
        raise ValueError(f"rules must be a preset name or a table, got {value!r}")
    changes = dict(value)
    base = get_rules(changes.pop("preset", "six-card"))
    for key, new in changes.items():
        kind = _RULE_FIELDS.get(key)
        if kind is None or key == "name":
            raise ValueError(f"unknown rules key {key!r} (known: preset, "
                             f"{', '.join(f for f in _RULE_FIELDS if f != 'name')})")
        if (kind == "bool") != isinstance(new, bool) or (kind == "int" and not isinstance(new, int)):
            raise ValueError(f"rules.{key} must be {'true or false' if kind == 'bool' else 'an integer'}, got {new!r}")
    return base.replace(**changes)


def _policies(kind: str, value) -> tuple:
    """Per-seat policies from a name, ``"a,b"``, a {name, params} table or a list of these."""
    items = value if isinstance(value, list) else [value]
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",")]
    if not items:
        raise ValueError(f"{kind}: empty list of policies")
    found = []
    for item in items:
        if isinstance(item, str) and item:
            found.append(resolve(kind, item))
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            extra = set(item) - {"name", "params"}
            if extra:
                raise ValueError(f"{kind} policy {item['name']!r}: unknown key {min(extra)!r} "
                                 f"(known: name, params)")
            params = item.get("params", [])
            if not isinstance(params, list) or any(isinstance(p, bool) or not isinstance(p, (int, float))
                                                   for p in params):
                raise ValueError(f"{kind} policy {item['name']!r}: params must be a list of numbers")
            found.append(resolve(kind, item["name"], params))
        else:
            raise ValueError(f"{kind} policy must be a name or {{name = ..., params = [...]}}, got {item!r}")
    return tuple(found)
