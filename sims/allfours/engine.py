"""All Fours on the core's chunked runs: the parallel kernels and their tidy batches.

:func:`play_chunks` plays a range of a job's chunks in one parallel kernel call (the core's
:func:`sims.core.driver.chunk_loop` over the chunk steps here, which copy the shared inputs
thread-locally) and returns a :class:`sims.core.batch.Batch`:

deals (independent hands, hand ``g`` dealt by seat ``g % players``)
    totals by scope ``role`` (``dealer``/``eldest``: the dealer's side and the eldest's) and
    ``side`` (fixed sides) by component (:data:`play.COMPONENTS`); ``hand`` ``all`` by event
    (:data:`play.EVENTS`); with the option ``agreement``, ``maxim`` ``seat s`` by
    ``<maxim> advised`` / ``<maxim> agreed``.  Histograms of each role's points per
    component and of the runs per hand.  Rows (``records``, table ``deals``): deal, dealer,
    trump, the events, ``<role>_<component>``.
games
    totals ``side`` by ``wins`` and by component (points over the game), ``first dealer``
    ``wins``, ``game`` ``hands`` and ``unfinished`` (games stopped by the hand cap), ``hand``
    ``all`` by event (n = hands played); histograms of hands per game and of the loser's
    score.  Rows (``records``, table ``games``): game, first_dealer, winner, hands, score_0,
    score_1.

:mod:`sims.allfours.stacked` plays one hand from a stacked deck (rule-book replays).
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..cards import format_card, format_cards
from ..core.arrays import copy_into, copy_rows
from ..core.batch import Batch, concat, count_columns, histogram_columns, rows_frame, total_columns
from ..core.driver import chunk_loop
from ..core.errors import E_ANSWER, E_DECISION, E_ITEM
from ..core.jobs import Job
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, I64_2, I64_3, I64_4, U64_2
from ..core.rng import seed_state
from ..core.streams import seat_streams
from ..core.unowned import borrowed
from .cards import SUIT_NAMES
from .contract import S_TRUMP, HandFn, PlayFn
from .holdings import COUNTS as HOLDING_COUNTS
from .holdings import N_BINS as HOLDING_BINS
from .holdings import frame as holding_frame
from .holdings import tally as tally_holding
from .maxims import MAXIMS, N_MAXIMS
from .play import (
    COMPONENTS,
    E_CARDS,
    E_LEAD,
    E_N_CARDS,
    E_TRUMP,
    E_TURNED,
    EVENTS,
    G_COLS,
    G_FIRST_DEALER,
    G_HANDS,
    G_SCORE,
    G_WINNER,
    MAX_SEATS,
    N_COMP,
    N_EVENTS,
    NO_WINNER,
    POLICY_ERROR,
    V_RAN,
    borrowed_work,
    new_work,
    play_game,
    play_hand,
)

POINT_BINS = 16  # points per component per hand (a hand gives at most 4 + gift + turned knaves)
RUN_BINS = 8
HAND_BINS = 256  # hands per game; longer games land in the last bin
ROLE_NAMES = {2: ("dealer", "eldest"), 4: ("dealer's side", "eldest's side")}
RECORD_COLUMNS = ("trump",) + EVENTS

HANDS = types.UniTuple(HandFn, MAX_SEATS)
PLAYS = types.UniTuple(PlayFn, MAX_SEATS)


def role_names(rules) -> tuple[str, str]:
    """The two sides of a hand: the dealer's and the eldest's."""
    return ROLE_NAMES[rules.players]


def side_names(rules) -> tuple[str, str]:
    """The fixed sides: each seat, or the partnerships seats 0+2 and 1+3."""
    return ("seats 0+2", "seats 1+3") if rules.partners else ("seat 0", "seat 1")


@njit(cache=True)
def _seed(keys, c, i, players, deck_rng, seat_rngs):
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(players):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(inline="always")
def _deal_chunk(
    c,
    rules,
    keys,
    first_item,
    n_items,
    chunk_size,
    beg_fns,
    answer_fns,
    play_fns,
    discard_fns,
    params,
    poff,
    role_sums,
    role_sumsq,
    side_sums,
    side_sumsq,
    hist,
    events,
    events_sumsq,
    runs_hist,
    tally,
    held,
    records,
    err,
):
    """Independent hands, every seat dealing in turn (hand ``g`` is dealt by seat ``g % players``).  The hand
    gets :func:`borrowed` views of the chunk's arrays: it counts no references to them."""
    players = rules[0]
    # Thread-local inputs and totals: shared arrays' reference counts would bounce between cores.
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    work = new_work(rules_c)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    scores = np.zeros(2, dtype=np.int64)
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    sums, sumsq = np.zeros((2, N_COMP), dtype=np.int64), np.zeros((2, N_COMP), dtype=np.int64)
    s_sums, s_sumsq = np.zeros((2, N_COMP), dtype=np.int64), np.zeros((2, N_COMP), dtype=np.int64)
    h = np.zeros((2, N_COMP, hist.shape[3]), dtype=np.int64)
    ev_sums, ev_sumsq = np.zeros(N_EVENTS, dtype=np.int64), np.zeros(N_EVENTS, dtype=np.int64)
    runs = np.zeros(runs_hist.shape[1], dtype=np.int64)
    err_c, tally_c = err[c], tally[c]  # views taken once, not once a deal
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        _seed(borrowed(keys), c, i, players, borrowed(deck_rng), borrowed(seat_rngs))
        g = start + i
        dealer = g % players
        scores[:] = 0
        comp[:, :] = 0
        ev[:] = 0
        if (
            play_hand(
                borrowed(rules_c),
                dealer,
                borrowed(scores),
                False,
                borrowed(work[0]),
                True,
                borrowed(deck_rng),
                borrowed(seat_rngs),
                beg_fns,
                answer_fns,
                play_fns,
                discard_fns,
                borrowed(params_c),
                borrowed(poff_c),
                borrowed(comp),
                borrowed(ev),
                borrowed(err_c),
                borrowed_work(work),
                borrowed(tally_c),
            )
            == POLICY_ERROR
        ):
            err[c, E_ITEM] = g
            break
        for r in range(2):
            side = (dealer + r) & 1  # ((dealer + r) % players) % 2: players is even
            for k in range(N_COMP):
                v = comp[r, k]
                sums[r, k] += v
                sumsq[r, k] += v * v
                s_sums[side, k] += v
                s_sumsq[side, k] += v * v
                h[r, k, min(v, h.shape[2] - 1)] += 1
        for k in range(N_EVENTS):
            ev_sums[k] += ev[k]
            ev_sumsq[k] += ev[k] * ev[k]
        runs[min(ev[V_RAN], runs.shape[0] - 1)] += 1
        if held.shape[1] > 0:
            tally_holding(work[4], work[3][S_TRUMP], players, comp, held[c])
        if records.shape[0] > 0:
            row = records[c * chunk_size + i]
            row[0] = work[3][S_TRUMP]
            for k in range(N_EVENTS):
                row[1 + k] = ev[k]
            for r in range(2):
                for k in range(N_COMP):
                    row[1 + N_EVENTS + r * N_COMP + k] = comp[r, k]
    copy_rows(role_sums[c], sums)
    copy_rows(role_sumsq[c], sumsq)
    copy_rows(side_sums[c], s_sums)
    copy_rows(side_sumsq[c], s_sumsq)
    for r in range(h.shape[0]):
        copy_rows(hist[c, r], h[r])
    copy_into(events[c], ev_sums)
    copy_into(events_sumsq[c], ev_sumsq)
    copy_into(runs_hist[c], runs)


_deal_chunks = chunk_loop(
    "_deal_chunks",
    _deal_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        HANDS,
        HANDS,
        PLAYS,
        HANDS,
        F64_1,
        I64_1,
        I64_3,
        I64_3,
        I64_3,
        I64_3,
        I64_4,
        I64_2,
        I64_2,
        I64_2,
        I64_4,
        I64_4,
        I64_2,
        I64_2,
    ),
)


@njit(inline="always")
def _game_chunk(
    c,
    rules,
    keys,
    first_item,
    n_items,
    chunk_size,
    beg_fns,
    answer_fns,
    play_fns,
    discard_fns,
    params,
    poff,
    wins,
    first_wins,
    unfinished,
    hands_hist,
    loser_hist,
    side_sums,
    side_sumsq,
    events,
    events_sumsq,
    n_hands,
    tally,
    records,
    err,
):
    """Whole games; game ``i`` of chunk ``c`` is item ``first_item + c * chunk_size + i``."""
    players = rules[0]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local
    work = new_work(rules_c)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    side_comp = np.zeros((2, N_COMP), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    row = np.zeros(G_COLS, dtype=np.int64)
    err_c, tally_c = err[c], tally[c]  # views taken once, not once a game
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        _seed(borrowed(keys), c, i, players, borrowed(deck_rng), borrowed(seat_rngs))
        side_comp[:, :] = 0
        ev[:] = 0
        winner = play_game(
            borrowed(rules_c),
            borrowed(deck_rng),
            borrowed(seat_rngs),
            beg_fns,
            answer_fns,
            play_fns,
            discard_fns,
            borrowed(params_c),
            borrowed(poff_c),
            borrowed(comp),
            borrowed(side_comp),
            borrowed(ev),
            borrowed(err_c),
            borrowed_work(work),
            borrowed(tally_c),
            borrowed(row),
        )
        if winner == POLICY_ERROR:
            err[c, E_ITEM] = first_item + c * chunk_size + i
            break
        hands = row[G_HANDS]
        if winner == NO_WINNER:  # the hand cap: left out of the rates
            unfinished[c] += 1
        else:
            wins[c, winner] += 1
            first_wins[c] += winner == row[G_FIRST_DEALER] % 2
            loser_hist[c, row[G_SCORE + 1 - winner]] += 1
        hands_hist[c, min(hands, hands_hist.shape[1] - 1)] += 1
        n_hands[c] += hands
        for s in range(2):
            for k in range(N_COMP):
                side_sums[c, s, k] += side_comp[s, k]
                side_sumsq[c, s, k] += side_comp[s, k] * side_comp[s, k]
        for k in range(N_EVENTS):
            events[c, k] += ev[k]
            events_sumsq[c, k] += ev[k] * ev[k]
        if records.shape[0] > 0:
            copy_into(records[c * chunk_size + i], row)


_game_chunks = chunk_loop(
    "_game_chunks",
    _game_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        HANDS,
        HANDS,
        PLAYS,
        HANDS,
        F64_1,
        I64_1,
        I64_2,
        I64_1,
        I64_1,
        I64_2,
        I64_2,
        I64_3,
        I64_3,
        I64_2,
        I64_2,
        I64_1,
        I64_4,
        I64_2,
        I64_2,
    ),
)


def _tally(job, n_chunks):
    return np.zeros((n_chunks, MAX_SEATS if job.option("agreement") else 0, N_MAXIMS, 2), dtype=np.int64)


def _tally_frame(job, tally, n: int):
    """Totals of scope ``maxim``, who ``seat s``: ``<maxim> advised`` and ``<maxim> agreed`` (``n``: the hands)."""
    if tally.shape[1] == 0:
        return total_columns("maxim", [], [], np.zeros((0, 0)), np.zeros((0, 0)), n)
    t = tally.sum(0)[: job.rules.players]
    names = [f"{m} {what}" for m in MAXIMS for what in ("advised", "agreed")]
    return count_columns(
        "maxim", [f"seat {s}" for s in range(job.rules.players)], names, t.reshape(job.rules.players, -1), n
    )


def play_chunks(job: Job, keys: np.ndarray, first_item: int, n_items: int, err: np.ndarray) -> Batch:
    """Items first_item .. first_item + n_items - 1 of ``job`` in one parallel kernel call."""
    rules = job.rules.to_kernel()
    fns, params, poff = job.kernel_policies()
    n_chunks = keys.shape[0]
    tally = _tally(job, n_chunks)
    if job.kind == "deals":
        return _deals(job, rules, keys, first_item, n_items, fns, params, poff, tally, err)
    return _games(job, rules, keys, first_item, n_items, fns, params, poff, tally, err)


def _deals(job, rules, keys, first_item, n_items, fns, params, poff, tally, err):
    n_chunks = keys.shape[0]
    shape = (n_chunks, 2, N_COMP)
    role_sums, role_sumsq, side_sums, side_sumsq = (np.zeros(shape, dtype=np.int64) for _ in range(4))
    hist = np.zeros((n_chunks, 2, N_COMP, POINT_BINS), dtype=np.int64)
    events, events_sumsq = (np.zeros((n_chunks, N_EVENTS), dtype=np.int64) for _ in range(2))
    runs_hist = np.zeros((n_chunks, RUN_BINS), dtype=np.int64)
    held = np.zeros((n_chunks, 2 if job.option("holdings") else 0, HOLDING_BINS, len(HOLDING_COUNTS)), dtype=np.int64)
    records = np.zeros((n_items if job.records else 0, 1 + N_EVENTS + 2 * N_COMP), dtype=np.int64)
    _deal_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        *fns,
        params,
        poff,
        role_sums,
        role_sumsq,
        side_sums,
        side_sumsq,
        hist,
        events,
        events_sumsq,
        runs_hist,
        tally,
        held,
        records,
        err,
    )
    roles, sides = role_names(job.rules), side_names(job.rules)
    players = job.rules.players
    deals = np.arange(first_item, first_item + n_items)
    totals = concat(
        [
            total_columns("role", roles, COMPONENTS, role_sums.sum(0), role_sumsq.sum(0), n_items),
            total_columns("side", sides, COMPONENTS, side_sums.sum(0), side_sumsq.sum(0), n_items),
            total_columns("hand", ["all"], EVENTS, events.sum(0), events_sumsq.sum(0), n_items),
            _tally_frame(job, tally, n_items),
            *([holding_frame(held.sum(0), roles, n_items)] if held.shape[1] else []),
        ]
    )
    histograms = concat(
        [
            histogram_columns("role", roles, COMPONENTS, hist.sum(0)),
            histogram_columns("hand", ["all"], ["runs"], runs_hist.sum(0).reshape(1, 1, -1)),
        ]
    )
    rows = {}
    if job.records:
        data = {"deal": deals, "dealer": deals % players}
        for k, name in enumerate(RECORD_COLUMNS):
            data[name] = records[:, k]
        for r, role in enumerate(roles):
            for k, comp in enumerate(COMPONENTS):
                data[f"{role}_{comp}"] = records[:, 1 + N_EVENTS + r * N_COMP + k]
        rows["deals"] = rows_frame(data)
    return Batch("deals", n_items, totals, histograms, rows)


def _games(job, rules, keys, first_item, n_items, fns, params, poff, tally, err):
    n_chunks = keys.shape[0]
    wins = np.zeros((n_chunks, 2), dtype=np.int64)
    first_wins, unfinished, n_hands = (np.zeros(n_chunks, dtype=np.int64) for _ in range(3))
    hands_hist = np.zeros((n_chunks, HAND_BINS), dtype=np.int64)
    loser_hist = np.zeros((n_chunks, job.rules.target), dtype=np.int64)
    side_sums, side_sumsq = (np.zeros((n_chunks, 2, N_COMP), dtype=np.int64) for _ in range(2))
    events, events_sumsq = (np.zeros((n_chunks, N_EVENTS), dtype=np.int64) for _ in range(2))
    records = np.zeros((n_items if job.records else 0, G_COLS), dtype=np.int64)
    _game_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        *fns,
        params,
        poff,
        wins,
        first_wins,
        unfinished,
        hands_hist,
        loser_hist,
        side_sums,
        side_sumsq,
        events,
        events_sumsq,
        n_hands,
        tally,
        records,
        err,
    )
    sides = side_names(job.rules)
    hh = hands_hist.sum(0)
    lengths = np.arange(HAND_BINS)
    totals = concat(
        [
            count_columns("side", sides, ["wins"], wins.sum(0).reshape(2, 1), n_items),
            total_columns("side", sides, COMPONENTS, side_sums.sum(0), side_sumsq.sum(0), n_items),
            count_columns("first dealer", ["first dealer"], ["wins"], [[first_wins.sum()]], n_items),
            count_columns("game", ["all"], ["unfinished"], [[unfinished.sum()]], n_items),
            total_columns(
                "game", ["all"], ["hands"], [[int((hh * lengths).sum())]], [[int((hh * lengths**2).sum())]], n_items
            ),
            total_columns("hand", ["all"], EVENTS, events.sum(0), events_sumsq.sum(0), int(n_hands.sum())),
            _tally_frame(job, tally, int(n_hands.sum())),
        ]
    )
    histograms = concat(
        [
            histogram_columns("game", ["all"], ["hands"], hh.reshape(1, 1, -1)),
            histogram_columns("game", ["all"], ["loser score"], loser_hist.sum(0).reshape(1, 1, -1)),
        ]
    )
    rows = {}
    if job.records:
        rows["games"] = rows_frame(
            {
                "game": np.arange(first_item, first_item + n_items),
                "first_dealer": records[:, G_FIRST_DEALER],
                "winner": records[:, G_WINNER],
                "hands": records[:, G_HANDS],
                "score_0": records[:, G_SCORE],
                "score_1": records[:, G_SCORE + 1],
            }
        )
    return Batch("games", n_items, totals, histograms, rows)


def describe_error(job: Job, row) -> str:
    """The situation of an illegal answer, in words."""
    decision = job.game.decisions[int(row[E_DECISION]) - 1].name
    answer = int(row[E_ANSWER])
    places = [int(c) for c in row[E_CARDS : E_CARDS + row[E_N_CARDS]]]
    while places and places[-1] < 0:  # the places a hand never used
        places.pop()
    hand = " ".join(format_card(c) if c >= 0 else "--" for c in places)
    trump = SUIT_NAMES[int(row[E_TRUMP])]
    turned = format_card(int(row[E_TURNED]))
    if decision in ("beg", "answer"):
        choices = "0 (stand) or 1 (beg)" if decision == "beg" else "0 (run the cards) or 1 (give one)"
        return (
            f"returned {answer} holding {format_cards(c for c in places if c >= 0)} with {turned} turned up: "
            f"it must return {choices}"
        )
    if decision == "discard":
        return f"chose index {answer} holding {hand} (-- an empty place): it must pick a card held"
    lead = int(row[E_LEAD])
    situation = "leading" if lead < 0 else f"{SUIT_NAMES[lead]} led"
    return (
        f"chose index {answer} holding {hand} (-- a card played), {trump} trumps, {situation}: it must pick "
        f"a card held that follows suit or trumps, any card when void (law iii)"
    )
