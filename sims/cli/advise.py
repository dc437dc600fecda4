"""``sims advise``: the expert at one decision of any game.

``sims advise --game GAME DECISION CARDS ... [facts]``: the decisions and their facts are the
game's, so that one command answers every decision of every game.  A game that declares an advisor
(``Game.advice``) and its decisions' situations is served from them (:class:`Declared`): each
situation is a sub-command and its fields are the facts.  A game whose facts need more gives an
``advise_command`` module: ``DECISIONS`` (decision -> help) and ``add_arguments(parser, decision)``
(the facts, ``--rules`` among them), and then either

* ``situation(args, rules)``, the decision's situation from the facts, with ``PLAYOUT`` (the
  decision whose policy ``--playout`` sets) and ``VALUE`` (what a choice's value is), and optionally
  ``advise_options(args)`` (the advisor's own keywords from its arguments): the table of
  the game's advisor (its ``advice``), each choice valued by play-outs (:func:`run_advisor`), or
* its own ``run(args) -> dict`` and ``render(result) -> str``.
"""

from __future__ import annotations

import argparse
import dataclasses

GAME_AWARE = True
HELP = (
    "every legal choice at one decision, best first: value +/- SE by play-outs (exact in the last tricks), the "
    "chance of winning with --score, and each named policy's choice (All Fours beg/answer/play, Loo "
    "declare/exchange/card, cribbage peg/discard)"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims advise --game allfours beg 2C 5D 9H KS 3S 4C --turned 7H --score 6-8   # stand or beg",
    "sims advise --game allfours play AH 10H 3C 4D 5S --turned 7H --played KH,QH --role eldest",
    "sims advise --game allfours discard AC KH 2H 3D 4D 5D 6S 9S 8S --turned 7H,JC --rule discard_to_six=true",
    "sims advise --game loo declare AS 5H 9C --trump 2H --role 3 --declared pass,play --json",
    "sims advise --game loo card AS 5H 9C --trump 2H --role 3 --declared pass,play,play,pass,miss --played KH",
    "sims advise --game cribbage peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer   # as sims peg",
]


def add_arguments(parser, game):
    from ..core import registry

    parser.add_argument(
        "--game",
        default=registry.default_name(),
        choices=registry.names(),
        help=f"the game (default {registry.default_name()}); the decisions below are {game.name}'s",
    )
    command = _command(game)
    sub = parser.add_subparsers(dest="decision", metavar="DECISION", required=True, parser_class=type(parser))
    for decision, text in command.DECISIONS.items():
        p = sub.add_parser(decision, help=text, description=text)
        p.add_argument("--game", default=argparse.SUPPRESS, choices=registry.names(), help=argparse.SUPPRESS)
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the result as JSON")
        command.add_arguments(p, decision)
        if not hasattr(command, "run"):
            _add_playout_arguments(p, getattr(command, "PLAYOUT", decision), getattr(command, "PLAYOUT_DEFAULT", None))


def _serves(game) -> bool:
    return bool(game.advise_command or (game.advice and game.situations))


def _command(game):
    """The game's part of ``sims advise``: its ``advise_command``, else :class:`Declared` from its situations; a
    game with neither is told in one line."""
    if not _serves(game):
        from ..core.registry import get_game, names

        serving = [name for name in names() if _serves(get_game(name))]
        raise ValueError(f"no advisor for {game.name}: sims advise serves {', '.join(serving)}")
    return game.part("advise_command") if game.advise_command else Declared(game)


class Declared:
    """A game's decisions under ``sims advise`` made from its declared situations: each field a fact (the first,
    the cards held, as words; one without a default required; a true-or-false one a switch; ``rules`` by
    ``--rules``), its help and metavar the field's ``metadata``; ``--playout`` sets the advised decision's
    policy; ``VALUE`` is the advisor's."""

    def __init__(self, game):
        self.game, self.VALUE = game, game.part("advice").VALUE
        self.DECISIONS = {d.name: d.help for d in game.decisions if d.situation}

    def facts(self, decision: str) -> list:
        return [f for f in dataclasses.fields(self.game.situations[decision]) if f.init and f.name != "rules"]

    def add_arguments(self, p, decision: str) -> None:
        for i, f in enumerate(self.facts(decision)):
            told = {"help": f.metadata.get("help"), "metavar": f.metadata.get("metavar")}
            if i == 0:
                p.add_argument(f.name, nargs="+", **told | {"metavar": "CARD"})
            elif f.default is dataclasses.MISSING:
                p.add_argument(f"--{f.name}", required=True, **told)
            elif isinstance(f.default, bool):
                p.add_argument(f"--{f.name}", action="store_true", help=told["help"])
            else:
                kind = str if f.default is None else type(f.default)
                p.add_argument(f"--{f.name}", type=kind, default=f.default, **told)
        presets, default = ", ".join(self.game.presets), self.game.default_preset
        p.add_argument("--rules", default=default, metavar="PRESET", help=f"{presets} (default {default})")

    def situation(self, args, rules):
        facts = {f.name: getattr(args, f.name) for f in self.facts(args.decision)}
        facts = {k: " ".join(v) if isinstance(v, list) else v for k, v in facts.items()}
        return self.game.situations[args.decision](**facts, rules=rules)


ADVISORS = "the advisor's"  # what plays a play-out's decision when --playout does not say


def _add_playout_arguments(p, playout: str, default: str | None = None) -> None:
    """The flags of every play-out advisor, after the decision's own: ``--rule``, ``--playout`` (the policy of the
    decision ``playout`` in the play-outs; ``default`` says what plays it otherwise), ``--samples``, ``--seed``."""
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field, e.g. --rule target=7",
    )
    p.add_argument(
        "--playout",
        metavar="POLICY",
        help=f"the {playout} policy of every player in the play-outs (default {default or ADVISORS})",
    )
    p.add_argument(
        "--samples",
        type=int,
        default=2_000,
        help="sampled deals of the unseen cards when they are too many to enumerate (default 2000)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals and the policies' streams")


def run(args) -> dict:
    from ..core.registry import get_game

    command = _command(get_game(args.game))
    return {
        "game": args.game,
        "decision": args.decision,
        **(command.run(args) if hasattr(command, "run") else run_advisor(args, command)),
    }


def run_advisor(args, command) -> dict:
    """The game's advisor (its ``advice``) on the situation ``command`` makes of the facts: every choice, with the
    frame's facts."""
    from ..core.registry import get_game
    from .common import rules_from_args

    game = get_game(args.game)
    situation = command.situation(args, rules_from_args(args))
    advice = game.part("advice")  # after the situation: a bad one is told at once
    playout = {getattr(command, "PLAYOUT", args.decision): args.playout} if args.playout else None
    options = command.advise_options(args) if hasattr(command, "advise_options") else {}
    frame = advice.advise(situation, playout, args.samples, args.seed, **options)
    rows = frame.to_dict(orient="records")
    for row in rows:
        row["chosen_by"] = [n for n in row["chosen_by"].split(", ") if n]
    return {**frame.attrs, "rows": rows}


def render(result: dict) -> str:
    from ..core.registry import get_game
    from .common import best_by_win, choice_table

    command = _command(get_game(result["game"]))
    if hasattr(command, "render"):
        return command.render(result)

    s = result["situation"]
    facts = {k: v for k, v in s.items() if k not in ("decision", "rules") and v not in (None, [], "", False)}
    text = "; ".join(f"{k} {_text(v)}" for k, v in facts.items())
    lines = [
        f"{result['game']} {result['decision']}, {s['rules']}: {text}",
        f"value: {command.VALUE}; every later decision by {_text(result['playout'])}; "
        f"{'exact over' if result['method'] == 'exact' else 'sampled'} {result['deals']:,} deals of the cards "
        f"you have not seen (the same deals for every choice)",
    ]
    if result.get("conditioned"):
        lines.append(f"the deals are conditioned on {result['conditioned']}")
    win = "win" in (result["rows"][0] if result["rows"] else {})
    lines += [best_by_win("choice")] if win else []
    lines.append("")
    lines += choice_table(result["rows"], "choice", win, result["method"] == "exact")
    if win:
        lines += ["win %: your side's chance of winning the game, each play-out going on to the end of the game"]
    return "\n".join(lines)


def _text(value) -> str:
    if isinstance(value, dict) and set(value) == {"card", "by"}:
        return f"{value['card']} ({value['by']})"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    return str(value)
