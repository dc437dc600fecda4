"""Determinised search for the play: sample the hidden cards, solve each sample.

**Sampling.**  A player knows his own cards, the cards turned up, every card played and
by whom, and his own discards; the other cards ("unseen") are in the other hands or in
the pack.  Play reveals voids (law iii): a player who does not follow a plain suit led
with a card of it or a trump has none of it (with ``may_trump`` off, also when he
trumps); one who does not follow a trump led has no trump.  :func:`sample_hands` deals
each other player his number of unseen cards, uniformly among those his voids allow,
the most constrained player first, starting again when a player is left short (with
partners a deal can fail; after ``RETRIES`` failures the voids are ignored once).  When one
other player holds hidden cards and they can be dealt in at most ``EXACT_DEALS`` ways (the
last tricks of two-hand), :func:`every_hand` gives every one of them instead: the values are
then exact, as the advisor's are (:mod:`sims.allfours.advice`).

**Solving.**  With every hand known the rest of the play is a two-sided game of perfect
information.  High and low are fixed by the deal, so only jack and game depend on the
play, and a hand is worth (jack won − jack lost) + (game won − game lost), -2 .. 2, to
the side judged.  :func:`card_value` finds the exact worth of one card by bisection with
null-window alpha-beta searches (:func:`solve`: fail-soft, an explicit stack, a
transposition table at trick boundaries keyed by the cards left, the leader and the
difference in points for game so far); the bisection (:func:`narrow`) can also stop as
soon as the worth is known to lie below a mark.  A position is not searched when what the rest of
the hand can still give puts it outside the window: game goes to the side ahead once the
points for game left cannot turn it, and jack moves the value by at most one while the
knave of trumps is still to be won.  Cards that win and lose the same tricks (next to
each other in one hand, counting nothing, nothing between them) are tried once
(:func:`distinct`; not with a horizon below, whose play compares ranks across suits); the
leader tries trumps first and high cards first, a follower the cards that take the trick
from the lowest.  A search stops with ``OVER_BUDGET`` after
``ctx[X_BUDGET]`` positions.  The last trick (one card in each hand) is played at once, its positions
counted and its value stored in the table as the search would have: the budget, and so the choices
of a search that runs out of it, do not depend on how fast the positions are visited.  With
``ctx[X_LEAF]`` set, a position at a trick boundary with that many cards in each hand is not
searched: the rest of the hand is played out by greedy's rules (:func:`_greedy_rest`), its value
that play's, so the search is exact only down to that horizon (the expert sets it in hands after
the cards were run).  With ``ctx[X_TIE]`` ``NO_GAME`` game counts nothing: the knave alone is
searched for (the advisor's play-outs, when only it decides the game: :mod:`sims.allfours.solved`).
:func:`position_of` reads what the cards played so far show, for the expert and the play-outs alike.
Cards are held as bit masks in *search order*, ``suit * 13 + whist rank``, so a suit is 13
consecutive bits and higher bits win.
"""

from __future__ import annotations

import numpy as np

from ..core.kernel import njit
from ..core.masks import popcount
from ..core.rng import randint
from .cards import GAME_POINTS, KNAVE, game_points, suit_mask, whist_rank
from .contract import P_CARD, P_ROLE

SUIT13 = (1 << 13) - 1
TT_BITS = 16
TT_SIZE = 1 << TT_BITS
CHECK = (1 << (64 - TT_BITS)) - 1  # the bits of a hashed key its slot does not give
RETRIES = 64
EXACT_DEALS = 64  # at most this many deals of the hidden cards: solve every one, draw none
EXACT, LOWER, UPPER = 0, 1, 2
WIN = 3  # above any value a hand can give (|jack| + |game| <= 2)
HORIZON = 2  # tricks solved in a hand of more than the exact_cards its searcher sets; greedy plays the rest
NO_GAME = 2  # ``ctx[X_TIE]`` for a search of the knave alone: game counts nothing

# Search order <-> card ids, points for game by search index, the highest and the lowest bit of a 13-bit mask.
SEARCH_INDEX = np.array([(c & 3) * 13 + (((c >> 2) + 12) % 13) for c in range(52)], dtype=np.int64)
CARD_OF = np.argsort(SEARCH_INDEX).astype(np.int64)
POINTS = np.array([GAME_POINTS[CARD_OF[b] >> 2] for b in range(52)], dtype=np.int64)
HIGH_BIT = np.array([-1] + [int(m).bit_length() - 1 for m in range(1, 1 << 13)], dtype=np.int64)
NO_POINTS = (1 << 8) - 1  # two to nine: the ranks that count nothing for game, the lowest of a suit
LOW_BIT = np.array([-1] + [(m & -m).bit_length() - 1 for m in range(1, 1 << 13)], dtype=np.int64)

# The fixed facts of one search, in ``ctx``; X_GEN the generation of the table (one a sample), X_HELD_GEN the one its
# entries were written in (:func:`new_table`), X_NODES the positions visited so far, X_LEAF the cards a hand holds at
# the horizon (0: none, the search goes to the end of the hand).
X_PLAYERS, X_TRUMP, X_MAY_TRUMP, X_JACK, X_TIE, X_GEN, X_NODES, X_BUDGET, X_HELD_GEN, X_LEAF, X_SIZE = range(11)
OVER_BUDGET = -100  # what a search returns once it has visited more than ctx[X_BUDGET] positions


@njit(cache=True)
def to_search(cards_mask):
    """A 52-bit mask of card ids -> the same cards in search order."""
    out = np.int64(0)
    m = cards_mask
    for c in range(52):
        if (m >> c) & 1:
            out |= np.int64(1) << SEARCH_INDEX[c]
    return out


@njit(cache=True, inline="always")
def legal_moves(hand, lead_suit, trump, may_trump):
    """The cards of ``hand`` (search order) that law iii lets its holder play to ``lead_suit`` (-1: he leads)."""
    if lead_suit < 0:
        return hand
    follow = hand & (np.int64(SUIT13) << (13 * lead_suit))
    if follow == 0:
        return hand
    if may_trump:
        return follow | (hand & (np.int64(SUIT13) << (13 * trump)))
    return follow


@njit(cache=True, inline="always")
def beats_index(b, best, trump):
    """Search index ``b`` takes the trick from ``best``."""
    if b // 13 == best // 13:
        return b > best
    return b // 13 == trump


@njit(cache=True, inline="always")
def _role(leader, j, n):
    """The role of the ``j``-th player of a trick led by ``leader`` (both below ``n``): no division."""
    role = leader + j
    return role - n if role >= n else role


@njit(cache=True, inline="always")
def _hashed(key):
    """A key's slot in the transposition table and its check, the rest of its hash (the hash is one-to-one:
    slot and check together tell the key)."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - TT_BITS)), np.int64(h & np.uint64(CHECK))


@njit(cache=True)
def new_table():
    """A transposition table: ``TT_SIZE`` entries (a check, a value and its flag packed in one word, 512 KiB
    that stay in a core's cache), then a bit per entry saying it was written in the generation the table
    holds (``ctx[X_HELD_GEN]``): a new generation (``ctx[X_GEN]``) empties the table by clearing those 8 KiB."""
    table = np.empty(TT_SIZE + TT_SIZE // 64, dtype=np.int64)
    table[TT_SIZE:] = 0
    return table


@njit(cache=True, inline="always")
def _written(tt, slot):
    return (tt[TT_SIZE + (slot >> 6)] >> (slot & 63)) & 1


# A frame of the search stack: the position (leader, cards in the trick, suit led, best card and its
# role, points and knave in the trick, difference for game), its window, the cards still to try, the
# value so far, the card being tried and the jack value its trick gave, the table slot and check.
(
    F_LEADER,
    F_J,
    F_LEAD,
    F_BEST,
    F_BEST_ROLE,
    F_PTS,
    F_JACK_IN,
    F_D,
    F_ALPHA,
    F_BETA,
    F_A0,
    F_B0,
    F_MOVES,
    F_VALUE,
    F_MOVE,
    F_JV,
    F_CHECK,
    F_SLOT,
    F_SIZE,
) = range(19)
MAX_DEPTH = 64
SCRATCH = MAX_DEPTH  # the stack's last row: the hands greedy plays out at a horizon (:func:`_greedy_rest`)


@njit(cache=True, inline="always")
def distinct(moves, hand, others):
    """``moves`` without cards equivalent to a higher one kept: two cards of a suit next to each other in
    ``hand``, both counting nothing for game, with none of ``others`` (the cards in other hands and the
    card winning the trick) between them, win and lose the same tricks, so one is tried for both.  Only
    the suits of ``moves`` and the cards below the ten (:data:`NO_POINTS`) can be left out: a card under
    one that counts is kept, as is the highest of its suit."""
    out = moves
    for s in range(4):
        if (moves >> (13 * s)) & SUIT13 == 0:
            continue
        mine = (hand >> (13 * s)) & NO_POINTS
        if mine & (mine - 1) == 0:  # at most one such card: nothing to leave out
            continue
        between = (others >> (13 * s)) & SUIT13
        hi = -1
        while mine:
            lo = HIGH_BIT[mine]
            mine ^= 1 << lo
            if hi >= 0 and between & ((1 << hi) - (1 << (lo + 1))) == 0:
                out &= ~(np.int64(1) << (13 * s + lo))
            else:
                hi = lo
    return out


@njit(cache=True, inline="always")
def _next_move(moves, j, best, trump):
    """The card to try next: leading, trumps first, each suit from its top; following, the cards that
    take the trick from the lowest (those of the suit led before trumps), then the others from the lowest
    (plain cards before trumps, the lowest suit first among equals)."""
    if j == 0:
        for step in range(4):
            s = trump + step if trump + step < 4 else trump + step - 4
            m = (moves >> (13 * s)) & SUIT13
            if m:
                return s * 13 + HIGH_BIT[m]
    best_suit, above = best // 13, ~((np.int64(2) << (best % 13)) - 1)
    trumps = (moves >> (13 * trump)) & SUIT13
    if best_suit != trump:
        m = (moves >> (13 * best_suit)) & SUIT13 & above
        if m:
            return best_suit * 13 + LOW_BIT[m]
        if trumps:
            return trump * 13 + LOW_BIT[trumps]
    elif trumps & above:
        return trump * 13 + LOW_BIT[trumps & above]
    pick, rank = -1, 13  # nothing takes the trick
    for s in range(4):
        m = (moves >> (13 * s)) & SUIT13
        if s != trump and m and LOW_BIT[m] < rank:
            pick, rank = s * 13 + LOW_BIT[m], LOW_BIT[m]
    return pick if pick >= 0 else trump * 13 + LOW_BIT[trumps]


@njit(cache=True, inline="always")
def _key(left, leader, d):
    """The table key of a position at a trick boundary: the cards ``left`` in the hands, the leader, the
    difference for game."""
    return left | (np.int64(leader) << 52) | (np.int64(d + 128) << 54)


@njit(cache=True, inline="always")
def _store(tt, slot, check, v, alpha, beta):
    """Value ``v`` of the position searched in the window (``alpha``, ``beta``) into the table."""
    flag = UPPER if v <= alpha else (LOWER if v >= beta else EXACT)
    tt[slot] = check << 5 | (v + WIN) << 2 | flag
    tt[TT_SIZE + (slot >> 6)] |= np.int64(1) << (slot & 63)


@njit(cache=True)
def _give_up(ctx, st, sp, hands, n, nodes):
    """Over the budget: the cards tried on the stack back in the hands; OVER_BUDGET."""
    for k in range(sp + 1):
        hands[_role(st[k, F_LEADER], st[k, F_J], n)] ^= np.int64(1) << st[k, F_MOVE]
    ctx[X_NODES] = nodes
    return OVER_BUDGET


@njit(cache=True, inline="always")
def _only(cards):
    """The search index of the one card of ``cards``."""
    for s in range(4):
        m = (cards >> (13 * s)) & SUIT13
        if m:
            return 13 * s + HIGH_BIT[m]
    return -1


@njit(cache=True, inline="always")
def _game(d, tie):
    """Game to side 0 (1), to side 1 (-1), or the tie's value, when side 0 made ``d`` more points for game; 0 in a
    search of the knave alone (``tie`` NO_GAME)."""
    if tie == NO_GAME:
        return 0
    return 1 if d > 0 else (-1 if d < 0 else tie)


@njit(cache=True)
def _points(cards):
    """The points for game of ``cards`` (search order)."""
    total = 0
    for s in range(4):
        m = (cards >> (13 * s)) & SUIT13
        while m:
            b = HIGH_BIT[m]
            m ^= 1 << b
            total += POINTS[13 * s + b]
    return total


@njit(cache=True)
def _last_trick(hands, sides, n, leader, d, trump, knave, tie):
    """The value of the last trick, one card in each hand, led by ``leader`` with ``d`` for game so far: the
    knave of trumps if it is in it, and game."""
    best, best_role, pts, jack_in = -1, -1, 0, False
    for j in range(n):
        role = _role(leader, j, n)
        b = _only(hands[role])
        if best < 0 or beats_index(b, best, trump):
            best, best_role = b, role
        pts += POINTS[b]
        jack_in = jack_in or b == knave
    sign = 1 if sides[best_role] == 0 else -1
    d += sign * pts
    return (sign if jack_in else 0) + _game(d, tie)


@njit(cache=True, inline="always")
def _cheapest(cards, trump):
    """The cheapest of ``cards`` (search order) to part with, as greedy's: a plain card before a trump, one that
    counts nothing for game before one that counts, then the lowest."""
    pick, cost = -1, 1 << 20
    for s in range(4):
        m = (cards >> (13 * s)) & SUIT13
        if m:
            low = m & NO_POINTS
            b = LOW_BIT[low] if low else LOW_BIT[m]
            c = 1000 * (s == trump) + 100 * (POINTS[13 * s + b] > 0) + b
            if c < cost:
                pick, cost = 13 * s + b, c
    return pick


@njit(cache=True)
def _greedy_rest(hands, sides, n, leader, d, trump, may_trump, knave, tie, held):
    """The value of the rest of the hand from a trick boundary, every player playing greedy's card with the cards
    in ``hands`` (search order; left as they were, ``held`` their scratch copy): leading, the highest plain card
    (else the cheapest); following, the lowest card of the suit led that takes the trick from the other side,
    else the cheapest.  The evaluation at the search's horizon (``ctx[X_LEAF]``)."""
    for r in range(n):
        held[r] = hands[r]
    jack = 0
    while held[leader]:
        best, best_role, pts, lead, jack_in = -1, -1, 0, -1, False
        for j in range(n):
            role = _role(leader, j, n)
            legal = legal_moves(held[role], lead, trump, may_trump)
            b = -1
            if j == 0:
                rank = -1
                for s in range(4):
                    m = (legal >> (13 * s)) & SUIT13
                    if s != trump and m and HIGH_BIT[m] > rank:
                        b, rank = 13 * s + HIGH_BIT[m], HIGH_BIT[m]
                if b < 0:
                    b = _cheapest(legal, trump)
                lead = b // 13
            elif sides[best_role] != sides[role] and best // 13 == lead:
                m = (legal >> (13 * lead)) & SUIT13 & ~((np.int64(2) << (best % 13)) - 1)
                if m:
                    b = 13 * lead + LOW_BIT[m]
            if b < 0:
                b = _cheapest(legal, trump)
            held[role] ^= np.int64(1) << b
            if best < 0 or beats_index(b, best, trump):
                best, best_role = b, role
            pts += POINTS[b]
            jack_in = jack_in or b == knave
        sign = 1 if sides[best_role] == 0 else -1
        jack = sign if jack_in else jack
        d += sign * pts
        leader = best_role
    return jack + _game(d, tie)


@njit(cache=True, inline="always")
def game_tie(rule, sides):
    """A tie for game's value to side 0 (:func:`solve`) by ``rules[R_GAME_TIE]``: 0 none, 1 to the eldest's side,
    2 to the dealer's."""
    return 0 if rule == 0 else (1 - 2 * sides[1] if rule == 1 else 1 - 2 * sides[0])


@njit(cache=True)
def position_of(played, n_played, start, n, me, trump, may_trump):
    """What the cards ``played`` this hand (``played[P_CARD, :n_played]`` by ``played[P_ROLE, :]``, the current
    trick begun at ``start``) show the player in role ``me`` of ``n``, as the search takes it: ``(sides``
    (:func:`solve`), the cards each role has played, the suits each has shown void in (law iii), the points for
    game played, ``d`` (:func:`set_root`) over the tricks taken, the side that took the knave of trumps in one
    of them (-1: none), and the current trick as :func:`set_root` takes it: ``leader, j, lead_suit, best,
    best_role, pts, jack_in)``."""
    sides = np.zeros(4, dtype=np.int64)
    for r in range(n):
        sides[r] = (r - me) % 2
    laid = np.zeros(4, dtype=np.int64)
    voids = np.zeros(4, dtype=np.int64)
    d, shown, jack_side, winner = 0, 0, -1, 1 % n
    jack = knave_index(trump)
    for t0 in range(0, n_played, n):
        lead = played[P_CARD, t0]
        best, best_role, pts, jack_in = SEARCH_INDEX[lead], played[P_ROLE, t0], 0, False
        for k in range(t0, min(t0 + n, n_played)):
            card, role = played[P_CARD, k], played[P_ROLE, k]
            laid[role] += 1
            pts += game_points(card)
            jack_in = jack_in or SEARCH_INDEX[card] == jack
            if beats_index(SEARCH_INDEX[card], best, trump):
                best, best_role = SEARCH_INDEX[card], role
            if card & 3 != lead & 3:
                if lead & 3 == trump:
                    voids[role] |= 1 << trump
                elif card & 3 != trump or not may_trump:
                    voids[role] |= 1 << (lead & 3)
        shown += pts
        if t0 < start:
            d += pts if sides[best_role] == 0 else -pts
            winner = best_role
            if jack_in:
                jack_side = sides[best_role]

    # The current trick, in search order: led by the last trick's winner (the eldest to the first).
    leader = winner if n_played == start else played[P_ROLE, start]
    lead_suit, best, best_role, pts, jack_in = -1, -1, -1, 0, 0
    for k in range(start, n_played):
        b = SEARCH_INDEX[played[P_CARD, k]]
        if k == start:
            lead_suit = played[P_CARD, k] & 3
        if best < 0 or beats_index(b, best, trump):
            best, best_role = b, played[P_ROLE, k]
        pts += game_points(played[P_CARD, k])
        jack_in = 1 if b == jack else jack_in
    return sides, laid, voids, shown, d, jack_side, leader, n_played - start, lead_suit, best, best_role, pts, jack_in


@njit(cache=True)
def new_stack():
    """A search stack: ``MAX_DEPTH`` frames, the first holding the position searched (:func:`set_root`), and a row
    of scratch (:data:`SCRATCH`)."""
    return np.empty((MAX_DEPTH + 1, F_SIZE), dtype=np.int64)


@njit(cache=True)
def set_root(st, leader, j, lead_suit, best, best_role, pts, jack_in, d):
    """The position to search, into the first frame of stack ``st``: the current trick led by ``leader`` with
    ``j`` cards in it (``lead_suit``; ``best`` search index and ``best_role`` winning it; ``pts`` for game and
    ``jack_in`` the knave of trumps in it); ``d`` = side 0's points for game in its tricks minus side 1's.  A
    search leaves these fields as it found them, so one position serves every search of a decision."""
    st[0, F_LEADER], st[0, F_J], st[0, F_LEAD] = leader, j, lead_suit
    st[0, F_BEST], st[0, F_BEST_ROLE] = best, best_role
    st[0, F_PTS], st[0, F_JACK_IN], st[0, F_D] = pts, jack_in, d


@njit(cache=True, refcounts=False)
def solve(ctx, sides, tt, hands, st, moves, alpha, beta):
    """The value of the position in ``st[0]`` (:func:`set_root`) when the player to move plays one of ``moves``
    (search order mask): exact if it lies inside (``alpha``, ``beta``), else a bound on the side of the window it
    fell on (fail-soft alpha-beta).

    ``hands[role]`` (search order) are the cards still held; ``sides[role]`` is 0 for the side judged, 1 for the
    other.  Values are for side 0.  An explicit stack rather than recursion: numba cannot load recursive
    functions from its cache.  It allocates nothing, so it is compiled without reference counting, as is
    :func:`narrow`, which calls it once a probe (the counts at every call were a twentieth of the expert's time).
    """
    n = ctx[X_PLAYERS]
    trump = ctx[X_TRUMP]
    may_trump = ctx[X_MAY_TRUMP] != 0
    knave, tie, budget = ctx[X_JACK], ctx[X_TIE], ctx[X_BUDGET]
    if ctx[X_HELD_GEN] != ctx[X_GEN]:  # a new generation: the table empty
        tt[TT_SIZE:] = 0
        ctx[X_HELD_GEN] = ctx[X_GEN]
    nodes = ctx[X_NODES]  # counted here, stored back on return
    st[0, F_ALPHA], st[0, F_BETA] = alpha, beta  # a frame's other fields are set before they are read
    role = _role(st[0, F_LEADER], st[0, F_J], n)
    st[0, F_MOVES] = legal_moves(hands[role], st[0, F_LEAD], trump, may_trump) & moves
    st[0, F_VALUE] = -WIN if sides[role] == 0 else WIN
    left = np.int64(0)  # the cards in the hands
    for r in range(n):
        left |= hands[r]
    left_pts = _points(left)  # their points for game
    n_left = popcount(left)  # cards in the hands
    leaf_left = n * ctx[X_LEAF]  # a trick boundary with this many cards in the hands is evaluated (0: none)
    held = st[SCRATCH]  # the evaluation's hands
    sp = 0
    back, v = False, np.int64(0)
    while True:
        role = _role(st[sp, F_LEADER], st[sp, F_J], n)
        ours = sides[role] == 0
        if back:  # the card st[sp, F_MOVE] was worth v: take it back
            back = False
            v += st[sp, F_JV]
            hands[role] ^= np.int64(1) << st[sp, F_MOVE]
            left ^= np.int64(1) << st[sp, F_MOVE]
            left_pts += POINTS[st[sp, F_MOVE]]
            n_left += 1
            if ours and v > st[sp, F_VALUE]:
                st[sp, F_VALUE] = v
                st[sp, F_ALPHA] = max(st[sp, F_ALPHA], v)
            elif not ours and v < st[sp, F_VALUE]:
                st[sp, F_VALUE] = v
                st[sp, F_BETA] = min(st[sp, F_BETA], v)
            if st[sp, F_ALPHA] >= st[sp, F_BETA]:
                st[sp, F_MOVES] = 0  # cut off
        if st[sp, F_MOVES] == 0:  # all cards tried: f is worth st[sp, F_VALUE]
            v = st[sp, F_VALUE]
            if sp == 0:
                ctx[X_NODES] = nodes
                return v
            if st[sp, F_J] == 0:
                _store(tt, st[sp, F_SLOT], st[sp, F_CHECK], v, st[sp, F_A0], st[sp, F_B0])
            sp -= 1
            back = True
            continue
        b = _next_move(st[sp, F_MOVES], st[sp, F_J], st[sp, F_BEST], trump)
        st[sp, F_MOVES] ^= np.int64(1) << b
        st[sp, F_MOVE] = b
        hands[role] ^= np.int64(1) << b
        left ^= np.int64(1) << b
        left_pts -= POINTS[b]
        n_left -= 1
        nodes += 1
        if nodes > budget:
            return _give_up(ctx, st, sp, hands, n, nodes)
        if st[sp, F_J] == 0 or beats_index(b, st[sp, F_BEST], trump):
            nb, nr = b, role
        else:
            nb, nr = st[sp, F_BEST], st[sp, F_BEST_ROLE]
        npts = st[sp, F_PTS] + POINTS[b]
        njack = st[sp, F_JACK_IN] != 0 or b == knave
        c_alpha, c_beta = st[sp, F_ALPHA], st[sp, F_BETA]
        if st[sp, F_J] == n - 1:  # the trick is complete: to nr's side
            sign = 1 if sides[nr] == 0 else -1
            jv = sign if njack else 0
            c_leader, c_j, c_lead, c_best, c_role, c_pts, c_jack = nr, 0, -1, -1, -1, 0, 0
            c_d = st[sp, F_D] + sign * npts
            c_alpha, c_beta = c_alpha - jv, c_beta - jv
        else:
            jv = 0
            c_leader, c_j, c_best, c_role, c_pts, c_jack = (
                st[sp, F_LEADER],
                st[sp, F_J] + 1,
                nb,
                nr,
                npts,
                np.int64(njack),
            )
            c_lead = b // 13 if st[sp, F_J] == 0 else st[sp, F_LEAD]
            c_d = st[sp, F_D]
        st[sp, F_JV] = jv
        # The rest of the hand can still give game within the points left, and the knave if it is still to be won:
        # a position whose bounds say on which side of the window it lies is not searched (every card played: exact).
        rest = left_pts + c_pts
        swing = 1 if c_jack != 0 or (left >> knave) & 1 else 0
        lo, hi = _game(c_d - rest, tie) - swing, _game(c_d + rest, tie) + swing
        if lo >= c_beta or lo == hi:
            v = lo
            back = True
            continue
        if hi <= c_alpha:
            v = hi
            back = True
            continue
        check, slot = np.int64(0), np.int64(0)
        if c_j == 0:
            slot, check = _hashed(_key(left, c_leader, c_d))
            if _written(tt, slot) and tt[slot] >> 5 == check:
                tv, flag = (tt[slot] >> 2 & 7) - WIN, tt[slot] & 3
                if flag == EXACT or (flag == LOWER and tv >= c_beta) or (flag == UPPER and tv <= c_alpha):
                    v = tv
                    back = True
                    continue
            if leaf_left and n_left == leaf_left:  # the horizon: the rest of the hand evaluated, not searched
                v = _greedy_rest(hands, sides, n, c_leader, c_d, trump, may_trump, knave, tie, held)
                _store(tt, slot, check, v, -WIN, WIN)
                back = True
                continue
            if hands[c_leader] & (hands[c_leader] - 1) == 0:  # one card each: the last trick, played at once
                nodes += n  # the positions its search would visit, one a card
                if nodes > budget:
                    return _give_up(ctx, st, sp, hands, n, budget + 1)
                v = _last_trick(hands, sides, n, c_leader, c_d, trump, knave, tie)
                _store(tt, slot, check, v, c_alpha, c_beta)
                back = True
                continue
        sp += 1
        st[sp, F_LEADER], st[sp, F_J], st[sp, F_LEAD] = c_leader, c_j, c_lead
        st[sp, F_BEST], st[sp, F_BEST_ROLE] = c_best, c_role
        st[sp, F_PTS], st[sp, F_JACK_IN], st[sp, F_D] = c_pts, c_jack, c_d
        st[sp, F_ALPHA], st[sp, F_BETA], st[sp, F_A0], st[sp, F_B0] = c_alpha, c_beta, c_alpha, c_beta
        st[sp, F_CHECK], st[sp, F_SLOT] = check, slot
        c_role_to_move = _role(c_leader, c_j, n)
        moves = legal_moves(hands[c_role_to_move], c_lead, trump, may_trump)
        if leaf_left == 0:  # greedy's play at a horizon tells equivalent cards apart (it compares ranks across suits)
            others = left & ~hands[c_role_to_move]
            if c_best >= 0:
                others |= np.int64(1) << c_best
            moves = distinct(moves, hands[c_role_to_move], others)
        st[sp, F_MOVES] = moves
        st[sp, F_VALUE] = -WIN if sides[c_role_to_move] == 0 else WIN


@njit(cache=True)
def card_value(ctx, sides, tt, hands, st, b):
    """The exact value of playing card ``b`` (search order) from the position in ``st[0]`` (:func:`solve`): a
    bisection of null-window searches over the five values a hand can give (-2 .. 2); OVER_BUDGET when the search
    exceeds its budget."""
    return best_value(ctx, sides, tt, hands, st, np.int64(1) << b)


@njit(cache=True, refcounts=False)
def narrow(ctx, sides, tt, hands, st, moves, lo, hi, t):
    """Bounds ``lo`` .. ``hi`` on the value of the position in ``st[0]`` when the player to move plays the best of
    ``moves``, narrowed by null-window searches (:func:`solve`) until the value is known or known to be below ``t``:
    ``(lo, hi)``, ``hi < t`` or ``lo == hi``; ``(OVER_BUDGET, OVER_BUDGET)`` when the search exceeds its budget.  A
    ``t`` at or below ``lo`` asks for the value itself, found by halving ``lo`` .. ``hi``."""
    while lo < hi and hi >= t:
        probe = t if t > lo else (lo + hi + 1) // 2
        v = solve(ctx, sides, tt, hands, st, moves, probe - 1, probe)
        if v == OVER_BUDGET:
            return v, v
        if v >= probe:
            lo = probe
        else:
            hi = probe - 1
    return lo, hi


@njit(cache=True)
def best_value(ctx, sides, tt, hands, st, moves):
    """The exact value of the position in ``st[0]`` when the player to move plays the best of ``moves`` (search
    order mask), as :func:`card_value` finds it (OVER_BUDGET when the search exceeds its budget)."""
    return narrow(ctx, sides, tt, hands, st, moves, -2, 2, -2)[0]


@njit(cache=True)
def sample_hands(unseen, counts, voids, me, n, rng, out):
    """Deal ``counts[role]`` of the ``unseen`` cards (52-bit id mask) to each role but ``me``, none of a
    suit in ``voids[role]`` (4-bit suit mask), into ``out[role]`` (id masks).  Module docstring."""
    allowed = np.zeros(4, dtype=np.int64)
    order = np.zeros(4, dtype=np.int64)
    pool = np.zeros(52, dtype=np.int64)
    k = 0
    for r in range(n):
        if r == me:
            continue
        a = np.int64(0)
        for s in range(4):
            if not (voids[r] >> s) & 1:
                a |= suit_mask(s)
        allowed[r] = unseen & a
        order[k] = r
        k += 1
    for i in range(1, k):  # fewest cards allowed first
        j = i
        while j > 0 and popcount(allowed[order[j]]) < popcount(allowed[order[j - 1]]):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    for attempt in range(RETRIES + 1):
        left = unseen
        ok = True
        for i in range(k):
            r = order[i]
            avail = left & allowed[r] if attempt < RETRIES else left
            m = 0
            for c in range(52):
                if (avail >> c) & 1:
                    pool[m] = c
                    m += 1
            if m < counts[r]:
                ok = False
                break
            out[r] = 0
            for t in range(counts[r]):
                x = t + randint(rng, m - t)
                pool[t], pool[x] = pool[x], pool[t]
                out[r] |= np.int64(1) << pool[t]
            left &= ~out[r]
        if ok:
            return True
    return False


@njit(cache=True)
def every_hand(unseen, count, void, out):
    """Every hand of ``count`` of the ``unseen`` cards (52-bit id mask) with none of a suit in ``void`` (4-bit
    suit mask), into ``out`` (id masks): how many, or -1 when they are more than ``EXACT_DEALS`` (law iii's
    voids, as :func:`sample_hands` keeps them)."""
    pool = np.zeros(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if (unseen >> c) & 1 and not (void >> (c & 3)) & 1:
            pool[m] = c
            m += 1
    if count > m:
        return -1
    ways = 1
    for i in range(min(count, m - count)):  # C(m, count), rising on the way: stop once past the limit
        ways = ways * (m - i) // (i + 1)
        if ways > EXACT_DEALS:
            return -1
    idx = np.arange(count)
    for w in range(ways):
        hand = np.int64(0)
        for i in range(count):
            hand |= np.int64(1) << pool[idx[i]]
        out[w] = hand
        i = count - 1  # the next combination, in lexicographic order
        while i >= 0 and idx[i] == m - count + i:
            i -= 1
        if i >= 0:
            idx[i] += 1
            for t in range(i + 1, count):
                idx[t] = idx[t - 1] + 1
    return ways


@njit(cache=True)
def knave_index(trump):
    """The knave of trumps in search order."""
    return trump * 13 + whist_rank(KNAVE * 4 + trump)
