"""The laws of the play in Loo: the order of the cards, Pam, following and heading, forced leads, flushes.

Pure njit functions of cards (ids of :mod:`sims.cards`: ``rank * 4 + suit``,
rank 0 = ace ... 12 = king), shared by the kernels, the contract's legality
checks and the policies.

* Order (Mottoes, Three-Card Loo: "ace highest; then king, queen, knave, ten,
  and so on, down to deuce"): :func:`rank_order` is 12 for the ace, 11 for the
  king ... 0 for the deuce.
* Pam (Mottoes, Five-Card Loo): the knave of clubs (or, by agreement, of
  trumps) "is the highest card"; it is a trump whatever suit is turned, so it
  follows trumps and is void in clubs when clubs are not trumps.
* Power of a card in a trick: trumps above the suit led, Pam above all; a card of
  another suit cannot win.
* Following (docs/rules.md, Loo "Play"): follow suit if you can and head the
  trick if you can; void in the suit led, trump, and overtrump, when that wins the
  trick; otherwise any card.  "Pam be civil": when the ace of trumps is led,
  Pam may not be played on it while its holder has another card.
* Forced leads, the first lead of a deal: with two or more trumps lead the
  highest (Mottoes: "If the first player possess two or three trumps, he must
  play the highest"); with the ace of trumps as the only trump, lead it.
* Flushes (five-card): five cards of a suit, or four and Pam.
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit
from ..core.masks import popcount

ACE, KNAVE = 0, 10
CLUBS = 0
NO_CARD = -1
CLUBS_MASK = 0x1111111111111  # the thirteen clubs as a mask of card ids (rank * 4 + suit); << suit for the others
TRUMP_POWER = 100  # power of the lowest trump; the suit led is 0..12 below it
PAM_POWER = TRUMP_POWER + 13


@njit(cache=True, inline="always")
def rank_order(card):
    """Ace high: 12 for an ace, 11 for a king ... 0 for a deuce."""
    return ((card >> 2) + 12) % 13


@njit(cache=True, inline="always")
def pam_of(trump_suit, cards, pam_trumps):
    """The card that is Pam: the knave of clubs, or of trumps; none (-1) in three-card loo."""
    if cards != 5:
        return NO_CARD
    return KNAVE * 4 + (trump_suit if pam_trumps else CLUBS)


@njit(cache=True, inline="always")
def suit_of(card, trump_suit, pam):
    """The suit a card belongs to in the play: Pam is a trump."""
    return trump_suit if card == pam else card & 3


@njit(cache=True, inline="always")
def power(card, led_suit, trump_suit, pam):
    """How strongly ``card`` bids for a trick led in ``led_suit``: Pam, then trumps, then the suit led;
    -1 for a card of another suit (it cannot win)."""
    if card == pam:
        return PAM_POWER
    suit = card & 3
    if suit == trump_suit:
        return TRUMP_POWER + rank_order(card)
    if suit == led_suit:
        return rank_order(card)
    return -1


@njit(cache=True, inline="always")
def is_trump_ace(card, trump_suit):
    return card == ACE * 4 + trump_suit


@njit(cache=True, refcounts=False)
def legal_mask(hand, led_card, best_power, trump_suit, pam, civil):
    """Bit ``i`` set when ``hand[i]`` (-1: already played) may be played to the trick.

    ``led_card`` is the card led (-1: this player leads, and any card may go),
    ``best_power`` the power of the card winning the trick so far, ``civil`` whether
    Pam must be civil.
    """
    held = 0
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            held |= 1 << i
    if led_card < 0:
        return held
    led_suit = suit_of(led_card, trump_suit, pam)
    if civil and pam >= 0 and is_trump_ace(led_card, trump_suit):
        for i in range(hand.shape[0]):  # Pam be civil: Pam waits while another card is held
            if hand[i] == pam and held != 1 << i:
                held &= ~(1 << i)
    follow, head, trump, overtrump = 0, 0, 0, 0
    for i in range(hand.shape[0]):
        if not (held >> i) & 1:
            continue
        card = hand[i]
        wins = power(card, led_suit, trump_suit, pam) > best_power
        if suit_of(card, trump_suit, pam) == led_suit:
            follow |= 1 << i
            if wins:
                head |= 1 << i
        elif suit_of(card, trump_suit, pam) == trump_suit:
            trump |= 1 << i
            if wins:
                overtrump |= 1 << i
    if follow:
        return head if head else follow
    if overtrump:
        return overtrump
    return held


@njit(cache=True, refcounts=False)
def forced_lead(hand, trump_suit, pam):
    """The index of the card the first leader must lead, or -1 when he may lead any card: the highest of
    two or more trumps; the ace of trumps when it is his only trump."""
    n_trumps, best, best_power = 0, -1, -1
    for i in range(hand.shape[0]):
        card = hand[i]
        if card >= 0 and suit_of(card, trump_suit, pam) == trump_suit:
            n_trumps += 1
            p = power(card, trump_suit, trump_suit, pam)
            if p > best_power:
                best, best_power = i, p
    if n_trumps >= 2 or (n_trumps == 1 and is_trump_ace(hand[best], trump_suit)):
        return best
    return -1


@njit(cache=True, refcounts=False)
def flush_value(hand, trump_suit, pam):
    """A five-card hand's flush, or -1: five cards of a suit, or four and Pam.  Larger is better: a trump
    flush beats a plain one, then the higher top card (Pam above all)."""
    suit, top = -1, -1
    for i in range(hand.shape[0]):
        card = hand[i]
        if card == pam:
            top = 13
            continue
        if suit < 0:
            suit = card & 3
        elif card & 3 != suit:
            return -1
        if top < 13:
            top = max(top, rank_order(card))
    if suit < 0:
        return -1
    return (14 if suit == trump_suit else 0) + top


@njit(cache=True)
def first_unlawful(holdings, played, by, trump_suit, pam, civil, check):
    """The first card of ``played`` (in order; ``by[i]`` the row of ``holdings`` whose player played it) that
    the laws did not allow its player, for the rows of ``check`` (a bit mask): its index, or -1.
    ``holdings[j]`` holds the cards of the j-th stander when the play began (-1: none); a trick has one card
    from each row.  The first lead is forced (:func:`forced_lead`), every other card :func:`legal_mask`'s:
    follow, head, trump and overtrump, Pam be civil.  ``holdings`` is used up (each card played is struck
    out)."""
    m = holdings.shape[0]
    hands = holdings
    led, led_suit, best_power = -1, -1, -1
    for i in range(played.shape[0]):
        if i % m == 0:
            led, led_suit, best_power = -1, -1, -1
        j, card = by[i], played[i]
        if (check >> j) & 1:
            at = -1
            for c in range(hands.shape[1]):
                if hands[j, c] == card:
                    at = c
            if at < 0:
                return i
            forced = forced_lead(hands[j], trump_suit, pam) if i == 0 else -1
            if (forced >= 0 and forced != at) or not (
                legal_mask(hands[j], led, best_power, trump_suit, pam, civil) >> at
            ) & 1:
                return i
            hands[j, at] = NO_CARD
        if led < 0:
            led, led_suit = card, suit_of(card, trump_suit, pam)
        best_power = max(best_power, power(card, led_suit, trump_suit, pam))
    return -1


@njit(cache=True)
def could_have_played(holdings, played, by, trump_suit, pam, civil, check):
    """Whether the standers of the rows of ``check`` could have played ``played`` holding ``holdings`` (used up):
    none of them held a flush (five-card, with Pam: a flush sweeps the board without play) and the laws
    allowed each card (:func:`first_unlawful`)."""
    if pam >= 0:
        for j in range(holdings.shape[0]):
            if (check >> j) & 1 and flush_value(holdings[j], trump_suit, pam) >= 0:
                return False
    return first_unlawful(holdings, played, by, trump_suit, pam, civil, check) < 0


@njit(cache=True, inline="always")
def trump_mask(trump_suit, pam):
    """The trumps, Pam among them, as a mask of card ids."""
    return (np.int64(CLUBS_MASK) << trump_suit) | (np.int64(1) << pam if pam >= 0 else np.int64(0))


@njit(cache=True)
def shown_laws(played, by, known, trump_suit, pam, civil, forbid):
    """What the cards played tell of the cards each stander has not shown, for :func:`lawful_holding`: in
    ``forbid[j]`` (a mask) the cards stander j cannot have held, ``known[j]`` being the cards he played (a mask;
    ``by`` and ``civil`` as in :func:`first_unlawful`).  Returns ``(refused, first_leader)``: a mask of the
    standers whom no holding clears (a card he played later breaks a law), and the stander who led the first
    card when it was no trump (he held at most one trump, not the ace: the forced leads), else -1.

    Each law of :func:`legal_mask` and :func:`forced_lead` says that a card was not in the player's hand when he
    played: following without heading, he had no card heading the trick; not following, none of the suit led,
    and, unless he overtrumped, no trump above the trick; Pam played on the ace of trumps, Pam be civil, no other
    card; leading first a trump, no higher trump.  A card not yet played was in his hand at every trick."""
    m = forbid.shape[0]
    forbid[:] = 0
    refused, first_leader = 0, -1
    before = np.zeros(m, dtype=np.int64)
    every = (np.int64(1) << 52) - 1
    trumps = trump_mask(trump_suit, pam)
    led_card, led_suit, best = NO_CARD, -1, -1
    for i in range(played.shape[0]):
        if i % m == 0:
            led_card, led_suit, best = NO_CARD, -1, -1
        j, card = by[i], played[i]
        bit = np.int64(1) << card
        suit = suit_of(card, trump_suit, pam)
        not_held = np.int64(0)
        if i == 0:
            if suit == trump_suit:  # the highest of his trumps
                for c in range(52):
                    if (trumps >> c) & 1 and power(c, trump_suit, trump_suit, pam) > power(
                        card, trump_suit, trump_suit, pam
                    ):
                        not_held |= np.int64(1) << c
            else:  # no more than one trump, and not the ace
                not_held = np.int64(1) << (ACE * 4 + trump_suit)
                first_leader = j
        elif led_card >= 0:
            civil_ace = civil and pam >= 0 and is_trump_ace(led_card, trump_suit)
            if civil_ace and card == pam:
                not_held = every & ~bit
            else:
                heads = power(card, led_suit, trump_suit, pam) > best
                overtrumps = suit == trump_suit and heads
                for c in range(52):
                    if civil_ace and c == pam:  # Pam waits: he may have held it
                        continue
                    s, p = suit_of(c, trump_suit, pam), power(c, led_suit, trump_suit, pam)
                    if suit == led_suit:
                        out = not heads and s == led_suit and p > best
                    else:
                        out = s == led_suit or (not overtrumps and s == trump_suit and p > best)
                    if out:
                        not_held |= np.int64(1) << c
        forbid[j] |= not_held
        if known[j] & ~before[j] & ~bit & not_held:
            refused |= 1 << j
        before[j] |= bit
        if led_card < 0:
            led_card, led_suit = card, suit
        best = max(best, power(card, led_suit, trump_suit, pam))
    return refused, first_leader


@njit(cache=True, inline="always")
def lawful_holding(j, hidden, known, forbid, refused, first_leader, trump_suit, pam):
    """Whether stander j could have played the cards he played (``known[j]``) holding also ``hidden`` (masks), by
    the laws :func:`shown_laws` read, and, five-card, holding no flush: what :func:`could_have_played` says of
    that holding, without playing the cards again."""
    if (refused >> j) & 1 or hidden & forbid[j]:
        return False
    held = hidden | known[j]
    if j == first_leader and popcount(held & trump_mask(trump_suit, pam)) > 1:
        return False
    if pam >= 0:
        plain = held & ~(np.int64(1) << pam)
        low = 0
        while not (plain >> low) & 1:
            low += 1
        if plain & ~(np.int64(CLUBS_MASK) << (low & 3)) == 0:
            return False
    return True
