"""Tuning a policy's parameters: an Optuna study of one decision's policy against a field of opponents.

A *field* is the policy of every decision for the seats the tuned policy does not hold
(:func:`sims.core.outcomes.field_policies`); the candidate plays the field's policies too, but for the tuned
decision.  Every trial is scored on the same seeds (common random numbers), with the candidate
in each side's seats in turn on the same deals (seats exchanged), so two settings' scores are
paired item by item (:mod:`sims.core.outcomes`).  The search space comes from the policy's
declared parameters (:func:`search_space`).

A new study's first trial is the policy's defaults (those inside the searched ranges), so the best found is
never worse on the search's seeds than where it began.  A study is stored in SQLite and resumes after a kill:
the trials already told are kept, a trial left running is marked failed and its parameters asked again first,
and the sampler is seeded afresh at every ask from the seed and the number of trials asked, so a resumed study
asks what an uninterrupted one would have asked.  The tuned setting is then checked against the policy's
defaults on seeds the search never saw (:func:`held_out`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import outcomes
from .jobs import check_count, resolve_one
from .outcomes import field_policies
from .plugins import PATH
from .policies import COUNT, TableParams
from .registry import get_game
from .rng import check_seed

STORAGE = Path("data/tune")  # the default folder of the studies (git-ignored)
STAGES = 4  # seed blocks of a trial: a trial may be pruned after each
STARTUP = 5  # trials drawn at random before TPE models the others
WIDEN = 2.0  # an open side of a range: the default ± WIDEN × max(1, |default|)
_KERNELS = threading.Lock()  # this process runs one kernel at a time (trials on threads share it)
_STORAGE = threading.Lock()  # and writes to a study's SQLite file from one thread at a time


@dataclass(frozen=True)
class Dimension:
    """One parameter searched: its name, ``kind`` (switch, count or number), bounds and default."""

    name: str
    kind: str
    low: float
    high: float
    default: float

    def inside(self) -> bool:
        """Whether the default lies in the searched range (a user's range may leave it out)."""
        return self.low <= self.default <= self.high

    def suggest(self, trial):
        if self.kind == "number":
            return trial.suggest_float(self.name, self.low, self.high)
        return trial.suggest_int(self.name, int(self.low), int(self.high))


def _parse_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition(":")
    try:
        return float(low), float(high)
    except ValueError:
        raise ValueError(f"range {text!r}: write LOW:HIGH, e.g. 0:6") from None


def search_space(game, decision: str, policy: str, names=None, ranges=None) -> list[Dimension]:
    """The parameters of ``policy`` (a built-in's or a plug-in's name, or ``py:MODULE.FUNCTION`` of a function
    that declares them, :func:`sims.core.plugins.declare`) to search: ``names`` (default all), each
    over its declared range narrowed by ``ranges`` (``{name: (low, high)}`` or ``"low:high"``).  A side the
    declaration leaves open (any number; a count's machine limit) is the default ± :data:`WIDEN` × max(1,
    |default|).  An unknown or repeated name, an empty range, a table of values or a policy without parameters
    is a one-line error."""
    game = get_game(game)
    path = policy.startswith(PATH)
    if ":" in policy[len(PATH) if path else 0 :]:
        raise ValueError(
            f"{decision} policy {policy!r}: name the policy to tune without parameters (the search sets them)"
        )
    name = policy
    spec = resolve_one(game, decision, name).spec
    if spec is None:
        raise ValueError(
            f"{decision} policy {name!r} declares no parameters to search"
            + (" (declare them with sims.core.plugins.declare)" if path else "")
        )
    if isinstance(spec.params, TableParams):
        raise ValueError(
            f"{decision} policy {name!r} takes a table ({spec.params.label}), not numbers: there is nothing to tune"
        )
    if not spec.params:
        raise ValueError(f"{decision} policy {name!r} has no parameters to tune")
    names = list(spec.params) if not names else list(names)
    ranges = dict(ranges or {})
    for wanted in names + list(ranges):
        if wanted not in spec.params:
            raise ValueError(
                f"{decision} policy {name!r} has no parameter {wanted!r} (it takes {', '.join(spec.params)})"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"{decision} policy {name!r}: a parameter is named twice in {names}")
    space = []
    for param, default, declared in zip(spec.params, spec.default_params(), spec.ranges):
        if param not in names:
            continue
        span = WIDEN * max(1.0, abs(default))
        low = declared.low if math.isfinite(declared.low) else default - span
        high = declared.high if math.isfinite(declared.high) and declared != COUNT else max(default + span, low + 1)
        if param in ranges:
            given = ranges[param]
            low, high = _parse_range(given) if isinstance(given, str) else map(float, given)
        if declared.kind == "count":
            low, high = math.ceil(low), math.floor(high)
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"{decision} policy {name!r}: parameter {param!r} has an empty range {low:g} to {high:g}")
        if not (declared.holds(low) and declared.holds(high)):
            raise ValueError(
                f"{decision} policy {name!r}: parameter {param!r} takes {declared.text()}, got the "
                f"range {low:g} to {high:g}"
            )
        space.append(Dimension(param, declared.kind, float(low), float(high), float(default)))
    return space


def block_seeds(seed: int, blocks: int, held_out: bool = False) -> list[int]:
    """The seeds of the search's (or the held-out check's) blocks: disjoint streams of one master seed."""
    state = np.random.SeedSequence([check_seed(seed), int(held_out)]).generate_state(blocks, dtype=np.uint64)
    return [int(s) >> 1 for s in state]


@dataclass(frozen=True)
class Setup:
    """Everything a trial's simulations need: the game and rules, the decision and policy tuned, the field,
    the objective and the items of a block."""

    game: object
    rules: object
    decision: str
    policy: str
    field: dict
    objective: str
    block: int
    threads: int | None = None
    client: object = None

    def values(self, params: dict, seed: int) -> np.ndarray:
        """The candidate's objective per item on ``seed`` (one block), seats exchanged; ``params`` by name."""
        candidate = {"name": self.policy, "params": dict(params)}
        return outcomes.paired_values(
            self.game,
            self.rules,
            self.field,
            {self.decision: candidate},
            self.objective,
            self.block,
            seed,
            self.threads,
            self.client,
            None if self.client is not None else _KERNELS,
        )


class Tuned(NamedTuple):
    """What :func:`tune` returns: the Optuna study, its trials as a DataFrame, the best parameters and the
    held-out check (:func:`held_out`)."""

    study: object
    trials: object
    best: dict
    check: dict


def study_name(game, decision: str, policy: str, against, objective: str, n: int, seed: int) -> str:
    return f"{game}-{decision}-{policy}-vs-{against or 'defaults'}-{objective}-{n}-seed{seed}".replace(" ", "")


def _sampler(seed: int, asked: int):
    """The TPE sampler of the trial asked after ``asked`` others: seeded by both, so that a resumed study asks
    the same; its first :data:`STARTUP` trials are drawn at random."""
    import optuna

    return optuna.samplers.TPESampler(seed=seed * 100_003 + asked, n_startup_trials=STARTUP)


def _resume(study, storage) -> list[dict]:
    """Mark the trials a killed run left running as failed (in ``storage``, the study's); their parameters, to be
    asked again first."""
    from optuna.trial import TrialState

    again = []
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING, TrialState.WAITING)):
        if trial.state == TrialState.RUNNING:
            storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)
            again.append(trial.params)
    return again


def _run_trial(setup: Setup, trial, params: dict, seeds) -> tuple[float | None, bool]:
    """The trial's mean objective over the search blocks with its ``params``; reported after each block, pruned
    when the pruner says (then its value is None)."""
    values = []
    for step, seed in enumerate(seeds):
        values.append(setup.values(params, seed))
        mean = float(np.concatenate(values).mean())
        with _STORAGE:
            trial.report(mean, step)
            pruned = step + 1 < len(seeds) and trial.should_prune()
        if pruned:
            return None, True
    return mean, False


def tune(
    game,
    decision: str,
    policy: str,
    *,
    against: str | None = None,
    objective: str = "games",
    trials: int = 20,
    n: int = 400,
    check: int | None = None,
    seed: int = 0,
    names=None,
    ranges=None,
    rules=None,
    storage=None,
    name: str | None = None,
    jobs: int = 1,
    threads: int | None = None,
    client=None,
    progress: bool = False,
) -> Tuned:
    """Tune ``policy``'s parameters for ``decision`` of ``game`` against the field ``against`` (module docstring).

    Each trial plays ``n`` items (games, or deals for a per-deal objective) on the same seeds, seats exchanged;
    ``check`` items (default ``2 n``) on fresh seeds then compare the best trial's setting with the defaults.
    ``storage`` is a SQLite file (default ``data/tune/<name>.sqlite3``); the same ``name`` and ``storage``
    resume.  ``jobs`` trials run at once on threads (their simulations on ``client``'s Dask workers when given,
    else one kernel at a time in this process, on ``threads`` numba threads).  Bad input is a one-line
    ValueError before any game is played.
    """
    if importlib.util.find_spec("optuna") is None:
        raise ValueError("sims tune needs Optuna, not installed: pip install 'period-card-sims[tune]'")
    import optuna

    game = get_game(game)
    outcomes.check_objective(objective)
    trials = check_count(trials, "trials", 100_000)
    n = check_count(n, "the items of a trial")
    check = check_count(check or 2 * n, "the items of the held-out check")
    jobs = check_count(jobs, "jobs", 64)
    seed = check_seed(seed)
    space = search_space(game, decision, policy, names, ranges)
    field = field_policies(game, against)
    rules = game.get_rules(rules)
    stages = min(STAGES, n)
    setup = Setup(game, rules, decision, policy, field, objective, n // stages, threads, client)
    outcomes.check_for(game, rules, objective, field)
    name = name or study_name(game.name, decision, policy, against, objective, n, seed)
    path = Path(storage) if storage is not None else STORAGE / f"{name}.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{path}")
    study = optuna.create_study(
        study_name=name,
        storage=storage,
        direction="maximize",
        load_if_exists=True,
        pruner=optuna.pruners.MedianPruner(n_startup_trials=5),
    )
    _check_same_space(study, space)
    again = _resume(study, storage)
    if not study.get_trials(deepcopy=False):  # a new study asks the defaults first: the best is never below them
        again.append({d.name: d.default if d.kind == "number" else int(d.default) for d in space if d.inside()})
    search = block_seeds(seed, stages)
    done = len(
        [
            t
            for t in study.get_trials(deepcopy=False)
            if t.state.is_finished() and t.state != optuna.trial.TrialState.FAIL
        ]
    )
    with ThreadPoolExecutor(jobs) as pool, _bar(progress, trials, done) as bar:
        while done < trials:
            batch: list = []
            for _ in range(min(jobs, trials - done)):
                study.sampler = _sampler(seed, done + len(batch))
                if again:
                    study.enqueue_trial(again.pop(0))
                trial = study.ask()
                # drawn now, by this trial's sampler: trials on threads would draw from the last one set, in
                # whichever order they start
                batch.append((trial, {d.name: d.suggest(trial) for d in space}))
            results = list(pool.map(lambda asked: _run_trial(setup, asked[0], asked[1], search), batch))
            for (trial, _), (value, pruned) in zip(batch, results):
                study.tell(trial, value, state=optuna.trial.TrialState.PRUNED if pruned else None)
                bar.update(1)
            done += len(batch)
    frame = study.trials_dataframe()
    best = study.best_params
    return Tuned(study, frame, best, held_out(setup, space, best, check, seed))


def _check_same_space(study, space) -> None:
    """A stored study resumed with another search space would mix trials of two questions: refused."""
    stored = study.user_attrs.get("space")
    wanted = [[d.name, d.kind, d.low, d.high] for d in space]
    if stored is None:
        study.set_user_attr("space", wanted)
    elif stored != wanted:
        raise ValueError(
            f"study {study.study_name!r} was stored with another search space ({stored}); name "
            f"another study (--name) or another storage"
        )


def _bar(progress: bool, total: int, initial: int):
    from contextlib import nullcontext

    from tqdm.auto import tqdm

    if not progress:
        return nullcontext(type("NoBar", (), {"update": staticmethod(lambda k: None)}))
    return tqdm(total=total, initial=initial, unit=" trials", desc="tune", leave=False)


def held_out(setup: Setup, space, best: dict, items: int, seed: int) -> dict:
    """The tuned setting against the defaults on fresh seeds: each one's mean objective and the paired
    difference (tuned − default) with its 95% interval; ``significant`` when the interval leaves out 0."""
    from ..stats import paired_diff

    blocks = max(1, min(STAGES, items))
    seeds = block_seeds(seed, blocks, held_out=True)
    size = items // blocks
    check = dataclasses.replace(setup, block=size)
    tuned = np.concatenate([check.values(best, s) for s in seeds])
    default = np.concatenate([check.values({d.name: d.default for d in space}, s) for s in seeds])
    diff = paired_diff(tuned, default)
    return {
        "tuned": {k: float(v) for k, v in best.items()},
        "default": {d.name: d.default for d in space},
        "tuned_mean": float(tuned.mean()),
        "default_mean": float(default.mean()),
        "items": int(tuned.size),
        "gain": float(diff.estimate),
        "lo": float(diff.lo),
        "hi": float(diff.hi),
        "se": float(diff.se),
        "p": float(diff.p),
        "significant": bool(diff.lo > 0 or diff.hi < 0),
    }


def verdict(check: dict) -> str:
    """The held-out check in words: a gain, a loss, or plainly no significant difference."""
    if check["significant"] and check["gain"] > 0:
        return "the tuned setting beats the default on fresh seeds"
    if check["significant"]:
        return "the tuned setting is WORSE than the default on fresh seeds: keep the default"
    return "the gain is NOT significant: the interval holds 0, so this does not show the tuned setting is better"


def check_text(what: str, check: dict) -> str:
    """One line of the held-out check: the tuned setting, both means, the gain with its interval, the verdict."""
    setting = ", ".join(f"{k}={v:.3g}" for k, v in check["tuned"].items())
    return (
        f"{what}: tuned {setting}: {check['tuned_mean']:.4f} against the default's {check['default_mean']:.4f}, "
        f"gain {check['gain']:+.4f} [{check['lo']:+.4f}, {check['hi']:+.4f}] ({check['items']:,} fresh items): "
        f"{verdict(check)}"
    )
