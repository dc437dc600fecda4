"""The ``expert`` tables by self-play, iterated to a fixed point.

Each round plays independent deals (one stake held over, as the engine's deals) at
every table size from 3 to 10, everyone declaring from the current tables
(:func:`sims.loo.policies.expert.declare_from_table`) except that each declaration
is, with chance ``explore``, to stand or take the miss at random (so that hands the
tables would pass are still tried); five-card exchanges by the current exchange
table; the play ``greedy`` (the search is too slow for self-play, as the crib tables
were learnt with greedy pegging).  After each deal every declaration to stand is
added to its cell (class of the hand as dealt, or the miss; order of declaring;
players standing before; players): the shares of the pool the stander took and
whether he was looed; and every card played in five-card to its category: held, and
whether it won its trick.

A round's estimate of a cell is its mean shrunk toward the starting tables with the
weight of ``prior_deals`` observations, ``(sum + prior_deals * start) / (n + prior_deals)``
(a cell never observed keeps its starting value), and the next tables move ``step`` of
the way from the last ones to that estimate (best responses alone cycle: a hand class
worth standing on brings out more standers, which makes it worth less).  Every round
plays the same deals (the same seed), so tables whose policies produce their own
estimate are left unchanged: the iteration has a true fixed point.  Rounds repeat until the mean change of a cell,
weighted by the stands observed in it, is below ``tol``, or after ``iterations``
rounds; the history records that change, the largest change of any cell (hands at the
edge between standing and passing keep moving after the rest have settled), and the
share of stands whose cell changed its decision (standing or passing, on the pool of
the self-play deals: two stakes, a looe of one).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from numba import types

from ... import __version__
from ...core.chunks import numba_threads
from ...core.driver import chunk_loop
from ...core.errors import E_ITEM, new_err, raise_policy_error
from ...core.jobs import Job
from ...core.kernel import njit
from ...core.kernel_types import I64_1, I64_2, I64_4, U64_2
from ...core.policies import user
from ...core.rng import chunk_keys, seed_state, uniform
from ...core.streams import seat_streams
from ..contract import DECIDE_SIG, MAX_SEATS, MISS, PLAY, S_MISS, S_PAM, S_TRUMP_SUIT
from ..engine import describe_error
from ..game import GAME
from ..play import (
    END_DEALER_TAKES,
    END_PLAYED,
    I_ENDING,
    I_POOL,
    I_SINGLE,
    I_STANDERS,
    N_INFO,
    N_OUT,
    O_LOOED,
    O_MISS,
    O_STOOD,
    O_WON,
    PLAYERS,
    POLICY_ERROR,
    new_work,
    play_deal,
)
from ..rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, R_CARDS, R_PLAYERS, R_STAKE
from .expert import (
    DECLARE_FILE,
    DECLARE_SIZE,
    EXCHANGE_FILE,
    EXCHANGE_SIZE,
    FIVE_CARD_CLASSES,
    PROVENANCE_FILE,
    THREE_CLASSES,
    THREE_SIZE,
    cell,
    declare_from_table,
    expert_exchange,
)
from .hands import CATEGORIES, MISS_CLASS, N_CATEGORIES, category, hand_class

VARIANTS = {3: "three-card", 5: "five-card-pam"}
START_WON, START_LOOED = 1.0, 0.35  # the first tables: every stander takes a share, looed a third of the time
START_WINS = 0.3  # the first exchange table: every card wins a trick three times in ten


@njit(DECIDE_SIG, cache=True)
def exploring_declare(hand, state, rules, rng, params):
    """With chance ``params[0]``, stand or take the miss at random; else as the tables ``params[1:]`` say."""
    if uniform(rng) < params[0]:
        if state[S_MISS] == 1 and uniform(rng) < 0.5:
            return MISS
        return PLAY
    return declare_from_table(hand, state, rules, params[1:])


@njit(cache=True, refcounts=False)
def seed_streams(keys, c, i, players, deck_rng, seat_rngs):
    """The deck stream and the seated players' streams of item ``i`` of chunk ``c``, as the engine seeds them."""
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(players):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(inline="always")
def _learn_chunk(c, rules, keys, first_item, n_items, chunk_size, players, stood, cards, err):
    """Deals as the engine plays them; chunk ``c`` adds each declaration to stand to ``stands[c, o, b, k]``
    (order ``o`` - 1, standers before ``b``, class ``k``), the shares it took to ``won`` and its looe to
    ``looed`` (``stood``: the three); each card played in five-card to ``held[c, category]`` and, if it won its
    trick, ``wins`` (``cards``: the two).  ``players``: the seats' policies (:data:`sims.loo.play.PLAYERS`)."""
    stands, won, looed = stood
    held, wins = cards
    n, k = rules[R_PLAYERS], rules[R_CARDS]
    policies, params, poff = players
    rules_c, players_c = rules.copy(), (policies, params.copy(), poff.copy())  # thread-local, as in the engine
    work = new_work(rules_c)
    dealt, state, played, winners = work[3], work[4], work[5], work[6]
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(MAX_SEATS)
    out = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_streams(keys, c, i, n, deck_rng, seat_rngs)
        g = first_item + c * chunk_size + i
        if (
            play_deal(rules_c, g % n, rules_c[R_STAKE], deck_rng, seat_rngs, players_c, out, info, err[c], work)
            == POLICY_ERROR
        ):
            err[c, E_ITEM] = g
            break
        if info[I_SINGLE]:
            continue
        trump_suit, pam = state[S_TRUMP_SUIT], state[S_PAM]
        share = info[I_POOL] // k
        before = 0
        for t in range(1, n + 1):
            role = t % n
            if role == 0 and info[I_ENDING] == END_DEALER_TAKES:
                break
            if out[role, O_STOOD]:
                klass = MISS_CLASS if out[role, O_MISS] else hand_class(dealt[role], trump_suit, pam)
                b = min(before, 2)
                stands[c, t - 1, b, klass] += 1
                won[c, t - 1, b, klass] += out[role, O_WON] // share
                looed[c, t - 1, b, klass] += out[role, O_LOOED]
                before += 1
        if k == 5 and info[I_ENDING] == END_PLAYED:
            m = info[I_STANDERS]
            for j in range(m * k):
                cat = category(played[j, 0], trump_suit, pam)
                held[c, cat] += 1
                # The trick's winner played exactly one card of it.
                if played[j, 1] == winners[j // m]:
                    wins[c, cat] += 1


_learn_chunks = chunk_loop(
    "_learn_chunks",
    _learn_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        PLAYERS,
        types.UniTuple(I64_4, 3),
        types.UniTuple(I64_2, 2),
        I64_2,
    ),
)


def _round(cards, players, table, exchange, n_deals, seed, explore, threads):
    """One round at one table size: totals of the stands by cell and of the cards by category."""
    rules = PRESETS[VARIANTS[cards]].replace(players=players)
    declare = user("declare", exploring_declare, DECIDE_SIG, (explore, *table))
    swap = user("exchange", expert_exchange, DECIDE_SIG, tuple(exchange))
    job = Job.make(GAME, "deals", rules, {"declare": declare, "exchange": swap, "card": "greedy"}, n_deals, seed)
    keys = chunk_keys(seed, 0, job.n_chunks, GAME.n_streams)
    classes = THREE_CLASSES if cards == 3 else FIVE_CARD_CLASSES
    stands, won, looed = (np.zeros((job.n_chunks, MAX_PLAYERS, 3, classes), dtype=np.int64) for _ in range(3))
    held, wins = (np.zeros((job.n_chunks, N_CATEGORIES), dtype=np.int64) for _ in range(2))
    err = new_err(job.n_chunks)
    players = job.kernel_policies()
    with numba_threads(threads):
        _learn_chunks(
            rules.to_kernel(), keys, 0, n_deals, job.chunk_size, players, (stands, won, looed), (held, wins), err
        )
    raise_policy_error(job, err, describe_error)
    return stands.sum(0), won.sum(0), looed.sum(0), held.sum(0), wins.sum(0)


def _stands(table, cards) -> np.ndarray:
    """Per cell: is standing worth it on the self-play deals' pool (two stakes; a trick one share of it, a
    looe one stake)?"""
    won, looed = table[0::2], table[1::2]
    stands = np.zeros(len(won), dtype=bool)
    for k in cards:
        part = slice(0, THREE_SIZE // 2) if k == 3 else slice(THREE_SIZE // 2, None)
        stands[part] = (2 / k) * won[part] > looed[part]
    return stands


def start_tables() -> tuple[np.ndarray, np.ndarray]:
    """The tables the iteration starts from (module constants ``START_*``)."""
    declare = np.empty(DECLARE_SIZE)
    declare[0::2], declare[1::2] = START_WON, START_LOOED
    return declare, np.full(EXCHANGE_SIZE, START_WINS)


def learn_tables(
    n_deals: int = 200_000,
    iterations: int = 8,
    tol: float = 0.02,
    prior_deals: float = 20.0,
    explore: float = 0.05,
    step: float = 0.5,
    seed: int = 0,
    threads: int | None = None,
    start=None,
    cards=(3, 5),
    players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
    progress=None,
):
    """Iterate the tables (module docstring) from ``start`` (default :func:`start_tables`); returns
    ``(declare, exchange, counts, provenance)``: the tables, the stands behind each declaration cell in the
    last round, and how they were made (with the history of the rounds)."""
    for name, value, lo in (
        ("explore", explore, 0.0),
        ("step", step, 0.0),
        ("prior_deals", prior_deals, 0.0),
        ("tol", tol, 0.0),
    ):
        if not (np.isfinite(value) and value >= lo) or (name in ("explore", "step") and value > 1):
            raise ValueError(
                f"{name} must be a number >= {lo}{' and <= 1' if name in ('explore', 'step') else ''}, got {value!r}"
            )
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
    first = start_tables() if start is None else (np.array(start[0], float), np.array(start[1], float))
    declare, exchange = first
    counts = np.zeros(DECLARE_SIZE // 2, dtype=np.int64)
    history = []
    for round_ in range(1, iterations + 1):
        new_declare, new_exchange = declare.copy(), exchange.copy()
        new_counts = counts.copy()
        for k in cards:
            for n in players:
                stands, won, looed, held, wins = _round(k, n, declare, exchange, n_deals, seed, explore, threads)
                for o in range(n):
                    for b in range(3):
                        for klass in range(stands.shape[2]):
                            at = cell(k, n, o + 1, b, klass)
                            count = stands[o, b, klass]
                            new_counts[at // 2] = count
                            for j, total in ((0, won[o, b, klass]), (1, looed[o, b, klass])):
                                estimate = (total + prior_deals * first[0][at + j]) / (count + prior_deals)
                                new_declare[at + j] += step * (estimate - declare[at + j])
                if k == 5:
                    row = slice((n - MIN_PLAYERS) * N_CATEGORIES, (n - MIN_PLAYERS + 1) * N_CATEGORIES)
                    estimate = (wins + prior_deals * first[1][row]) / (held + prior_deals)
                    new_exchange[row] += step * (estimate - exchange[row])
                if progress:
                    progress(f"round {round_}: {k}-card, {n} players")
        change = np.abs(new_declare - declare).reshape(-1, 2).max(axis=1)
        weighted = float((change * new_counts).sum() / max(new_counts.sum(), 1))
        flipped = (_stands(new_declare, cards) != _stands(declare, cards)) * new_counts
        history.append(
            {
                "iteration": round_,
                "mean_change": weighted,
                "max_change": float(change.max()),
                "stands_in_flipped_cells": float(flipped.sum() / max(new_counts.sum(), 1)),
                "exchange_max_change": float(np.abs(new_exchange - exchange).max()),
            }
        )
        declare, exchange, counts = new_declare, new_exchange, new_counts
        if weighted < tol:
            break
    provenance = {
        "n_deals": n_deals,
        "iterations": len(history),
        "tol": tol,
        "prior_deals": prior_deals,
        "explore": explore,
        "step": step,
        "seed": seed,
        "cards": list(cards),
        "players": list(players),
        "start": "start_tables" if start is None else "given",
        "history": history,
        "version": __version__,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    return declare, exchange, counts, provenance


def write_tables(declare, exchange, counts, provenance, folder) -> list[Path]:
    """Write the tables as the CSV files the ``expert`` policies read, and the provenance beside them."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Loo expert declaration tables by self-play (sims.loo.policies.self_play); provenance in {PROVENANCE_FILE}.",
        "# won: shares of the pool a stander took; looed: how often he was looed; "
        "n: stands observed in the last round.",
        "cards,players,order,before,class,won,looed,n",
    ]
    for k in (3, 5):
        classes = THREE_CLASSES if k == 3 else FIVE_CARD_CLASSES
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            for o in range(1, n + 1):
                for b in range(3):
                    for klass in range(classes):
                        at = cell(k, n, o, b, klass)
                        lines.append(
                            f"{k},{n},{o},{b},{klass},{declare[at]:.5f},{declare[at + 1]:.5f},{counts[at // 2]}"
                        )
    paths = [folder / DECLARE_FILE, folder / EXCHANGE_FILE, folder / PROVENANCE_FILE]
    paths[0].write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [
        "# Loo expert exchange table by self-play: the chance a card of each category wins a trick.",
        "players,category,name,wins",
    ]
    rows += [
        f"{n},{c},{CATEGORIES[c]},{exchange[(n - MIN_PLAYERS) * N_CATEGORIES + c]:.5f}"
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        for c in range(N_CATEGORIES)
    ]
    paths[1].write_text("\n".join(rows) + "\n", encoding="utf-8")
    paths[2].write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    return paths
