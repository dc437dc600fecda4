"""Position-aware players: a discard and a pegging policy that play for the game, not for the deal.

Both read one parameter vector of *sections*, one per rule set, made from a
board-position table (:func:`position_params`; the shipped tables by default,
:func:`.position_vectors.named_tables`).  A section holds a header (a mark, its length, the
``zone``, the kernel rules it is for), the dealer's chance of winning ``W[d, p]``
before a deal (:mod:`sims.cribbage.odds`), the deal model of the table's
self-play (:class:`sims.cribbage.odds.table.DealModel`: the pegging still to come
after ``k`` cards, each side's hand, the crib by the two ranks a player threw
into it; outcomes less likely than 1 in 10,000 left out) and the parameters of
the baseline policies.  Rules with no section get an illegal answer, so the
engine stops with a PolicyError.

**The zone.**  In a deal that starts with both scores more than ``zone`` points
from the target, both policies play exactly as the baseline: the section's base
pegging, ``defensive`` with ``expected_net``'s throws (Schell's crib table), or
``distilled`` (:mod:`.distilled`) with ``expected_peg``'s (the same, and the
kept cards' pegging: :mod:`.kept_pegging`); on ``distilled``, the forced end of the play (he holds a card at
most) is solved exactly over the lawful deals (:func:`.end_of_play.end_card`).  Far from home the chance of
winning is nearly linear in the points of a deal, and playing for points is playing for the game.
(The pegging policy takes the start of the deal from the scores, less the points
pegged so far and the heels; so whether a deal is played for the game is fixed
when it is dealt, and a table of the players' self-play can be built from deal
timings outside the zone: :func:`sims.cribbage.lab.odds.position.position_table`.)

**Discard** (:mod:`.position_throw`, so that the pegging loads no discard kernel).  Each throw gets its
chance of winning, averaged exactly over the
starters the player has not seen: the kept cards are shown with each starter,
and a jack turned is two for his heels to the dealer at once.  The rest of the
deal comes from the deal model, in counting order (RULES.md): the pegging of both
sides (when both could peg out, the race is counted as even), the pone's hand,
the dealer's hand, the crib (given the two ranks the player threw; for the pone,
the self-play crib moved to the mean of his two ranks), then ``W`` from the new
scores with the deal passed.  The pegging is taken as independent of the cards
kept, and the other hand and the crib as in self-play.

**Pegging.**  A card that reaches the target wins at once and is laid.  Else
each card gets the chance of winning after it and the opponent's best reply,
``sum_y P(best reply = y) R(my score + points now, his score + y)``, the reply's
distribution computed as ``defensive`` computes its mean (the cards he may hold
drawn from the cards not seen), and ``R`` the chance of winning with the rest of
the play from the deal model and then the shows: the player's own hand is known
(the cards he laid are told from the order of play: the sets of laid cards that
obey "a player who can play must", averaged over when several do), the other
hand and the crib come from the deal model.  ``defensive``'s count penalty and
pair-lead bonus enter at the value of a point there.  A last player (the
opponent has said go) has no reply to fear.  The base player's throw and card
stand unless another is better for the game by more than a margin
(:data:`MARGINS`); a card that wins the game at once is always laid.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ...core.kernel import njit
from ..contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_GO_MASK,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_ROLE,
    S_STARTER,
    S_THROWN,
    is_legal_play,
    next_throw,
    popcount,
    seen_cards,
)
from ..crib_tables import PARAMS_SIZE
from ..odds.layout import N_RANKS as NR
from ..odds.layout import PEG_BINS as PB
from ..odds.layout import SHOW_BINS as SB
from ..pegging import MAX_COUNT, card_value, peg_points_kernel
from ..rules import R_BATH, R_KEPT, R_SIZE, R_TARGET
from ..scoring import JACK, show_points
from .distilled import N_PARAMS as N_DISTILLED
from .distilled import decision_buffers, distilled_peg, reply_chances
from .end_of_play import FORCED_END, end_card
from .pegging import DEFAULT_PARAMS as DEFENSIVE_PARAMS
from .pegging import defensive_peg, only_legal

MARK = 7_121_061.0  # the first value of every section
H_MARK, H_LEN, H_ZONE, H_MARGIN, H_PEG_MARGIN, H_RULES = 0, 1, 2, 3, 4, 5
H_SIZE = H_RULES + R_SIZE
N_PEG_PARAMS = len(DEFENSIVE_PARAMS)
RACE = 0.5  # both sides could peg out: counted as even
DEFAULT_ZONE = 40
PRIOR_DEALS = 20.0  # the crib given a rank pair is shrunk toward the role's crib with this weight
SHIFT = 8  # the pone's crib of a throw is moved by at most this from the mean crib
SMALLEST = 1e-4  # outcomes of the deal model less likely than this are left out
TIE = 1e-12
# The base player's throw (card) stands unless another's chance of winning is better by more than the margin
# (paired matches against expected_net + defensive: the position-aware throws gain with either pegging; the
# position-aware cards gain over defensive's, but over distilled's only where they are much better).
MARGINS = {"defensive": (0.0, 0.0), "distilled": (0.0, 0.1)}  # base pegging -> (discard, pegging)

# Offsets of a section, as :func:`section` returns them.
X_T, X_K, X_ZONE, X_HEADER, X_W, X_REST, X_HANDS, X_CRIBS, X_BASE_DISCARD, X_BASE, X_PEG, X_DISTILLED, X_SIZE = range(
    13
)
BASES = ("defensive", "distilled")  # the pegging a section falls back on (X_BASE: its index)
N_KEPT = comb(NR + 3, 4)  # multisets of four ranks kept (.discard.N_KEPT; this module loads no discard kernel)
BASE_DISCARD = PARAMS_SIZE + 2 * N_KEPT  # the base throws' tables: Schell's crib table, the kept-pegging table


def section_size(target: int, kept: int) -> int:
    return (
        H_SIZE
        + target * target
        + (2 * kept + 1) * PB * PB
        + 2 * SB
        + 2 * NR * NR * SB
        + BASE_DISCARD
        + 1
        + N_PEG_PARAMS
        + N_DISTILLED
    )


@njit(cache=True, refcounts=False)
def section(params, rules):
    """The offsets (``X_*``) of the section of ``params`` made for ``rules``, a tuple (nothing allocated: the
    policies look it up at every decision); ``ix[X_T]`` is -1 when none is."""
    pos = 0
    while pos + H_SIZE <= params.shape[0] and params[pos + H_MARK] == MARK:
        same = True
        for r in range(R_SIZE):
            if params[pos + H_RULES + r] != rules[r]:
                same = False
        if same:
            t, k = rules[R_TARGET], rules[R_KEPT]
            w = pos + H_SIZE
            rest = w + t * t
            hands = rest + (2 * k + 1) * PB * PB
            cribs = hands + 2 * SB
            base_discard = cribs + 2 * NR * NR * SB
            peg = base_discard + BASE_DISCARD + 1
            return (
                t,
                k,
                np.int64(params[pos + H_ZONE]),
                pos,
                w,
                rest,
                hands,
                cribs,
                base_discard,
                np.int64(params[peg - 1]),
                peg,
                peg + N_PEG_PARAMS,
            )
        pos += np.int64(params[pos + H_LEN])
    return (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)


@njit(cache=True, inline="always")
def _w(params, ix, dealer, pone):
    """The dealer's chance of winning before a deal from (dealer, pone), both below the target."""
    return params[ix[X_W] + dealer * ix[X_T] + pone]


@njit(cache=True, inline="always")
def _crib(params, ix, role, lo, hi, points):
    return params[ix[X_CRIBS] + ((role * NR + lo) * NR + hi) * SB + points]


@njit(cache=True, inline="always")
def _hand(params, ix, role, points):
    return params[ix[X_HANDS] + role * SB + points]


@njit(cache=True)
def rest_cells(params, ix, laid):
    """The pegging still to come after ``laid`` cards, as lists ``(dealer points, pone points, chance)``
    of the cells with a chance."""
    k = min(laid, 2 * ix[X_K])
    base = ix[X_REST] + k * PB * PB
    n = 0
    for c in range(PB * PB):
        n += params[base + c] > 0
    di = np.empty(n, dtype=np.int64)
    pj = np.empty(n, dtype=np.int64)
    pr = np.empty(n)
    n = 0
    for c in range(PB * PB):
        if params[base + c] > 0:
            di[n], pj[n], pr[n] = c // PB, c % PB, params[base + c]
            n += 1
    return di, pj, pr


@njit(cache=True)
def _sparse(params, start, size):
    """The nonzero entries of ``params[start:start + size]``: (index, value) arrays."""
    n = 0
    for i in range(size):
        n += params[start + i] > 0
    idx, val = np.empty(n, dtype=np.int64), np.empty(n)
    n = 0
    for i in range(size):
        if params[start + i] > 0:
            idx[n], val[n] = i, params[start + i]
            n += 1
    return idx, val


@njit(cache=True, inline="always")
def in_zone(ix, me, opp):
    t = ix[X_T]
    return me < t and opp < t and max(me, opp) >= t - ix[X_ZONE]


@njit(cache=True, reads=("thrown",))
def _thrown_ranks(thrown):
    a, b = thrown[0] >> 2, thrown[1] >> 2
    return min(a, b), max(a, b)


# ---------------------------------------------------------------------------------------------- pegging


@njit(cache=True)
def _could_lay(hand, played, n, start, cards, with_hand, count):
    """Whether a player holding the cards of ``played[start:n]`` marked in ``cards`` (and, ``with_hand``,
    those in ``hand``) has one that fits the count."""
    room = MAX_COUNT - count
    for k in range(start, n):
        if (cards >> k) & 1 and card_value(played[k]) <= room:
            return True
    if with_hand:
        for c in hand:
            if c >= 0 and card_value(c) <= room:
                return True
    return False


@njit(cache=True)
def obeys_the_play(hand, played, n, role, kept, mine, count_now):
    """Whether the cards of ``played[:n]`` marked in ``mine`` can be the ones this player (``role``) laid:
    the pone leads; within a count the players take turns unless the one to play cannot; a card that does
    not fit shows that nobody could play; a new count is led by the player after the last one, if he
    has cards left.  The other player's unseen cards are not held against him."""
    if n == 0:
        return True
    theirs = ((1 << n) - 1) & ~mine
    laid = np.zeros(2, dtype=np.int64)
    count = 0
    for k in range(n):
        owner = role if (mine >> k) & 1 else 1 - role
        value = card_value(played[k])
        if k == 0:
            if owner != 1:
                return False
        else:
            prev = role if (mine >> (k - 1)) & 1 else 1 - role
            if count + value > MAX_COUNT:  # a go: nobody could lay a card
                if _could_lay(hand, played, n, k, mine, True, count) or _could_lay(
                    hand, played, n, k, theirs, False, count
                ):
                    return False
                count = 0
            if count == 0:
                nxt = 1 - prev
                if owner != (nxt if laid[nxt] < kept else prev):
                    return False
            elif owner == prev:
                other = 1 - prev
                cards, with_hand = (mine, True) if other == role else (theirs, False)
                if laid[other] < kept and _could_lay(hand, played, n, k, cards, with_hand, count):
                    return False
        laid[owner] += 1
        if laid[owner] > kept:
            return False
        count += value
        if count == MAX_COUNT:
            count = 0
    last = role if (mine >> (n - 1)) & 1 else 1 - role
    if count_now == 0:
        if count > 0 and _could_lay(hand, played, n, n, mine, True, count):
            return False
        nxt = 1 - last
        return role == (nxt if laid[nxt] < kept else last)
    return True


@njit(cache=True)
def kept_candidates(hand, played, state, rules, shows, masks):
    """Every set of laid cards that :func:`obeys_the_play` as this player's: ``masks[:n]`` (bits over
    ``played``) and the show of the kept cards each makes, ``shows[:n]``; returns ``n`` (at most
    ``shows.shape[0]``)."""
    n, kept_size = state[S_N_PLAYED], rules[R_KEPT]
    held = 0
    for c in hand:
        held += c >= 0
    laid = kept_size - held
    kept = np.empty(kept_size, dtype=np.int64)
    found = 0
    mine = next_throw(-1, n, laid) if laid > 0 else 0
    while mine >= 0 and found < shows.shape[0]:
        if obeys_the_play(hand, played, n, state[S_ROLE], kept_size, mine, state[S_COUNT]):
            j = 0
            for c in hand:
                if c >= 0:
                    kept[j] = c
                    j += 1
            for k in range(n):
                if (mine >> k) & 1:
                    kept[j] = played[k]
                    j += 1
            shows[found], masks[found] = show_points(kept, kept_size, state[S_STARTER], False, False), mine
            found += 1
        if laid == 0:
            break
        mine = next_throw(mine, n, laid)
    return found


@njit(cache=True)
def pegged(played, n, count_now, mine, bath):
    """The points this player (his cards marked in ``mine``) and the other pegged in ``played[:n]``: each
    card's points, the go when a card did not fit (or, ``count_now`` being 0, after the last card)."""
    points = np.zeros(2, dtype=np.int64)  # [mine, theirs]
    count, start = 0, 0
    for k in range(n):
        value = card_value(played[k])
        if count + value > MAX_COUNT:
            points[1 - ((mine >> (k - 1)) & 1)] += 1
            count, start = 0, k
        count += value
        points[1 - ((mine >> k) & 1)] += peg_points_kernel(played, start, k + 1, bath)
        if count == MAX_COUNT:
            count, start = 0, k + 1
    if n > 0 and count_now == 0 and count > 0:
        points[1 - ((mine >> (n - 1)) & 1)] += 1
    return points[0], points[1]


@njit(cache=True)
def _crib_chance(params, ix, pone, dealer, crib, crib_p):
    """The dealer's chance of winning with the pone on ``pone``, his hand shown, and the dealer on ``dealer``
    before he shows his crib (``crib[j]`` points with chance ``crib_p[j]``)."""
    t = ix[X_T]
    total = 0.0
    for j in range(crib.shape[0]):
        home = dealer + crib[j]
        total += crib_p[j] * (1.0 if home >= t else 1.0 - _w(params, ix, pone, home))
    return total


@njit(cache=True)
def _after_show(params, ix, dealer, me, opp, shows, n_shows, shown, cribs, base_me, base_opp):
    """My chance of winning once the play is over, on ``me`` against ``opp``, my hand showing one of
    ``shows[:n_shows]``; the rest in counting order (``shown``: ``first, first_p, second, second_p``): as the
    pone, the dealer's hand and crib together (``first[i]`` points with chance ``first_p[i]``); as the dealer, the
    pone's hand (``first``) then my crib (``second``: :func:`_crib_chance`, memoised in ``cribs`` over the scores
    from ``(base_opp, base_me)``); ``first`` ascending, as :func:`shows_to_come` lists it)."""
    t = ix[X_T]
    first, first_p, second, second_p = shown
    short = 0  # first[:short]: the shows that leave the other short of home
    while short < first.shape[0] and opp + first[short] < t:
        short += 1
    total = 0.0
    for s in range(n_shows):
        mine = me + shows[s]
        if not dealer:
            if mine >= t:
                total += 1.0
                continue
            for i in range(short):
                total += first_p[i] * _w(params, ix, mine, opp + first[i])
            continue
        for i in range(short):
            theirs = opp + first[i]
            a, b = theirs - base_opp, mine - base_me
            if np.isnan(cribs[a, b]):
                cribs[a, b] = _crib_chance(params, ix, theirs, mine, second, second_p)
            total += first_p[i] * cribs[a, b]
    return total / n_shows


@njit(cache=True)
def after_show(params, ix, dealer, me, opp, shows, n_shows, shown):
    """:func:`_after_show` of one position, with a memo of its own (for the advisor's end of the play)."""
    t = ix[X_T]
    cribs = np.full((t - opp, t - me + SB) if dealer else (0, 0), np.nan)
    return _after_show(params, ix, dealer, me, opp, shows, n_shows, shown, cribs, me, opp)


@njit(cache=True)
def shows_to_come(params, ix, dealer, thrown):
    """The others' shows after the play, for :func:`_after_show` (the deal model; ``thrown`` my two
    cards in the crib): as the dealer, the pone's hand then my crib; as the pone, the dealer's hand
    and crib together."""
    lo, hi = _thrown_ranks(thrown)
    if dealer:
        first, first_p = _sparse(params, ix[X_HANDS] + SB, SB)
        second, second_p = _sparse(params, ix[X_CRIBS] + (lo * NR + hi) * SB, SB)
        return first, first_p, second, second_p
    both = np.zeros(2 * SB)
    for y in range(SB):
        for c in range(SB):
            both[y + c] += _hand(params, ix, 0, y) * _crib(params, ix, 1, lo, hi, c)
    first, first_p = np.nonzero(both)[0].astype(np.int64), both[both > 0]
    return first, first_p, first[:0], first_p[:0]


@njit(cache=True)
def _rest_of_deal(params, ix, dealer, me, opp, cells, shows, n_shows, shown, memos, base_me, base_opp):
    """My chance of winning on ``me`` against ``opp`` with the rest of the play ``cells`` (from
    :func:`rest_cells`) to come, then :func:`_after_show` (``shown`` its four arrays), memoised over the
    scores from ``(base_me, base_opp)`` (``memos``: this function's table and :func:`_after_show`'s)."""
    t = ix[X_T]
    di, pj, pr = cells
    memo, cribs = memos
    v = 0.0
    for cell in range(di.shape[0]):
        mine = me + (di[cell] if dealer else pj[cell])
        theirs = opp + (pj[cell] if dealer else di[cell])
        if mine >= t or theirs >= t:
            v += pr[cell] * (RACE if mine >= t and theirs >= t else 1.0 if mine >= t else 0.0)
            continue
        a, b = mine - base_me, theirs - base_opp
        if np.isnan(memo[a, b]):
            memo[a, b] = _after_show(params, ix, dealer, mine, theirs, shows, n_shows, shown, cribs, base_me, base_opp)
        v += pr[cell] * memo[a, b]
    return v


@njit(cache=True)
def game_card(hand, played, state, rules, params, ix, base):
    """:func:`position_peg` in the zone: the card with the best chance of winning, unless the base player's
    ``base`` is within the margin."""
    count = state[S_COUNT]
    peg_params = params[ix[X_PEG] : ix[X_PEG] + N_PEG_PARAMS]
    t = ix[X_T]
    me, opp = state[S_MY_SCORE], state[S_OPP_SCORE]
    role, dealer = state[S_ROLE], state[S_ROLE] == 0
    start, n = state[S_COUNT_START], state[S_N_PLAYED]
    bath = rules[R_BATH] != 0
    shows = np.empty(8, dtype=np.int64)
    masks = np.empty(8, dtype=np.int64)
    n_shows = kept_candidates(hand, played, state, rules, shows, masks)
    if n_shows == 0:
        return base
    # The zone is judged on the scores at the start of the deal: less the pegging so far and the heels.
    mine_so_far, theirs_so_far = pegged(played, n, count, masks[0], bath)
    heels = 2 if state[S_STARTER] >> 2 == JACK else 0
    if not in_zone(ix, me - mine_so_far - (heels if dealer else 0), opp - theirs_so_far - (0 if dealer else heels)):
        return base
    shown = shows_to_come(params, ix, dealer, state[S_THROWN : S_THROWN + 2])
    seen, mine_left = seen_cards(hand, played, state)
    their_left = 2 * rules[R_KEPT] - n - mine_left
    last_player = ((state[S_GO_MASK] >> (1 - role)) & 1) != 0 or their_left == 0
    # The chances after the play (my score, his) and, as the dealer, before my crib (his score, mine before it).
    memos = (np.full((t - me, t - opp), np.nan), np.full((t - opp, t - me + SB) if dealer else (0, 0), np.nan))
    played, levels, chances, _, work = decision_buffers(played, hand)  # read-only (contract): laid in a copy
    next_cells = rest_cells(params, ix, n + 1 if last_player else n + 2)  # after my card (and his reply)
    slope = np.nan  # the value of a point now, for defensive's penalty and bonus: found when one applies
    best, best_value = -1, -1.0
    value_base = -1.0
    for i in range(hand.shape[0]):
        if not is_legal_play(hand, i, count):
            continue
        card = hand[i]
        played[n] = card
        now = peg_points_kernel(played, start, n + 1, bath)
        if me + now >= t:
            return i  # it wins the game now
        after = count + card_value(card)
        if after == MAX_COUNT:
            after = 0
        if last_player or after == 0:  # no reply to fear, or he leads a new count
            m = 1
            levels[0], chances[0] = 0, 1.0
        else:
            m = reply_chances(
                played, start, n + 1, after, seen, min(their_left, 52 - popcount(seen)), bath, levels, chances, work
            )
        value = 0.0
        for r in range(m):
            if chances[r] > 0:
                mine_then = me + now
                theirs_then = opp + levels[r]
                if theirs_then >= t:
                    continue  # his reply takes him home
                value += chances[r] * _rest_of_deal(
                    params,
                    ix,
                    dealer,
                    mine_then,
                    theirs_then,
                    next_cells,
                    shows,
                    n_shows,
                    shown,
                    memos,
                    me,
                    opp,
                )
        if not last_player:
            penalty, bonus = after == 5 or after == 21, False
            if count == 0:
                for j in range(hand.shape[0]):
                    if j != i and hand[j] >= 0 and hand[j] >> 2 == card >> 2:
                        bonus = True
                        break
            if (penalty or bonus) and np.isnan(slope):
                now_cells = rest_cells(params, ix, n)
                slope = _rest_of_deal(
                    params, ix, dealer, min(me + 1, t - 1), opp, now_cells, shows, n_shows, shown, memos, me, opp
                ) - _rest_of_deal(params, ix, dealer, me, opp, now_cells, shows, n_shows, shown, memos, me, opp)
            if penalty:
                value -= slope * peg_params[1]
            if bonus:
                value += slope * peg_params[2]
        if i == base:
            value_base = value
        if value > best_value + TIE:
            best, best_value = i, value
    return base if value_base >= best_value - max(params[ix[X_HEADER] + H_PEG_MARGIN], TIE) else best


@njit(PEG_SIG, cache=True, refcounts=False)
def position_peg(hand, played, state, rules, rng, params):
    """Lay the card with the best chance of winning the game (module docstring); the base pegging
    (``defensive`` or ``distilled``) outside the zone.  Compiled without reference counting (nothing is
    allocated outside the zone); :func:`game_card` weighs the cards in the zone."""
    ix = section(params, rules)
    if ix[X_T] < 0:
        return -1  # no table for these rules
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    if ix[X_BASE] == 0:
        base = defensive_peg(hand, played, state, rules, rng, params[ix[X_PEG] : ix[X_PEG] + N_PEG_PARAMS])
    else:  # distilled, with the forced end of the play solved exactly
        base = end_card(
            hand,
            played,
            state,
            rules,
            distilled_peg(hand, played, state, rules, rng, params[ix[X_DISTILLED] : ix[X_DISTILLED] + N_DISTILLED]),
            FORCED_END,
        )
    if not in_zone(ix, state[S_MY_SCORE], state[S_OPP_SCORE]):  # then the deal did not start in the zone either
        return base
    return game_card(hand, played, state, rules, params, ix, base)


# ---------------------------------------------------------------------------------------------- parameters

PRESETS = ("six-card", "six-card-61", "five-card")  # a section each (sims.cribbage.odds.table.SHIPPED)


def _chances(counts: np.ndarray, axis) -> np.ndarray:
    """Counts as chances along ``axis``, those below :data:`SMALLEST` left out (the policies' loops run
    over the outcomes with a chance)."""
    p = counts / counts.sum(axis=axis, keepdims=True)
    p[p < SMALLEST] = 0.0
    return p / p.sum(axis=axis, keepdims=True)


def position_params(table, zone: int = DEFAULT_ZONE, base: str = "defensive", margins=None) -> np.ndarray:
    """One section (module docstring) from a board-position table with a deal model; ``base`` the pegging
    outside the zone (:data:`BASES`); ``margins`` (discard, pegging): by how much another throw's or
    card's chance of winning must beat the base player's (default :data:`MARGINS` of the base)."""
    from .distilled import named_tables as distilled_tables
    from .kept_pegging import named_tables as kept_pegging_tables

    if table.model is None:
        raise ValueError(
            "the position-aware players need a table with its deal model (build it, or read it with "
            "its .model.parquet file)"
        )
    if isinstance(zone, bool) or not isinstance(zone, (int, np.integer)) or zone < 1:
        raise ValueError(f"zone must be a positive integer (points from the target), got {zone!r}")
    if base not in BASES:
        raise ValueError(f"unknown base pegging {base!r}; choose from {', '.join(BASES)}")
    margins = MARGINS[base] if margins is None else tuple(margins)
    if len(margins) != 2 or not all(np.isfinite(m) and 0 <= m < 1 for m in margins):
        raise ValueError(f"margins are two chances of winning in [0, 1) (discard, pegging), got {margins!r}")
    rules = table.rules
    model = table.model
    rest = model.rest.astype(np.float64)
    total = rest.sum(axis=(1, 2))
    rest[total == 0, 0, 0] = 1.0  # no deal got that far: nothing more to peg
    rest = _chances(rest, axis=(1, 2))
    hands = _chances(model.hands.astype(np.float64), axis=1)
    cribs = np.empty(model.cribs.shape)
    for role in range(2):
        overall = model.cribs[role].sum(axis=(0, 1))
        overall = overall / max(overall.sum(), 1)
        counts = model.cribs[role]
        cribs[role] = _chances(counts + PRIOR_DEALS * overall, axis=2)
    header = np.zeros(H_SIZE)
    header[H_MARK], header[H_LEN] = MARK, section_size(rules.target, rules.kept)
    header[H_ZONE], header[H_MARGIN], header[H_PEG_MARGIN] = min(zone, rules.target), margins[0], margins[1]
    header[H_RULES:] = rules.to_kernel()
    return np.concatenate(
        [
            header,
            np.clip(table.win, 0, 1).ravel(),
            rest.ravel(),
            hands.ravel(),
            cribs.ravel(),
            np.asarray(kept_pegging_tables()["schell"]),
            [float(BASES.index(base))],
            np.asarray(DEFENSIVE_PARAMS, dtype=float),
            np.asarray(distilled_tables()["shipped"]),
        ]
    )


def preset_tables(tables=()) -> dict:
    """``{preset: table}`` for each of :data:`PRESETS`: the table among ``tables`` made for that preset, else
    the table that ships for it."""
    from ..odds.table import shipped_table
    from ..rules import get_rules

    given = {}
    for table in tables:
        name = next(
            (p for p in PRESETS if get_rules(p).to_dict() | {"name": table.rules.name} == table.rules.to_dict()), None
        )
        if name is None:
            raise ValueError(
                f"the position-aware players take tables for {', '.join(PRESETS)}; this one is for {table.rules.name!r}"
            )
        given[name] = table
    return {p: given.get(p) or shipped_table(p) for p in PRESETS}


def position_vector(tables=(), zone: int = DEFAULT_ZONE, base: str = "defensive", margins=None) -> np.ndarray:
    """The policies' parameter vector: a section for each of :data:`PRESETS` (:func:`preset_tables`)."""
    return np.concatenate([position_params(table, zone, base, margins) for table in preset_tables(tables).values()])


VECTOR_SIZE = sum(section_size(t, k) for t, k in ((121, 4), (61, 4), (61, 3)))


def position_policies(tables=(), zone: int = DEFAULT_ZONE, base: str = "defensive", margins=None) -> dict:
    """``{"discard": Policy, "peg": Policy}``: the position-aware players with the given tables (module
    docstring; :func:`position_vector`), named ``position`` (``position_distilled`` on ``distilled``)."""
    from ...core.policies import Policy, PolicySpec, load
    from . import POLICIES

    values = tuple(float(v) for v in position_vector(tables, zone, base, margins))
    name = "position" if base == "defensive" else "position_distilled"
    specs = {decision: POLICIES[decision][name] for decision in ("discard", "peg")}
    return {
        decision: Policy(name, decision, load(spec.function), values, PolicySpec(spec.function, spec.params))
        for decision, spec in specs.items()
    }


def baseline_policies(players: dict, rules) -> dict:
    """The policies the position-aware ``players`` play outside their zone for ``rules``: ``expected_net``
    and ``defensive``, or ``expected_peg`` and ``distilled`` with the section's tables."""
    from .distilled import distilled_policy

    values = np.asarray(players["peg"].params, dtype=np.float64)
    ix = section(values, rules.to_kernel())
    if ix[X_T] < 0:
        raise ValueError(f"the position-aware players have no table for {rules.name!r}")
    if ix[X_BASE] == 0:
        return {"discard": "expected_net", "peg": "defensive"}
    return {"discard": "expected_peg", "peg": distilled_policy(values[ix[X_DISTILLED] : ix[X_DISTILLED] + N_DISTILLED])}
