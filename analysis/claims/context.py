"""The simulations the claims share: run once per (game, kind, rules, policies, size), cached and logged.

Every section of every game asks its Context for results; the Context runs them through
:func:`sims.core.api.simulate` at the report's size (``deals`` / ``games``), with one master
seed, so comparisons of policies on the same rules play the same deals (common random
numbers), and records each run for the report's provenance table.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field


class ClaimUnavailable(Exception):
    """A claim cannot run yet: the game or a policy it needs is not in the package."""


def simulate(game, kind, rules, policies, n, seed, records=False, **options):
    """:func:`sims.core.api.simulate`, imported on first use (the engines compile only when a claim runs)."""
    from sims.core.api import simulate as core_simulate

    return core_simulate(game, kind, rules, policies, n, seed, records=records, **options)


def _spec_name(spec) -> str:
    """A policy spec in words: a name, ``name{params}`` for a table, ``expected_net(hessel)`` for a
    resolved policy with a named table, a user function's name."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        return f"{spec.get('name')}{spec['params']}" if spec.get("params") is not None else str(spec.get("name"))
    if hasattr(spec, "labelled_params"):  # a resolved sims.core.policies.Policy
        params = spec.labelled_params()
        if isinstance(params, dict) and "table" in params:
            return f"{spec.name}({params['table']})"
        return f"{spec.name}{params}" if params else spec.name
    return getattr(spec, "__name__", repr(spec))


def _spec_key(spec):
    """What makes two specs the same policy: the words of :func:`_spec_name`, and the exact parameters."""
    if isinstance(spec, (list, tuple)):
        return tuple(_spec_key(s) for s in spec)
    if hasattr(spec, "labelled_params"):
        return (spec.name, tuple(spec.params))
    if callable(spec):
        return spec
    return _spec_name(spec)


def policy_label(policies: dict) -> str:
    """The policies in a line, decisions in the order given; per-seat lists as ``a/b``.

    >>> policy_label({"discard": ["hoyle", "expected_net"], "peg": "defensive"})
    'hoyle/expected_net + defensive'
    """

    def one(spec):
        return "/".join(map(_spec_name, spec)) if isinstance(spec, (list, tuple)) else _spec_name(spec)

    return " + ".join(one(spec) for spec in policies.values())


def rules_label(game: str, rules) -> tuple[str, object]:
    """(label, the game's Rules) for a preset name (None: the game's default) or a Rules object; the label
    is the preset's name, with ``*`` when the rules differ from that preset."""
    from sims.core.registry import get_game

    g = get_game(game)
    resolved = g.get_rules(rules)
    return resolved.name + ("" if g.presets.get(resolved.name) == resolved else "*"), resolved


def missing(game: str, policies: dict) -> list[str]:
    """What the package lacks to run ``policies`` in ``game``: the game itself, or built-in policy names."""
    from sims.core.registry import get_game

    try:
        table = get_game(game).policies
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"sims.{game}"):
            return [f"the game {game!r} ({exc.name} is not in the package yet)"]
        raise
    names = (
        (d, name)
        for d, spec in policies.items()
        for name in (spec if isinstance(spec, (list, tuple)) else [spec])
        if isinstance(name, str)
    )
    return [f"{d} policy {name!r}" for d, name in names if name not in table.get(d, {})]


@dataclass(frozen=True)
class _Run:
    """One simulation a Context is asked for: what it plays, and the key of its cache."""

    game: str
    kind: str
    policies: dict
    n: int
    seed: int
    records: bool
    options: dict
    key: tuple

    @classmethod
    def of(cls, ctx: Context, game, kind, rules, policies, n, records, seed, options) -> _Run:
        n = n or (ctx.deals if kind == "deals" else ctx.games)
        seed = ctx.seed if seed is None else seed
        label, resolved = rules_label(game, rules)
        key = (
            game,
            kind,
            label,
            resolved,
            policy_label(policies),
            n,
            tuple((d, _spec_key(spec)) for d, spec in policies.items()),
        ) + ((seed,) if seed != ctx.seed else ())
        options = {k: v for k, v in options.items() if v}
        return cls(game, kind, policies, n, seed, records, options, key)

    @property
    def extra(self) -> str:
        """What the run keeps besides totals, in words (`` + records + agreement``)."""
        return "".join(f" + {k.replace('_', ' ')}" for k in ["records"] * self.records + sorted(self.options))


def _without_records(result):
    """A copy of ``result`` whose batch keeps every table but the records (the rows named by its kind)."""
    batch = copy.copy(result.batch)
    batch.rows = {name: rows for name, rows in batch.rows.items() if name != batch.kind}
    stripped = copy.copy(result)
    stripped.batch = batch
    return stripped


@dataclass
class Context:
    """Runs and caches the simulations of the report: ``deals`` per deal run and ``games`` per game run
    unless a section asks for another ``n``; ``seed`` is every run's master seed.  ``searched`` sets the size of
    every run with a searching player (the expert), which the sections otherwise take as a share of ``deals``
    with a floor (:meth:`searched_n`); the test suite and the notebooks' tests set it small."""

    deals: int
    games: int
    seed: int = 1
    searched: int | None = None
    log: Callable[[str], None] = lambda message: None
    simulate: Callable | None = None  # default: this module's :func:`simulate`
    runs: list = field(default_factory=list)
    _cache: dict = field(default_factory=dict, repr=False)
    _rules: dict = field(default_factory=dict, repr=False)

    def result(
        self,
        game: str,
        kind: str,
        rules,
        policies: dict,
        n: int | None = None,
        records: bool = False,
        seed: int | None = None,
        keep: bool = True,
        **options,
    ):
        """The game's result object for ``n`` (default: the report's size) deals or games.

        A run made with ``records`` or more options serves the requests that ask for less.  ``seed`` (default:
        the report's) plays other deals, for a run in blocks; ``keep=False`` leaves the result out of the cache
        (a large block with records, used once).
        Raises :class:`ClaimUnavailable` when the game or a named policy is not in the package.
        """
        run = _Run.of(self, game, kind, rules, policies, n, records, seed, options)
        cached = self._cached(run)
        if cached is not None:
            return cached
        self._announce(run)
        start = time.perf_counter()
        result = (self.simulate or simulate)(
            game, kind, rules, policies, run.n, run.seed, records=records, **run.options
        )
        self._record(run, result, time.perf_counter() - start, keep)
        return result

    def results(
        self,
        game: str,
        kind: str,
        rules,
        policies: list[dict],
        together: Callable,
        n: int | None = None,
        records: bool = False,
        seed: int | None = None,
        keep: bool = True,
    ) -> list:
        """:meth:`result` of each of ``policies``, the runs not cached yet played at once by ``together(jobs)`` (a
        game's function that gives each :class:`sims.core.jobs.Job`'s result as :func:`simulate` does, such as
        :func:`sims.allfours.sweep.play_runs`), each recorded with an equal share of their seconds.  A Context
        given its own ``simulate`` plays them one by one."""
        if self.simulate is not None:
            return [self.result(game, kind, rules, p, n, records, seed, keep) for p in policies]
        from sims.core.jobs import Job

        runs = [_Run.of(self, game, kind, rules, p, n, records, seed, {}) for p in policies]
        todo = list({run.key: run for run in runs if self._cached(run) is None}.values())
        played = {}
        if todo:
            for run in todo:
                self._announce(run)
            start = time.perf_counter()
            jobs = [Job.make(game, kind, rules, run.policies, run.n, run.seed, records=records) for run in todo]
            results = together(jobs)
            seconds = (time.perf_counter() - start) / len(todo)
            for run, result in zip(todo, results, strict=True):
                self._record(run, result, seconds, keep)
                played[run.key] = result
        return [played[run.key] if run.key in played else self._cached(run) for run in runs]

    def _cached(self, run: _Run):
        """The cached result that serves ``run``, or None."""
        for (cached_key, has_records, has_options), result in self._cache.items():
            if (
                cached_key == run.key
                and has_records >= run.records
                and run.options.items() <= dict(has_options).items()
            ):
                return result
        return None

    def forget_records(self) -> None:
        """Keep each cached run's totals but not its records (:func:`run_claims` calls it after every section): a
        later request without records is still served, one with records plays the run again (the same numbers).
        A full-size report's records would otherwise stay in memory to its end."""
        kept: dict = {}
        for (key, has_records, options), result in self._cache.items():
            if has_records and hasattr(getattr(result, "batch", None), "rows"):  # a result of sims.core's runner
                kept.setdefault((key, False, options), _without_records(result))
            else:  # nothing to forget, or a result of another kind, kept as it is
                kept.setdefault((key, has_records, options), result)
        self._cache = kept

    def _announce(self, run: _Run) -> None:
        """Check that the package can play ``run`` (else :class:`ClaimUnavailable`) and log it."""
        lacking = missing(run.game, run.policies)
        if lacking:
            raise ClaimUnavailable(f"needs {', '.join(lacking)}, not in the package yet")
        self.log(f"  {run.game} {run.kind}: {run.key[2]}, {run.key[4]}, n={run.n:,}{run.extra} ...")

    def _record(self, run: _Run, result, seconds: float, keep: bool) -> None:
        """``run``'s line of the provenance table, its rules, and its result in the cache when ``keep``."""
        self.runs.append(
            {
                "game": run.game,
                "kind": run.kind + run.extra,
                "rules": run.key[2],
                "policies": run.key[4],
                "seed": run.seed,
                "n": run.n,
                "engine version": result.summary.get("version", ""),
                "seconds": round(seconds, 3),
            }
        )
        self._rules[(run.game, run.key[2])] = result.summary.get("rules", {})
        if keep:
            self._cache[(run.key, run.records, tuple(sorted(run.options.items())))] = result

    def searched_n(self, share: int, least: int) -> int:
        """Deals (hands) for a run with a searching player: :attr:`searched` when set, else a ``share``-th of the
        report's deals and at least ``least``."""
        return self.searched or max(least, self.deals // share)

    def rules_used(self) -> dict:
        """``{(game, rules label): every field of those rules}`` for the provenance tables."""
        return dict(self._rules)
