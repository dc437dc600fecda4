"""``sims peg``: which card to lay in the play (see :mod:`sims.cribbage.advice`)."""

from __future__ import annotations

from ...cli.common import best_by_win, choice_table
from ..advice import DEFAULT_PLAYOUT, DEFAULT_SAMPLES
from .role import add_role_arguments

HELP = (
    "every card you may lay in the play, best first: points for less points against to the end of the play "
    "(+/- SE), the chance of winning with --score, and each named policy's card"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer   # every legal card, points for minus against",
    "sims peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer --thrown QD,3C --score 97-104 --json   # you 97",
]


def add_arguments(parser):
    parser.add_argument("cards", nargs="+", help="the cards you hold now, e.g. 7H 8C 5D")
    parser.add_argument(
        "--played",
        default="",
        metavar="CARDS",
        help="every card laid in this deal so far, in order, e.g. KS,2S,5H (the counts and goes follow from them)",
    )
    parser.add_argument(
        "--mine", metavar="CARDS", help="which of the played cards are yours, when the order of play leaves it open"
    )
    parser.add_argument(
        "--laid-by", metavar="ROLES", help="instead of --mine: the player of every played card, e.g. pone,dealer,pone"
    )
    parser.add_argument("--starter", required=True, metavar="CARD", help="the card turned up")
    add_role_arguments(parser)
    parser.add_argument("--thrown", metavar="CARDS", help="the cards you laid out for the crib (needed with --score)")
    parser.add_argument(
        "--score",
        metavar="MINE-THEIRS",
        help="the scores now (this deal's pegging so far included), YOURS FIRST, then the other "
        "side's, whether you deal or not (as every command takes it), e.g. 97-104: each "
        "card's chance of winning the game (six-card, six-card-61, five-card)",
    )
    parser.add_argument(
        "--players",
        metavar="NAME",
        help="with --score: the board-position table of these players' self-play, "
        "expected_net+defensive, expected_peg+distilled, position_distilled, who peg by --playout "
        "(default: those players; as sims discard --score)",
    )
    parser.add_argument("--rules", default="six-card", metavar="PRESET", help="rules preset (default six-card)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field, e.g. --rule bath_flush=true",
    )
    parser.add_argument(
        "--playout",
        default=DEFAULT_PLAYOUT,
        metavar="POLICY",
        help=f"the pegging every player uses after your card (default {DEFAULT_PLAYOUT})",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"sampled deals of the unseen cards when they are too many to enumerate (default {DEFAULT_SAMPLES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled deals and the policies' streams")
    parser.add_argument(
        "--infer",
        default="playout",
        help="what the hidden cards are read from: playout (default), the cards the others laid as the --playout "
        "pegging would lay them; laws, the laws alone (their goes)",
    )


def run(args) -> dict:
    from ...core.spec import apply_rule_changes
    from ...core.text import mine_theirs
    from ..advice import peg_advice
    from ..game import GAME
    from ..situation import PegSituation

    rules = apply_rule_changes(GAME, GAME.get_rules(args.rules), args.rule)
    score = mine_theirs(args.score, "97-104")
    laid_by = [r.strip() for r in args.laid_by.split(",")] if args.laid_by else None
    situation = PegSituation(
        " ".join(args.cards),
        args.played.replace(",", " "),
        args.role,
        args.starter,
        (args.thrown or "").replace(",", " "),
        score,
        rules,
        mine=args.mine,
        laid_by=laid_by,
    )
    columns, attrs = peg_advice(
        situation, args.playout, args.samples, args.seed, players=args.players, infer=args.infer
    )
    rows = [dict(zip(columns, row)) for row in zip(*columns.values())]
    for row in rows:
        row["chosen_by"] = [n for n in row["chosen_by"].split(", ") if n]
    return {**attrs, "rows": rows}


def render(result: dict) -> str:
    s = result["situation"]
    played = " ".join(f"{p['card']}" for p in s["played"]) or "nothing yet"
    score = (
        f", score {s['score'][0]}-{s['score'][1]} (yours first: you {s['score'][0]}, them {s['score'][1]})"
        if s["score"]
        else ""
    )
    lines = [
        f"{' '.join(s['hand'])}, {s['role']}, {s['rules']}: laid {played}; count {s['count']}"
        + (f", go: {', '.join(s['go'])}" if s["go"] else "")
        + f"; starter {s['starter']}{score}",
        f"value: your points less theirs from this card to the end of the play, everyone then pegging by "
        f"{result['playout']}; {'exact over' if result['method'] == 'exact' else 'sampled'} "
        f"{result['deals']:,} deals of the cards you have not seen (the same deals for every card)",
        f"the deals are conditioned on {result['conditioned']}",
        best_by_win("card")
        if result["sort"] == "win"
        else "best: the most points (with --score: the best chance of winning)",
        "",
    ]
    win = s["score"] is not None
    exact = result["method"] == "exact"
    lines += choice_table(result["rows"], "card", win, exact and not win)
    if win:
        lines += [
            ("the points are exact (their ±95% is 0); " if exact else "")
            + "the chance of winning carries the error of the board-position table it is read from",
            "win %: your chance of winning the game: a card that reaches the target wins at once; else "
            "your hand's show, then the rest of the deal and the games after it from the board-position "
            f"table ({result['players'].replace('+', ' + ')} self-play)",
        ]
    return "\n".join(lines)
