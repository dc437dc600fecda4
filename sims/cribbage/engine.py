"""Cribbage's engine for the core: parallel kernels over chunks of deals or games, results as tidy batches.

``play_chunks`` is what :func:`sims.core.chunks.run_chunks` calls: one parallel
kernel call over a range of chunks.  Deal ``g`` is dealt by seat ``g % players``;
every item seeds the deck stream and each seat's stream from (chunk key, item)
(:mod:`sims.core.rng`), so the numbers do not depend on threads or workers.
Game kernels keep memory flat: they add up wins by side and by place from the
first dealer, game lengths and the losers' final scores; one row per game (and the
score after every deal) only when asked for.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.batch import Batch, concat, count_columns, histogram_columns, rows_frame, total_columns
from ..core.driver import chunk_loop
from ..core.errors import E_ITEM
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I16_3, I64_1, I64_2, I64_3, I64_4, U64_2
from .contract import ROLE_NAMES, DiscardFn, PegFn
from .play import (
    COMPONENTS,
    G_COLS,
    G_DEALS,
    G_FIRST_DEAL,
    G_FIRST_DEALER,
    G_SCORE,
    G_WINNER,
    MAX_SEATS,
    N_COMP,
    NO_WINNER,
    POLICY_ERROR,
    deal_buffers,
    describe_illegal,
    fresh_deal,
    play_game,
    seed_streams,
)

HIST_BINS = 64  # points 0..63 per component per deal; larger values land in the last bin
DEAL_BINS = 256  # game lengths 0..255 deals; longer games land in the last bin
LOG_DEALS = 64  # deals logged per game when a score log is asked for

DISCARDS = types.UniTuple(DiscardFn, MAX_SEATS)
PEGS = types.UniTuple(PegFn, MAX_SEATS)


def role_names(rules) -> tuple[str, ...]:
    """Names of the places at a deal: dealer, pone (two-handed) or eldest and the rest."""
    return ROLE_NAMES[rules.active]


def side_names(rules) -> tuple[str, ...]:
    """Scoring sides: each seat, or the two partnerships in four-hand."""
    if rules.partners:
        return ("seats 0+2", "seats 1+3")
    return tuple(f"seat {s}" for s in range(rules.players))


def place_names(rules) -> tuple[str, ...]:
    """Seats by their place from the first dealer: ``first dealer``, ``first dealer +1`` ..."""
    return ("first dealer",) + tuple(f"first dealer +{k}" for k in range(1, rules.players))


@njit(inline="always")
def _deal_chunk(
    c,
    rules,
    keys,
    first_item,
    n_items,
    chunk_size,
    discard_fns,
    peg_fns,
    params,
    poff,
    role_sums,
    role_sumsq,
    seat_sums,
    seat_sumsq,
    seat_n,
    hist,
    records,
    err,
):
    """Independent deals, every seat dealing in turn (deal ``g`` is dealt by seat ``g % players``)."""
    players, n = rules[0], rules[1]
    # Thread-local copies: array reference counts on shared inputs would bounce between cores.
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
    work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
    sums, sumsq, s_sums, s_sumsq, h = role_sums[c], role_sumsq[c], seat_sums[c], seat_sumsq[c], hist[c]
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        g = start + i
        dealer = g % players
        if (
            fresh_deal(
                rules_c,
                keys,
                c,
                i,
                dealer,
                scores,
                deck_rng,
                seat_rngs,
                discard_fns,
                peg_fns,
                params_c,
                poff_c,
                comp,
                err[c],
                work,
            )
            == POLICY_ERROR
        ):
            err[c, E_ITEM] = g
            break
        for r in range(n):
            seat = (dealer + r) % players
            seat_n[c, seat] += 1
            for k in range(N_COMP):
                v = comp[r, k]
                sums[r, k] += v
                sumsq[r, k] += v * v
                s_sums[seat, k] += v
                s_sumsq[seat, k] += v * v
                h[r, k, min(v, h.shape[2] - 1)] += 1
        if records.shape[0] > 0:
            for r in range(n):
                for k in range(N_COMP):
                    records[c * chunk_size + i, r, k] = comp[r, k]


_deal_chunks = chunk_loop(
    "_deal_chunks",
    _deal_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        DISCARDS,
        PEGS,
        F64_1,
        I64_1,
        I64_3,
        I64_3,
        I64_3,
        I64_3,
        I64_2,
        I64_4,
        I16_3,
        I64_2,
    ),
)


@njit(inline="always")
def _game_chunk(
    c, rules, keys, first_item, n_items, chunk_size, discard_fns, peg_fns, params, poff, counts, hist, rows, logs, err
):
    """Whole games.  Chunk ``c`` adds to ``counts[c]``: wins by side (0 ..), then by place from the first dealer
    (MAX_SEATS ..), games the first dealer's side won, deals and deals squared, unfinished games; to ``hist[c]``:
    game lengths (0 .. DEAL_BINS-1) then the losing sides' final scores.  Game ``i`` of chunk ``c`` writes
    ``rows[c * chunk_size + i]`` (and its score log) only when ``rows`` has rows."""
    players, partners = rules[0], rules[7]
    sides = 2 if partners else players
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as above
    work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
    own_row = np.zeros(G_COLS, dtype=np.int64)
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_streams(keys, c, i, deck_rng, seat_rngs)
        item = c * chunk_size + i
        row = rows[item] if rows.shape[0] > 0 else own_row
        log = logs[item] if logs.shape[0] > 0 else logs[0:0, 0]
        winner = play_game(
            rules_c, deck_rng, seat_rngs, discard_fns, peg_fns, params_c, poff_c, scores, comp, err[c], work, row, log
        )
        if winner == POLICY_ERROR:
            err[c, E_ITEM] = first_item + item
            break
        deals = row[G_DEALS]
        counts[c, 2 * MAX_SEATS + 1] += deals
        counts[c, 2 * MAX_SEATS + 2] += deals * deals
        hist[c, min(deals, DEAL_BINS - 1)] += 1
        if winner == NO_WINNER:
            counts[c, 2 * MAX_SEATS + 3] += 1
            continue
        first = row[G_FIRST_DEALER]
        counts[c, winner] += 1
        if winner == (first % 2 if partners else first):
            counts[c, 2 * MAX_SEATS] += 1
        if not partners:
            counts[c, MAX_SEATS + (winner - first) % players] += 1
        for s in range(sides):
            if s != winner:
                hist[c, DEAL_BINS + row[G_SCORE + s]] += 1


_game_chunks = chunk_loop(
    "_game_chunks",
    _game_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        DISCARDS,
        PEGS,
        F64_1,
        I64_1,
        I64_2,
        I64_2,
        I64_2,
        I16_3,
        I64_2,
    ),
)


def play_chunks(job, keys, first_item, n_items, err) -> Batch:
    """Items first_item .. first_item + n_items - 1 of ``job`` in one parallel kernel call."""
    fns, params, poff = job.kernel_policies()
    rules = job.rules.to_kernel()
    if job.kind == "deals":
        return _deals(job, rules, keys, first_item, n_items, *fns, params, poff, err)
    return _games(job, rules, keys, first_item, n_items, *fns, params, poff, err)


def _deals(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err) -> Batch:
    n_chunks = keys.shape[0]
    shape = (n_chunks, MAX_SEATS, N_COMP)
    role_sums, role_sumsq, seat_sums, seat_sumsq = (np.zeros(shape, dtype=np.int64) for _ in range(4))
    seat_n = np.zeros((n_chunks, MAX_SEATS), dtype=np.int64)
    hist = np.zeros((n_chunks, MAX_SEATS, N_COMP, HIST_BINS), dtype=np.int64)
    records = np.zeros((n_items if job.records else 0, MAX_SEATS, N_COMP), dtype=np.int16)
    _deal_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        discard_fns,
        peg_fns,
        params,
        poff,
        role_sums,
        role_sumsq,
        seat_sums,
        seat_sumsq,
        seat_n,
        hist,
        records,
        err,
    )
    roles, players = role_names(job.rules), job.rules.players
    seats = [f"seat {s}" for s in range(players)]
    totals = concat(
        [
            total_columns(
                "role", roles, COMPONENTS, role_sums.sum(0)[: len(roles)], role_sumsq.sum(0)[: len(roles)], n_items
            ),
            total_columns(
                "seat",
                seats,
                COMPONENTS,
                seat_sums.sum(0)[:players],
                seat_sumsq.sum(0)[:players],
                seat_n.sum(0)[:players],
            ),
        ]
    )
    rows = {}
    if job.records:
        deal = np.arange(first_item, first_item + n_items, dtype=np.int64)
        data = {"deal": deal, "dealer": deal % players}
        for r, role in enumerate(roles):
            for k, component in enumerate(COMPONENTS):
                data[f"{role}_{component}"] = records[:, r, k]
        rows["deals"] = rows_frame(data)
    return Batch(
        "deals", n_items, totals, histogram_columns("role", roles, COMPONENTS, hist.sum(0)[: len(roles)]), rows
    )


def _games(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err) -> Batch:
    n_chunks = keys.shape[0]
    counts = np.zeros((n_chunks, 2 * MAX_SEATS + 4), dtype=np.int64)
    hist = np.zeros((n_chunks, DEAL_BINS + job.rules.target), dtype=np.int64)
    rows = np.zeros((n_items if job.records else 0, G_COLS), dtype=np.int64)
    score_log = job.option("score_log")
    logs = np.zeros((n_items if score_log else 0, LOG_DEALS, 1 + MAX_SEATS), dtype=np.int16)
    _game_chunks(
        rules,
        keys,
        first_item,
        n_items,
        job.chunk_size,
        discard_fns,
        peg_fns,
        params,
        poff,
        counts,
        hist,
        rows,
        logs,
        err,
    )
    counts, hist = counts.sum(0), hist.sum(0)
    sides, places = side_names(job.rules), place_names(job.rules)
    parts = [
        count_columns("side", sides, ["wins"], counts[: len(sides)], n_items),
        count_columns("first_dealer", ["first dealer's side"], ["wins"], counts[2 * MAX_SEATS :][:1], n_items),
        total_columns("game", ["all"], ["deals"], counts[2 * MAX_SEATS + 1], counts[2 * MAX_SEATS + 2], n_items),
        count_columns("game", ["all"], ["unfinished"], counts[2 * MAX_SEATS + 3], n_items),
    ]
    if not job.rules.partners:
        parts.insert(1, count_columns("place", places, ["wins"], counts[MAX_SEATS : MAX_SEATS + len(places)], n_items))
    histograms = concat(
        [
            histogram_columns("game", ["all"], ["deals"], hist[None, None, :DEAL_BINS]),
            histogram_columns("loser", ["all"], ["score"], hist[None, None, DEAL_BINS:]),
        ]
    )
    tables = {}
    game = np.arange(first_item, first_item + n_items, dtype=np.int64)
    if job.records:
        data = {
            "game": game,
            "first_dealer": rows[:, G_FIRST_DEALER],
            "winner": rows[:, G_WINNER],
            "deals": rows[:, G_DEALS],
        }
        data.update({f"score_{s}": rows[:, G_SCORE + s] for s in range(len(sides))})
        data.update({f"first_deal_{s}": rows[:, G_FIRST_DEAL + s] for s in range(len(sides))})
        data["first_dealer_side"] = data["first_dealer"] % 2 if job.rules.partners else data["first_dealer"]
        tables["games"] = rows_frame(data)
    if score_log:
        tables["score_log"] = _score_log(game, logs, len(sides))
    return Batch("games", n_items, concat(parts), histograms, tables)


def _score_log(game, logs, n_sides):
    """One row per logged deal (up to LOG_DEALS a game): game, deal, dealer, score_<side> after the deal."""
    n_games, length = logs.shape[:2]
    played = logs[:, :, 1 : 1 + n_sides].sum(2) > 0  # a logged deal always leaves somebody with points
    g, d = np.nonzero(played)
    data = {"game": game[g], "deal": d.astype(np.int64), "dealer": logs[g, d, 0].astype(np.int64)}
    data.update({f"score_{s}": logs[g, d, 1 + s].astype(np.int64) for s in range(n_sides)})
    return rows_frame(data)


def describe_error(job, row) -> str:
    """An illegal discard or card, with the cards the policy held."""
    return describe_illegal(job.rules, row)
