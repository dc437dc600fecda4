"""Loo's engine for the core: parallel kernels over chunks of independent deals or sessions, as tidy batches.

``play_chunks`` is what :func:`sims.core.chunks.run_chunks` calls.  Independent
deal ``g`` is dealt by seat ``g % players`` with one stake held over in the pool
(as after a deal with one looe in limited loo), or nothing with the option ``clean``
(a single, or everyone staking under ``single = stake-all``).  A
session (a "game") is :func:`sims.loo.play.play_session`: a cut for deal and
``session_rounds`` rounds with the pool carried over.  Every item seeds the deck
stream and each seat's stream from (chunk key, item) (:mod:`sims.core.rng`).

Totals: by role (place from the dealer) and by seat, each player's money, what he
took from the pool, and how often he stood, took the miss, was looed, swept with a
flush, with his tricks; by deal, the pool carried in, the pool played for, the
pool carried on and the standers; how deals ended.  Sessions add each seat's
money per session (by seat and by place from the first dealer), the pool left at
the end and its largest size, and the mean pool at each deal of a session.
Money is conserved, and the totals carry what it takes to check it exactly.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..cards import format_card, format_cards
from ..core.arrays import copy_into, copy_rows
from ..core.batch import Batch, concat, count_columns, histogram_columns, rows_frame, total_columns
from ..core.driver import chunk_loop
from ..core.errors import E_ANSWER, E_DECISION, E_ITEM
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, I64_2, I64_3, U64_2
from ..core.rng import seed_state
from ..core.streams import seat_streams
from .contract import DECLARATIONS, MAX_SEATS, CardFn, DecideFn
from .play import (
    D_CARD,
    D_DECLARE,
    E_CARDS,
    E_LEGAL,
    E_MISS_OPEN,
    E_N_CARDS,
    E_PACK,
    E_ROLE,
    E_TRUMP,
    ENDINGS,
    I_DEALER,
    I_ENDING,
    I_NEXT,
    I_POOL,
    I_STANDERS,
    INFO,
    N_INFO,
    N_OUT,
    O_LOOED,
    O_MONEY,
    OUTCOMES,
    POLICY_ERROR,
    new_work,
    play_deal,
    play_dealt,
    play_session,
)
from .rules import R_PLAYERS, R_STAKE

POOL_BINS = 40  # pools by size in stakes: bin v holds 2**(v-1) <= pool/stake < 2**v
COUNT_BINS = MAX_SEATS + 1
DEAL_HISTS = ("standers", "looed", "carried_on")
POOL_STAKES = 256  # the pool at each deal of a session by whole stakes, the last bin holding the larger

DECIDES = types.UniTuple(DecideFn, MAX_SEATS)
CARDS = types.UniTuple(CardFn, MAX_SEATS)


def role_names(players: int) -> tuple[str, ...]:
    """Places at a deal by role: the dealer, the eldest hand (first to declare), hand 2, ... on round."""
    return ("dealer", "eldest") + tuple(f"hand {r}" for r in range(2, players))


def place_names(players: int) -> tuple[str, ...]:
    """Seats by their place from the first dealer of a session."""
    return ("first dealer",) + tuple(f"first dealer +{k}" for k in range(1, players))


@njit(cache=True, inline="always")
def pool_bin(pool, stake):
    """The histogram bin of a pool: the bit length of pool // stake, capped."""
    x = pool // stake
    v = 0
    while x:
        x >>= 1
        v += 1
    return min(v, POOL_BINS - 1)


@njit(cache=True, refcounts=False)
def seed_streams(keys, c, i, players, deck_rng, seat_rngs):
    """The deck stream and the seated players' streams of item ``i`` of chunk ``c``."""
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(players):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(cache=True, refcounts=False)
def _add_deal(out, info, players, stake, role_sums, role_sumsq, counts, info_sums, info_sumsq, hist):
    """Add one deal's outcomes to the totals (``counts[e]``: deals ending in way e)."""
    looed = 0
    for r in range(players):
        looed += out[r, O_LOOED]
        for k in range(N_OUT):
            v = out[r, k]
            role_sums[r, k] += v
            role_sumsq[r, k] += v * v
    for k in range(N_INFO):
        info_sums[k] += info[k]
        info_sumsq[k] += info[k] * info[k]
    counts[info[I_ENDING]] += 1
    hist[0, info[I_STANDERS]] += 1
    hist[1, looed] += 1
    hist[2, pool_bin(info[I_NEXT], stake)] += 1


@njit(inline="always")
def _deal_chunk(
    c,
    rules,
    keys,
    first_item,
    n_items,
    chunk_size,
    carry,
    declare_fns,
    exchange_fns,
    card_fns,
    params,
    poff,
    role_sums,
    role_sumsq,
    seat_sums,
    seat_sumsq,
    seat_n,
    info_sums,
    info_sumsq,
    endings,
    hist,
    rec_out,
    rec_info,
    err,
):
    """Independent deals, every seat dealing in turn, each with ``carry`` money held over in the pool."""
    players, stake = rules[R_PLAYERS], rules[R_STAKE]
    # Thread-local copies: array reference counts on shared inputs would bounce between cores.
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    work = new_work(rules_c)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    out = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    # The chunk's rows, each view taken once rather than once a deal (taking one counts a reference).
    err_c, sums_c, sumsq_c, endings_c = err[c], role_sums[c], role_sumsq[c], endings[c]
    info_sums_c, info_sumsq_c, hist_c = info_sums[c], info_sumsq[c], hist[c]
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_streams(keys, c, i, players, deck_rng, seat_rngs)
        g = start + i
        dealer = g % players
        if (
            play_deal(
                rules_c,
                dealer,
                carry,
                deck_rng,
                seat_rngs,
                declare_fns,
                exchange_fns,
                card_fns,
                params_c,
                poff_c,
                out,
                info,
                err_c,
                work,
            )
            == POLICY_ERROR
        ):
            err[c, E_ITEM] = g
            break
        _add_deal(out, info, players, stake, sums_c, sumsq_c, endings_c, info_sums_c, info_sumsq_c, hist_c)
        for r in range(players):
            seat = (dealer + r) % players
            seat_n[c, seat] += 1
            for k in range(N_OUT):
                seat_sums[c, seat, k] += out[r, k]
                seat_sumsq[c, seat, k] += out[r, k] * out[r, k]
        if rec_out.shape[0] > 0:
            copy_rows(rec_out[c * chunk_size + i], out)
            copy_into(rec_info[c * chunk_size + i], info)


_deal_chunks = chunk_loop(
    "_deal_chunks",
    _deal_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        DECIDES,
        DECIDES,
        CARDS,
        F64_1,
        I64_1,
        I64_3,
        I64_3,
        I64_3,
        I64_3,
        I64_2,
        I64_2,
        I64_2,
        I64_2,
        I64_3,
        I64_3,
        I64_2,
        I64_2,
    ),
)


@njit(inline="always")
def _session_chunk(
    c,
    rules,
    keys,
    first_item,
    n_items,
    chunk_size,
    declare_fns,
    exchange_fns,
    card_fns,
    params,
    poff,
    money,
    places,
    role_sums,
    role_sumsq,
    endings,
    info_sums,
    info_sumsq,
    by_deal,
    session,
    pool_hist,
    hist,
    deal_pools,
    rows,
    err,
):
    """Sessions.  Chunk ``c`` adds: to ``money[c]`` each seat's money (sum, then sum of squares at
    MAX_SEATS + seat), to ``places[c]`` the same by place from the first dealer; per deal, the totals of
    :func:`_add_deal`; to ``by_deal[c]`` the pool at deal d (sum, then sum of squares at D + d); to
    ``session[c]`` the pool left and the largest pool (sums, squares); to ``pool_hist[c]`` the largest pool's
    bin; to ``deal_pools[c, d]`` the pool at deal d in whole stakes (capped at POOL_STAKES - 1).
    Session ``i`` writes ``rows[c * chunk_size + i]`` when ``rows`` has rows."""
    players, stake = rules[R_PLAYERS], rules[R_STAKE]
    deals = by_deal.shape[1] // 2
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as above
    work = new_work(rules_c)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    log_out = np.zeros((deals, MAX_SEATS, N_OUT), dtype=np.int64)
    log_info = np.zeros((deals, N_INFO), dtype=np.int64)
    net = np.zeros(MAX_SEATS, dtype=np.int64)
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_streams(keys, c, i, players, deck_rng, seat_rngs)
        left = play_session(
            rules_c,
            deck_rng,
            seat_rngs,
            declare_fns,
            exchange_fns,
            card_fns,
            params_c,
            poff_c,
            log_out,
            log_info,
            err[c],
            work,
        )
        if left == POLICY_ERROR:
            err[c, E_ITEM] = first_item + c * chunk_size + i
            break
        net[:] = 0
        largest = 0
        for d in range(deals):
            out, info = log_out[d], log_info[d]
            _add_deal(
                out, info, players, stake, role_sums[c], role_sumsq[c], endings[c], info_sums[c], info_sumsq[c], hist[c]
            )
            dealer = info[I_DEALER]
            for r in range(players):
                net[(dealer + r) % players] += out[r, O_MONEY]
            pool = info[I_POOL]
            by_deal[c, d] += pool
            by_deal[c, deals + d] += pool * pool
            deal_pools[c, d, min(pool // stake, POOL_STAKES - 1)] += 1
            largest = max(largest, pool)
        first = log_info[0, I_DEALER]
        for s in range(players):
            money[c, s] += net[s]
            money[c, MAX_SEATS + s] += net[s] * net[s]
            place = (s - first) % players
            places[c, place] += net[s]
            places[c, MAX_SEATS + place] += net[s] * net[s]
        session[c, 0] += left
        session[c, 1] += left * left
        session[c, 2] += largest
        session[c, 3] += largest * largest
        pool_hist[c, pool_bin(largest, stake)] += 1
        if rows.shape[0] > 0:
            row = rows[c * chunk_size + i]
            row[0] = first
            row[1] = left
            row[2] = largest
            for s in range(players):
                row[3 + s] = net[s]


_session_chunks = chunk_loop(
    "_session_chunks",
    _session_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        DECIDES,
        DECIDES,
        CARDS,
        F64_1,
        I64_1,
        I64_2,
        I64_2,
        I64_3,
        I64_3,
        I64_2,
        I64_2,
        I64_2,
        I64_2,
        I64_2,
        I64_2,
        I64_3,
        I64_3,
        I64_2,
        I64_2,
    ),
)


@njit(
    types.int64(
        I64_1, types.int64, types.int64, I64_1, U64_2, DECIDES, DECIDES, CARDS, F64_1, I64_1, I64_2, I64_1, I64_2, I64_1
    ),
    cache=True,
)
def _stacked_deal(
    rules, dealer, carry, deck, seat_rngs, declare_fns, exchange_fns, card_fns, params, poff, out, info, played, err
):
    work = new_work(rules)
    copy_into(work[0], deck)
    work[1][0], work[1][1] = 0, 52
    carried_on = play_dealt(
        rules,
        dealer,
        carry,
        np.zeros(4, dtype=np.uint64),
        seat_rngs,
        declare_fns,
        exchange_fns,
        card_fns,
        params,
        poff,
        out,
        info,
        err,
        work,
    )
    copy_rows(played, work[5])
    return carried_on


def play_stacked(rules, policies, deck, dealer: int = 0, carry: int = 0, seat_rngs=None):
    """Play one deal from a stacked ``deck`` (the order the cards come off the pack: see
    :func:`sims.loo.reference.stacked_deck`) in the kernel; returns ``(out, info, played)``: outcomes by role
    (``OUTCOMES``), the deal (``INFO``) and the (card, role) rows played.  ``seat_rngs`` defaults to zeros."""
    from ..core.errors import PolicyError, job_policies, new_err, overrun_text, raised_by_policy
    from ..core.jobs import Job
    from .game import GAME

    job = Job.make(GAME, "deals", rules, policies, 1, 0)
    fns, params, poff = job.kernel_policies()
    deck = np.asarray(deck, dtype=np.int64)
    if sorted(deck.tolist()) != list(range(52)):
        raise ValueError("a stacked deck must hold each of the 52 cards once")
    rngs = seat_streams(MAX_SEATS)
    if seat_rngs is not None:
        rngs[: len(seat_rngs), :4] = seat_rngs
    out = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    played = np.zeros((MAX_SEATS * 5, 2), dtype=np.int64)
    err = new_err(1)
    with raised_by_policy(job_policies(job), "a stacked deal"):
        status = _stacked_deal(
            job.rules.to_kernel(), dealer, carry, deck, rngs, *fns, params, poff, out, info, played, err[0]
        )
    if status == POLICY_ERROR:
        raise PolicyError(overrun_text(err[0]) or describe_error(job, err[0]))
    players = job.rules.players
    return out[:players], info, played[played[:, 0] >= 0]


def carry_of(job) -> int:
    """Money held over into each independent deal: one stake (the pool after one looe in limited loo), or
    nothing with the option ``clean``."""
    return 0 if job.option("clean") else job.rules.stake


def play_chunks(job, keys, first_item, n_items, err) -> Batch:
    """Items first_item .. first_item + n_items - 1 of ``job`` in one parallel kernel call."""
    fns, params, poff = job.kernel_policies()
    rules = job.rules.to_kernel()
    if job.kind == "deals":
        return _deals(job, rules, keys, first_item, n_items, fns, params, poff, err)
    return _sessions(job, rules, keys, first_item, n_items, fns, params, poff, err)


def _by_role_frames(job, sums, sumsq, endings, info_sums, info_sumsq, hist, n_deals) -> tuple[list, list]:
    players = job.rules.players
    roles = role_names(players)
    totals = [
        total_columns("role", roles, OUTCOMES, sums[:players], sumsq[:players], n_deals),
        total_columns("deal", ["all"], INFO[:5], info_sums[:5], info_sumsq[:5], n_deals),
        count_columns("ending", ENDINGS, ["deals"], endings, n_deals),
    ]
    hists = [histogram_columns("deal", ["all"], DEAL_HISTS, hist[None])]
    return totals, hists


def _deals(job, rules, keys, first_item, n_items, fns, params, poff, err) -> Batch:
    carry = carry_of(job)
    n_chunks, players = keys.shape[0], job.rules.players
    shape = (n_chunks, MAX_SEATS, N_OUT)
    role_sums, role_sumsq, seat_sums, seat_sumsq = (np.zeros(shape, dtype=np.int64) for _ in range(4))
    seat_n = np.zeros((n_chunks, MAX_SEATS), dtype=np.int64)
    info_sums, info_sumsq = (np.zeros((n_chunks, N_INFO), dtype=np.int64) for _ in range(2))
    endings = np.zeros((n_chunks, len(ENDINGS)), dtype=np.int64)
    hist = np.zeros((n_chunks, len(DEAL_HISTS), POOL_BINS), dtype=np.int64)
    n_rec = n_items if job.records else 0
    rec_out = np.zeros((n_rec, MAX_SEATS, N_OUT), dtype=np.int64)
    rec_info = np.zeros((n_rec, N_INFO), dtype=np.int64)
    _deal_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        carry,
        *fns,
        params,
        poff,
        role_sums,
        role_sumsq,
        seat_sums,
        seat_sumsq,
        seat_n,
        info_sums,
        info_sumsq,
        endings,
        hist,
        rec_out,
        rec_info,
        err,
    )
    totals, hists = _by_role_frames(
        job,
        role_sums.sum(0),
        role_sumsq.sum(0),
        endings.sum(0),
        info_sums.sum(0),
        info_sumsq.sum(0),
        hist.sum(0),
        n_items,
    )
    seats = [f"seat {s}" for s in range(players)]
    totals.append(
        total_columns(
            "seat", seats, OUTCOMES, seat_sums.sum(0)[:players], seat_sumsq.sum(0)[:players], seat_n.sum(0)[:players]
        )
    )
    rows = {}
    if job.records:
        deal = np.arange(first_item, first_item + n_items, dtype=np.int64)
        data = {"deal": deal}
        data.update({name: rec_info[:, k] for k, name in enumerate(INFO)})
        data["ending"] = np.asarray(ENDINGS, dtype=object)[rec_info[:, I_ENDING]]
        for r, role in enumerate(role_names(players)):
            for k, outcome in enumerate(OUTCOMES):
                data[f"{role}_{outcome}"] = rec_out[:, r, k]
        rows["deals"] = rows_frame(data)
    return Batch("deals", n_items, concat(totals), concat(hists), rows)


def _sessions(job, rules, keys, first_item, n_items, fns, params, poff, err) -> Batch:
    n_chunks, players, deals = keys.shape[0], job.rules.players, job.rules.session_deals
    money, places = (np.zeros((n_chunks, 2 * MAX_SEATS), dtype=np.int64) for _ in range(2))
    role_sums, role_sumsq = (np.zeros((n_chunks, MAX_SEATS, N_OUT), dtype=np.int64) for _ in range(2))
    endings = np.zeros((n_chunks, len(ENDINGS)), dtype=np.int64)
    info_sums, info_sumsq = (np.zeros((n_chunks, N_INFO), dtype=np.int64) for _ in range(2))
    by_deal = np.zeros((n_chunks, 2 * deals), dtype=np.int64)
    session = np.zeros((n_chunks, 4), dtype=np.int64)
    pool_hist = np.zeros((n_chunks, POOL_BINS), dtype=np.int64)
    hist = np.zeros((n_chunks, len(DEAL_HISTS), POOL_BINS), dtype=np.int64)
    deal_pools = np.zeros((n_chunks, deals, POOL_STAKES), dtype=np.int64)
    rows = np.zeros((n_items if job.records else 0, 3 + MAX_SEATS), dtype=np.int64)
    _session_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        *fns,
        params,
        poff,
        money,
        places,
        role_sums,
        role_sumsq,
        endings,
        info_sums,
        info_sumsq,
        by_deal,
        session,
        pool_hist,
        hist,
        deal_pools,
        rows,
        err,
    )
    money, places, by_deal, session = money.sum(0), places.sum(0), by_deal.sum(0), session.sum(0)
    totals, hists = _by_role_frames(
        job,
        role_sums.sum(0),
        role_sumsq.sum(0),
        endings.sum(0),
        info_sums.sum(0),
        info_sumsq.sum(0),
        hist.sum(0),
        n_items * deals,
    )
    seats = [f"seat {s}" for s in range(players)]
    totals += [
        total_columns("seat", seats, ["money"], money[:players], money[MAX_SEATS : MAX_SEATS + players], n_items),
        total_columns(
            "place", place_names(players), ["money"], places[:players], places[MAX_SEATS : MAX_SEATS + players], n_items
        ),
        total_columns("session", ["all"], ["pool_left", "largest_pool"], session[[0, 2]], session[[1, 3]], n_items),
        total_columns(
            "deal number", [f"deal {d + 1}" for d in range(deals)], ["pool"], by_deal[:deals], by_deal[deals:], n_items
        ),
    ]
    hists += [
        histogram_columns("session", ["all"], ["largest_pool"], pool_hist.sum(0)[None, None]),
        histogram_columns(
            "deal number", [f"deal {d + 1}" for d in range(deals)], ["pool in stakes"], deal_pools.sum(0)[:, None]
        ),
    ]
    tables = {}
    if job.records:
        data = {
            "game": np.arange(first_item, first_item + n_items, dtype=np.int64),
            "first_dealer": rows[:, 0],
            "pool_left": rows[:, 1],
            "largest_pool": rows[:, 2],
        }
        data.update({f"money_{s}": rows[:, 3 + s] for s in range(players)})
        tables["games"] = rows_frame(data)
    return Batch("games", n_items, concat(totals), concat(hists), tables)


def describe_error(job, row) -> str:
    """An illegal declaration, exchange or card, with the cards the policy held and the trump."""
    decision = int(row[E_DECISION]) - 1
    cards = format_cards(int(x) for x in row[E_CARDS : E_CARDS + row[E_N_CARDS]] if x >= 0)
    answer = int(row[E_ANSWER])
    role = role_names(job.rules.players)[int(row[E_ROLE])]
    where = f"as {role} with {cards}, {format_card(int(row[E_TRUMP]))} trumps"
    if decision == D_DECLARE:
        allowed = " or ".join(f"{k} ({name})" for k, name in enumerate(DECLARATIONS) if k < 2 or row[E_MISS_OPEN])
        return f"declared {answer} {where}: it must be {allowed}"
    if decision == D_CARD:
        legal = [i for i in range(int(row[E_N_CARDS])) if (int(row[E_LEGAL]) >> i) & 1]
        return f"chose index {answer} {where}: the laws allow index {' or '.join(map(str, legal))}"
    return (
        f"asked to change mask {answer} {where}: it must be a mask of the {int(row[E_N_CARDS])} cards naming "
        f"at most {int(row[E_PACK])} (the cards left in the pack)"
    )
