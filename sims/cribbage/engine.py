"""Reproducible parallel simulation: jobs cut into fixed-size chunks, and the Python API.

A :class:`Job` says what to simulate (independent deals or whole games), under
which rules, with which policy at each seat, from which master seed.  Its items
are cut into chunks of ``chunk_size``; item ``i`` of chunk ``c`` is a pure
function of (seed, c, i) (see :mod:`sims.rng`), so the numbers are the same on
any number of threads or workers.  :func:`run_chunks` plays a range of chunks
in one parallel kernel call and returns a :class:`Batch` of integer totals
(exact, so merging is order-free); :func:`summarize` turns a batch into a
:class:`DealResult` or :class:`GameResult`.  The runner builds progress,
Parquet shards, resume and Dask on these three calls.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange, types

from .. import __version__
from ..cards import format_cards
from ..rng import N_STREAMS, check_seed, chunk_keys, seed_state
from .play import (E_ANSWER, E_CARDS, E_COUNT, E_ITEM, E_KIND, E_N_CARDS, E_SEAT, E_SIZE,
                   ERR_DISCARD, G_COLS, MAX_SEATS,
                   N_COMP, POLICY_ERROR, new_work, play_deal, play_game)
from .policies import Policy, PolicyError, resolve
# Registers "rollout": it calls play.play_out, so policies/__init__ cannot import it without a cycle.
from .policies import rollout as _rollout  # noqa: F401
from .policies.base import DiscardFn, PegFn
from .rules import Rules, get_rules

HIST_BINS = 64          # points 0..63 per component per deal; larger values land in the last bin
CHUNK_DEALS = 4096
CHUNK_GAMES = 256
LOG_DEALS = 64          # deals logged per game when a score log is asked for

ROLE_NAMES = {2: ("dealer", "pone"), 3: ("dealer", "eldest", "second"),
              4: ("dealer", "eldest", "dealer_partner", "eldest_partner")}

I64_1 = types.Array(types.int64, 1, "C")
I64_2 = types.Array(types.int64, 2, "C")
I64_3 = types.Array(types.int64, 3, "C")
I64_4 = types.Array(types.int64, 4, "C")
I16_3 = types.Array(types.int16, 3, "C")
U64_2 = types.Array(types.uint64, 2, "C")
F64_1 = types.Array(types.float64, 1, "C")
DISCARDS = types.UniTuple(DiscardFn, MAX_SEATS)
PEGS = types.UniTuple(PegFn, MAX_SEATS)


@njit(cache=True)
def seed_streams(keys, c, i, deck_rng, seat_rngs):
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(MAX_SEATS):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(types.void(I64_1, U64_2, types.int64, types.int64, types.int64, DISCARDS, PEGS, F64_1, I64_1,
                 I64_3, I64_3, I64_3, I64_3, I64_2, I64_4, I16_3, I64_2),
      cache=True, parallel=True)
def _deal_chunks(rules, keys, first_item, n_items, chunk_size, discard_fns, peg_fns, params, poff,
                 role_sums, role_sumsq, seat_sums, seat_sumsq, seat_n, hist, records, err):
    """Independent deals, every seat dealing in turn (deal ``g`` is dealt by seat ``g % players``)."""
    players, n = rules[0], rules[1]
    for c in prange(keys.shape[0]):
        # Thread-local copies: array reference counts on shared inputs would bounce between cores.
        rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()
        work = new_work(rules_c)
        deck_rng = np.empty(4, dtype=np.uint64)
        seat_rngs = np.empty((MAX_SEATS, 4), dtype=np.uint64)
        scores = np.zeros(MAX_SEATS, dtype=np.int64)
        comp = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
        sums, sumsq, s_sums, s_sumsq, h = role_sums[c], role_sumsq[c], seat_sums[c], seat_sumsq[c], hist[c]
        start = first_item + c * chunk_size
        for i in range(min(chunk_size, n_items - c * chunk_size)):
            seed_streams(keys, c, i, deck_rng, seat_rngs)
            g = start + i
            dealer = g % players
            scores[:] = 0
            comp[:, :] = 0
            if play_deal(rules_c, dealer, scores, False, deck_rng, seat_rngs, discard_fns, peg_fns, params_c,
                         poff_c, comp, err[c], work) == POLICY_ERROR:
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


@njit(types.void(I64_1, U64_2, types.int64, types.int64, types.int64, DISCARDS, PEGS, F64_1, I64_1, I64_2,
                 I16_3, I64_2), cache=True, parallel=True)
def _game_chunks(rules, keys, first_item, n_items, chunk_size, discard_fns, peg_fns, params, poff, rows, logs, err):
    """Whole games; game ``i`` of chunk ``c`` writes ``rows[c * chunk_size + i]``."""
    for c in prange(keys.shape[0]):
        rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as above
        work = new_work(rules_c)
        deck_rng = np.empty(4, dtype=np.uint64)
        seat_rngs = np.empty((MAX_SEATS, 4), dtype=np.uint64)
        comp = np.zeros((MAX_SEATS, N_COMP), dtype=np.int64)
        for i in range(min(chunk_size, n_items - c * chunk_size)):
            seed_streams(keys, c, i, deck_rng, seat_rngs)
            row = c * chunk_size + i
            log = logs[row] if logs.shape[0] > 0 else logs[0:0, 0]
            if play_game(rules_c, deck_rng, seat_rngs, discard_fns, peg_fns, params_c, poff_c, comp, err[c], work,
                         rows[row], log) == POLICY_ERROR:
                err[c, E_ITEM] = first_item + row
                break


def _per_seat(spec, players, what):
    if isinstance(spec, (list, tuple)):
        if len(spec) == 1:
            return list(spec) * players
        if len(spec) != players:
            raise ValueError(f"{what}: got {len(spec)} policies for {players} seats (give one, or one per seat)")
        return list(spec)
    return [spec] * players


def resolve_policies(policies, players: int) -> tuple[tuple[Policy, ...], tuple[Policy, ...]]:
    """``{"discard": spec, "peg": spec}`` -> per-seat Policy tuples; a spec is a name, njit function or list."""
    policies = dict(policies or {})
    unknown = set(policies) - {"discard", "peg"}
    if unknown:
        raise ValueError(f"unknown policy kind {sorted(unknown)[0]!r}; use 'discard' and 'peg'")
    discard = tuple(resolve("discard", s) for s in _per_seat(policies.get("discard", "random"), players, "discard"))
    peg = tuple(resolve("peg", s) for s in _per_seat(policies.get("peg", "random"), players, "peg"))
    return discard, peg


def _check_count(n, what):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) <= 0:
        raise ValueError(f"{what} must be a positive integer, got {n!r}")
    return int(n)


@dataclass(frozen=True)
class Job:
    """What to simulate: ``kind`` "deals" or "games", rules, per-seat policies, seed, size."""

    kind: str
    rules: Rules
    discard: tuple
    peg: tuple
    seed: int
    n: int
    records: bool = False
    score_log: bool = False
    chunk_size: int = 0

    @classmethod
    def make(cls, kind, rules, policies, n, seed, records=False, score_log=False, chunk_size=None) -> "Job":
        if kind not in ("deals", "games"):
            raise ValueError(f"unknown job kind {kind!r}; use 'deals' or 'games'")
        rules = get_rules(rules)
        discard, peg = resolve_policies(policies, rules.players)
        chunk = chunk_size or (CHUNK_DEALS if kind == "deals" else CHUNK_GAMES)
        return cls(kind, rules, discard, peg, check_seed(seed), _check_count(n, f"the number of {kind}"), bool(records),
                   bool(score_log), _check_count(chunk, "chunk_size"))

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def chunk_items(self, first_chunk: int, n_chunks: int) -> int:
        """Items in chunks first_chunk .. first_chunk + n_chunks - 1."""
        return min(self.n, (first_chunk + n_chunks) * self.chunk_size) - first_chunk * self.chunk_size

    def describe(self) -> dict:
        """Provenance: everything that determines the numbers."""
        return {
            "kind": self.kind, "rules": self.rules.to_dict(),
            "policies": {"discard": [p.describe() for p in self.discard], "peg": [p.describe() for p in self.peg]},
            "seed": self.seed, "n": self.n, "chunk_size": self.chunk_size, "records": self.records,
            "score_log": self.score_log, "rng": "xoshiro256** per (chunk, item, stream); SeedSequence(seed, (chunk,))",
            "version": __version__, "numba": numba.__version__, "numpy": np.__version__,
        }

    def kernel_policies(self):
        seats = range(MAX_SEATS)
        discard_fns = tuple(self.discard[s % len(self.discard)].fn for s in seats)
        peg_fns = tuple(self.peg[s % len(self.peg)].fn for s in seats)
        # Segment 2s of the params vector is seat s's discard params, segment 2s + 1 its peg params.
        segments = []
        for s in seats:
            seated = s < self.rules.players
            segments += [self.discard[s].params_array() if seated else np.zeros(0),
                         self.peg[s].params_array() if seated else np.zeros(0)]
        offsets = np.cumsum([0] + [len(p) for p in segments]).astype(np.int64)
        return discard_fns, peg_fns, np.concatenate(segments).astype(np.float64), offsets


@dataclass
class Batch:
    """Exact integer totals of a range of chunks; ``merge`` adds them (order-free)."""

    kind: str
    n: int
    arrays: dict = field(default_factory=dict)

    def merge(self, other: "Batch") -> "Batch":
        """Totals add; per-item rows are concatenated (``other`` after ``self``)."""
        if self.kind != other.kind or set(self.arrays) != set(other.arrays):
            raise ValueError("cannot merge batches of different jobs")
        merged = {key: np.concatenate((value, other.arrays[key])) if key in ROW_ARRAYS else value + other.arrays[key]
                  for key, value in self.arrays.items()}
        return Batch(self.kind, self.n + other.n, merged)


ROW_ARRAYS = frozenset({"records", "record_index", "rows", "logs"})


def run_chunks(job: Job, first_chunk: int, n_chunks: int, threads: int | None = None) -> Batch:
    """Play chunks first_chunk .. first_chunk + n_chunks - 1 of ``job`` in one parallel kernel call."""
    if first_chunk < 0 or n_chunks < 1 or first_chunk + n_chunks > job.n_chunks:
        raise ValueError(f"chunks {first_chunk}..{first_chunk + n_chunks - 1} are outside 0..{job.n_chunks - 1}")
    keys = chunk_keys(job.seed, first_chunk, n_chunks, N_STREAMS)
    n_items = job.chunk_items(first_chunk, n_chunks)
    first_item = first_chunk * job.chunk_size
    rules = job.rules.to_kernel()
    discard_fns, peg_fns, params, poff = job.kernel_policies()
    err = np.zeros((n_chunks, E_SIZE), dtype=np.int64)
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        if job.kind == "deals":
            arrays = _run_deals(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err)
        else:
            arrays = _run_games(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err)
    finally:
        numba.set_num_threads(previous)
    raise_policy_error(job, err)
    return Batch(job.kind, n_items, arrays)


def _run_deals(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err):
    n_chunks = keys.shape[0]
    shape = (n_chunks, MAX_SEATS, N_COMP)
    role_sums, role_sumsq, seat_sums, seat_sumsq = (np.zeros(shape, dtype=np.int64) for _ in range(4))
    seat_n = np.zeros((n_chunks, MAX_SEATS), dtype=np.int64)
    hist = np.zeros((n_chunks, MAX_SEATS, N_COMP, HIST_BINS), dtype=np.int64)
    n_rec = n_items if job.records else 0
    records = np.zeros((n_rec, MAX_SEATS, N_COMP), dtype=np.int16)
    _deal_chunks(rules, keys, first_item, n_items, job.chunk_size, discard_fns, peg_fns, params, poff,
                 role_sums, role_sumsq, seat_sums, seat_sumsq, seat_n, hist, records, err)
    arrays = {"role_sums": role_sums.sum(0), "role_sumsq": role_sumsq.sum(0), "seat_sums": seat_sums.sum(0),
              "seat_sumsq": seat_sumsq.sum(0), "seat_n": seat_n.sum(0), "hist": hist.sum(0)}
    if job.records:
        arrays.update(records=records, record_index=np.arange(first_item, first_item + n_items, dtype=np.int64))
    return arrays


def _run_games(job, rules, keys, first_item, n_items, discard_fns, peg_fns, params, poff, err):
    rows = np.zeros((n_items, G_COLS), dtype=np.int64)
    logs = np.zeros((n_items if job.score_log else 0, LOG_DEALS, 1 + MAX_SEATS), dtype=np.int16)
    _game_chunks(rules, keys, first_item, n_items, job.chunk_size, discard_fns, peg_fns, params, poff, rows, logs,
                 err)
    arrays = {"rows": rows, "record_index": np.arange(first_item, first_item + n_items, dtype=np.int64)}
    if job.score_log:
        arrays["logs"] = logs
    return arrays


def raise_policy_error(job, err):
    bad = np.flatnonzero(err[:, E_KIND])
    if bad.size == 0:
        return
    e = err[bad[0]]
    seat, answer = int(e[E_SEAT]), int(e[E_ANSWER])
    cards = format_cards(int(x) for x in e[E_CARDS:E_CARDS + e[E_N_CARDS]] if x >= 0)
    if e[E_KIND] == ERR_DISCARD:
        policy = job.discard[seat]
        raise PolicyError(f"discard policy {policy.name!r} (seat {seat}) returned mask {answer} for hand "
                          f"{cards}: it must name exactly {job.rules.throw} of the {job.rules.cards_dealt} cards "
                          f"(item {int(e[E_ITEM])}, seed {job.seed})")
    policy = job.peg[seat]
    raise PolicyError(f"peg policy {policy.name!r} (seat {seat}) chose index {answer} with count {int(e[E_COUNT])} "
                      f"and cards {cards} in hand: it must pick a card still held that keeps the count within 31 "
                      f"(item {int(e[E_ITEM])}, seed {job.seed})")


def run_job(job: Job, threads: int | None = None) -> Batch:
    """All chunks of ``job`` in one call (the runner does the same in batches, with progress)."""
    return run_chunks(job, 0, job.n_chunks, threads)
