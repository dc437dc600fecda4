"""Jobs: what to simulate (which game, deals or games, rules, a policy per seat per decision, seed, size).

A job's items are cut into chunks of ``chunk_size``; item ``i`` of chunk ``c`` is a
pure function of (seed, c, i) (:mod:`sims.core.rng`), so its numbers are the same
on any number of threads or workers, and a :class:`Plan` cuts the chunks into
batches (the unit of progress, of a stored shard, of resume and of a Dask task)
without ever listing them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from .. import __version__
from . import plugins
from . import policies as pol
from .first_run import announce
from .protocol import Game
from .registry import get_game
from .rng import check_seed

MAX_ITEMS = 2**53  # item indices stay exact in float64 summaries and int64 kernels
RNG = "xoshiro256** per (chunk, item, stream); SeedSequence(seed, (chunk,))"


def check_count(n, what: str, limit: int = MAX_ITEMS) -> int:
    """A positive integer no larger than ``limit``; else a one-line error."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) <= 0:
        raise ValueError(f"{what} must be a positive integer, got {n!r}")
    if int(n) > limit:
        raise ValueError(f"{what} must be at most {limit:,}, got {int(n):,}")
    return int(n)


def per_seat(spec, players: int, what: str) -> list:
    """One policy spec per seat: a single spec for every seat, or a list of one or ``players``."""
    if isinstance(spec, str) and "," in spec:
        spec = [s.strip() for s in spec.split(",")]
    if isinstance(spec, (list, tuple)):
        if any(isinstance(s, str) and not s for s in spec):
            raise ValueError(f"{what}: empty policy name in {spec!r}")
        if len(spec) == 1:
            return list(spec) * players
        if len(spec) != players:
            raise ValueError(f"{what}: got {len(spec)} policies for {players} seats (give one, or one per seat)")
        return list(spec)
    return [spec] * players


def parse_policy(text: str, decision: str, prefix: str = "") -> tuple[str, dict | None]:
    """``"maxims:knave=0:tens=0"`` -> ``("maxims", {"knave": 0.0, "tens": 0.0})``; ``"expected_net:table=hessel"``
    names a table; a bare name has no changes (None).  ``prefix``: what came before ``text`` (``py:``), for the
    messages."""
    name, *changes = [part.strip() for part in text.split(":")]
    form = f"{prefix}MODULE.FUNCTION" if prefix else "NAME"
    text = prefix + text
    if not changes:
        return name, None
    params: dict[str, float | str] = {}
    for change in changes:
        key, eq, value = (part.strip() for part in change.partition("="))
        if not eq or not key or not value:
            raise ValueError(
                f"{decision} policy {text!r}: write {form}:PARAM=VALUE[:PARAM=VALUE...] (a parameter by name)"
            )
        if key in params:
            raise ValueError(f"{decision} policy {text!r}: parameter {key!r} is given twice")
        try:
            params[key] = float(value)
        except ValueError:
            params[key] = value
    return name, params


def resolve_one(game: Game, decision: str, spec, params=None) -> pol.Policy:
    """A Policy from a name (a built-in's, else an installed plug-in's; ``"name:param=value"`` changes
    parameters by name), ``"py:module.function"`` (:mod:`sims.core.plugins`; ``:param=value`` for the
    parameters a function declares), a ``{"name": ...,
    "params": [...] or {name: value}}`` table, a Policy or an njit function; ``params`` (checked)
    replace the policy's own."""
    the = game.decision(decision)
    signature = pol.load(the.signature)
    if isinstance(spec, dict):
        extra = set(spec) - {"name", "params"}
        if not isinstance(spec.get("name"), str) or extra:
            raise ValueError(f"{decision} policy table must have a name and optional params, got {spec!r}")
        if spec.get("params") is not None and not isinstance(spec["params"], (list, tuple, dict)):
            raise ValueError(
                f"{decision} policy {spec['name']!r}: params must be a list of numbers or a table of them by name"
            )
        spec, params = spec["name"], spec.get("params") if params is None else params
    if plugins.is_path(spec):
        path, changes = parse_policy(spec[len(plugins.PATH) :], decision, plugins.PATH)
        spec = plugins.import_path(decision, plugins.PATH + path)
        params = changes if params is None else params
    elif isinstance(spec, str):
        name, changes = parse_policy(spec, decision)
        declared = None if name in game.policies[decision] else plugins.find(game.name, decision, name)
        if declared is not None:
            return pol.plugin(declared, signature, the.arguments, changes if params is None else params)
        return pol.builtin(game.policies, decision, name, changes if params is None else params)
    if isinstance(spec, pol.Policy):
        if spec.decision != decision:
            raise ValueError(f"policy {spec.name!r} is a {spec.decision} policy, not a {decision} policy")
        if params is None:
            return spec
        if spec.spec is not None and isinstance(params, dict):
            return dataclasses.replace(spec, params=pol.named_params(decision, spec.name, spec.spec, params))
        if spec.spec is not None:
            return dataclasses.replace(spec, params=pol.check_params(decision, spec.name, params, spec.spec))
        spec = spec.fn
    return pol.user(decision, spec, signature, params, the.arguments)


def resolve_policies(game: Game, policies, players: int) -> dict[str, tuple[pol.Policy, ...]]:
    """``{decision: spec}`` -> ``{decision: (Policy per seat)}``; a decision not given gets its default."""
    policies = dict(policies or {})
    names = [d.name for d in game.decisions]
    unknown = sorted(set(policies) - set(names))
    if unknown:
        raise ValueError(f"unknown {game.name} decision {unknown[0]!r}; its decisions are {', '.join(names)}")
    resolved = {
        d.name: tuple(resolve_one(game, d.name, s) for s in per_seat(policies.get(d.name, d.default), players, d.name))
        for d in game.decisions
    }
    for decision, seats in resolved.items():
        for policy in seats:
            if policy.spec is not None and policy.spec.players and players not in policy.spec.players:
                counts = " or ".join(str(n) for n in policy.spec.players)
                raise ValueError(
                    f"{decision} policy {policy.name!r} plays games of {counts} players only; "
                    f"these rules have {players}"
                )
    return resolved


@dataclass(frozen=True)
class Job:
    """What to simulate.  ``options`` holds a game's extra switches (``Game.options``), and with an
    ``engine`` module that module's own (its ``OPTIONS``, ``{name: help}`` like ``Game.options``)."""

    game: Game
    kind: str
    rules: Any  # the game's Rules
    policies: dict = field(compare=False)
    seed: int
    n: int
    chunk_size: int
    records: bool = False
    options: tuple = ()
    engine: str | None = None  # another kernel module of the game for this job (default ``game.engine``)

    @classmethod
    def make(cls, game, kind, rules, policies, n, seed, records=False, chunk_size=None, engine=None, **options) -> Job:
        game = get_game(game)
        if kind not in game.kinds:
            raise ValueError(f"unknown job kind {kind!r}; use {' or '.join(repr(k) for k in game.kinds)}")
        known = {**game.options, **(getattr(pol.load(engine), "OPTIONS", {}) if engine else {})}
        unknown = sorted(set(options) - set(known))
        if unknown:
            where = f"{game.name} ({engine})" if engine else game.name
            raise ValueError(f"unknown {where} option {unknown[0]!r}; options: {', '.join(known) or 'none'}")
        rules = game.get_rules(rules)
        chunk = check_count(chunk_size or game.chunk_size[kind], "chunk_size", 1 << 20)
        job = cls(
            game,
            kind,
            rules,
            resolve_policies(game, policies, rules.players),
            check_seed(seed),
            check_count(n, f"the number of {kind}"),
            chunk,
            bool(records),
            tuple(sorted((k, v) for k, v in options.items() if v is not None and v is not False)),
            engine,
        )
        announce(game)  # once the job is known good: nothing said in vain
        return job

    def option(self, name: str, default=False):
        return dict(self.options).get(name, default)

    @property
    def item_name(self) -> str:
        return self.kind[:-1]

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def chunk_items(self, first_chunk: int, n_chunks: int) -> int:
        """Items in chunks first_chunk .. first_chunk + n_chunks - 1."""
        return min(self.n, (first_chunk + n_chunks) * self.chunk_size) - first_chunk * self.chunk_size

    def describe(self) -> dict:
        """Provenance: everything that determines the numbers, policy parameters labelled."""
        return {
            "game": self.game.name,
            "kind": self.kind,
            "rules": self.rules.to_dict(),
            "policies": {d: [p.describe() for p in seats] for d, seats in self.policies.items()},
            "seed": self.seed,
            "n": self.n,
            "chunk_size": self.chunk_size,
            "records": self.records,
            **dict(self.options),
            **({"engine": self.engine} if self.engine else {}),
            "rng": RNG,
            "version": __version__,
            "numba": numba.__version__,
            "numpy": np.__version__,
        }

    def with_size(self, n: int) -> Job:
        return dataclasses.replace(self, n=n)

    def kernel_policies(self, max_seats: int | None = None):
        """What a kernel takes: per decision a tuple of ``max_seats`` functions (seats beyond the table
        repeat seat 0's), and one float64 vector of every seat's parameters with its offsets: segment
        ``s * D + d`` holds seat ``s``'s parameters for decision ``d`` (D decisions).  Made once per Job (its
        policies are fixed; kernels copy the vector, never write it): a table policy's vector is some 400,000
        values, 12 ms to convert, every batch before."""
        made = self.__dict__.setdefault("_made_kernel_policies", {})
        seats = max_seats or self.game.max_seats
        if seats not in made:
            made[seats] = self._make_kernel_policies(seats)
        return made[seats]

    def _make_kernel_policies(self, max_seats: int):
        seats = range(max_seats)
        players = self.rules.players
        fns = tuple(
            tuple(self.policies[d.name][s if s < players else 0].fn for s in seats) for d in self.game.decisions
        )
        segments = [
            self.policies[d.name][s].params_array() if s < players else np.zeros(0)
            for s in seats
            for d in self.game.decisions
        ]
        offsets = np.cumsum([0] + [len(p) for p in segments]).astype(np.int64)
        return fns, np.concatenate(segments).astype(np.float64), offsets


@dataclass(frozen=True)
class Plan:
    """A job cut into batches of ``batch_chunks`` consecutive chunks (the last may be shorter)."""

    job: Job
    batch_chunks: int

    @property
    def n_batches(self) -> int:
        return -(-self.job.n_chunks // self.batch_chunks)

    def chunks(self, index: int) -> tuple[int, int]:
        """(first_chunk, n_chunks) of batch ``index``."""
        first = index * self.batch_chunks
        return first, min(self.batch_chunks, self.job.n_chunks - first)

    def items(self, index: int) -> int:
        return self.job.chunk_items(*self.chunks(index))

    def first_item(self, index: int) -> int:
        return index * self.batch_chunks * self.job.chunk_size
