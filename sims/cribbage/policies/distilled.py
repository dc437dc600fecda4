"""Pegging by tables fitted to play-outs: ``distilled``, a fast policy taught by Monte Carlo returns.

Each card the player may lay gets the value

    a * points it scores now  +  b * expected best reply (as ``defensive`` computes it)
    + RANK_COUNT[rank, count after]            (leads, and the counts a card leaves)
    + COUNT_LOW[count after, lowest pip kept]   (keeping a low card for the go and for 31)
    + SETUP[rank, a pair kept, a neighbour kept, leading]   (pair-royal and run set-ups)
    + LEFT[count after, my cards left, his cards left]      (the end of the play)
    + GO[he has said go, count after]           (the last player's count)

and the card of highest value is laid (ties: the higher pip value).  The values
of the tables are fitted to play-outs, not set by hand (:func:`distill`): deals
are played by the policy itself, except that in each deal one decision (the
one where the number of cards laid equals the starter's index modulo the cards
in play) is made uniformly at random among the legal cards; what the player
then pegged, less what the other pegged, to the end of the play, is that card's
return.  Because the card was chosen at random, the return less the mean over
the legal cards is the card's advantage with nothing of the deal mixed in, and
a least-squares fit of that advantage to the centred features above (with a
little ridge) gives the tables.  Playing by the fitted tables and fitting again
is policy iteration.

A second fit has less noise (:func:`distill_cards`): at *every* decision of a
deal that is a choice, *every* legal card is laid in turn and the rest of the play
is played out by the same players with the hands as dealt (common random
numbers: what the other holds is the same for every card, and his hand is one
that real play leaves him, not a uniform draw); each card's return less the mean
over the legal cards is fitted on the centred features.  Play-outs among the
tables alone teach them to exploit their own play (the next round beats the one
before and loses to others), so half the deals are played against ``defensive``,
and a round is judged by a panel of fixed players (``defensive`` and the tables
it started from).  The tables that ship
(``sims/cribbage/data/odds/distilled-peg.json``, with their provenance) are one
such round from the tables of the exploring fit: over 200,000 paired deals
they peg 0.071 a deal more than those tables and 0.164 more than ``defensive``
(the exploring tables: 0.177), and over 30,000 paired deals 0.055 more than
``rollout`` (the exploring tables: 0.027).

Self-play and the experts' 3.5 points for the dealer: the tables (and
``rollout``) are fitted to net pegging, mine less his, and a better player in
both seats cancels much of it.  Against ``defensive`` (100,000 deals) these
tables as dealer peg 0.10 more and let the pone peg 0.11 less; ``rollout`` as
dealer pegs 0.19 more but lets the pone peg 0.03 more (20,000 deals), and its
self-play 3.45 is a more open game for both (the pone pegs 2.27, against 2.08
here).  A more open game is a weaker one: weighing the points now by 1.3 or the
reply by 0.7 or 0.5 raises the dealer's self-play pegging to 3.38, 3.42, 3.48
and loses 0.005, 0.019, 0.038 a deal to these tables.  With ``expected_peg``'s
discards (which keep cards that peg) the dealer pegs 3.38 and the pone 2.14, and
3.53 with his heels (:data:`sims.cribbage.tournament.LITERATURE` on the readings).

An exact end (:func:`end_values`, :func:`distilled_end_peg`): when both hold at
most two cards, the card of best value to the end of the play, both playing best
over every hand he may hold.  It gains 0.0035 +- 0.0015 a deal over ``distilled``
(200,000 paired deals) at a quarter of the speed (about 48,000 deals/s on two
cores against 200,000), so ``distilled`` does not use it.

Two-handed play only: with three or four players the others' cards are not a
single opponent's, and the policy lays ``defensive``'s card.  The tables are
fitted to six-card play; five- and eight-card use them as they stand (cards left
counted up to three of mine and four of his).
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numba import prange, types

from ...core.kernel import njit
from ...core.kernel_types import F64_1, F64_2, F64_3, I64_1, I64_2, I64_3, U64_2
from ...core.rng import randint
from ..contract import (PEG_SIG, S_COUNT, S_COUNT_START, S_DEALER, S_GO_MASK, S_N_PLAYED, S_ROLE, S_SIZE,
                        S_STARTER, S_THROWN, DiscardFn, PegFn, is_legal_play, popcount, seen_cards)
from ..pegging import MAX_COUNT, card_value, peg_points_kernel
from ..play import (A_COUNT, A_GO_MASK, A_LAST, A_N_PLAYED, A_SIZE, A_START, A_TURN, C_PEGGING, MAX_SEATS, N_COMP,
                    POLICY_ERROR, deal_buffers, play_deal, play_out, seed_streams)
from ..rules import R_ACTIVE, R_BATH, R_DEALT, R_KEPT, R_ONE_COUNT
from .pegging import DEFAULT_PARAMS as DEFENSIVE_PARAMS, defensive_peg, only_legal, reply_pair_run

NR = 13
N_COUNTS = 32           # counts after a card: 1 .. 31 (0 unused)
N_LOW = 11              # lowest pip value kept: 0 (nothing kept) .. 10
# Parameter layout: two weights, then the tables.
P_POINTS, P_REPLY = 0, 1
RANK_COUNT = 2
COUNT_LOW = RANK_COUNT + NR * N_COUNTS
SETUP = COUNT_LOW + N_COUNTS * N_LOW
LEFT = SETUP + NR * 8
GO = LEFT + N_COUNTS * 4 * 5
N_PARAMS = GO + 2 * N_COUNTS
N_TABLES = 5            # table cells a card touches
DATA = ("sims.cribbage", "data/odds/distilled-peg.json")


@njit(cache=True)
def reply_chances(played, start, n, after, seen, k, bath, levels, chances):
    """The opponent's best reply to the count ``played[start:n]`` (which stands at ``after``), when he holds
    ``k`` cards drawn from the cards not ``seen``: ``levels[:m]`` the points it may score (highest first)
    and ``chances[:m]`` the chance of each; returns ``m``.  The last level, 0, is a reply scoring nothing.

    Summed as ``defensive`` sums the mean: P(a draw of ``k`` holds none of the ``h`` cards scoring at least
    a level) = C(unseen - h, k) / C(unseen, k)."""
    unseen = 52 - popcount(seen)
    points = np.zeros(52, dtype=np.int64)
    mult = np.zeros(52, dtype=np.int64)
    kinds = 0
    pair_run = np.zeros(NR, dtype=np.int64)
    if not bath:
        reply_pair_run(played, start, n, pair_run)
    for kind in range(52 if bath else NR):
        if bath:
            reply, count = kind, 1 - ((seen >> kind) & 1)
        else:
            reply, count = kind << 2, popcount((~seen >> (kind << 2)) & 15)
        total = after + card_value(reply)
        if count == 0 or total > MAX_COUNT:
            continue
        if bath:
            played[n] = reply
            p = peg_points_kernel(played, start, n + 1, True)
        else:
            p = pair_run[kind] + (2 if total == 15 or total == MAX_COUNT else 0)
        if p > 0:
            points[kinds], mult[kinds] = p, count
            kinds += 1
    m = 0
    level = 1 << 30
    reached = 0.0
    while True:
        nxt = 0
        for i in range(kinds):
            if nxt < points[i] < level:
                nxt = points[i]
        if nxt == 0:
            break
        holders = 0
        for i in range(kinds):
            if points[i] >= nxt:
                holders += mult[i]
        p_none = 1.0
        for j in range(k):
            p_none *= max(unseen - holders - j, 0) / (unseen - j)
        levels[m], chances[m] = nxt, (1.0 - p_none) - reached
        reached = 1.0 - p_none
        m += 1
        level = nxt
    levels[m], chances[m] = 0, 1.0 - reached
    return m + 1


@njit(cache=True)
def card_features(hand, i, played, state, rules, seen, their_left, levels, chances, cells):
    """What the tables know of laying ``hand[i]``: returns (points now, expected best reply) and fills
    ``cells`` with the five table indices (module docstring)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    card = hand[i]
    rank = card >> 2
    played[n] = card
    now = peg_points_kernel(played, start, n + 1, rules[R_BATH] != 0)
    after = count + card_value(card)
    went = (state[S_GO_MASK] >> (1 - state[S_ROLE])) & 1
    reply = 0.0
    if after < MAX_COUNT and not went and their_left > 0:
        m = reply_chances(played, start, n + 1, after, seen, min(their_left, 52 - popcount(seen)),
                          rules[R_BATH] != 0, levels, chances)
        for r in range(m):
            reply += levels[r] * chances[r]
    low, left, pair, near = 0, 0, 0, 0
    for j in range(hand.shape[0]):
        if j == i or hand[j] < 0:
            continue
        left += 1
        v = card_value(hand[j])
        low = v if low == 0 else min(low, v)
        d = abs((hand[j] >> 2) - rank)
        pair |= d == 0
        near |= 0 < d <= 2
    cells[0] = RANK_COUNT + rank * N_COUNTS + after
    cells[1] = COUNT_LOW + after * N_LOW + low
    cells[2] = SETUP + rank * 8 + pair * 4 + near * 2 + (count == 0)
    cells[3] = LEFT + (after * 4 + min(left, 3)) * 5 + min(their_left, 4)
    cells[4] = GO + went * N_COUNTS + after
    return float(now), reply


@njit(cache=True)
def _value(now, reply, cells, params):
    v = params[P_POINTS] * now + params[P_REPLY] * reply
    for c in range(N_TABLES):
        v += params[cells[c]]
    return v


@njit(PEG_SIG, cache=True)
def distilled_peg(hand, played, state, rules, rng, params):
    """Lay the card of highest fitted value (module docstring); ``defensive``'s card with other than two
    players."""
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    if rules[R_ACTIVE] != 2:
        return defensive_peg(hand, played, state, rules, rng, params[:0])   # its default parameters
    seen, mine_left = seen_cards(hand, played, state)
    their_left = 2 * rules[R_KEPT] - state[S_N_PLAYED] - mine_left
    played = played.copy()   # read-only (contract): candidate cards are laid in a copy
    levels = np.empty(54, dtype=np.int64)
    chances = np.empty(54)
    cells = np.empty(N_TABLES, dtype=np.int64)
    best, best_value = -1, 0.0
    for i in range(hand.shape[0]):
        if not is_legal_play(hand, i, count):
            continue
        now, reply = card_features(hand, i, played, state, rules, seen, their_left, levels, chances, cells)
        value = _value(now, reply, cells, params)
        if best < 0 or value > best_value or (value == best_value and card_value(hand[i]) > card_value(hand[best])):
            best, best_value = i, value
    return best


# ---------------------------------------------------------------------------------------------- fitting

@njit(cache=True)
def explored_at(state, rules):
    """The number of cards laid at which a deal's random decision is made: the starter's index modulo the
    cards in play."""
    return state[S_STARTER] % (2 * rules[R_KEPT])


@njit(PEG_SIG, cache=True)
def exploring_peg(hand, played, state, rules, rng, params):
    """``distilled`` with ``params``, except a uniformly random legal card at :func:`explored_at`."""
    if state[S_N_PLAYED] != explored_at(state, rules):
        return distilled_peg(hand, played, state, rules, rng, params)
    legal = 0
    for i in range(hand.shape[0]):
        legal += is_legal_play(hand, i, state[S_COUNT])
    pick = randint(rng, legal)
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, state[S_COUNT]):
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def owners(played, kept, n_played, kept_n):
    """Who laid each card of the play: 0 the seat of ``kept[0]``, 1 the seat of ``kept[1]`` (``kept_n`` cards each)."""
    owner = np.zeros(n_played, dtype=np.int64)
    for k in range(n_played):
        for j in range(kept_n):
            if kept[1, j] == played[k]:
                owner[k] = 1
    return owner


@njit(types.void(I64_1, U64_2, types.int64, types.UniTuple(DiscardFn, 4), types.UniTuple(PegFn, 4), F64_1,
                 I64_1, F64_3, I64_3, I64_2, F64_1, I64_2), cache=True, lazy=True, parallel=True)
def _returns(rules, keys, chunk_size, discard_fns, peg_fns, params, poff, x, cells, legal, y, err):
    """Deal ``i`` of chunk ``c`` (dealt by seat ``i % 2``): at the explored decision, for each legal card
    ``x[row, card]`` = (points now, expected reply), ``cells[row, card]`` its table cells, ``legal[row]`` =
    (number of legal cards, the card laid), and ``y[row]`` the return of the card laid; ``legal[row, 0]`` is
    0 when the decision was not a choice."""
    kept_n = rules[R_KEPT]
    for c in prange(keys.shape[0]):
        rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
        work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
        state = np.zeros(S_SIZE, dtype=np.int64)
        hand = np.empty(kept_n, dtype=np.int64)
        buf = np.empty(2 * kept_n, dtype=np.int64)
        levels = np.empty(54, dtype=np.int64)
        chances = np.empty(54)
        own = np.empty(N_TABLES, dtype=np.int64)
        for i in range(chunk_size):
            row = c * chunk_size + i
            seed_streams(keys, c, i, deck_rng, seat_rngs)
            scores[:] = 0
            comp[:, :] = 0
            if play_deal(rules_c, i % 2, scores, False, deck_rng, seat_rngs, discard_fns, peg_fns, params_c, poff_c,
                         comp, err[c], work) == POLICY_ERROR:
                break
            played, kept, n_played = work[6], work[2], work[8][A_N_PLAYED]
            state[S_STARTER] = work[0][2 * rules_c[R_DEALT]]
            k_star = explored_at(state, rules_c)
            if k_star >= n_played:
                continue
            # Replay the play to the explored decision: owners, counts, goes, and the points after it.
            owner = owners(played, kept, n_played, kept_n)
            count, start, went = 0, 0, 0
            ret = 0.0
            for k in range(n_played):
                value = card_value(played[k])
                if count + value > MAX_COUNT:
                    if k > k_star:
                        ret += 1.0 if owner[k - 1] == owner[k_star] else -1.0
                    count, start, went = 0, k, 0
                if k == k_star:
                    me = owner[k]
                    hand[:] = kept[me]
                    for j in range(k):
                        for h in range(kept_n):
                            if hand[h] == played[j]:
                                hand[h] = -1
                    went = 1 if k > start and owner[k - 1] == me else 0
                    state[S_ROLE], state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED] = me, count, start, k
                    state[S_GO_MASK] = went << (1 - me)
                    state[S_THROWN], state[S_THROWN + 1] = work[4][me, 0], work[4][me, 1]
                    buf[:k] = played[:k]
                    seen, mine_left = seen_cards(hand, buf, state)
                    their_left = 2 * kept_n - k - mine_left
                    n_legal = 0
                    for h in range(kept_n):
                        if is_legal_play(hand, h, count):
                            x[row, n_legal, 0], x[row, n_legal, 1] = card_features(
                                hand, h, buf, state, rules_c, seen, their_left, levels, chances, own)
                            cells[row, n_legal, :] = own
                            if hand[h] == played[k]:
                                legal[row, 1] = n_legal
                            n_legal += 1
                    legal[row, 0] = n_legal if n_legal > 1 else 0
                count += value
                if k >= k_star:
                    points = peg_points_kernel(played, start, k + 1, rules_c[R_BATH] != 0)
                    ret += points if owner[k] == owner[k_star] else -points
                if count == MAX_COUNT:
                    count, start = 0, k + 1
            if count > 0:
                ret += 1.0 if owner[n_played - 1] == owner[k_star] else -1.0
            y[row] = ret


def initial_params() -> np.ndarray:
    """Tables that play about as ``defensive`` does: points now less the expected best reply, half a point
    off a count of 5 or 21, half a point for leading from a pair, and the last player keeping close."""
    p = np.zeros(N_PARAMS)
    p[P_POINTS], p[P_REPLY] = 1.0, -DEFENSIVE_PARAMS[0]
    for rank in range(NR):
        for after in (5, 21):
            p[RANK_COUNT + rank * N_COUNTS + after] -= DEFENSIVE_PARAMS[1]
        for near in range(2):
            p[SETUP + rank * 8 + 4 + near * 2 + 1] += DEFENSIVE_PARAMS[2]
    p[GO + N_COUNTS:GO + 2 * N_COUNTS] = 0.01 * np.arange(N_COUNTS)
    return p


def play_outs(rules, params, n_deals: int, seed: int, discard="expected_net", threads=None) -> dict:
    """``n_deals`` deals with one random decision each (module docstring), the others by ``params``:
    the features of every legal card at that decision and the return of the one laid."""
    from ...core.chunks import numba_threads
    from ...core.errors import new_err, raise_policy_error
    from ...core.jobs import Job, check_count
    from ...core.policies import Policy
    from ...core.rng import chunk_keys
    from ..engine import describe_error

    n_deals = check_count(n_deals, "the number of deals")
    explorer = Policy("exploring", "peg", exploring_peg, tuple(float(v) for v in params))
    job = Job.make("cribbage", "deals", rules, {"discard": discard, "peg": explorer}, n_deals, seed)
    if job.rules.active != 2:
        raise ValueError(f"the distilled tables are for two-handed play; {job.rules.name} has {job.rules.active}")
    chunk = 4096
    n_chunks = -(-n_deals // chunk)
    n = n_chunks * chunk
    kept = job.rules.kept
    x = np.zeros((n, kept, 2))
    cells = np.zeros((n, kept, N_TABLES), dtype=np.int64)
    legal = np.zeros((n, 2), dtype=np.int64)
    y = np.zeros(n)
    fns, values, poff = job.kernel_policies()
    err = new_err(n_chunks)
    with numba_threads(threads):
        _returns(job.rules.to_kernel(), chunk_keys(seed, 0, n_chunks, job.game.n_streams), chunk, *fns, values,
                 poff, x, cells, legal, y, err)
    raise_policy_error(job, err, describe_error)
    keep = legal[:, 0] > 1
    return {"x": x[keep], "cells": cells[keep], "legal": legal[keep], "y": y[keep], "deals": n}


def fit(samples: dict, ridge: float = 1.0) -> np.ndarray:
    """The parameters that fit the advantage of the card laid (its return less the mean over the legal
    cards) by least squares on the centred features, with ``ridge`` on every parameter."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.linalg import lsqr

    x, cells, legal, y = samples["x"], samples["cells"], samples["legal"], samples["y"]
    n, width = len(y), x.shape[1]
    n_legal, chosen = legal[:, 0], legal[:, 1]
    weight = np.where(np.arange(width)[None, :] < n_legal[:, None], -1.0 / n_legal[:, None], 0.0)
    weight[np.arange(n), chosen] += 1.0           # the card laid, less the mean of the legal cards
    continuous = (weight[:, :, None] * x).sum(1)
    rows = np.concatenate([np.repeat(np.arange(n), width * N_TABLES), np.arange(n), np.arange(n)])
    cols = np.concatenate([cells.reshape(-1), np.full(n, P_POINTS), np.full(n, P_REPLY)])
    data = np.concatenate([np.repeat(weight.reshape(-1), N_TABLES), continuous[:, 0], continuous[:, 1]])
    design = coo_matrix((data, (rows, cols)), shape=(n, N_PARAMS)).tocsr()
    return lsqr(design, y - y.mean(), damp=np.sqrt(ridge), atol=1e-10, btol=1e-10, iter_lim=20_000)[0]


def head_to_head(challenger, holder, rules="six-card", n_deals: int = 100_000, seed: int = 0,
                 discard="expected_net", threads=None) -> tuple[float, float]:
    """The challenger's pegging less the holder's, per deal, with its standard error: the same deals twice,
    the seats exchanged (each deals half of them), so that the luck of the cards cancels."""
    from ..simulate import simulate_deals

    sides = []
    for pegs in ([challenger, holder], [holder, challenger]):
        rec = simulate_deals(rules, {"discard": discard, "peg": pegs}, n_deals, seed, records=True,
                             threads=threads).records
        seat0 = np.where(rec["dealer"] == 0, 1, -1) * (rec["dealer_pegging"] - rec["pone_pegging"]).to_numpy()
        sides.append(seat0)
    diff = (sides[0] - sides[1]) / 2
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff)))


def distill(rules="six-card", rounds: int = 3, n_deals: int = 2_000_000, seed: int = 0, ridge: float = 1.0,
            check_deals: int = 200_000, threads=None) -> tuple[np.ndarray, list]:
    """Policy iteration (module docstring) from :func:`initial_params`: each round fits new tables to
    play-outs of the current ones and keeps them if they beat ``defensive`` head to head, over
    ``check_deals`` paired deals, by more than the current tables do; stops at the first round that does
    not.  (Each round's tables also beat the round before, but the rounds are not transitive: later ones,
    fitted to play-outs among themselves, lose some of what the first gains against other players, so the
    yardstick is a fixed player.)  Returns the tables kept and the history (per round: samples, the
    head-to-head against the tables before and against defensive)."""
    params = initial_params()
    current = distilled_policy(params)
    best = head_to_head(current, "defensive", rules, check_deals, seed, threads=threads)[0]
    history = []
    for round_ in range(1, rounds + 1):
        samples = play_outs(rules, params, n_deals, seed + round_, threads=threads)
        new = fit(samples, ridge)
        challenger = distilled_policy(new)
        gain, gain_se = head_to_head(challenger, current, rules, check_deals, seed, threads=threads)
        vs_defensive, vs_defensive_se = head_to_head(challenger, "defensive", rules, check_deals, seed,
                                                     threads=threads)
        kept = vs_defensive > best
        history.append({"round": round_, "samples": len(samples["y"]), "gain": gain, "gain_se": gain_se,
                        "vs_defensive": vs_defensive, "vs_defensive_se": vs_defensive_se, "kept": kept})
        if not kept:
            break
        params, current, best = new, challenger, vs_defensive
    return params, history


def write_tables(params, provenance: dict, path=None) -> Path:
    """Write the tables and how they were made (JSON); by default over the tables that ship."""
    from ...core.store import write_json

    path = Path(path) if path is not None else Path(str(resources.files(DATA[0]).joinpath(DATA[1])))
    write_json(path, {"format": "sims-distilled-peg/1", "provenance": provenance,
                      "params": [float(v) for v in params]})
    return path


@cache
def named_tables() -> dict[str, tuple]:
    """The tables the policy knows by name: ``shipped``."""
    data = json.loads(resources.files(DATA[0]).joinpath(DATA[1]).read_text())
    if len(data["params"]) != N_PARAMS:
        raise ValueError(f"{DATA[1]} holds {len(data['params'])} values, the policy takes {N_PARAMS}")
    return {"shipped": tuple(float(v) for v in data["params"])}


def distilled_policy(params=None):
    """The ``distilled`` pegging Policy with ``params`` (default: the tables that ship)."""
    from ...core.policies import Policy, PolicySpec, TableParams

    spec = PolicySpec(f"{__name__}:distilled_peg", TableParams("distilled pegging tables", N_PARAMS,
                                                                f"{__name__}:named_tables", "shipped"))
    values = spec.default_params() if params is None else tuple(float(v) for v in params)
    if len(values) != N_PARAMS:
        raise ValueError(f"the distilled pegging tables take {N_PARAMS} values, got {len(values)}")
    return Policy("distilled", "peg", distilled_peg, values, spec)


# ---------------------------------------------------------------------------------------------- the end of the play

END_CARDS = 2           # the end is solved exactly when both players hold at most this many cards


@njit(types.float64(types.Array(types.int64, 2, "C"), types.Array(types.int64, 1, "C"), types.int64, types.int64,
                    types.int64, types.int64, types.int64, types.int64, types.boolean), cache=True)
def solve_end(h, played, n, start, count, turn, went, last, bath):
    """My pegging less his from here to the end of the play, both hands known and both playing best
    (``h[0]`` mine, ``h[1]`` his, -1 for none; ``turn`` 0 me, 1 him; ``went`` bit r: r has said go in this
    count; ``last`` who laid the last card).  A player who can play must; when nobody can, the last player
    scores the go (1) and the other leads a new count; 31 (its 2 in the card's points) ends the count; the
    last card of all scores 1 (as :func:`sims.cribbage.play.play_out`)."""
    zero = n - n        # not a literal: numba compiles a recursive function once for its signature
    remaining = 0
    for r in range(2):
        for j in range(h.shape[1]):
            remaining += h[r, j] >= 0
    if remaining == 0:
        if count > 0:
            return 1.0 if last == 0 else -1.0
        return 0.0
    sign = 1.0 if turn == 0 else -1.0
    best = 0.0
    found = False
    for j in range(h.shape[1]):
        card = h[turn, j]
        if card < 0 or count + card_value(card) > MAX_COUNT:
            continue
        h[turn, j] = -1
        played[n] = card
        pts = peg_points_kernel(played, start, n + 1, bath)
        after = count + card_value(card)
        if after == MAX_COUNT:
            v = sign * pts + solve_end(h, played, n + 1, n + 1, zero, 1 - turn, zero, turn, bath)
        else:
            v = sign * pts + solve_end(h, played, n + 1, start, after, 1 - turn, went, turn, bath)
        h[turn, j] = card
        if not found or (turn == 0 and v > best) or (turn == 1 and v < best):
            best, found = v, True
    if found:
        return best
    went |= 1 << turn
    other = 1 - turn
    for j in range(h.shape[1]):
        if h[other, j] >= 0 and count + card_value(h[other, j]) <= MAX_COUNT:
            return solve_end(h, played, n, start, count, other, went, last, bath)
    go = 1.0 if last == 0 else -1.0     # nobody can play: the go to the last player, the other leads
    return go + solve_end(h, played, n, n, zero, 1 - last, zero, last, bath)


@njit(cache=True)
def end_values(hand, played, state, seen, their_left, values):
    """``values[i]``: for each card ``hand[i]`` I may lay, its points now and my pegging less his to the end
    of the play, both playing best, averaged exactly over the ``their_left`` (<= 2) cards he may hold, drawn
    from the cards I have not seen (by rank: suits do not count in the play without Bath flushes)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    role = state[S_ROLE]
    went_him = (state[S_GO_MASK] >> (1 - role)) & 1
    went = went_him << 1
    h = np.full((2, END_CARDS), -1, dtype=np.int64)
    mine = 0
    for j in range(hand.shape[0]):
        if hand[j] >= 0:
            h[0, mine] = hand[j]
            mine += 1
    mult = np.zeros(NR, dtype=np.int64)
    for r in range(NR):
        mult[r] = popcount((~seen >> (r << 2)) & 15)
    for i in range(hand.shape[0]):
        values[i] = 0.0
    total = 0.0
    for r1 in range(NR if their_left >= 1 else 1):
        for r2 in range(r1 if their_left >= 2 else 0, NR if their_left >= 2 else 1):
            if their_left == 0:
                w = 1.0
            elif their_left == 1:
                w = float(mult[r1])
            elif r1 == r2:
                w = mult[r1] * (mult[r1] - 1) / 2.0
            else:
                w = float(mult[r1] * mult[r2])
            if w <= 0.0:
                continue
            h[1, 0] = (r1 << 2) if their_left >= 1 else -1
            h[1, 1] = (r2 << 2) if their_left >= 2 else -1
            total += w
            for i in range(hand.shape[0]):
                if not is_legal_play(hand, i, count):
                    continue
                card = hand[i]
                slot = 0
                while h[0, slot] != card:
                    slot += 1
                h[0, slot] = -1
                played[n] = card
                pts = peg_points_kernel(played, start, n + 1, False)
                after = count + card_value(card)
                if after == MAX_COUNT:
                    v = pts + solve_end(h, played, n + 1, n + 1, 0, 1, 0, 0, False)
                else:
                    v = pts + solve_end(h, played, n + 1, start, after, 1, went, 0, False)
                h[0, slot] = card
                values[i] += w * v
    for i in range(hand.shape[0]):
        values[i] /= total


@njit(PEG_SIG, cache=True)
def distilled_end_peg(hand, played, state, rules, rng, params):
    """``distilled``, but when both players hold at most :data:`END_CARDS` cards the card of best exact
    value to the end of the play (:func:`end_values`; ties: ``distilled``'s card)."""
    count = state[S_COUNT]
    only = only_legal(hand, count)
    if only >= 0:
        return only
    pick = distilled_peg(hand, played, state, rules, rng, params)
    if rules[R_ACTIVE] != 2 or rules[R_BATH] != 0 or rules[R_ONE_COUNT] != 0:
        return pick
    seen, mine_left = seen_cards(hand, played, state)
    their_left = 2 * rules[R_KEPT] - state[S_N_PLAYED] - mine_left
    if mine_left > END_CARDS or their_left > END_CARDS:
        return pick
    values = np.empty(hand.shape[0])
    end_values(hand, played.copy(), state, seen, their_left, values)   # read-only (contract): cards laid in a copy
    best = pick
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count) and values[i] > values[best] + 1e-9:
            best = i
    return best


# ---------------------------------------------------------------------------------------------- fitting to play-outs of every card

@njit(types.void(I64_1, U64_2, types.int64, types.UniTuple(DiscardFn, 4), types.UniTuple(PegFn, 4), F64_1,
                 I64_1, F64_3, I64_3, I64_2, F64_2, I64_2, types.int64), cache=True, lazy=True, parallel=True)
def _card_returns(rules, keys, chunk_size, discard_fns, peg_fns, params, poff, x, cells, legal, q, err, learner):
    """Deal ``i`` of chunk ``c`` (dealt by seat ``i % 2``) played by the policies given; at every decision
    ``k`` that was a choice, row ``(c * chunk_size + i) * 2 * kept + k``: for each legal card its features
    (``x``, ``cells``) and ``q[row, card]``, the card's points and the player's pegging less the other's to
    the end of the play when the rest is played by the same policies with the hands as dealt; ``legal[row]``
    = (number of legal cards, the card laid), 0 legal cards when the decision was not a choice.  With
    ``learner`` >= 0 only the decisions of the player in that seat are recorded."""
    kept_n = rules[R_KEPT]
    for c in prange(keys.shape[0]):
        rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
        work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
        comp2 = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
        state = np.zeros(S_SIZE, dtype=np.int64)
        st = np.zeros(S_SIZE, dtype=np.int64)
        at = np.zeros(A_SIZE, dtype=np.int64)
        hand = np.empty(kept_n, dtype=np.int64)
        in_play = np.full((MAX_SEATS, kept_n), -1, dtype=np.int64)
        thrown = np.full((MAX_SEATS, 2), -1, dtype=np.int64)
        buf = np.empty(2 * kept_n, dtype=np.int64)
        levels = np.empty(54, dtype=np.int64)
        chances = np.empty(54)
        own = np.empty(N_TABLES, dtype=np.int64)
        err2 = np.zeros(err.shape[1], dtype=np.int64)
        for i in range(chunk_size):
            base_row = (c * chunk_size + i) * 2 * kept_n
            seed_streams(keys, c, i, deck_rng, seat_rngs)
            scores[:] = 0
            comp[:, :] = 0
            dealer = i % 2
            if play_deal(rules_c, dealer, scores, False, deck_rng, seat_rngs, discard_fns, peg_fns, params_c, poff_c,
                         comp, err[c], work) == POLICY_ERROR:
                break
            played, kept, n_played = work[6], work[2], work[8][A_N_PLAYED]
            starter = work[0][2 * rules_c[R_DEALT]]
            state[S_STARTER] = starter
            owner = owners(played, kept, n_played, kept_n)
            count, start = 0, 0
            for k in range(n_played):
                value = card_value(played[k])
                if count + value > MAX_COUNT:
                    count, start = 0, k
                me = owner[k]
                hand[:] = kept[me]
                for j in range(k):
                    for h in range(kept_n):
                        if hand[h] == played[j]:
                            hand[h] = -1
                if only_legal(hand, count) < 0 and (learner < 0 or (dealer + me) % 2 == learner):
                    row = base_row + k
                    went = 1 if k > start and owner[k - 1] == me else 0
                    state[S_ROLE], state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED] = me, count, start, k
                    state[S_DEALER] = dealer
                    state[S_GO_MASK] = went << (1 - me)
                    state[S_THROWN], state[S_THROWN + 1] = work[4][me, 0], work[4][me, 1]
                    buf[:k] = played[:k]
                    seen, mine_left = seen_cards(hand, buf, state)
                    their_left = 2 * kept_n - k - mine_left
                    thrown[:2, :] = work[4][:2, :]
                    n_legal = 0
                    for h in range(kept_n):
                        if not is_legal_play(hand, h, count):
                            continue
                        x[row, n_legal, 0], x[row, n_legal, 1] = card_features(
                            hand, h, buf, state, rules_c, seen, their_left, levels, chances, own)
                        cells[row, n_legal, :] = own
                        if hand[h] == played[k]:
                            legal[row, 1] = n_legal
                        # Lay the card, then play the rest out with the hands as dealt.
                        for r in range(2):
                            in_play[r, :] = kept[r]
                            for j in range(k):
                                for g in range(kept_n):
                                    if in_play[r, g] == played[j]:
                                        in_play[r, g] = -1
                        card = hand[h]
                        for g in range(kept_n):
                            if in_play[me, g] == card:
                                in_play[me, g] = -1
                        buf[:k] = played[:k]
                        buf[k] = card
                        after = count + card_value(card)
                        mine = peg_points_kernel(buf, start, k + 1, rules_c[R_BATH] != 0)
                        at[A_COUNT], at[A_START], at[A_N_PLAYED] = after, start, k + 1
                        at[A_GO_MASK], at[A_TURN], at[A_LAST] = went << (1 - me), 1 - me, me
                        comp2[:, :] = 0
                        scores[:] = 0
                        over = False
                        if after == MAX_COUNT:
                            at[A_COUNT], at[A_START], at[A_GO_MASK] = 0, k + 1, 0
                            over = rules_c[R_ONE_COUNT] != 0
                        if not over:
                            play_out(rules_c, dealer, scores, False, starter, in_play, buf, thrown, st, at, seat_rngs,
                                     peg_fns, params_c, poff_c, comp2, err2)
                        q[row, n_legal] = mine + comp2[me, C_PEGGING] - comp2[1 - me, C_PEGGING]
                        n_legal += 1
                    legal[row, 0] = n_legal
                count += value
                if count == MAX_COUNT:
                    count, start = 0, k + 1


def card_play_outs(rules, params, n_deals: int, seed: int, discard="expected_net", opponent=None,
                   threads=None) -> dict:
    """``n_deals`` deals played by the tables ``params`` (against ``opponent``'s pegging in seat 1 when given,
    a registered name or Policy); at every decision of theirs that was a choice, the features of each legal
    card and its return when the rest of the play is played out by the same players with the hands as
    dealt (:func:`_card_returns`)."""
    from ...core.chunks import numba_threads
    from ...core.errors import new_err, raise_policy_error
    from ...core.jobs import Job, check_count
    from ...core.rng import chunk_keys
    from ..engine import describe_error

    n_deals = check_count(n_deals, "the number of deals")
    mine = distilled_policy(params)
    pegs = mine if opponent is None else [mine, opponent]
    job = Job.make("cribbage", "deals", rules, {"discard": discard, "peg": pegs}, n_deals, seed)
    if job.rules.active != 2:
        raise ValueError(f"the distilled tables are for two-handed play; {job.rules.name} has {job.rules.active}")
    chunk = 1024
    n_chunks = -(-n_deals // chunk)
    n = n_chunks * chunk
    kept = job.rules.kept
    rows = n * 2 * kept
    x = np.zeros((rows, kept, 2))
    cells = np.zeros((rows, kept, N_TABLES), dtype=np.int64)
    legal = np.zeros((rows, 2), dtype=np.int64)
    q = np.zeros((rows, kept))
    fns, values, poff = job.kernel_policies()
    err = new_err(n_chunks)
    with numba_threads(threads):
        _card_returns(job.rules.to_kernel(), chunk_keys(seed, 0, n_chunks, job.game.n_streams), chunk, *fns, values,
                      poff, x, cells, legal, q, err, -1 if opponent is None else 0)
    raise_policy_error(job, err, describe_error)
    keep = legal[:, 0] > 1
    return {"x": x[keep], "cells": cells[keep], "legal": legal[keep], "q": q[keep], "deals": n}


def merge(*samples) -> dict:
    """Play-outs of several runs as one sample."""
    return {k: (np.concatenate([s[k] for s in samples]) if k != "deals" else sum(s[k] for s in samples))
            for k in samples[0]}


def fit_cards(samples: dict, ridge: float = 1.0, chunk: int = 500_000) -> np.ndarray:
    """The parameters that fit every legal card's return less the mean over the legal cards (its advantage)
    by least squares on the centred features, with ``ridge`` on every parameter: the normal equations,
    summed over ``chunk`` decisions at a time (memory stays near a gigabyte; 3.3 million decisions in one
    piece took over 15 GB)."""
    x, cells, legal, q = samples["x"], samples["cells"], samples["legal"], samples["q"]
    gram = ridge * np.eye(N_PARAMS)
    rhs = np.zeros(N_PARAMS)
    for lo in range(0, len(q), chunk):
        part = slice(lo, lo + chunk)
        design, target = _card_design(x[part], cells[part], legal[part], q[part])
        gram += (design.T @ design).toarray()
        rhs += design.T @ target
    return np.linalg.solve(gram, rhs)


def _card_design(x, cells, legal, q):
    """The rows of :func:`fit_cards` for some decisions: one per legal card, as a sparse matrix, and the
    card's advantage."""
    from scipy.sparse import coo_matrix

    width = x.shape[1]
    n_legal = legal[:, 0]
    live = np.arange(width)[None, :] < n_legal[:, None]                     # [n, width]
    mean_x = (x * live[:, :, None]).sum(1) / n_legal[:, None]
    mean_q = (q * live).sum(1) / n_legal
    r_dec, r_card = np.nonzero(live)                                        # one row per legal card
    m = len(r_dec)
    row = np.arange(m)
    # Cells: the card's own cells +1, every legal card's cells -1/n_legal.
    own_rows = np.repeat(row, N_TABLES)
    own_cols = cells[r_dec, r_card].reshape(-1)
    own_data = np.ones(m * N_TABLES)
    all_rows = np.repeat(row, width * N_TABLES)
    all_cols = cells[r_dec].reshape(-1)
    all_data = np.repeat(np.where(live[r_dec], -1.0 / n_legal[r_dec, None], 0.0).reshape(-1), N_TABLES)
    cont = x[r_dec, r_card] - mean_x[r_dec]
    rows = np.concatenate([own_rows, all_rows, row, row])
    cols = np.concatenate([own_cols, all_cols, np.full(m, P_POINTS), np.full(m, P_REPLY)])
    data = np.concatenate([own_data, all_data, cont[:, 0], cont[:, 1]])
    design = coo_matrix((data, (rows, cols)), shape=(m, N_PARAMS)).tocsr()
    return design, q[r_dec, r_card] - mean_q[r_dec]


def distill_cards(rules="six-card", start=None, rounds: int = 1, n_deals: int = 400_000, seed: int = 2000,
                  opponents=("self", "defensive"), ridge: float = 1.0, check_deals: int = 200_000,
                  threads=None) -> tuple[np.ndarray, list]:
    """Policy iteration on every card's play-out (:func:`card_play_outs`, :func:`fit_cards`) from the tables
    ``start`` (default: the shipped ones).  Round ``r`` plays ``n_deals`` deals against each of
    ``opponents`` (``"self"``: the current tables in both seats; else a pegging policy in the other seat,
    seed ``seed + 10 r + j`` for the ``j``-th), fits new tables to them, and scores them by a panel of fixed
    players: the mean of their pegging less ``defensive``'s and less the starting tables', head to head over
    ``check_deals`` paired deals (seed 4).  Returns the tables of the best score (the start's own score is
    half its margin over defensive) and the history.  (Tables fitted to play-outs among themselves learn to
    exploit their own play, so later rounds gain against the round before and lose against others: the
    panel of fixed players is the yardstick.)"""
    start = np.asarray(distilled_policy().params if start is None else start, dtype=np.float64)
    first = distilled_policy(start)
    vs_def = head_to_head(first, "defensive", rules, check_deals, 4, threads=threads)
    best, best_score = start, vs_def[0] / 2
    history = [{"round": 0, "vs_defensive": vs_def[0], "vs_defensive_se": vs_def[1], "vs_start": 0.0,
                "vs_start_se": 0.0, "score": best_score, "kept": True}]
    params = start
    for round_ in range(1, rounds + 1):
        parts = [card_play_outs(rules, params, n_deals, seed + 10 * round_ + j,
                                opponent=None if o == "self" else o, threads=threads)
                 for j, o in enumerate(opponents)]
        samples = merge(*parts)
        new = fit_cards(samples, ridge)
        challenger = distilled_policy(new)
        vs_start = head_to_head(challenger, first, rules, check_deals, 4, threads=threads)
        vs_def = head_to_head(challenger, "defensive", rules, check_deals, 4, threads=threads)
        score = (vs_start[0] + vs_def[0]) / 2
        kept = score > best_score
        history.append({"round": round_, "decisions": int(len(samples["q"])), "vs_defensive": vs_def[0],
                        "vs_defensive_se": vs_def[1], "vs_start": vs_start[0], "vs_start_se": vs_start[1],
                        "score": score, "kept": kept})
        if kept:
            best, best_score = new, score
        params = new
    return best, history
