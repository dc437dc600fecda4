"""One hand and one whole game of All Fours: the njit kernels.

A hand (Sections 87-96 §91-93, Mottoes "Laws of All-Fours", docs/rules.md): six cards each,
three at a time from the eldest; the next card turned for trump, a knave scoring 1 to
the dealer at once.  The eldest stands or begs; the dealer gives one ("take one") or
runs the cards: three more each and the next card turned, again while the suit first
turned keeps turning, each knave turned scoring 1 to the dealer; a pack too short for
the next round means a new deal by the same dealer.  Then the play (law iii: follow
suit or trump; void, any card; the highest trump, else the highest card of the suit
led, takes the trick, and its winner leads; a player with only one card he may play
plays it unasked), and the points in order: high (the holder of the highest trump in
play), low (the player the lowest trump in play was dealt to, even if it is taken),
jack (the winner of the knave of trumps), game (the side whose tricks reckon most;
equal totals per ``game_tie``, none when no counting card was in play).  A game ends
the moment a side reaches the target.

The deck is shuffled as it is dealt: the card at position ``pos`` is drawn uniformly
from those not yet dealt (one Fisher-Yates step per card), so a hand that is never
run draws 13 numbers, not 52.  :func:`play_hand` with a ``pack`` not shuffled deals a stacked
deck as it lies instead (rule-book replays), a new pack of 52 for each new deal.

Points go into ``scores[side]`` (side = seat % 2) and into ``comp[side role, component]``
(side role 0: the dealer's side, 1: the eldest's); what happened into ``events``.  The
kernels return the winning side, ``NO_WINNER``, ``POLICY_ERROR`` (the situation in
``err``) or ``DECK_OUT`` (a stacked deck with no pack left for a new deal).
"""

from __future__ import annotations

import numpy as np

from ..core.cut import cut_for_deal
from ..core.errors import E_ANSWER, E_DECISION, E_GAME, E_SEAT
from ..core.kernel import njit
from ..core.masks import bit
from ..core.rng import next_u64, randint, seed_state
from ..core.streams import overrun, own_stream, stream_intact
from ..core.unowned import borrowed
from .cards import CUT_ORDER, KNAVE, beats, game_points, knave_of, whist_rank
from .contract import (
    BEG,
    D_ANSWER,
    D_BEG,
    D_DISCARD,
    D_PLAY,
    GIVE,
    N_DECISIONS,
    P_CARD,
    P_ROLE,
    S_BEGGED,
    S_DEALER,
    S_DISCARDED,
    S_HELD,
    S_LEAD_SUIT,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_PLAYERS,
    S_ROLE,
    S_RUNS,
    S_SEAT,
    S_SIZE,
    S_TARGET,
    S_TRICK_START,
    S_TRUMP,
    S_TURNED,
    S_TURNED_MASK,
    is_choice,
    is_held,
)
from .maxims import N_MAXIMS, advise, situation
from .rules import (
    HAND,
    PACK,
    PACKET,
    R_BEGGING,
    R_BEGS,
    R_DISCARD_TO_SIX,
    R_GAME_TIE,
    R_HAND_MAX,
    R_MAY_TRUMP,
    R_PLAYERS,
    R_RUN_KNAVES,
    R_TARGET,
)

MAX_SEATS = 4

# Points by where they come from; ``total`` is their sum.
COMPONENTS = ("turned", "gift", "high", "low", "jack", "game", "total")
C_TURNED, C_GIFT, C_HIGH, C_LOW, C_JACK, C_GAME, C_TOTAL = range(7)
N_COMP = len(COMPONENTS)

# What happened in a hand, counted per hand (docs/rules.md and docs/getting-started/analyst.md define each; the last seven only in
# hands played out, not in those a turned knave ended):
# begs: times the eldest begged (a hand dealt again is begged again, so it can be 2 or more);
# gave one: the dealer answered "take one" (0 or 1);
# rounds run: rounds of three more cards each and a card turned, over the hand's new deals (0 or more);
# redeals: new deals because the pack ran short while running the cards;
# nothing to reckon: no card counting for game (A K Q J 10) in the tricks;
# game tied on points: both sides' tricks reckon the same total for game, above nothing (game_tie decides);
# all fours, one trump: one side scores high, low, jack and game, the knave the only trump in play;
# all fours: one side scores high, low, jack and game;
# one card all fours (law vi read literally): the knave of trumps is the only trump in play and the only card
#   in the tricks that counts for game, so it alone is high, low, jack and game;
# knave in play: the knave of trumps is among the cards played (dealt to someone: not turned, not thrown out);
# trumps in play: how many trumps are among the cards played;
# knaves turned running: knaves turned while running the cards (each scores 1 to the dealer if run_knaves).
EVENTS = (
    "begs",
    "gave one",
    "rounds run",
    "redeals",
    "nothing to reckon",
    "game tied on points",
    "all fours, one trump",
    "all fours",
    "one card all fours",
    "knave in play",
    "trumps in play",
    "knaves turned running",
)
(
    V_BEGGED,
    V_GAVE,
    V_RAN,
    V_REDEALT,
    V_NOTHING,
    V_TIED,
    V_ONE_TRUMP,
    V_ALL_FOURS,
    V_ONE_CARD,
    V_KNAVE_IN_PLAY,
    V_TRUMPS_IN_PLAY,
    V_KNAVES_RUNNING,
) = range(12)
N_EVENTS = len(EVENTS)

NO_WINNER = -1
POLICY_ERROR = -2
DECK_OUT = -3
GO_ON, SHORT = -4, -5  # what a phase of a hand returns besides a winner: play on; the pack ran short

# ``err`` after E_GAME: the trump, the suit led (-1), the card turned, the cards held, then the hand.
E_TRUMP, E_LEAD, E_TURNED, E_N_CARDS, E_CARDS = E_GAME, E_GAME + 1, E_GAME + 2, E_GAME + 3, E_GAME + 4

# Game record columns.
G_FIRST_DEALER, G_WINNER, G_HANDS, G_SCORE = 0, 1, 2, 3  # final score of side s at G_SCORE + s
G_COLS = G_SCORE + 2
MAX_HANDS = 100_000

# ``given`` (:func:`play_given`): the beg, the answer, the number k of cards thrown out given, those k (each
# the index of the card in its player's hand as dealt, -1: ask), then the cards of the play in order.
GIVEN_BEG, GIVEN_ANSWER, GIVEN_N_THROWN, GIVEN_THROWN = 0, 1, 2, 3
NOTHING_GIVEN = np.array([-1, -1, 0], dtype=np.int64)


@njit(cache=True)
def new_work(rules):
    """Scratch for :func:`play_hand`: the pack, the hands by role, the cards played, a policy's view,
    the role each card in play was dealt to, each role's discards, and in the play the positions in each
    role's hand of the cards he holds, by suit (bit i of ``suits[role, s]``: ``hands[role, i]`` is of suit s)."""
    deck = np.arange(PACK, dtype=np.int64)
    hands = np.full((MAX_SEATS, rules[R_HAND_MAX]), -1, dtype=np.int64)
    played = np.full((2, rules[R_PLAYERS] * rules[R_HAND_MAX]), -1, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    holder = np.full(PACK, -1, dtype=np.int64)
    discards = np.zeros(MAX_SEATS, dtype=np.int64)
    suits = np.zeros((MAX_SEATS, 4), dtype=np.int64)
    return deck, hands, played, state, holder, discards, suits


@njit(cache=True, inline="always")
def borrowed_work(work):
    """The scratch of :func:`new_work`, each array :func:`~sims.core.unowned.borrowed`."""
    return (
        borrowed(work[0]),
        borrowed(work[1]),
        borrowed(work[2]),
        borrowed(work[3]),
        borrowed(work[4]),
        borrowed(work[5]),
        borrowed(work[6]),
    )


@njit(cache=True, inline="always")
def _draw(pack, pos):
    """The card at ``pos``: drawn from the cards not yet dealt when shuffling, else as the deck lies."""
    deck, shuffle, deck_rng = pack
    if shuffle:
        j = pos + randint(deck_rng, PACK - pos)
        deck[pos], deck[j] = deck[j], deck[pos]
    return deck[pos]


@njit(cache=True, inline="always")
def _deal_packets(hands, held, n, pack, pos):
    """Three more cards to each of the ``n`` players after the ``held`` each holds, the eldest first and the
    dealer last (the deal, and each round of running the cards); returns the next place in the deck."""
    for t in range(n):
        role = t + 1 if t + 1 < n else 0
        for k in range(PACKET):
            hands[role, held + k] = _draw(pack, pos)
            pos += 1
    return pos


@njit(cache=True, inline="always")
def side_of(rules, dealer, role):
    """The side (seat % 2: partners sit opposite) of the player in ``role``."""
    return ((dealer + role) % rules[R_PLAYERS]) % 2


@njit(cache=True, inline="always")
def _score(rules, score, dealer, role, component, points):
    """Score ``points`` for the side of the player in ``role`` (``score``: the scores by side, the points by side
    role and component, whether the target ends the hand); True if that side has reached the target."""
    scores, comp, check_target = score
    side = side_of(rules, dealer, role)
    scores[side] += points
    comp[role % 2, component] += points
    comp[role % 2, C_TOTAL] += points
    return check_target and scores[side] >= rules[R_TARGET]


@njit(cache=True, inline="always")
def _view(state, rules, scores, dealer, role, discards):
    """The seat-dependent part of what a policy sees."""
    seat = dealer + role  # (dealer + role) % players, both below players
    if seat >= rules[R_PLAYERS]:
        seat -= rules[R_PLAYERS]
    state[S_SEAT] = seat
    state[S_ROLE] = role
    state[S_MY_SCORE] = scores[seat & 1]
    state[S_OPP_SCORE] = scores[1 - (seat & 1)]
    state[S_DISCARDED] = discards[role]
    return seat


@njit(cache=True, refcounts=False)
def _policy_error(err, decision, seat, answer, state, hand):
    err[E_DECISION] = 1 + decision
    err[E_SEAT] = seat
    err[E_ANSWER] = answer
    err[E_TRUMP] = state[S_TRUMP]
    err[E_LEAD] = state[S_LEAD_SUIT]
    err[E_TURNED] = state[S_TURNED]
    n = min(hand.shape[0], err.shape[0] - E_CARDS)
    for k in range(n):  # no slice copy: this kernel counts no references
        err[E_CARDS + k] = hand[k]
    err[E_N_CARDS] = n
    return POLICY_ERROR


@njit(cache=True)
def refuse_card(rules, dealer, scores, role, card, held, err, work):
    """POLICY_ERROR for a ``card`` given to ``role`` that he does not hold or may not play, told in ``err`` as
    :func:`play_tricks` tells it."""
    hand = work[1][role, :held]
    i = 0
    while i < held and hand[i] != card:
        i += 1
    seat = _view(work[3], rules, scores, dealer, role, work[5])
    return _policy_error(err, D_PLAY, seat, i, work[3], hand)


@njit(cache=True, inline="always")
def _own(params, poff, seat, decision):
    return params[poff[seat * N_DECISIONS + decision] : poff[seat * N_DECISIONS + decision + 1]]


@njit(cache=True, refcounts=False)
def _tally(tally, hand, played, state, rules, chosen, legal):
    """Agreement with the maxims: ``tally[k, 0]`` counts decisions where maxim k advises some legal cards
    but not all of them, ``tally[k, 1]`` those where the card chosen is one it advises.  A tally of one column
    counts instead, in ``tally[k, 0]``, the decisions where maxim k is the first to advise a legal card (the one
    the ``maxims`` play follows with all four on)."""
    _, unseen, best, role = situation(hand, played, state, rules)
    for k in range(N_MAXIMS):
        mask = advise(k, hand, played, state, legal, unseen, best, role) & legal
        if tally.shape[1] == 1:
            if mask != 0:
                tally[k, 0] += 1
                return
        elif mask != 0 and mask != legal:
            tally[k, 0] += 1
            tally[k, 1] += (mask >> chosen) & 1


@njit(cache=True, refcounts=False)
def play_hand(rules, dealer, score, pack, seats, events, err, work, tally):
    """One hand with ``dealer`` dealing, new deals included (see the module docstring).

    ``score`` is ``(scores, comp, check_target)``: the scores per side, updated, and the hand's points by side
    role and component; the hand stops when a side reaches the target if ``check_target``.  ``pack`` is
    ``(deck, shuffle, deck_rng)``: the cards, shuffled as they are dealt (from the stream ``deck_rng``) when
    ``shuffle``.  ``seats`` is ``(seat_rngs, policies, params, poff)``: each seat's stream, the seats' beg,
    answer, play and discard functions (``policies``) and their parameters.
    ``tally`` (``[seat, maxim, 2]``) counts the play decisions' agreement with the maxims of the seats it has rows
    for (the first seats; no rows, none).
    """
    return play_given(rules, dealer, score, pack, seats, events, err, work, tally, NOTHING_GIVEN)


@njit(cache=True, refcounts=False)
def new_deal(n, pack, base, hands, state, discards):
    """A new deal from ``deck[base:]`` of ``pack`` (shuffled as it is dealt when ``shuffle``): six cards to each
    of the ``n`` players, three at a time from the eldest, and the next card turned for trump; the state reset for
    the deal.  Returns the next place in the deck."""
    deck, shuffle, _ = pack
    if shuffle:
        for i in range(PACK):
            deck[i] = i
    pos = base
    hands[:n, :] = -1
    discards[:] = 0
    held = 0
    for _packet in range(HAND // PACKET):  # three at a time, the eldest first
        pos = _deal_packets(hands, held, n, pack, pos)
        held += PACKET
    turned = _draw(pack, pos)
    state[S_TRUMP] = turned & 3
    state[S_TURNED] = turned
    state[S_TURNED_MASK] = bit(turned)
    state[S_BEGGED] = 0
    state[S_RUNS] = 0
    state[S_N_PLAYED] = 0
    state[S_TRICK_START] = 0
    state[S_LEAD_SUIT] = -1
    state[S_HELD] = HAND
    return pos + 1


@njit(cache=True, refcounts=False)
def run_cards(n, held, pack, pos, hands, state, events):
    """One round of running the cards (Sections 87-96 §93 v): three more to each player after the ``held`` each holds,
    and the next card turned.  Returns the next place in the deck."""
    pos = _deal_packets(hands, held, n, pack, pos)
    turned = _draw(pack, pos)
    events[V_RAN] += 1
    state[S_RUNS] += 1
    state[S_TURNED] = turned
    state[S_TURNED_MASK] |= bit(turned)
    state[S_HELD] = held + PACKET
    if turned >> 2 == KNAVE:
        events[V_KNAVES_RUNNING] += 1
    return pos + 1


@njit(cache=True, inline="always")
def ask_bid(rules, dealer, scores, role, decision, seats, err, work, held, given):
    """The beg (``decision`` D_BEG, ``role`` the eldest) or the answer (D_ANSWER, role 0: the dealer) of the
    player in ``role`` holding ``held`` cards: ``given`` where it is one (>= 0), else his policy's; POLICY_ERROR
    (told in ``err``) for an answer that is not a choice or a policy that wrote past its stream."""
    hands, state = work[1], work[3]
    seat = _view(state, rules, scores, dealer, role, work[5])
    answer = given
    if given < 0:
        seat_rngs, policies, params, poff = seats
        fns = policies[0] if decision == D_BEG else policies[1]
        answer = fns[seat](
            hands[role, :held], state, rules, own_stream(seat_rngs, seat), _own(params, poff, seat, decision)
        )
        if not stream_intact(seat_rngs, seat):
            overrun(err, 1 + decision, seat)
            return POLICY_ERROR
    if not is_choice(answer):
        return _policy_error(err, decision, seat, answer, state, hands[role, :held])
    return answer


@njit(cache=True, refcounts=False)
def bid(rules, dealer, score, pack, base, pos, seats, events, err, work, given, first_deal):
    """The eldest stands or begs; to a beg the dealer gives one or runs the cards until a suit other than the
    one begged on turns up (law ii: at most ``R_BEGS`` begs in a deal).  Returns ``(status, cards held)``:
    GO_ON, SHORT (the pack ran short: a new deal), a side that reached the target, or POLICY_ERROR."""
    hands, state = work[1], work[3]
    scores = score[0]
    n = rules[R_PLAYERS]
    eldest = 1 % n
    held = HAND
    begs = 0
    while True:
        given_beg = given[GIVEN_BEG] if first_deal and begs == 0 else -1
        answer = ask_bid(rules, dealer, scores, eldest, D_BEG, seats, err, work, held, given_beg)
        if answer == POLICY_ERROR:
            return POLICY_ERROR, held
        if answer != BEG:
            return GO_ON, held
        events[V_BEGGED] += 1
        begs += 1
        state[S_BEGGED] = begs
        given_answer = given[GIVEN_ANSWER] if first_deal and begs == 1 else -1
        answer = ask_bid(rules, dealer, scores, 0, D_ANSWER, seats, err, work, held, given_answer)
        if answer == POLICY_ERROR:
            return POLICY_ERROR, held
        if answer == GIVE:
            events[V_GAVE] += 1
            if _score(rules, score, dealer, eldest, C_GIFT, 1):
                return side_of(rules, dealer, eldest), held
            return GO_ON, held
        begged_suit = state[S_TRUMP]
        while True:  # run the cards until a new suit turns up
            if pos - base + PACKET * n + 1 > PACK:
                return SHORT, held
            pos = run_cards(n, held, pack, pos, hands, state, events)
            held += PACKET
            turned = state[S_TURNED]
            if rules[R_RUN_KNAVES] and turned >> 2 == KNAVE and _score(rules, score, dealer, 0, C_TURNED, 1):
                return side_of(rules, dealer, 0), held
            if turned & 3 != begged_suit:
                break
        state[S_TRUMP] = turned & 3
        if begs >= rules[R_BEGS]:
            return GO_ON, held


@njit(cache=True, refcounts=False)
def discard_to_six(rules, dealer, scores, held, seats, err, work, given, first_deal):
    """With ``discard_to_six``, after the cards were run: each player, the eldest first, throws out cards until he
    keeps six.  Returns GO_ON or POLICY_ERROR."""
    hands, state, discards = work[1], work[3], work[5]
    seat_rngs, policies, params, poff = seats
    discard_fns = policies[3]
    n = rules[R_PLAYERS]
    given_cards = GIVEN_THROWN + given[GIVEN_N_THROWN]
    j = GIVEN_THROWN
    for t in range(n):
        role = (t + 1) % n
        for _ in range(held - HAND):
            seat = _view(state, rules, scores, dealer, role, discards)
            if first_deal and j < given_cards and given[j] >= 0:
                i = given[j]
            else:
                i = discard_fns[seat](
                    hands[role, :held], state, rules, own_stream(seat_rngs, seat), _own(params, poff, seat, D_DISCARD)
                )
                if not stream_intact(seat_rngs, seat):
                    overrun(err, 1 + D_DISCARD, seat)
                    return POLICY_ERROR
            j += 1
            if not is_held(hands[role, :held], i):
                return _policy_error(err, D_DISCARD, seat, i, state, hands[role, :held])
            discards[role] |= bit(hands[role, i])
            hands[role, i] = -1
    return GO_ON


@njit(cache=True, refcounts=False)
def play_tricks(rules, dealer, scores, held, tricks, seats, err, work, tally, given):
    """The play (law iii): ``tricks`` tricks, the eldest leading to the first and each trick's winner to the
    next.  Returns ``(status, points for game in the tricks of side role 0, of side role 1, the role that took
    the knave of trumps or -1)``, status GO_ON or POLICY_ERROR; ``holder[card]`` is the role each card in play
    was dealt to."""
    _, hands, played, state, holder, discards, suits = work
    seat_rngs, policies, params, poff = seats
    play_fns = policies[2]
    n = rules[R_PLAYERS]
    given_cards = GIVEN_THROWN + given[GIVEN_N_THROWN]
    trump = state[S_TRUMP]
    holder[:] = -1
    for role in range(n):
        suits[role, :] = 0
        for i in range(held):
            c = hands[role, i]
            if c >= 0:
                holder[c] = role
                suits[role, c & 3] |= np.int64(1) << i
    may_trump = rules[R_MAY_TRUMP] != 0
    jack = knave_of(trump)
    jack_taker = -1
    reckoned_0, reckoned_1 = 0, 0  # points for game in each side role's tricks
    leader = 1 % n
    n_played = 0
    for _trick in range(tricks):
        state[S_TRICK_START] = n_played
        state[S_LEAD_SUIT] = -1
        best, best_role, points, jack_in = -1, -1, 0, False
        for j in range(n):
            role = leader + j if leader + j < n else leader + j - n
            seat = _view(state, rules, scores, dealer, role, discards)
            lead = state[S_LEAD_SUIT]  # law iii, as legal_mask reads it
            legal = suits[role, 0] | suits[role, 1] | suits[role, 2] | suits[role, 3]
            if lead >= 0 and suits[role, lead] != 0:
                legal = suits[role, lead] | suits[role, trump] if may_trump else suits[role, lead]
            if given_cards + n_played < given.shape[0]:  # a card given: held and legal, else an error
                hand = hands[role, :held]
                i = 0
                while i < held and hand[i] != given[given_cards + n_played]:
                    i += 1
                if not (i < held and (legal >> i) & 1):
                    return _policy_error(err, D_PLAY, seat, i, state, hand), 0, 0, -1
            elif legal & (legal - 1) == 0:  # one card he may play: he is not asked
                i = 0
                while not (legal >> i) & 1:
                    i += 1
            else:
                hand = hands[role, :held]
                i = play_fns[seat](
                    hand, played, state, rules, own_stream(seat_rngs, seat), _own(params, poff, seat, D_PLAY)
                )
                if not stream_intact(seat_rngs, seat):
                    overrun(err, 1 + D_PLAY, seat)
                    return POLICY_ERROR, 0, 0, -1
                if not (0 <= i < held and (legal >> i) & 1):
                    return _policy_error(err, D_PLAY, seat, i, state, hand), 0, 0, -1
                if seat < tally.shape[0]:
                    _tally(tally[seat], hand, played, state, rules, i, legal)
            card = hands[role, i]
            hands[role, i] = -1
            suits[role, card & 3] &= ~(np.int64(1) << i)
            played[P_CARD, n_played] = card
            played[P_ROLE, n_played] = role
            n_played += 1
            state[S_N_PLAYED] = n_played
            if j == 0:
                state[S_LEAD_SUIT] = card & 3
            if best < 0 or beats(card, best, trump):
                best, best_role = card, role
            points += game_points(card)
            jack_in = jack_in or card == jack
        if jack_in:
            jack_taker = best_role
        if best_role % 2 == 0:
            reckoned_0 += points
        else:
            reckoned_1 += points
        leader = best_role
    return GO_ON, reckoned_0, reckoned_1, jack_taker


@njit(cache=True, refcounts=False)
def count_points(rules, dealer, score, trump, holder, reckoned_0, reckoned_1, jack_taker, events):
    """High, low, jack and game, scored in that order (Sections 87-96 §93), and the events of the play; returns the
    side that reached the target, or NO_WINNER."""
    high, low, n_trumps = -1, -1, 0
    for c in range(trump, PACK, 4):
        if holder[c] >= 0:
            n_trumps += 1
            if high < 0 or whist_rank(c) > whist_rank(high):
                high = c
            if low < 0 or whist_rank(c) < whist_rank(low):
                low = c
    events[V_TRUMPS_IN_PLAY] += n_trumps
    jack = knave_of(trump)
    if holder[jack] >= 0:
        events[V_KNAVE_IN_PLAY] += 1
    game = -1  # the side role that scores game
    if reckoned_0 + reckoned_1 == 0:
        events[V_NOTHING] += 1
    elif reckoned_0 == reckoned_1:
        events[V_TIED] += 1
        tie = rules[R_GAME_TIE]
        game = -1 if tie == 0 else (1 if tie == 1 else 0)
    else:
        game = 0 if reckoned_0 > reckoned_1 else 1
    if (
        high >= 0
        and jack_taker >= 0
        and game >= 0
        and holder[high] % 2 == game
        and holder[low] % 2 == game
        and jack_taker % 2 == game
    ):
        events[V_ALL_FOURS] += 1
        if n_trumps == 1:
            events[V_ONE_TRUMP] += 1
            if reckoned_0 + reckoned_1 == 1:
                events[V_ONE_CARD] += 1
    if high >= 0:
        if _score(rules, score, dealer, holder[high], C_HIGH, 1):
            return side_of(rules, dealer, holder[high])
        if _score(rules, score, dealer, holder[low], C_LOW, 1):
            return side_of(rules, dealer, holder[low])
    if jack_taker >= 0 and _score(rules, score, dealer, jack_taker, C_JACK, 1):
        return side_of(rules, dealer, jack_taker)
    if game >= 0 and _score(rules, score, dealer, game, C_GAME, 1):
        return side_of(rules, dealer, game)
    return NO_WINNER


@njit(cache=True, refcounts=False)
def play_given(rules, dealer, score, pack, seats, events, err, work, tally, given):
    """:func:`play_hand` with some decisions given rather than asked (the advisor's play-outs replay the
    decisions already taken and the one advised): ``given[GIVEN_BEG]`` and ``given[GIVEN_ANSWER]`` the first
    deal's beg and answer (-1: ask); ``given[GIVEN_THROWN + j]``, j < ``given[GIVEN_N_THROWN]``, the j-th card
    thrown out with discard_to_six (the eldest's first) as its index in the hand dealt (-1: ask); after them
    the cards of the play in order (a card the player holds and may play).

    The two halves: :func:`deal_and_bid`, then :func:`play_out`."""
    status, held, first_deal = deal_and_bid(rules, dealer, score, pack, seats, events, err, work, given)
    if status != GO_ON:
        return status
    return play_out(rules, dealer, score, held, first_deal, seats, events, err, work, tally, given)


@njit(cache=True, refcounts=False)
def deal_and_bid(rules, dealer, score, pack, seats, events, err, work, given):
    """The first half of :func:`play_given`: :func:`deal` and :func:`bid` (with :func:`run_cards`), again
    while the pack runs short.  Returns ``(status, cards held, whether the deal played is the first)``: GO_ON
    (play on), a side that reached the target, POLICY_ERROR or DECK_OUT.  What follows depends only on what it
    leaves in ``work``, ``score``, ``events`` and the seats' streams."""
    shuffle = pack[1]
    base = 0
    first_deal = True  # the given beg and answer are this deal's
    while True:  # a new deal while the pack runs short
        status, pos = deal(rules, dealer, score, pack, base, work)
        held = HAND
        if status != GO_ON or not rules[R_BEGGING]:
            return status, held, first_deal
        status, held = bid(rules, dealer, score, pack, base, pos, seats, events, err, work, given, first_deal)
        if status != SHORT:
            return status, held, first_deal
        events[V_REDEALT] += 1
        first_deal = False
        if not shuffle:
            base += PACK


@njit(cache=True, inline="always")
def deal(rules, dealer, score, pack, base, work):
    """A new deal by ``dealer`` from place ``base`` of the pack (:func:`new_deal`), the knave turned scoring to
    the dealer.  Returns ``(status, the next place in the deck)``: GO_ON, the dealer's side if the knave took it
    to the target, or DECK_OUT (a stacked deck with no pack left)."""
    hands, state, discards = work[1], work[3], work[5]
    n = rules[R_PLAYERS]
    state[S_DEALER] = dealer
    state[S_PLAYERS] = n
    state[S_TARGET] = rules[R_TARGET]
    if not pack[1] and base + PACK > pack[0].shape[0]:
        return DECK_OUT, base
    pos = new_deal(n, pack, base, hands, state, discards)
    if state[S_TURNED] >> 2 == KNAVE and _score(rules, score, dealer, 0, C_TURNED, 1):
        return side_of(rules, dealer, 0), pos
    return GO_ON, pos


@njit(cache=True, refcounts=False)
def play_out(rules, dealer, score, held, first_deal, seats, events, err, work, tally, given):
    """The second half of :func:`play_given`, after :func:`deal_and_bid` with ``held`` cards each:
    :func:`keep_six`; :func:`play_tricks`; :func:`count_points`.  Returns as :func:`play_hand`."""
    state, holder = work[3], work[4]
    scores = score[0]
    status, tricks = keep_six(rules, dealer, scores, held, first_deal, seats, err, work, given)
    if status != GO_ON:
        return status
    status, reckoned_0, reckoned_1, jack_taker = play_tricks(
        rules, dealer, scores, held, tricks, seats, err, work, tally, given
    )
    if status != GO_ON:
        return status
    return count_points(rules, dealer, score, state[S_TRUMP], holder, reckoned_0, reckoned_1, jack_taker, events)


@njit(cache=True, refcounts=False)
def keep_six(rules, dealer, scores, held, first_deal, seats, err, work, given):
    """Before the play: with ``discard_to_six`` and the cards run, :func:`discard_to_six`.  Returns ``(status,
    tricks to play)``, status GO_ON or POLICY_ERROR; sets the view's ``S_HELD``."""
    tricks = held
    if rules[R_DISCARD_TO_SIX] and held > HAND:  # each keeps six, the eldest first
        status = discard_to_six(rules, dealer, scores, held, seats, err, work, given, first_deal)
        if status != GO_ON:
            return status, tricks
        tricks = HAND
    work[3][S_HELD] = tricks
    return GO_ON, tricks


@njit(cache=True)
def play_game(rules, deck_rng, seats, comp, side_comp, events, err, work, tally, row):
    """A whole game: cut for deal, hands dealt in turn to the left until a side reaches the target.

    Each hand's pack is shuffled from its own stream, keyed by the next number of the game's deck
    stream, so hand k of a game is dealt the same cards whatever the policies did before.
    ``seats`` as for :func:`play_hand`; ``comp`` takes each hand's points by side role and component,
    ``side_comp[side, component]`` adds up the game's points; ``row`` gets the game record (``G_*``).
    Returns the winning side or POLICY_ERROR.
    """
    players = rules[R_PLAYERS]
    scores = np.zeros(2, dtype=np.int64)
    hand_rng = np.empty(4, dtype=np.uint64)
    deck = work[0]
    first = cut_for_deal(deck_rng, players, deck, CUT_ORDER)
    row[:] = 0
    row[G_FIRST_DEALER] = first
    dealer = first
    winner = NO_WINNER
    hands = 0
    while winner == NO_WINNER and hands < MAX_HANDS:
        seed_state(hand_rng, next_u64(deck_rng), 0)
        comp[:, :] = 0
        winner = play_hand(
            rules,
            dealer,
            (borrowed(scores), comp, True),
            (deck, True, borrowed(hand_rng)),
            seats,
            events,
            err,
            work,
            tally,
        )
        if winner == POLICY_ERROR:
            return POLICY_ERROR
        for r in range(2):
            side = side_of(rules, dealer, r)
            for k in range(N_COMP):
                side_comp[side, k] += comp[r, k]
        hands += 1
        dealer = (dealer + 1) % players
    row[G_WINNER] = winner
    row[G_HANDS] = hands
    row[G_SCORE] = scores[0]
    row[G_SCORE + 1] = scores[1]
    return winner
