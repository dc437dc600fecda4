"""The advisor's ``search`` play-outs (sims.allfours.solved): the rest of the hand played by the search seeing every
hand, checked against a minimax written here from the laws (Sections 87-96 §93: high, low, jack and game, scored in
that order; law iii: follow suit or trump) over every lawful deal of the cards the player has not seen."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from sims.allfours.advice import advise
from sims.allfours.situation import PlaySituation
from sims.cards import format_card, parse_card

ORDER = "2 3 4 5 6 7 8 9 10 J Q K A".split()  # whist order, low to high (law iii's tricks; high and low)
FOR_GAME = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}  # Sections 87-96 §93: the points that reckon for game


def rank(card: int) -> int:
    return ORDER.index(format_card(card)[:-1])


def suit(card: int) -> str:
    return format_card(card)[-1]


def points(card: int) -> int:
    return FOR_GAME.get(format_card(card)[:-1], 0)


def takes(cards, trump):
    """The index of the card that takes a trick: the highest trump, else the highest of the suit led."""
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    pool = trumps or [i for i, c in enumerate(cards) if suit(c) == suit(cards[0])]
    return max(pool, key=lambda i: rank(cards[i]))


def legal(hand, led, trump):
    """Law iii with may_trump: follow suit or trump when he can follow; else any card."""
    if led is None or not any(suit(c) == led for c in hand):
        return list(hand)
    return [c for c in hand if suit(c) in (led, trump)]


def outcome(dealt, history, trump, judge):
    """``judge(high side, low side, jack side, game side)`` of a two-hand deal played as ``history`` (cards by the
    roles of ``dealt``, the eldest (role 1) leading first): sides as 0 (the judged side, role 0: the dealer) or 1."""
    in_play = [c for hand in dealt for c in hand]
    trumps = [c for c in in_play if suit(c) == trump]
    holder = {c: r for r, hand in enumerate(dealt) for c in hand}
    high = holder[max(trumps, key=rank)] if trumps else None
    low = holder[min(trumps, key=rank)] if trumps else None
    reckoned, jack, leader = [0, 0], None, 1
    for t in range(0, len(history), 2):
        trick = history[t : t + 2]
        roles = [leader, 1 - leader]
        winner = roles[takes(trick, trump)]
        reckoned[winner] += sum(points(c) for c in trick)
        if any(format_card(c) == "J" + trump for c in trick):
            jack = winner
        leader = winner
    game = None if reckoned[0] == reckoned[1] else (0 if reckoned[0] > reckoned[1] else 1)
    return judge(high, low, jack, game)


def minimax(dealt, history, trump, judge):
    """The value of the rest of the hand with every card seen: role 0's side maximises ``outcome``, role 1 minimises."""

    @cache
    def value(played):
        held = [[c for c in dealt[r] if c not in played] for r in range(2)]
        if not held[0] and not held[1]:
            return outcome(dealt, list(played), trump, judge)
        leader = 1
        for t in range(0, len(played) - len(played) % 2, 2):
            leader = [leader, 1 - leader][takes(played[t : t + 2], trump)]
        mover = leader if len(played) % 2 == 0 else 1 - leader
        led = suit(played[-1]) if len(played) % 2 else None
        values = [value(played + (c,)) for c in legal(held[mover], led, trump)]
        return max(values) if mover == 0 else min(values)

    return value(tuple(history))


def net(high, low, jack, game):
    """Role 0's side's points less role 1's."""
    return sum(0 if side is None else (1 if side == 0 else -1) for side in (high, low, jack, game))


def winner_from(score, target):
    """Role 0's side wins (1) or loses (0) as the points are scored in order, from ``score`` (role 0's, role 1's)."""

    def judge(high, low, jack, game):
        mine, theirs = score
        for side in (high, low, jack, game):
            if side is not None:
                mine, theirs = (mine + 1, theirs) if side == 0 else (mine, theirs + 1)
                if mine >= target or theirs >= target:
                    return 1.0 if mine >= target else 0.0
        raise AssertionError("the game does not end with this hand")

    return judge


# The dealer (role 0) holds JH 2H KD and follows the eldest's 4H at the fourth trick; the eldest's last two cards are
# hidden: 820 deals, every one played.
MINE, TURNED = "JH 2H KD", "7H"
PLAYED = "KS 2S QD 3D AC 9C 4H"


def lawful_deals():
    situation = PlaySituation(MINE, TURNED, played=PLAYED, role="dealer")
    seen = set(situation.hand) | set(situation.played) | set(situation.turned)
    unseen = [c for c in range(52) if c not in seen]
    mine = [c for c, r in zip(situation.played, situation.laid_by) if r == 0] + list(situation.hand)
    theirs = [c for c, r in zip(situation.played, situation.laid_by) if r == 1]
    return situation, [(mine, theirs + list(rest)) for rest in itertools.combinations(unseen, 2)]


def expected(judge):
    """Each legal card's mean over every lawful deal of the minimax value after it."""
    situation, deals = lawful_deals()
    return {
        format_card(card): sum(minimax(dealt, list(situation.played) + [card], "H", judge) for dealt in deals)
        / len(deals)
        for card in situation.legal()
    }


def test_the_search_play_outs_value_each_card_as_minimax_with_every_card_seen():
    """Without a score, a card's value is its side's points less the other's: the search's over every deal."""
    situation, deals = lawful_deals()
    frame = advise(situation, samples=10, infer="laws", policies=())
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == len(deals) == 820
    assert frame.attrs["playout"]["play"].startswith("search")
    got = dict(zip(frame["choice"], frame["value"]))
    want = expected(net)
    assert got.keys() == want.keys() == {"JH", "2H"}
    for card in want:
        assert got[card] == pytest.approx(want[card], abs=1e-12)
    assert want["JH"] != want["2H"]  # the position tells the cards apart


def test_when_the_knave_alone_decides_the_game_it_is_played_for():
    """Two points short each with the knave in play, high and low decide the game or leave each side one short:
    then jack, scored before game, wins it, and the search plays for the knave alone.  The chance of winning is the
    minimax of the game won over every deal."""
    situation, _ = lawful_deals()
    target = situation.rules.target
    score = (target - 2, target - 2)
    frame = advise(
        PlaySituation(MINE, TURNED, played=PLAYED, role="dealer", score=score), samples=10, infer="laws", policies=()
    )
    assert frame.attrs["method"] == "exact"
    got = dict(zip(frame["choice"], frame["win"]))
    want = expected(winner_from(score, target))
    for card in want:
        assert got[card] == pytest.approx(want[card], abs=1e-12)


def test_a_play_policy_named_plays_the_cards_instead():
    """``playout={"play": "maxims"}`` plays the hand's cards by the maxims, as before the search: another value."""
    situation, _ = lawful_deals()
    maxims = advise(situation, {"play": "maxims"}, samples=10, infer="laws", policies=())
    assert maxims.attrs["playout"]["play"] == "maxims"
    assert dict(zip(maxims["choice"], maxims["value"])) != pytest.approx(expected(net), abs=1e-3)


def test_cards_are_parsed_as_the_laws_name_them():
    """The minimax's own reading of the cards: whist order, the points for game."""
    assert [rank(parse_card(c)) for c in ("2C", "10D", "AH")] == [0, 8, 12]
    assert [points(parse_card(c)) for c in ("10D", "AH", "KS", "QC", "JD", "9H")] == [10, 4, 3, 2, 1, 0]
