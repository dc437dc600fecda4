"""``sims tune``: search one decision's policy parameters against a field of opponents (:mod:`sims.core.tune`).

Give the decision's flag with the policy to tune (``--beg threshold``), the field (``--against``)
and the objective.  The study is stored in SQLite and a killed run resumes with the same command;
the best setting is then played against the defaults on fresh seeds, and the paired difference
is given with its 95% interval, or said to be no gain when the interval holds 0.
"""

from __future__ import annotations

from .common import add_game_arguments, positive, rules_from_args

GAME_AWARE = True
HELP = (
    "optimise a policy's parameters (Optuna) for one decision against a field, on common random numbers, and "
    "check the best setting against the defaults on fresh seeds"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims tune --game allfours --beg threshold --against maxims --objective games --trials 200",
    "sims tune --game cribbage --peg defensive --params pair_bonus,count_penalty --objective net --trials 30",
    "sims tune --game loo --declare threshold --params stand_at --range stand_at=0:2 --objective stakes",
    "sims tune --game cribbage --discard weighted_peg --against position_distilled --objective net --trials 30",
    "sims tune --game allfours --beg py:mypkg.begging.weak_beg --trials 20   # a function that declares its parameters",
]


def add_arguments(parser, game):
    add_game_arguments(parser, game)
    parser.add_argument(
        "--against",
        metavar="FIELD",
        help="the other seats' policies: a policy name for every decision that has it (maxims), or "
        "DECISION=POLICY,...; the rest the game's defaults (default: all the defaults)",
    )
    parser.add_argument(
        "--objective",
        default="games",
        help="games (win rate), points, net (points less the others') or stakes (money), the last "
        "three per deal (default games)",
    )
    parser.add_argument("--params", help="comma list of the parameters to search (default all of the policy's)")
    parser.add_argument(
        "--range",
        action="append",
        default=[],
        metavar="NAME=LOW:HIGH",
        help="search a parameter over LOW..HIGH (within its declared range); an open declared "
        "range is searched over the default ± 2 max(1, |default|)",
    )
    parser.add_argument("--trials", type=positive, default=20, help="trials of the study in all (default 20)")
    parser.add_argument(
        "--per-trial",
        dest="n",
        type=positive,
        default=400,
        help="games (deals, for a per-deal objective) a trial plays, on the same seeds for every "
        "trial, each seat exchanged (default 400)",
    )
    parser.add_argument(
        "--check",
        type=positive,
        default=None,
        help="games (or deals) of the held-out check on fresh seeds (default twice --per-trial)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed of the search, the sampler and the check")
    parser.add_argument("--storage", metavar="PATH", help="the study's SQLite file (default data/tune/NAME.sqlite3)")
    parser.add_argument(
        "--name",
        help="the study's name (default from the game, policy, field, objective, size, "
        "seed); the same name and storage resume it",
    )
    parser.add_argument("--jobs", type=positive, default=1, help="trials at once, on threads (default 1)")
    parser.add_argument(
        "--workers",
        type=positive,
        default=None,
        help="play the trials' games on a local Dask cluster of this many workers",
    )
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--plot", metavar="FILE", help="write the optimisation history (PNG) here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _tuned(args, game) -> tuple[str, str]:
    given = [(d.name, getattr(args, d.name)) for d in game.decisions if getattr(args, d.name, None)]
    if len(given) != 1:
        flags = ", ".join(f"--{d.name}" for d in game.decisions)
        raise ValueError(
            f"name one decision's policy to tune ({flags}), e.g. --{game.decisions[0].name} "
            f"{game.decisions[0].default}; got {len(given)}"
        )
    return given[0]


def run(args) -> dict:
    from contextlib import nullcontext

    from ..core.registry import get_game
    from ..core.tune import tune

    game = get_game(args.game)
    decision, policy = _tuned(args, game)
    ranges = {}
    for text in args.range:
        key, eq, span = text.partition("=")
        if not eq:
            raise ValueError(f"--range {text!r}: write NAME=LOW:HIGH")
        ranges[key.strip()] = span
    names = [p.strip() for p in args.params.split(",")] if args.params else None
    if args.workers is not None:
        from ..core.executors import dask_client

        cluster = dask_client(args.workers, None, None, args.threads)
    else:
        cluster = nullcontext()
    with cluster as client:
        tuned = tune(
            game,
            decision,
            policy,
            against=args.against,
            objective=args.objective,
            trials=args.trials,
            n=args.n,
            check=args.check,
            seed=args.seed,
            names=names,
            ranges=ranges,
            rules=rules_from_args(args),
            storage=args.storage,
            name=args.name,
            jobs=args.jobs,
            threads=args.threads,
            client=client,
            progress=not args.quiet,
        )
    if args.plot:
        import warnings

        import matplotlib

        matplotlib.use("Agg")
        from optuna.visualization.matplotlib import plot_optimization_history

        with warnings.catch_warnings():  # Optuna calls its matplotlib plots experimental
            warnings.simplefilter("ignore")
            plot_optimization_history(tuned.study).figure.savefig(args.plot, dpi=100, bbox_inches="tight")
    trials = tuned.trials
    return {
        "game": game.name,
        "decision": decision,
        "policy": policy,
        "against": args.against,
        "objective": args.objective,
        "study": tuned.study.study_name,
        "trials": len(trials),
        "complete": int((trials["state"] == "COMPLETE").sum()),
        "pruned": int((trials["state"] == "PRUNED").sum()),
        "best_value": tuned.study.best_value,
        "best": tuned.best,
        "check": tuned.check,
        **({"plot": args.plot} if args.plot else {}),
    }


def render(result: dict) -> str:
    from ..core.tune import verdict

    check = result["check"]
    what = {"games": "win rate", "points": "points a deal", "net": "net points a deal", "stakes": "stakes a deal"}[
        result["objective"]
    ]
    setting = lambda params: ", ".join(f"{k}={v:.4g}" for k, v in params.items())  # noqa: E731
    lines = [
        f"{result['game']} {result['decision']} {result['policy']} against {result['against'] or 'the defaults'}: "
        f"{result['trials']} trials ({result['complete']} complete, {result['pruned']} pruned), study "
        f"{result['study']}",
        f"best in the search: {setting(result['best'])} ({what} {result['best_value']:.4f})",
        f"held-out check, {check['items']:,} fresh items, seats exchanged:",
        f"  tuned    {setting(check['tuned'])}: {what} {check['tuned_mean']:.4f}",
        f"  default  {setting(check['default'])}: {what} {check['default_mean']:.4f}",
        f"  gain (tuned - default) {check['gain']:+.4f} [95% interval {check['lo']:+.4f}, {check['hi']:+.4f}]",
        f"  {verdict(check)}",
    ]
    return "\n".join(lines)
