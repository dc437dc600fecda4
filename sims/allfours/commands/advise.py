"""All Fours under ``sims advise`` (the ``advise_command`` of its ``Game``): the eldest's beg, the dealer's
answer, the card to play and, with discard_to_six, the card thrown out; valued by :mod:`sims.allfours.advice`."""

from __future__ import annotations

from ...core.text import listed, mine_theirs

DECISIONS = {
    "beg": "the eldest stands or begs",
    "answer": "the dealer gives one or runs the cards",
    "play": "which card to play",
    "discard": "with discard_to_six, after the cards were run: which card to throw out",
}
PLAYOUT = "play"  # --playout sets this decision's policy in the play-outs
PLAYOUT_DEFAULT = "search: this hand's cards played by the expert's search seeing every hand, the maxims in later hands"
VALUE = "your side's points less the other side's from here to the end of the hand"


def add_arguments(p, decision: str) -> None:
    p.add_argument("cards", nargs="+", help="the cards you hold, e.g. AH 10H 3C")
    p.add_argument(
        "--turned",
        required=True,
        metavar="CARDS",
        help="the card turned up for trump; when the cards were run, every card turned, e.g. 7H,2H,KC",
    )
    p.add_argument(
        "--score",
        metavar="MINE-THEIRS",
        help="the score now (a knave turned up and the gift included), e.g. 6-8: each choice's chance of "
        "winning the game",
    )
    p.add_argument("--rules", default="two-hand", metavar="PRESET", help="two-hand (default), four-hand, seven-up")
    p.add_argument(
        "--infer",
        default="playout",
        help="what the hidden hands are read from: playout (default), the others' beg, answer and cards as the "
        "play-outs' policies would make them; laws, the laws alone (shown voids, the cards seen)",
    )
    if decision == "play":
        p.add_argument("--played", default="", metavar="CARDS", help="every card played this hand, in order")
        p.add_argument(
            "--role",
            default="eldest",
            help="dealer or eldest (four-hand: also dealer_partner, eldest_partner); default eldest",
        )
        p.add_argument("--begged", action="store_true", help="the eldest begged")
        p.add_argument("--gave", action="store_true", help="the dealer then gave one (else the cards were run)")
    if decision in ("play", "discard"):
        p.add_argument(
            "--discarded",
            default="",
            metavar="CARDS",
            help="with discard_to_six: the cards you threw out after the cards were run",
        )
    if decision == "discard":
        p.add_argument(
            "--role",
            default="eldest",
            help="dealer or eldest (four-hand: also dealer_partner, eldest_partner); default eldest",
        )


def situation(args, rules):
    """The decision's situation from the facts on the command line."""
    from .. import situation as s

    cards, turned, scores = " ".join(args.cards), listed(args.turned), mine_theirs(args.score, "6-8")
    if args.decision == "play":
        return s.PlaySituation(
            cards,
            turned,
            listed(args.played),
            args.role,
            args.begged,
            args.gave,
            scores,
            rules,
            discarded=listed(args.discarded),
        )
    if args.decision == "discard":
        return s.DiscardSituation(cards, turned, args.role, listed(args.discarded), scores, rules)
    return (s.BegSituation if args.decision == "beg" else s.AnswerSituation)(cards, turned, scores, rules)


def advise_options(args) -> dict:
    """The advisor's own keywords from the command line: what the deals are conditioned on."""
    return {"infer": args.infer}
