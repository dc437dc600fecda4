"""A slow, plain reference for the end of the play of two-handed cribbage (the tests' oracle).

Written from the laws of the play (RULES.md, "The play"), not from the advisor: the pone leads; a player who
can lay a card within thirty-one must; one who cannot says go and the other lays on while he can; when
nobody can, the last player pegs the go (1; 31 pegs its own 2 and ends the count) and the other leads a new
count; the last card of all pegs 1.  :func:`replay` drives a deal with every hand known: it checks that the
public cards were laid lawfully by those hands and, from my turn on, lays my choice and then the forced
cards.  :func:`lawful_values` averages my points less his over every deal of the unseen cards that
:func:`replay` finds lawful, and :func:`random_position` draws positions at the end of the play.
"""

from __future__ import annotations

from itertools import combinations

from sims.cribbage.literal_scoring import peg_score

DEALER, PONE = 0, 1


def pips(card: int) -> int:
    return min((card >> 2) + 1, 10)


class Unlawful(Exception):
    """The public cards could not have been laid so by these hands."""


class NotForced(Exception):
    """A decision after mine is not forced: the reference values only forced ends."""


class Illegal(Exception):
    """My choice does not fit the count."""


def replay(hands, played, laid_by, me, choice=None, policy=None, watch=None):
    """My points less his from my ``choice`` to the end of the play (``hands[role]``: all the cards each
    role kept), after the public ``played`` cards laid by ``laid_by``; :class:`Unlawful` if the laws could
    not have laid them so, :class:`Illegal` if my choice does not fit, :class:`NotForced` if a later
    decision is not forced and no ``policy(fits, count_cards)`` chooses it.  Without a choice: None at my
    turn.  ``watch(role, fits, count_cards, card)`` is told of each public card as it is laid."""
    hands = [list(h) for h in hands]
    count_cards, turn, last, k = [], PONE, None, 0
    net = None  # None until my choice is laid
    while any(hands):
        count = sum(pips(c) for c in count_cards)
        fits = [c for c in hands[turn] if count + pips(c) <= 31]
        if fits:
            if k < len(played):
                card = played[k]
                if laid_by[k] != turn or card not in fits:
                    raise Unlawful(f"card {k}")
                if watch is not None:
                    watch(turn, fits, list(count_cards), card)
                k += 1
            elif net is None:
                if turn != me:
                    raise Unlawful("he could lay, so it is not my turn")
                if choice is None:
                    return None
                if choice not in fits:
                    raise Illegal
                card, net = choice, 0
            elif len(fits) == 1:
                card = fits[0]
            elif policy is not None:
                card = policy(fits, count_cards)
            else:
                raise NotForced
            hands[turn].remove(card)
            count_cards.append(card)
            if net is not None:
                net += peg_score(count_cards) * (1 if turn == me else -1)
            last, turn = turn, 1 - turn
            if count + pips(card) == 31:
                count_cards = []
        elif any(count + pips(c) <= 31 for c in hands[1 - turn]):
            turn = 1 - turn  # go: the other lays on
        else:  # nobody can lay: the go to the last player, the other leads
            if net is not None:
                net += 1 if last == me else -1
            count_cards, turn = [], 1 - last
    if net is None:
        raise Unlawful("my turn never came")
    if count_cards:
        net += 1 if last == me else -1  # last card
    return net


def lawful_deals(hand, played, laid_by, me, starter, thrown, kept=4, keep=None):
    """Every hand of the other player (a frozenset of his cards still held) that lays the public cards
    lawfully to my turn, from the cards I have not seen (and, given ``keep(hands, played, laid_by, me)``, that it
    keeps), and ``hands(his)``: both roles' kept cards."""
    mine = list(hand) + [c for c, r in zip(played, laid_by) if r == me]
    his_laid = [c for c, r in zip(played, laid_by) if r != me]
    seen = set(mine) | set(played) | {starter} | set(thrown)
    unseen = [c for c in range(52) if c not in seen]

    def hands(his):
        both = [None, None]
        both[me], both[1 - me] = mine, list(his) + his_laid
        return both

    lawful = []
    for his in combinations(unseen, kept - len(his_laid)):
        try:
            replay(hands(his), played, laid_by, me)
        except Unlawful:
            continue
        if keep is None or keep(hands(his), played, laid_by, me):
            lawful.append(frozenset(his))
    return lawful, hands


def lawful_values(hand, played, laid_by, me, starter, thrown, kept=4, keep=None, policy=None):
    """``({card: mean net}, lawful deals)``: each card of ``hand`` I may lay, valued over every deal of the
    unseen cards to the other player that :func:`replay` finds lawful (and ``keep`` keeps: :func:`lawful_deals`),
    the decisions after mine not forced made by ``policy``."""
    deals, hands = lawful_deals(hand, played, laid_by, me, starter, thrown, kept, keep)
    totals = {}
    for his in deals:
        for card in hand:
            try:
                net = replay(hands(his), played, laid_by, me, card, policy)
            except Illegal:
                continue
            totals[card] = totals.get(card, 0) + net
    return {card: total / len(deals) for card, total in totals.items()}, len(deals)


def random_position(rng, me_holds=2, kept=4, cards_dealt=6):
    """A deal played at random by the laws to my turn with ``me_holds`` cards and a choice of two or more,
    the other holding at most one card: ``dict(hand, played, laid_by, me, starter, thrown)``, or None if
    this deal never gets there."""
    deck = [int(c) for c in rng.permutation(52)]
    me = int(rng.integers(2))
    dealt = [deck[:cards_dealt], deck[cards_dealt : 2 * cards_dealt]]
    hands = [sorted(d[:kept]) for d in dealt]
    thrown, starter = dealt[me][kept:], deck[2 * cards_dealt]
    played, laid_by, count_cards, turn, last = [], [], [], PONE, None
    while any(hands):
        count = sum(pips(c) for c in count_cards)
        fits = [c for c in hands[turn] if count + pips(c) <= 31]
        if fits:
            if turn == me and len(hands[me]) == me_holds and len(hands[1 - me]) <= 1:
                if len(fits) < 2:
                    return None
                return dict(hand=list(hands[me]), played=played, laid_by=laid_by, me=me, starter=starter, thrown=thrown)
            card = fits[int(rng.integers(len(fits)))]
            hands[turn].remove(card)
            count_cards.append(card)
            played.append(card)
            laid_by.append(turn)
            last, turn = turn, 1 - turn
            if count + pips(card) == 31:
                count_cards = []
        elif any(count + pips(c) <= 31 for c in hands[1 - turn]):
            turn = 1 - turn
        else:
            count_cards, turn = [], 1 - last
    return None
