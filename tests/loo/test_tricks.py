"""The laws of the play as functions (sims.loo.tricks): hand-worked cases from the seeds, then the njit
functions against the plain-Python laws of the reference engine on many seeded random positions."""

import numpy as np
import pytest

from sims.cards import parse_card, parse_cards
from sims.loo import reference as ref
from sims.loo.tricks import flush_value, forced_lead, legal_mask, pam_of, power, rank_order, suit_of
from tests.loo.plays import play_by_the_laws

H, C = 2, 0
JC, JH = parse_card("JC"), parse_card("JH")


def hand(text):
    return np.array([-1 if t == "-" else parse_card(t) for t in text.split()], dtype=np.int64)


def legal(hand_text, trick_text, trump_suit=H, pam=-1, civil=True):
    """Positions allowed when the trick so far is ``trick_text`` (empty: leading)."""
    trick = parse_cards(trick_text) if trick_text else []
    led = trick[0] if trick else -1
    best = -1
    if trick:
        led_suit = suit_of(led, trump_suit, pam)
        best = max(power(c, led_suit, trump_suit, pam) for c in trick)
    mask = legal_mask(hand(hand_text), led, best, trump_suit, pam, civil)
    return [i for i in range(5) if (mask >> i) & 1]


def test_the_ace_is_highest_and_the_deuce_lowest():
    """Mottoes: "The cards take their usual value, ace highest; then king, queen, knave, ten ... deuce"."""
    order = [rank_order(parse_card(r + "S")) for r in ("2", "3", "9", "10", "J", "Q", "K", "A")]
    assert order == [0, 1, 7, 8, 9, 10, 11, 12]


def test_pam_is_the_knave_of_clubs_or_of_trumps_and_only_in_five_card():
    assert pam_of(H, 3, False) == -1
    assert pam_of(H, 5, False) == JC and pam_of(H, 5, True) == JH
    assert power(JC, H, H, JC) > power(parse_card("AH"), H, H, JC) > power(parse_card("KH"), H, H, JC)
    assert suit_of(JC, H, JC) == H  # Pam follows trumps; void in clubs when clubs are not trumps


def test_trumps_beat_the_suit_led_and_other_suits_cannot_win():
    assert power(parse_card("2H"), C, H, -1) > power(parse_card("AC"), C, H, -1)
    assert power(parse_card("AS"), C, H, -1) == -1


@pytest.mark.parametrize(
    "hand_text, trick, allowed, law",
    [
        ("3S QS 5H", "10S", [1], "follow suit and head the trick"),
        ("3S 4S 5H", "10S", [0, 1], "follow suit when you cannot head"),
        ("5C 3H 9H", "KS", [1, 2], "void: trump, any trump that wins"),
        ("5C 3H KH", "KS QH", [2], "void: overtrump"),
        ("5C 3H 9H", "KS QH", [0, 1, 2], "void, and the trick trumped too high: any card"),
        ("5C 3H 8D", "KS QH", [0, 1, 2], "void and no trump wins: any card"),
        ("5C 6D 8D", "KS", [0, 1, 2], "void and no trumps: any card"),
        ("5C 6D 8D", "", [0, 1, 2], "the leader plays any card"),
        ("- 6D 8D", "7D", [2], "played cards are gone"),
    ],
)
def test_following(hand_text, trick, allowed, law):
    assert legal(hand_text, trick) == allowed, law


def test_pam_be_civil():
    """Mottoes: "When the ace of trumps is led ... the holder of [Pam] must then let the ace pass"."""
    assert legal("JC 4H 5S", "AH", pam=JC) == [1]  # another trump: it follows
    assert legal("JC 6S 5S", "AH", pam=JC) == [1, 2]  # Pam his only trump: void
    assert legal("JC 4H 5S", "AH", pam=JC, civil=False) == [0]  # not civil: Pam heads the ace
    assert legal("JC - -", "AH", pam=JC) == [0]  # his last card: he must play it
    assert legal("JC 4H 5S", "KH", pam=JC) == [0]  # only the ace: Pam heads the king


@pytest.mark.parametrize(
    "hand_text, pam, lead, law",
    [
        ("5H QH 3C", -1, 1, "two trumps: the highest"),
        ("5H QH 3H", -1, 1, "three trumps: the highest"),
        ("4C 9S AH", -1, 2, "the ace of trumps only: lead it"),
        ("4C 9S KH", -1, -1, "one trump, not the ace: free"),
        ("4C 9S 3D", -1, -1, "no trumps: free"),
        ("JC 9H 3D 4S 5S", JC, 0, "Pam and a trump: Pam is the highest trump"),
        ("JC 9S 3D 4S 5S", JC, -1, "Pam alone is not the ace of trumps: free"),
    ],
)
def test_forced_leads(hand_text, pam, lead, law):
    assert forced_lead(hand(hand_text), H, pam) == lead, law


def test_flushes():
    """Mottoes: "Five cards of a suit, or four with pam, make a flush ... and yields only to a superior flush"."""

    def f(text, pam=JC):
        return flush_value(hand(text), H, pam)

    assert f("2S 5S 7S 9S JS") >= 0 and f("2S 5S 7S 9S JD") == -1
    assert f("2S 5S 7S 9S JC") > f("2S 5S 7S 9S KS")  # four and Pam, Pam on top
    assert f("2H 3H 4H 5H 6H") > f("AS KS QS 10S 9S")  # a trump flush beats a plain one
    assert f("2H 3H 4H 5H JC") > f("AH KH 4H 5H 6H")  # Pam tops the trumps too
    assert f("2C 3C 4C 5C JC") >= 0  # Pam is a club when clubs are plain
    assert f("AS KS QS 10S 9S") == f("AD KD 3D 4D 5D")  # equal tops: the elder hand decides


def test_the_njit_laws_agree_with_the_reference_on_random_positions():
    """10,000 seeded positions (three- and five-card, Pam of clubs or trumps, civil or not, tricks of 0-9
    cards already played): the same legal cards, forced lead and flush order as the plain-Python laws."""
    rng = np.random.default_rng(11)
    for _ in range(10_000):
        k = int(rng.choice([3, 5]))
        trump_suit = int(rng.integers(4))
        pam = pam_of(trump_suit, k, bool(rng.integers(2)))
        civil = bool(rng.integers(2))
        laws = ref.Laws(trump_suit, pam, civil)
        cards = rng.permutation(52)
        ace = parse_card("A" + "CDHS"[trump_suit])
        if rng.random() < 0.2 and ace not in cards[:k]:  # often lead the ace of trumps, for Pam
            cards = np.concatenate([[ace], cards[cards != ace]])
        trick = [int(c) for c in cards[: int(rng.integers(0, 10))]]
        held = cards[len(trick) : len(trick) + k].astype(np.int64)
        if rng.random() < 0.3 and pam >= 0 and pam not in trick:  # often hold Pam
            held[0] = pam if pam not in held else held[0]
        held[rng.random(k) < 0.25] = -1
        if (held < 0).all():
            held[0] = int(cards[-1])
        led = trick[0] if trick else -1
        best = -1
        if trick:
            best = max(power(c, suit_of(led, trump_suit, pam), trump_suit, pam) for c in trick)
        mask = legal_mask(held, led, best, trump_suit, pam, civil)
        assert [i for i in range(k) if (mask >> i) & 1] == laws.legal(held.tolist(), trick), (held, trick)
        full = cards[len(trick) : len(trick) + k].astype(np.int64)
        expected = laws.forced_lead(full.tolist())
        assert forced_lead(full, trump_suit, pam) == (-1 if expected is None else expected)
    for _ in range(5_000):
        trump_suit = int(rng.integers(4))
        pam = pam_of(trump_suit, 5, bool(rng.integers(2)))
        laws = ref.Laws(trump_suit, pam)
        suit = int(rng.integers(4))
        pool = [c for c in range(52) if c & 3 == suit or c == pam] if rng.random() < 0.7 else list(range(52))
        a, b = (np.array(rng.choice(pool, 5, replace=False), dtype=np.int64) for _ in range(2))
        fa, fb = laws.flush(a.tolist()), laws.flush(b.tolist())
        va, vb = flush_value(a, trump_suit, pam), flush_value(b, trump_suit, pam)
        assert (va >= 0) == (fa is not None) and (vb >= 0) == (fb is not None)
        if fa and fb:
            assert np.sign(va - vb) == (fa > fb) - (fa < fb)


def test_first_unlawful_is_the_situations_first_illegal_card():
    """The njit replay of the play (:func:`sims.loo.tricks.first_unlawful`) against the plain-Python one of the
    situations, on random plays by the laws in which one stander's hand is then changed (so some card he played
    is no longer his to play, or was not allowed him)."""
    from sims.loo.situation import first_illegal
    from sims.loo.tricks import first_unlawful

    rng = np.random.default_rng(7)
    outcomes = set()
    for _ in range(400):
        cards, m = (3, 5)[int(rng.integers(2))], int(rng.integers(2, 5))
        deck = rng.permutation(52).tolist()
        trump = deck[-1]
        laws = ref.Laws(trump & 3, JC if cards == 5 else -1)
        holdings = [deck[j * cards : (j + 1) * cards] for j in range(m)]
        _, played, by, _, _ = play_by_the_laws(rng, laws, holdings, list(range(m)), int(rng.integers(1, m * cards)))
        j = int(rng.integers(m))
        holdings[j][int(rng.integers(cards))] = deck[m * cards + int(rng.integers(5))]  # an unseen card instead
        expected = first_illegal(laws, dict(enumerate(holdings)), played, by, m)
        got = first_unlawful(
            np.array(holdings, dtype=np.int64),
            np.array(played, dtype=np.int64),
            np.array(by, dtype=np.int64),
            laws.trump_suit,
            laws.pam,
            True,
            (1 << m) - 1,
        )
        assert got == (-1 if expected is None else expected[0])
        outcomes.add(got >= 0)
    assert outcomes == {True, False}


def _random_plays(rng):
    """A random deal's cards played under the laws (the reference engine's) up to a random point: the laws
    (three-card, or five-card with Pam of clubs or of trumps; Pam civil or not), every card but the trump, the
    standers' holdings when the play began, the cards played and the stander of each."""
    k, m = (3, 5)[int(rng.integers(2))], int(rng.integers(2, 6))
    deck = rng.permutation(52).tolist()
    trump = deck[-1]
    pam = -1 if k == 3 else parse_card("J" + ("C" if rng.random() < 0.5 else "CDHS"[trump & 3]))
    laws = ref.Laws(trump & 3, pam, civil=bool(rng.random() < 0.8))
    holdings = [deck[j * k : (j + 1) * k] for j in range(m)]
    _, played, by, _, _ = play_by_the_laws(rng, laws, holdings, list(range(m)), int(rng.integers(0, m * k)))
    return laws, deck[:-1], holdings, played, by


def test_the_laws_as_masks_clear_the_holdings_that_the_replayed_laws_clear():
    """``lawful_holding`` (masks read once from the cards played) against ``could_have_played`` (the cards played
    again under the laws) on seeded random deals: each stander's true holding and holdings with some of his
    unplayed cards changed for others not played, all at once or one by one, lawful or not."""
    from sims.loo.tricks import could_have_played, lawful_holding, shown_laws

    rng = np.random.default_rng(36)
    outcomes = {True: 0, False: 0}
    for _ in range(1_500):
        laws, cards, holdings, played, by = _random_plays(rng)
        m, k = len(holdings), len(holdings[0])
        p, b = np.array(played, dtype=np.int64), np.array(by, dtype=np.int64)
        known = np.zeros(m, dtype=np.int64)
        for card, j in zip(played, by):
            known[j] |= np.int64(1) << card
        forbid = np.zeros(m, dtype=np.int64)
        refused, first = shown_laws(p, b, known, laws.trump_suit, laws.pam, laws.civil, forbid)
        free = [c for c in cards if c not in played]
        for j in range(m):
            shown = [c for c, w in zip(played, by) if w == j]
            hidden = [c for c in holdings[j] if c not in shown]
            for _ in range(4):
                if hidden and rng.random() < 0.75:
                    others = [c for c in free if c not in hidden]
                    change = rng.choice(len(hidden), int(rng.integers(1, len(hidden) + 1)), replace=False)
                    hidden = list(hidden)
                    for i, c in zip(change, rng.choice(others, len(change), replace=False)):
                        hidden[i] = int(c)
                rows = np.full((m, k), -1, dtype=np.int64)
                rows[j] = shown + hidden
                mask = sum(np.int64(1) << c for c in hidden) if hidden else np.int64(0)
                expected = could_have_played(rows, p, b, laws.trump_suit, laws.pam, laws.civil, 1 << j)
                assert lawful_holding(j, np.int64(mask), known, forbid, refused, first, laws.trump_suit, laws.pam) == (
                    expected
                ), (played, by, j, shown, hidden)
                outcomes[bool(expected)] += 1
    assert min(outcomes.values()) > 2_000, outcomes
