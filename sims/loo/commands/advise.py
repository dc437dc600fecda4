"""Loo under ``sims advise`` (the ``advise_command`` of its ``Game``): the declaration, the five-card exchange and
the card to play; valued by :mod:`sims.loo.advice`."""

from __future__ import annotations

from ...core.text import listed

DECISIONS = {
    "declare": "play, take the miss or pass (five-card: stand or throw up)",
    "exchange": "five-card: which cards to change",
    "card": "which card to play",
}
PLAYOUT = "card"  # --playout sets this decision's policy in the play-outs
VALUE = "your money from this deal: what you take from the pool less what you pay if looed"


def add_arguments(p, decision: str) -> None:
    p.add_argument("cards", nargs="+", help="the cards you hold, e.g. AH 10H 3C")
    p.add_argument("--trump", required=True, metavar="CARD", help="the card turned for trump")
    p.add_argument(
        "--role",
        default="eldest",
        help="your place from the dealer: dealer, eldest (on his left), or 2, 3, ... round to the left",
    )
    p.add_argument(
        "--declared",
        default="",
        metavar="LIST",
        help="what each player declared before you in turn from the dealer's left (card: everyone), "
        "e.g. pass,play,miss",
    )
    p.add_argument(
        "--exchanged",
        default="",
        metavar="COUNTS",
        help="five-card: how many cards each stander changed, in turn, e.g. 2,0",
    )
    p.add_argument(
        "--carry",
        type=int,
        metavar="MONEY",
        help="money held over into this pool from the last deal (the looes; 0: a clean deal); default one stake",
    )
    p.add_argument(
        "--rules",
        default="three-card",
        metavar="PRESET",
        help="three-card (default), three-card-unlimited, five-card-pam, five-card-pam-unlimited",
    )
    if decision == "card":
        p.add_argument("--played", default="", metavar="CARDS", help="every card played this deal, in order")


def count(text) -> int:
    """One item of ``--exchanged``: how many cards a stander changed."""
    if not text.isdigit():
        raise ValueError(f"--exchanged takes how many cards each stander changed, e.g. 2,0; got {text!r}")
    return int(text)


def situation(args, rules):
    """The decision's situation from the facts on the command line."""
    from .. import situation as s

    facts = dict(
        trump=args.trump,
        role=args.role,
        declared=listed(args.declared),
        exchanged=[count(x) for x in listed(args.exchanged)],
        carry=args.carry,
        rules=rules,
    )
    cards = " ".join(args.cards)
    if args.decision == "card":
        return s.CardSituation(cards, played=listed(args.played), **facts)
    return (s.DeclareSituation if args.decision == "declare" else s.ExchangeSituation)(cards, **facts)
