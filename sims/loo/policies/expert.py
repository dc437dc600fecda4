"""The ``expert`` policies: declarations and exchanges from tables learnt by self-play, card play by a
determinised search.

**Declarations.**  The money a declaration brings is what the player takes out of
the pool less what he pays if looed; passing brings nothing (the stake is already
in).  For a hand of class ``k`` (:func:`sims.loo.policies.hands.hand_class`), the
player's order of declaring ``o`` (1 the eldest ... ``n`` the dealer), the players
standing before him ``b`` (0, 1, 2 or more) and ``n`` players, the table holds what a
stander took, in shares of the pool (``won``: a trick is one share, sweeping or being
given the stakes the whole pool), and how often he was looed (``looed``); the
player stands when ``share * won - loo * looed`` is positive, and takes the miss
(class ``MISS_CLASS``) when that is worth more still.  The tables are estimated by
self-play and iterated to a fixed point (:mod:`sims.loo.policies.self_play`); they
ship in ``sims/loo/data/`` with their provenance.

**Exchanges** (five-card).  The table holds, by number of players, the chance that a
card of each category (:data:`sims.loo.policies.hands.CATEGORIES`) wins a trick for the
stander who plays it; a card is changed when a card drawn from the unseen pack is
expected to win more often, the weakest first, while the pack lasts.

**Card play.**  Where the laws leave a choice, each legal card is played out against
``samples`` deals of the unseen cards to the other standers, everyone then playing
``greedy``, and the card with the most money for the player on average is chosen (the
same deals for every card; a card that takes the same tricks as another in every such play-out,
next to it in its suit, is played out once: :func:`_alike`).  The deals are those the advisor deals
(:mod:`sims.loo.advice`): uniform among the deals in which every card the others
played was one the laws allowed them (following, heading, trumping, the forced first
lead) and, five-card, none of them held a flush (:func:`sims.loo.tricks.could_have_played`,
drawing up to ``TRIES`` deals for each sample, then keeping only the suits shown void).
The deals are drawn from a stream seeded by the position itself (:func:`position_key`), not
from the seat's: the same position always gets the same card, in a deal of the engine as in
the advisor's play-outs, whose values are then exact wherever its deals are every one.
When I am the last to play to the trick before the last and one or two others stand,
every deal of their last cards is counted instead: the choice is then the advisor's
exact best.
"""

from __future__ import annotations

import csv
import json
from functools import cache
from importlib import resources

import numpy as np

from ...core.arrays import copy_into, copy_rows
from ...core.kernel import njit
from ...core.masks import popcount
from ...core.rng import fold, randint, seed_state
from ..contract import (
    CARD_SIG,
    DECIDE_SIG,
    MAX_CARDS,
    MAX_SEATS,
    MISS,
    PASS,
    PLAY,
    S_DECLARED,
    S_LEGAL,
    S_LOO,
    S_MISS,
    S_N_PLAYED,
    S_N_STOOD,
    S_PACK,
    S_PAM,
    S_PLAYERS,
    S_ROLE,
    S_SHARE,
    S_STOOD,
    S_TRICK,
    S_TRICK_START,
    S_TRICKS,
    S_TRUMP,
    S_TRUMP_SUIT,
)
from ..rules import MAX_PLAYERS, MIN_PLAYERS, R_CARDS, R_PAM_CIVIL
from ..tricks import is_trump_ace, lawful_holding, power, shown_laws, suit_of
from .hands import FIVE_CARD_CLASSES, MISS_CLASS, N_CATEGORIES, THREE_CARD_CLASSES, category, hand_class

ORDERS = MAX_PLAYERS  # order of declaring, 1 .. players
BEFORE = 3  # players standing before: 0, 1, 2 or more
STATS = ("won", "looed")
THREE_CLASSES = THREE_CARD_CLASSES + 1  # and the miss
PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
THREE_SIZE = PLAYER_COUNTS * ORDERS * BEFORE * THREE_CLASSES * 2
FIVE_SIZE = PLAYER_COUNTS * ORDERS * BEFORE * FIVE_CARD_CLASSES * 2
DECLARE_SIZE = THREE_SIZE + FIVE_SIZE
EXCHANGE_SIZE = PLAYER_COUNTS * N_CATEGORIES
SEARCH = ("samples",)
TRIES = 64  # deals drawn for one sample before the laws of the play but voids are let go

DECLARE_FILE = "expert_declare.csv"
EXCHANGE_FILE = "expert_exchange.csv"
PROVENANCE_FILE = "expert_tables.json"


@njit(cache=True, inline="always")
def cell(cards, players, order, before, klass):
    """Index of the ``won`` entry of a cell of the declaration tables (``looed`` follows it)."""
    classes = THREE_CLASSES if cards == 3 else FIVE_CARD_CLASSES
    base = 0 if cards == 3 else THREE_SIZE
    return (
        base
        + ((((players - MIN_PLAYERS) * ORDERS + order - 1) * BEFORE + min(before, BEFORE - 1)) * classes + klass) * 2
    )


@njit(cache=True)
def declare_from_table(hand, state, rules, table):
    """PLAY, MISS or PASS, whichever the table says brings the most money (ties to passing, then playing)."""
    cards, n = rules[R_CARDS], state[S_PLAYERS]
    order, before = state[S_DECLARED] + 1, state[S_N_STOOD]
    share, loo = state[S_SHARE], state[S_LOO]
    at = cell(cards, n, order, before, hand_class(hand, state[S_TRUMP_SUIT], state[S_PAM]))
    best, answer = 0.0, PASS
    stand = share * table[at] - loo * table[at + 1]
    if stand > best:
        best, answer = stand, PLAY
    if state[S_MISS] == 1:
        at = cell(cards, n, order, before, MISS_CLASS)
        if share * table[at] - loo * table[at + 1] > best:
            answer = MISS
    return answer


@njit(DECIDE_SIG, cache=True)
def expert_declare(hand, state, rules, rng, params):
    """:func:`declare_from_table` with the learnt tables (``params``)."""
    return declare_from_table(hand, state, rules, params)


@njit(cache=True)
def unseen_categories(hand, state):
    """How many cards of each category the player has not seen (not in his hand, not the trump)."""
    trump_suit, pam = state[S_TRUMP_SUIT], state[S_PAM]
    counts = np.zeros(N_CATEGORIES, dtype=np.int64)
    for card in range(52):
        counts[category(card, trump_suit, pam)] += 1
    for card in hand:
        counts[category(card, trump_suit, pam)] -= 1
    counts[category(state[S_TRUMP], trump_suit, pam)] -= 1
    return counts


@njit(DECIDE_SIG, cache=True)
def expert_exchange(hand, state, rules, rng, params):
    """Change the cards less likely to win a trick than a card drawn from the unseen pack, the weakest first,
    while the pack lasts (``params``: win chances by players and category)."""
    trump_suit, pam = state[S_TRUMP_SUIT], state[S_PAM]
    row = params[(state[S_PLAYERS] - MIN_PLAYERS) * N_CATEGORIES : (state[S_PLAYERS] - MIN_PLAYERS + 1) * N_CATEGORIES]
    unseen = unseen_categories(hand, state)
    drawn = 0.0
    for c in range(N_CATEGORIES):
        drawn += unseen[c] * row[c]
    drawn /= unseen.sum()
    n = hand.shape[0]
    mask = 0
    for _ in range(min(n, state[S_PACK])):
        worst, worst_value = -1, drawn
        for i in range(n):
            value = row[category(hand[i], trump_suit, pam)]
            if not (mask >> i) & 1 and value < worst_value:
                worst, worst_value = i, value
        if worst < 0:
            break
        mask |= 1 << worst
    return mask


# -- card play by determinised search --------------------------------------------------------------------


# A card's power in its own suit and the suit (:func:`card_table`), for the play-outs: read from a table made once a
# decision rather than found again at every card; slot EMPTY (a card -1, masked to 63) is read and never chosen.
TABLE_SLOTS, EMPTY = 64, 63
# Which of the laws' choices a card is in, greedy's first the least (leading, every card is in one).
LEAD, HEAD, FOLLOW, OVER, ANY, WAIT = 0, 0, 1, 2, 3, 4
UNCHOSEN = 1 << 20  # the key of an empty slot, above every card's (:func:`greedy_lawful`)


@njit(cache=True)
def card_table(trump_suit, pam):
    """``table[card]``: the card's power in its own suit (:func:`sims.loo.tricks.power`) times 4, plus that suit (Pam
    a trump)."""
    table = np.zeros(TABLE_SLOTS, dtype=np.int64)
    for card in range(52):
        suit = suit_of(card, trump_suit, pam)
        table[card] = power(card, suit, trump_suit, pam) * 4 + suit
    return table


@njit(cache=True, inline="always")
def greedy_lawful(hand, table, led, led_suit, best_power, trump_suit, pam, civil):
    """``greedy_choice(hand, legal_mask(hand, ...))`` in one pass over the hand, for the play-outs.  Leading,
    the strongest card; following, the laws' first choice of cards that is not empty (those heading the trick,
    else those following suit, else the trumps above the trick, else any, Pam be civil) and in it the weakest
    card: greedy's cheapest winner where all of them win, its weakest card where none does (ties to the first
    in hand, as greedy's).  Each card held gets a key, (which choice, its power, its place in hand), the power
    reversed when leading, and the least key is played: the hand is read once, whatever the cards (``table``:
    :func:`card_table`; at most eight cards, three bits of place)."""
    civil_ace = civil and pam >= 0 and led >= 0 and is_trump_ace(led, trump_suit)
    best = UNCHOSEN
    for i in range(hand.shape[0]):
        card = hand[i]
        x = table[card & EMPTY]
        own, suit = x >> 2, x & 3  # its power in the suit led when it follows or trumps
        if led < 0:
            key = LEAD * 256 + 255 - own
        else:
            wins = own > best_power
            if suit == led_suit:
                choice = HEAD if wins else FOLLOW
            else:
                choice = OVER if suit == trump_suit and wins else ANY
            key = choice * 256 + own
        if civil_ace and card == pam:  # played only when it is the last card held
            key = WAIT * 256
        best = min(best, UNCHOSEN if card < 0 else key * 8 + i)
    return best & 7


@njit(cache=True, refcounts=False)
def play_out(hands, lead, trick, n_trick, first_trick, k, table, trump_suit, pam, civil, tricks):
    """Play every card left in ``hands`` (row j: the j-th stander in order from the dealer's left; -1
    played), ``greedy`` for everyone, from trick ``first_trick`` whose first ``n_trick`` cards ``trick``
    were played from stander ``lead`` on; adds the tricks won to ``tricks[j]`` (``table``: :func:`card_table`)."""
    m = hands.shape[0]
    for _ in range(first_trick, k):
        led, led_suit, best_power, winner = -1, -1, -1, -1
        who = lead
        for j in range(m):
            if j < n_trick:
                card = trick[j]
            else:
                i = greedy_lawful(hands[who], table, led, led_suit, best_power, trump_suit, pam, civil)
                card = hands[who, i]
                hands[who, i] = -1
            x = table[card]
            if j == 0:
                led, led_suit = card, x & 3
            p = x >> 2 if (x & 3) == led_suit or (x & 3) == trump_suit else -1  # power(card, led_suit, ...)
            if p > best_power:
                best_power, winner = p, who
            who = who + 1 if who + 1 < m else 0
        tricks[winner] += 1
        lead = winner
        n_trick = 0


@njit(cache=True)
def _voids(cards, by, m, trump_suit, pam):
    """The suits each stander has shown void in (a mask of suits), Pam aside (Pam be civil)."""
    voids = np.zeros(m, dtype=np.int64)
    for i in range(cards.shape[0]):
        if i % m:
            led_suit = suit_of(cards[i - i % m], trump_suit, pam)
            if suit_of(cards[i], trump_suit, pam) != led_suit:
                voids[by[i]] |= 1 << led_suit
    return voids


@njit(cache=True)
def _deal_unseen(rng, unseen, n_unseen, need, cards, by, pam, trump_suit, hands, me):
    """Deal ``need[j]`` unseen cards to each other stander j, avoiding the suits he has shown void in
    (:func:`_voids`) where the cards allow (Pam may lie anywhere)."""
    voids = _voids(cards, by, hands.shape[0], trump_suit, pam)
    for i in range(n_unseen - 1, 0, -1):
        j = randint(rng, i + 1)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    used = np.zeros(n_unseen, dtype=np.bool_)
    m = hands.shape[0]
    for strict in (True, False):
        for j in range(m):
            if j == me:
                continue
            have = 0
            for c in range(hands.shape[1]):
                have += hands[j, c] >= 0
            for i in range(n_unseen):
                if have >= need[j]:
                    break
                card = unseen[i]
                if used[i]:
                    continue
                if strict and card != pam and (voids[j] >> suit_of(card, trump_suit, pam)) & 1:
                    continue
                for c in range(hands.shape[1]):
                    if hands[j, c] < 0:
                        hands[j, c] = card
                        break
                used[i] = True
                have += 1


@njit(cache=True, refcounts=False)
def _deal_lawful(rng, unseen, n_unseen, need, me, cards, by, trump_suit, pam, laws, hands):
    """Deal ``need[j]`` unseen cards to each other stander j, uniformly among the deals in which every card he
    played was one the laws allowed him (drawing up to ``TRIES`` deals; ``laws``: the masks
    :func:`sims.loo.tricks.shown_laws` read from the cards played, ``(known, forbid, refused, first_leader)``);
    failing that, avoiding the suits he has shown void in (:func:`_deal_unseen`)."""
    known, forbid, refused, first_leader = laws
    m = hands.shape[0]
    total = 0
    for j in range(m):
        if j != me:
            total += need[j]
    for _ in range(TRIES):
        for i in range(total):  # the first ``total`` of a shuffle of the unseen cards
            x = i + randint(rng, n_unseen - i)
            unseen[i], unseen[x] = unseen[x], unseen[i]
        at, lawful = 0, True
        for j in range(m):
            if j != me:
                hidden = np.int64(0)
                for c in range(hands.shape[1]):
                    card = unseen[at + c] if c < need[j] else -1
                    hands[j, c] = card
                    if card >= 0:
                        hidden |= np.int64(1) << card
                at += need[j]
                if not lawful_holding(j, hidden, known, forbid, refused, first_leader, trump_suit, pam):
                    lawful = False
                    break
        if lawful:
            return
    for j in range(m):
        if j != me:
            hands[j, :] = -1
    _deal_unseen(rng, unseen, n_unseen, need, cards, by, pam, trump_suit, hands, me)


@njit(cache=True)
def _last_cards(hidden, laws, lawful):
    """When I am the last to play to the trick before the last and one or two others stand (each holding one
    card): in ``lawful[j]`` the cards (a 52-bit mask) the laws allow stander j to hold (:func:`_deal_lawful`'s
    ``laws``, :func:`sims.loo.tricks.lawful_holding`), and how many deals of them there are (:func:`_deals`); -1
    otherwise.  ``hidden``: the cards to deal (:func:`expert_card`)."""
    unseen, n_unseen, need, me, _, _, trump_suit, pam = hidden
    known, forbid, refused, first_leader = laws
    m = lawful.shape[0]
    if m > 3:
        return -1
    for j in range(m):
        if j != me and need[j] != 1:
            return -1
    lawful[:] = 0
    for j in range(m):
        if j == me:
            continue
        for i in range(n_unseen):
            bit = np.int64(1) << unseen[i]
            if lawful_holding(j, bit, known, forbid, refused, first_leader, trump_suit, pam):
                lawful[j] |= bit
    return _deals(lawful[(me + 1) % m], lawful[(me + 2) % m], m == 3)


@njit(cache=True)
def _deals(a, b, two):
    """Deals of one card to each of one or two players from the cards of masks ``a`` (and ``b``), none
    twice."""
    return popcount(a) * popcount(b) - popcount(a & b) if two else popcount(a)


@njit(cache=True)
def _beaten_by(card, led_suit, trump_suit, pam):
    """The cards (a 52-bit mask) that take a trick led in ``led_suit`` from ``card``."""
    beat = power(card, led_suit, trump_suit, pam)
    mask = np.int64(0)
    for c in range(52):
        if power(c, led_suit, trump_suit, pam) > beat:
            mask |= np.int64(1) << c
    return mask


@njit(cache=True)
def _winner(cards, lead, trump_suit, pam):
    """The index in ``cards`` (one from each stander, played from ``lead`` round) of the card taking the
    trick."""
    m = cards.shape[0]
    led_suit = suit_of(cards[lead], trump_suit, pam)
    best, best_power = lead, -1
    for t in range(m):
        j = (lead + t) % m
        p = power(cards[j], led_suit, trump_suit, pam)
        if p > best_power:
            best, best_power = j, p
    return best


@njit(cache=True)
def _every_last_trick(hand, options, trick, lead, me, lawful, trump_suit, pam, so_far, share, loo, value):
    """Add to ``value[o]`` my money over every deal of the others' last cards (``lawful``: :func:`_last_cards`)
    when I play ``hand[options[o]]``, the last card to this trick (``trick``, led by stander ``lead``), and my
    other card to the last trick: counted, not dealt one by one (I take the last trick when no card beats
    mine)."""
    m = lawful.shape[0]
    two = m == 3
    a, b = (me + 1) % m, (me + 2) % m
    total = _deals(lawful[a], lawful[b], two)
    now = np.empty(m, dtype=np.int64)
    for o in range(options.shape[0]):
        for t in range(m - 1):
            now[(lead + t) % m] = trick[t]
        now[me] = hand[options[o]]
        leader = _winner(now, lead, trump_suit, pam)
        mine = -1
        for i in range(hand.shape[0]):
            if hand[i] >= 0 and i != options[o]:
                mine = hand[i]
        if leader == me:  # I lead my last card: no other card may beat it
            beat = _beaten_by(mine, suit_of(mine, trump_suit, pam), trump_suit, pam)
            wins = _deals(lawful[a] & ~beat, lawful[b] & ~beat, two)
        else:  # the leader's card, then no card above mine
            other = a + b - leader
            wins = 0
            led = lawful[leader]
            while led:
                c = 0
                while not (led >> c) & 1:
                    c += 1
                led &= ~(np.int64(1) << c)
                s = suit_of(c, trump_suit, pam)
                if power(mine, s, trump_suit, pam) > power(c, s, trump_suit, pam):
                    wins += (
                        popcount(lawful[other] & ~_beaten_by(mine, s, trump_suit, pam) & ~(np.int64(1) << c))
                        if two
                        else 1
                    )
        now_won = so_far + (leader == me)
        value[o] += share * (now_won * total + wins) - (loo * (total - wins) if now_won == 0 else 0)


@njit(cache=True, inline="always")
def _alone(card, trump_suit, pam, civil):
    """Pam, and the ace of trumps when Pam must be civil (leading it binds Pam): alike no other card."""
    return card == pam or (civil and pam >= 0 and is_trump_ace(card, trump_suit))


@njit(cache=True)
def _alike(hand, options, others, trump_suit, pam, civil, alike):
    """``alike[o]``: the first option that wins and loses the same tricks as ``hand[options[o]]`` whatever the
    others hold (``o`` itself if none): a card of the same suit with no card between them that another stander
    may hold or has played to this trick (``others``, a 52-bit mask), and none of mine of another suit between
    or level with them (greedy compares its own cards across suits); not a card :func:`_alone`.  Greedy's
    play-outs then take the same tricks with either card, so the search values it once."""
    for o in range(options.shape[0]):
        alike[o] = o
        card = hand[options[o]]
        if _alone(card, trump_suit, pam, civil):
            continue
        suit = suit_of(card, trump_suit, pam)
        mine = power(card, suit, trump_suit, pam)
        for e in range(o):
            first = hand[options[e]]
            if alike[e] != e or _alone(first, trump_suit, pam, civil):
                continue
            if suit_of(first, trump_suit, pam) != suit:
                continue
            theirs = power(first, suit, trump_suit, pam)
            low, high = min(mine, theirs), max(mine, theirs)
            between = False
            for i in range(hand.shape[0]):  # greedy leads its strongest card, throws its weakest, across suits
                x = hand[i]
                if x >= 0 and suit_of(x, trump_suit, pam) != suit:
                    between |= low <= power(x, suit_of(x, trump_suit, pam), trump_suit, pam) <= high
            for c in range(52):
                if (others >> c) & 1 and suit_of(c, trump_suit, pam) == suit:
                    if low < power(c, suit, trump_suit, pam) < high:
                        between = True
                        break
            if not between:
                alike[o] = e
                break


@njit(cache=True, refcounts=False)
def _sampled_values(rng, samples, deal, play, hand, options, alike, base, hands, tricks, value):
    """Add to ``value[o]`` my money when I play ``hand[options[o]]`` in each of ``samples`` deals of the unseen
    cards (:func:`_deal_lawful`, dealt into ``base``), everyone then playing ``greedy`` (:func:`play_out`); an
    option alike an earlier one (:func:`_alike`) gets that one's value."""
    unseen, n_unseen, need, me, cards, by, trump_suit, pam, laws = deal
    lead, trick, n_trick, first_trick, k, table, civil, so_far, share, loo = play
    for _ in range(samples):
        _deal_lawful(rng, unseen, n_unseen, need, me, cards, by, trump_suit, pam, laws, base)
        for o in range(options.shape[0]):
            if alike[o] != o:
                continue
            copy_rows(hands, base)
            trick[n_trick] = hand[options[o]]
            hands[me, options[o]] = -1
            tricks[:] = 0
            play_out(hands, lead, trick, n_trick + 1, first_trick, k, table, trump_suit, pam, civil, tricks)
            won = so_far + tricks[me]
            value[o] += share * won - (loo if won == 0 else 0)
    for o in range(options.shape[0]):
        value[o] = value[alike[o]]


@njit(cache=True)
def position_key(hand, played, state, rules):
    """The key of the stream the search draws its deals from (:func:`sims.core.rng.seed_state`): the position as
    the player sees it folded in (:func:`sims.core.rng.fold`): the cards he holds, every card played and by whom,
    the trump and Pam, the rules' cards and Pam be civil, the players, who stands, his role, a trick's share and
    the looe."""
    held = np.int64(0)
    for c in hand:
        if c >= 0:
            held |= np.int64(1) << c
    key = fold(np.uint64(0), held)
    for value in (
        hand.shape[0],
        rules[R_PAM_CIVIL],
        state[S_PLAYERS],
        state[S_ROLE],
        state[S_STOOD],
        state[S_TRUMP],
        state[S_PAM] + 1,
        state[S_SHARE],
        state[S_LOO],
    ):
        key = fold(key, value)
    for i in range(state[S_N_PLAYED]):
        key = fold(key, played[i, 0] * MAX_SEATS + played[i, 1])
    return key


@njit(CARD_SIG, cache=True)
def expert_card(hand, played, state, rules, rng, params):
    """The legal card that brings the most money over ``samples`` determinised deals, or over every deal in the
    last tricks (module docstring); the deals are drawn from the position's own stream (:func:`position_key`),
    not from the seat's ``rng``."""
    samples = max(1, int(params[0]))
    n, k = state[S_PLAYERS], hand.shape[0]
    trump_suit, pam, civil = state[S_TRUMP_SUIT], state[S_PAM], rules[R_PAM_CIVIL] != 0
    me_role = state[S_ROLE]
    # The standers in order from the dealer's left, and where I sit among them.
    seq = np.empty(MAX_SEATS, dtype=np.int64)
    m, me = 0, 0
    for t in range(1, n + 1):
        if (state[S_STOOD] >> (t % n)) & 1:
            if t % n == me_role:
                me = m
            seq[m] = t % n
            m += 1
    index_of = np.full(MAX_SEATS, -1, dtype=np.int64)
    for j in range(m):
        index_of[seq[j]] = j
    # What I have seen: my hand, the cards played (and by whom), the trump.
    seen = np.zeros(52, dtype=np.bool_)
    for c in hand:
        if c >= 0:
            seen[c] = True
    seen[state[S_TRUMP]] = True
    n_played = state[S_N_PLAYED]
    cards = np.empty(n_played, dtype=np.int64)
    by = np.empty(n_played, dtype=np.int64)
    n_shown = np.zeros(m, dtype=np.int64)
    for i in range(n_played):
        cards[i], by[i] = played[i, 0], index_of[played[i, 1]]
        seen[cards[i]] = True
        n_shown[by[i]] += 1
    unseen = np.empty(52, dtype=np.int64)
    n_unseen = 0
    for c in range(52):
        if not seen[c]:
            unseen[n_unseen] = c
            n_unseen += 1
    need = k - n_shown
    # The trick so far.
    start = state[S_TRICK_START]
    n_trick = n_played - start
    trick = np.full(MAX_SEATS, -1, dtype=np.int64)
    for i in range(n_trick):
        trick[i] = played[start + i, 0]
    lead = index_of[played[start, 1]] if n_trick > 0 else me
    share, loo = state[S_SHARE], state[S_LOO]
    so_far = state[S_TRICKS + me_role]

    options = np.empty(MAX_CARDS, dtype=np.int64)
    n_options = 0
    for i in range(k):
        if (state[S_LEGAL] >> i) & 1:
            options[n_options] = i
            n_options += 1
    value = np.zeros(n_options, dtype=np.float64)
    base = np.full((m, k), -1, dtype=np.int64)
    copy_into(base[me], hand)
    hands = np.empty((m, k), dtype=np.int64)
    tricks = np.zeros(m, dtype=np.int64)
    lawful = np.zeros(m, dtype=np.int64)
    # The cards to deal the other standers: those I have not seen, how many each still holds, as the cards each
    # played (and the trump) allow.
    hidden = (unseen, n_unseen, need, me, cards, by, trump_suit, pam)
    known = np.zeros(m, dtype=np.int64)
    for i in range(n_played):
        known[by[i]] |= np.int64(1) << cards[i]
    forbid = np.empty(m, dtype=np.int64)
    refused, first_leader = shown_laws(cards, by, known, trump_suit, pam, civil, forbid)
    laws = (known, forbid, refused, first_leader)
    if _last_cards(hidden, laws, lawful) > 0:
        _every_last_trick(
            hand, options[:n_options], trick, lead, me, lawful, trump_suit, pam, so_far, share, loo, value
        )
    else:
        deal = hidden + (laws,)
        play = (lead, trick, n_trick, state[S_TRICK], k, card_table(trump_suit, pam), civil, so_far, share, loo)
        others = np.int64(0)  # the cards another stander may hold or has played to this trick
        for i in range(n_unseen):
            others |= np.int64(1) << unseen[i]
        for i in range(start, n_played):
            others |= np.int64(1) << cards[i]
        alike = np.empty(n_options, dtype=np.int64)
        _alike(hand, options[:n_options], others, trump_suit, pam, civil, alike)
        draws = np.empty(4, dtype=np.uint64)
        seed_state(draws, position_key(hand, played, state, rules), 0)
        _sampled_values(draws, samples, deal, play, hand, options[:n_options], alike, base, hands, tricks, value)
    best = 0
    for o in range(1, n_options):
        if value[o] > value[best]:
            best = o
    return options[best]


# -- the shipped tables -------------------------------------------------------------------------------


def _data(name: str):
    return resources.files("sims.loo").joinpath("data", name)


@cache
def declare_table() -> np.ndarray:
    """The shipped declaration tables as the ``expert`` declare policy's parameter vector."""
    table = np.zeros(DECLARE_SIZE)
    with _data(DECLARE_FILE).open(encoding="utf-8") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            at = cell(int(row["cards"]), int(row["players"]), int(row["order"]), int(row["before"]), int(row["class"]))
            table[at], table[at + 1] = float(row["won"]), float(row["looed"])
    return table


@cache
def exchange_table() -> np.ndarray:
    """The shipped exchange table as the ``expert`` exchange policy's parameter vector."""
    table = np.zeros(EXCHANGE_SIZE)
    with _data(EXCHANGE_FILE).open(encoding="utf-8") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            table[(int(row["players"]) - MIN_PLAYERS) * N_CATEGORIES + int(row["category"])] = float(row["wins"])
    return table


def provenance() -> dict:
    """How the shipped tables were made (:mod:`sims.loo.policies.self_play`)."""
    return json.loads(_data(PROVENANCE_FILE).read_text(encoding="utf-8"))


def named_declare_tables() -> dict:
    return {"self_play": declare_table()}


def named_exchange_tables() -> dict:
    return {"self_play": exchange_table()}
