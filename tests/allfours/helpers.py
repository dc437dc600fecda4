"""Test helpers for All Fours: scripted and probe policies (user njit policies, as a user would write them).

A *scripted* policy plays (or throws out) the first card of its script that it holds and may
play, else the first card it may: rule-book replays then fix every card of the play.  A
*probe* policy chooses by a hash of everything the engine shows it (the whole state, the
hand, the cards played and by whom) and, now and then, a draw from its seat's stream, so
any difference in what a policy sees, or in the stream, changes the hand that follows.
"""

from __future__ import annotations

from sims.core.kernel import njit  # cached by every source it reaches, not its own file only

from sims.cards import parse_cards
from sims.core import policies as pol
from sims.core.rng import randint
from sims.allfours.contract import (
    HAND_SIG,
    P_CARD,
    P_ROLE,
    PLAY_SIG,
    S_LEAD_SUIT,
    S_N_PLAYED,
    S_SIZE,
    S_TRUMP,
    legal_mask,
)
from sims.allfours.rules import R_MAY_TRUMP


@njit(cache=True)
def scripted_play(hand, played, state, rules, rng, params):
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    for p in params:
        for i in range(hand.shape[0]):
            if hand[i] == int(p) and (legal >> i) & 1:
                return i
    i = 0
    while not (legal >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def scripted_discard(hand, state, rules, rng, params):
    for p in params:
        for i in range(hand.shape[0]):
            if hand[i] == int(p):
                return i
    i = 0
    while hand[i] < 0:
        i += 1
    return i


@njit(cache=True)
def revoking_play(hand, played, state, rules, rng, params):
    """The first card of the script held, legal or not; else the first card it may play."""
    for p in params:
        for i in range(hand.shape[0]):
            if hand[i] == int(p):
                return i
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    i = 0
    while not (legal >> i) & 1:
        i += 1
    return i


def revoke(cards):
    return pol.user("play", revoking_play, PLAY_SIG, [float(c) for c in parse_cards(cards)])


def script(cards, decision="play"):
    """A scripted policy playing (``play``) or throwing out (``discard``) ``cards`` in that order."""
    fn, sig = (scripted_play, PLAY_SIG) if decision == "play" else (scripted_discard, HAND_SIG)
    return pol.user(decision, fn, sig, [float(c) for c in parse_cards(cards)])


@njit(cache=True)
def _mix(h, x):
    return (h ^ x) * 1000003 + 12345


@njit(cache=True)
def _hash_view(h, hand, state):
    for j in range(S_SIZE):
        h = _mix(h, state[j])
    for c in hand:
        h = _mix(h, c)
    return h


@njit(HAND_SIG, cache=True)
def probe_choice(hand, state, rules, rng, params):
    """0 or 1 by a hash of the hand, the state and one draw."""
    return (_hash_view(randint(rng, 1000), hand, state) >> 7) & 1


@njit(HAND_SIG, cache=True)
def probe_discard(hand, state, rules, rng, params):
    """A card held, by a hash of the hand, the state and one draw."""
    h = _hash_view(randint(rng, 1000), hand, state)
    held = 0
    for c in hand:
        held += c >= 0
    pick = (h >> 7) % held
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(PLAY_SIG, cache=True)
def probe_play(hand, played, state, rules, rng, params):
    """A legal card by a hash of the hand, the state, the cards played and their players, and (every
    third card of the hand) a draw."""
    h = randint(rng, 1000) if state[S_N_PLAYED] % 3 == 0 else 0
    h = _hash_view(h, hand, state)
    for k in range(state[S_N_PLAYED]):
        h = _mix(_mix(h, played[P_CARD, k]), played[P_ROLE, k])
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    n = 0
    for i in range(hand.shape[0]):
        n += (legal >> i) & 1
    pick = (h >> 7) % n
    for i in range(hand.shape[0]):
        if (legal >> i) & 1:
            if pick == 0:
                return i
            pick -= 1
    return -1


PROBES = {"beg": probe_choice, "answer": probe_choice, "play": probe_play, "discard": probe_discard}
