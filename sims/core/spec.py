"""Run specs: the settings of ``sims run`` as a TOML file (or as flags), checked key by key, for any game.

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
    scheduler = "tls://host:8786"  #   use a running Dask scheduler

and the game's switches (:attr:`Game.options`).  Any other key is a one-line error naming it.
"""
from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .jobs import Job, check_count
from .protocol import Game
from .registry import get_game

KEYS = ("game", "kind", "deals", "games", "rules", "seed", "records", "out", "batch_chunks", "threads", "workers",
        "scheduler", "quiet")
RUNS_DIR = Path("data") / "runs"


def keys(game: Game) -> tuple[str, ...]:
    return KEYS + tuple(d.name for d in game.decisions) + tuple(game.options)


def read_spec(path) -> dict:
    """The settings of a TOML spec file (keys checked once the game is known)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ValueError(f"spec file {path} not found") from None
    except IsADirectoryError:
        raise ValueError(f"spec file {path} is a directory") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"spec file {path} is not valid TOML: {' '.join(str(exc).split())}") from None


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
            raise ValueError(f"rules.{key} must be {'true or false' if kind in (bool, 'bool') else 'an integer'}, "
                             f"got {new!r}")
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
    rules: object
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
        for key in ("batch_chunks", "threads", "workers"):
            if key in s:
                check_count(s[key], key, 1 << 20)
        for key in ("records", "quiet", *game.options):
            if key in s and not isinstance(s[key], bool):
                raise ValueError(f"{key} must be true or false, got {s[key]!r}")
        for key in ("out", "scheduler"):
            if key in s and not isinstance(s[key], (str, Path)):
                raise ValueError(f"{key} must be a string, got {s[key]!r}")
        if "workers" in s and "scheduler" in s:
            raise ValueError("give workers or scheduler, not both")
        out = Path(s["out"]).expanduser() if "out" in s else None
        policies = {d.name: s[d.name] for d in game.decisions if d.name in s}
        options = tuple(sorted((k, True) for k in game.options if s.get(k)))
        return cls(game, kind, check_count(s[kind], f"the number of {kind}"), parse_rules(game, s.get("rules")),
                   policies, s.get("seed", 0), s.get("records", False), options, out, s.get("batch_chunks"),
                   s.get("threads"), s.get("workers"), s.get("scheduler"), s.get("quiet", False))

    def job(self) -> Job:
        return Job.make(self.game, self.kind, self.rules, self.policies, self.n, self.seed, records=self.records,
                        **dict(self.options))

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
