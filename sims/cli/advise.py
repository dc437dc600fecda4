"""``sims advise``: the expert at one decision of any game (:mod:`sims.allfours.advice`, :mod:`sims.loo.advice`).

``sims advise --game GAME DECISION CARDS ... [facts]``: All Fours ``beg``, ``answer``,
``play``; Loo ``declare``, ``exchange``, ``card``; cribbage ``peg`` and ``discard``,
which are ``sims peg`` and ``sims discard`` under one roof (the same flags, the same
output), so that one command answers every decision of every game.
"""
from __future__ import annotations

import argparse
import re
from importlib import import_module

COMMAND = "advise"
GAME_AWARE = True
HELP = ("every legal choice at one decision, best first: value +/- SE by play-outs (exact in the last tricks), the "
        "chance of winning with --score, and each named policy's choice (All Fours beg/answer/play, Loo "
        "declare/exchange/card, cribbage peg/discard)")
EXAMPLES = [   # the foot of --help (tests/cli/test_help.py parses each)
    "sims advise --game allfours beg 2C 5D 9H KS 3S 4C --turned 7H --score 6-8   # stand or beg",
    "sims advise --game allfours play AH 10H 3C 4D 5S --turned 7H --played KH,QH --role eldest",
    "sims advise --game allfours discard AC KH 2H 3D 4D 5D 6S 9S 8S --turned 7H,JC --rule discard_to_six=true",
    "sims advise --game loo declare AS 5H 9C --trump 2H --role 3 --declared pass,play --json",
    "sims advise --game loo card AS 5H 9C --trump 2H --role 3 --declared pass,play,play,pass,miss --played KH",
    "sims advise --game cribbage peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer   # as sims peg",
]
DECISIONS = {"allfours": ("beg", "answer", "play", "discard"), "loo": ("declare", "exchange", "card"),
             "cribbage": ("peg", "discard")}
HELPS = {"beg": "the eldest stands or begs", "answer": "the dealer gives one or runs the cards",
         "play": "which card to play", "declare": "play, take the miss or pass (five-card: stand or throw up)",
         "exchange": "five-card: which cards to change", "card": "which card to play",
         "peg": "which card to lay in the play (as sims peg)",
         "discard": "what to lay out for the crib (as sims discard)"}
GAME_HELPS = {("allfours", "discard"): "with discard_to_six, after the cards were run: which card to throw out"}


def add_arguments(parser, game):
    from ..core import registry

    if game.name not in DECISIONS:
        raise ValueError(f"no advisor for {game.name}: sims advise serves {', '.join(sorted(DECISIONS))}")
    parser.add_argument("--game", default=registry.default_name(), choices=sorted(DECISIONS),
                        help=f"the game (default {registry.default_name()}); the decisions below are {game.name}'s")
    sub = parser.add_subparsers(dest="decision", metavar="DECISION", required=True, parser_class=type(parser))
    for decision in DECISIONS[game.name]:
        text = GAME_HELPS.get((game.name, decision), HELPS[decision])
        p = sub.add_parser(decision, help=text, description=text)
        p.add_argument("--game", default=argparse.SUPPRESS, choices=sorted(DECISIONS), help=argparse.SUPPRESS)
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the result as JSON")
        if game.name == "cribbage":
            _module(decision).add_arguments(p)
            continue
        p.add_argument("cards", nargs="+", help="the cards you hold, e.g. AH 10H 3C")
        (_allfours_arguments if game.name == "allfours" else _loo_arguments)(p, decision)
        p.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE",
                       help="change one rules field, e.g. --rule target=7")
        p.add_argument("--playout", metavar="POLICY",
                       help=f"the {'play' if game.name == 'allfours' else 'card'} policy of every player in the "
                            f"play-outs (default the game's)")
        p.add_argument("--samples", type=int, default=2_000,
                       help="sampled deals of the unseen cards when they are too many to enumerate (default 2000)")
        p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals and the policies' streams")


def _module(decision):
    return import_module(f"{__package__}.{decision}")


def _allfours_arguments(p, decision):
    p.add_argument("--turned", required=True, metavar="CARDS",
                   help="the card turned up for trump; when the cards were run, every card turned, e.g. 7H,2H,KC")
    p.add_argument("--score", metavar="MINE-THEIRS",
                   help="the score now (a knave turned up and the gift included), e.g. 6-8: each choice's chance of "
                        "winning the game")
    p.add_argument("--rules", default="two-hand", metavar="PRESET", help="two-hand (default), four-hand, seven-up")
    if decision == "play":
        p.add_argument("--played", default="", metavar="CARDS", help="every card played this hand, in order")
        p.add_argument("--role", default="eldest", help="dealer or eldest (four-hand: also dealer_partner, "
                                                        "eldest_partner); default eldest")
        p.add_argument("--begged", action="store_true", help="the eldest begged")
        p.add_argument("--gave", action="store_true", help="the dealer then gave one (else the cards were run)")
    if decision in ("play", "discard"):
        p.add_argument("--discarded", default="", metavar="CARDS",
                       help="with discard_to_six: the cards you threw out after the cards were run")
    if decision == "discard":
        p.add_argument("--role", default="eldest", help="dealer or eldest (four-hand: also dealer_partner, "
                                                        "eldest_partner); default eldest")


def _loo_arguments(p, decision):
    p.add_argument("--trump", required=True, metavar="CARD", help="the card turned for trump")
    p.add_argument("--role", default="eldest",
                   help="your place from the dealer: dealer, eldest (on his left), or 2, 3, ... round to the left")
    p.add_argument("--declared", default="", metavar="LIST",
                   help="what each player declared before you in turn from the dealer's left (card: everyone), "
                        "e.g. pass,play,miss")
    p.add_argument("--exchanged", default="", metavar="COUNTS",
                   help="five-card: how many cards each stander changed, in turn, e.g. 2,0")
    p.add_argument("--carry", type=int, metavar="MONEY",
                   help="money held over into this pool from the last deal (the looes; 0: a clean deal); default "
                        "one stake")
    p.add_argument("--rules", default="three-card", metavar="PRESET",
                   help="three-card (default), three-card-unlimited, five-card-pam, five-card-pam-unlimited")
    if decision == "card":
        p.add_argument("--played", default="", metavar="CARDS", help="every card played this deal, in order")


def _count(text) -> int:
    if not text.isdigit():
        raise ValueError(f"--exchanged takes how many cards each stander changed, e.g. 2,0; got {text!r}")
    return int(text)


def _list(text) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text or "") if t]


def run(args) -> dict:
    from ..core.registry import get_game
    from ..core.spec import apply_rule_changes
    from ..core.text import mine_theirs

    if args.game == "cribbage":
        return {"game": "cribbage", "decision": args.decision, **_module(args.decision).run(args)}
    game = get_game(args.game)
    rules = apply_rule_changes(game, game.get_rules(args.rules), args.rule)
    cards = " ".join(args.cards)
    if args.game == "allfours":
        from ..allfours import situation as s

        turned, score = _list(args.turned), mine_theirs(args.score, "6-8")
        if args.decision == "play":
            situation = s.PlaySituation(cards, turned, _list(args.played), args.role, args.begged, args.gave, score,
                                        rules, discarded=_list(args.discarded))
        elif args.decision == "discard":
            situation = s.DiscardSituation(cards, turned, args.role, _list(args.discarded), score, rules)
        else:
            situation = (s.BegSituation if args.decision == "beg" else s.AnswerSituation)(cards, turned, score, rules)
        playout = {"play": args.playout} if args.playout else None
    else:
        from ..loo import situation as s

        facts = dict(trump=args.trump, role=args.role, declared=_list(args.declared),
                     exchanged=[_count(x) for x in _list(args.exchanged)],
                     carry=args.carry, rules=rules)
        if args.decision == "card":
            situation = s.CardSituation(cards, played=_list(args.played), **facts)
        else:
            situation = (s.DeclareSituation if args.decision == "declare" else s.ExchangeSituation)(cards, **facts)
        playout = {"card": args.playout} if args.playout else None
    advice = import_module(f"sims.{args.game}.advice")     # after the situation: a bad one is told at once
    frame = advice.advise(situation, playout, args.samples, args.seed)
    rows = frame.to_dict(orient="records")
    for row in rows:
        row["chosen_by"] = [n for n in row["chosen_by"].split(", ") if n]
    return {"game": args.game, "decision": args.decision, **frame.attrs, "rows": rows}


def render(result: dict) -> str:
    if result["game"] == "cribbage":
        return _module(result["decision"]).render(result)
    from .common import choice_table

    s = result["situation"]
    facts = {k: v for k, v in s.items() if k not in ("decision", "rules") and v not in (None, [], "", False)}
    text = "; ".join(f"{k} {_text(v)}" for k, v in facts.items())
    what = ("your side's points less the other side's from here to the end of the hand" if result["game"] == "allfours"
            else "your money from this deal: what you take from the pool less what you pay if looed")
    lines = [f"{result['game']} {result['decision']}, {s['rules']}: {text}",
             f"value: {what}; every later decision by {_text(result['playout'])}; "
             f"{'exact over' if result['method'] == 'exact' else 'sampled'} {result['deals']:,} deals of the cards "
             f"you have not seen (the same deals for every choice)", ""]
    win = "win" in (result["rows"][0] if result["rows"] else {})
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
