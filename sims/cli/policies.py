"""``sims policies``: every game's decisions and policies, built-in and installed plug-ins' (the entry points
``sims.policies``, with their distribution), with their parameters and defaults (the names that ``--discard
expected_net:table=hessel`` or ``--play maxims:knave=0`` change).  A plug-in's declaration is read, its njit
function is not imported."""

from __future__ import annotations

from .boundary import say

HELP = "list each game's decisions and policies (built-in and installed plug-ins') with their parameters and defaults"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims policies                  # every game's decisions and policies, defaults marked",
    "sims policies --game allfours --json",
]


def add_arguments(parser):
    parser.add_argument("--game", default=None, metavar="GAME", help="one game (default all)")


def _row(game: str, decision, policy: str, spec, plugin: str | None) -> dict:
    from ..core.policies import TableParams

    takes = {}
    if isinstance(spec.params, TableParams):
        params = {"table": spec.params.default, "tables": spec.params.table_names()}
    else:
        params = dict(zip(spec.params, spec.default_params()))
        takes = {k: r.text() for k, r in zip(spec.params, spec.ranges)}
    return {
        "game": game,
        "decision": decision.name,
        "policy": policy,
        "default": policy == decision.default,
        "params": params,
        "takes": takes,
        "help": spec.help,
        "plugin": plugin,
        "players": list(spec.players),
    }


def run(args) -> dict:
    """Every game's policies; a plug-in or a game that cannot be loaded is named on stderr and left out."""
    from ..core import plugins
    from ..core.registry import get_game, names

    def skipped(line):
        say(f"sims policies: skipped {line}")

    rows = []
    found = plugins.declared(broken=skipped)
    for name in [args.game] if args.game is not None else names():
        try:
            game = get_game(name)
        except ValueError as exc:
            if args.game is not None:
                raise
            skipped(exc)
            continue
        for d in game.decisions:
            rows += [_row(name, d, policy, spec, None) for policy, spec in game.policies[d.name].items()]
            rows += [
                _row(name, d, p.name, p.spec, f"{p.distribution} {p.version}")
                for p in found
                if (p.spec.game, p.spec.decision) == (name, d.name) and p.name not in game.policies[d.name]
            ]
    return {"policies": rows}


def _params(params: dict, takes: dict) -> str:
    if "tables" in params:
        others = [t for t in params["tables"] if t != params["table"]]
        return f"table={params['table']}" + (f" (or {', '.join(others)})" if others else "")
    return " ".join(f"{k}={v:g}" + (f" ({takes[k]})" if takes[k] != "a number" else "") for k, v in params.items())


def render(result: dict) -> str:
    lines, where = [], None
    for row in result["policies"]:
        if (row["game"], row["decision"]) != where:
            where = row["game"], row["decision"]
            lines.append(f"{'' if not lines else chr(10)}{row['game']} --{row['decision']}")
        mark = " (default)" if row["default"] else f" (plug-in: {row['plugin']})" if row["plugin"] else ""
        if row["players"]:
            mark += f" ({' or '.join(map(str, row['players']))} players only)"
        lines.append(f"  {row['policy']}{mark}: {row['help']}")
        if row["params"]:
            lines.append(f"      {_params(row['params'], row['takes'])}")
    return "\n".join(lines)
