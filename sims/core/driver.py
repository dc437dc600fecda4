"""The chunked parallel driver: the one place where a job's chunks are spread over threads.

:func:`chunk_loop` makes a game's parallel loop from its per-chunk step, an njit function::

    step(c, rules, keys, ...)

that plays chunk ``c`` (all its items, seeded from ``keys[c]``) and adds what it tallies to the ``c``-th
rows of its outputs; the loop ``name(rules, keys, ...)`` runs ``step`` for every chunk, on as many threads as
:func:`sims.core.chunks.loop_threads` says.  Each chunk's numbers depend only on its keys, so they do not
depend on the threads.  Each thread runs its share of the chunks in one call of a kernel that releases the GIL
(``nogil``): numba's ``parallel=True`` loop did the same work but tripled the kernel's compilation (its
parfor passes).

A game that tallies a fixed table per deal writes only how one deal is played, as an njit function::

    play_item(rules, item, deck_rng, seat_rngs, policies, params, poff, out, err) -> int64

(``rules`` its ``to_kernel()`` array; ``item`` the deal's index in the job; ``deck_rng`` and
``seat_rngs[s]`` the deal's deck and seat streams, already seeded; ``policies`` what
:meth:`sims.core.jobs.Job.kernel_policies` gives, one tuple of functions per decision;
``out[who, component]`` the deal's values in the layout of a :class:`sims.core.layout.Table`,
zeroed; ``err`` the chunk's error row).  It returns a negative number after writing an illegal
answer into ``err`` (:mod:`sims.core.errors`), else anything.  :func:`deal_loop` makes its chunk
step and parallel kernel, and :func:`play_deals` is a complete ``play_chunks`` for the game's
engine module: seed streams per item, the chunk loop, totals, histograms and records by the table.
For the game's reference engine, :func:`item_streams` gives the streams of any deal and
:func:`assert_same_deals` compares the engine's deals with the reference's, value by value.

The kernels are made from the sources ``_CHUNKS`` and ``_DEAL_CHUNK`` below with the game's function as a
global (the module of the kernel is the game function's, its code this file's), and cached in the directory
of the game's module, keyed by what both modules reach (:mod:`sims.core.cache`): a game's edit recompiles its
kernels, and only its kernels; an edit here recompiles every game's.
"""

from __future__ import annotations

import importlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import types

from .arrays import copy_rows
from .batch import Batch
from .chunks import current_threads
from .errors import E_ITEM
from .kernel import njit
from .kernel_types import F64_1, I64_1, I64_2, I64_3, I64_4, U64_2
from .layout import Table
from .rng import chunk_keys, seed_state


# One thread's kernel, as source: chunks first, first + every, ... (its arguments numbered after ``rules`` and
# ``keys``).  One call a thread, not one a chunk: a call unboxes every policy function it is given, about
# 2 ms of Python for All Fours' sixteen.
_CHUNKS = """
def {name}(first, every, rules, keys, {args}):
    for c in range(first, keys.shape[0], every):
        step(c, rules, keys, {args})
"""


class ChunkLoop:
    """``loop(rules, keys, ...)``: every chunk of ``keys``, dealt round to :func:`~sims.core.chunks.current_threads`
    threads (thread ``t`` of ``T`` runs chunks ``t``, ``t + T``, ...; each chunk writes only its own rows, so the
    threads never share a value).  An exception raised in a chunk comes back as a SystemError caused by it, as
    numba's parallel loops hand it back."""

    def __init__(self, name: str, kernel):
        self.kernel, self.__name__, self.__qualname__ = kernel, name, name
        self.__module__ = kernel.__module__

    def __call__(self, rules, keys, *args):
        threads = max(1, min(keys.shape[0], current_threads()))
        try:
            if threads == 1:
                self.kernel(0, 1, rules, keys, *args)
                return
            with ThreadPoolExecutor(threads) as pool:
                for _ in pool.map(lambda t: self.kernel(t, threads, rules, keys, *args), range(threads)):
                    pass
        except Exception as exc:
            raise SystemError(f"a chunk of {self.__name__} raised {type(exc).__name__}") from exc

    def __getattr__(self, name):  # only for names the loop lacks: its kernel's (signatures, stats, dispatcher)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.kernel, name)

    def __reduce__(self):  # pickled by reference, as a function is
        return getattr, (importlib.import_module(self.__module__), self.__name__)


def chunk_loop(name: str, step, signature) -> ChunkLoop:
    """The parallel loop ``name(rules, keys, ...)`` (a :class:`ChunkLoop`; ``signature`` the numba type of its
    arguments, ``types.void(...)``) that runs ``step(c, rules, keys, ...)`` for every chunk ``c`` of ``keys``.
    Its kernel (one thread's chunks) is lazy: compiled at the first call or by ``sims compile``.  Give it the
    name the game's module binds it to (a loop is pickled by its module and name).  The step is
    ``njit(inline="always")``: its body compiles into the kernel as if written there (a step compiled on its own
    cost 5-20% more compilation per kernel)."""
    if getattr(step, "targetoptions", {}).get("inline") != "always":
        raise TypeError(f'the chunk step {getattr(step, "__name__", step)!r} must be njit(inline="always")')
    args = ", ".join(f"a{k}" for k in range(2, len(signature.args)))
    namespace = {"__name__": step.py_func.__module__, "step": step}
    exec(compile(_CHUNKS.format(name=name, args=args), __file__, "exec"), namespace)
    one_thread = types.void(types.int64, types.int64, *signature.args)
    return ChunkLoop(name, njit(one_thread, cache=True, nogil=True)(namespace[name]))


# One chunk of a play_item game, as source: one tuple of policies per decision of the game, passed as separate
# arguments (numba's parallel loops take a tuple of functions, but not a tuple of such tuples).
_DEAL_CHUNK = """
def {name}(c, rules, keys, first_item, n_items, chunk_size, {fns}, params, poff, sums, sumsq, hist, rows, err):
    bins = hist.shape[3]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()   # thread-local copies
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = np.empty((keys.shape[1] - 1, 4), dtype=np.uint64)
    out = np.zeros(sums.shape[1:], dtype=np.int64)
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        seed_state(deck_rng, keys[c, 0], i)
        for s in range(keys.shape[1] - 1):
            seed_state(seat_rngs[s], keys[c, 1 + s], i)
        out[:] = 0
        item = first_item + c * chunk_size + i
        if play_item(rules_c, item, deck_rng, seat_rngs, ({fns},), params_c, poff_c, out, err[c]) < 0:
            err[c, E_ITEM] = item
            break
        for w in range(out.shape[0]):
            for k in range(out.shape[1]):
                v = out[w, k]
                sums[c, w, k] += v
                sumsq[c, w, k] += v * v
                hist[c, w, k, min(max(v, 0), bins - 1)] += 1
        if rows.shape[0] > 0:
            copy_rows(rows[c * chunk_size + i], out)
"""


def deal_loop(play_item, policy_types):
    """The parallel kernel over chunks for the njit ``play_item`` (module docstring); ``policy_types`` the numba
    type of each decision's tuple of policies (e.g. ``types.UniTuple(CardFn, MAX_SEATS)``).  Chunk ``c`` adds
    each item's ``out`` to ``sums[c]``, its squares to ``sumsq[c]`` and its values to ``hist[c]``; item ``j``
    of the call writes ``rows[j]`` when ``rows`` has rows."""
    name = f"deal_chunk_{play_item.__name__}"
    namespace = {
        "__name__": play_item.py_func.__module__,
        "np": np,
        "seed_state": seed_state,
        "E_ITEM": E_ITEM,
        "copy_rows": copy_rows,
        "play_item": play_item,
    }
    fns = ", ".join(f"policies_{d}" for d in range(len(policy_types)))
    exec(compile(_DEAL_CHUNK.format(name=name, fns=fns), __file__, "exec"), namespace)
    signature = types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        *policy_types,
        F64_1,
        I64_1,
        I64_3,
        I64_3,
        I64_4,
        I64_3,
        I64_2,
    )
    return chunk_loop(f"deal_loop_{play_item.__name__}", njit(inline="always")(namespace[name]), signature)


def play_deals(job, keys, first_item, n_items, err, loop, table: Table) -> Batch:
    """``play_chunks`` for a game whose deals ``loop`` (from :func:`deal_loop`) plays, tallied by ``table``
    with one row per seat of the rules."""
    fns, params, poff = job.kernel_policies()
    n_chunks, seats = keys.shape[0], job.rules.players
    sums, sumsq = table.zeros(n_chunks, seats), table.zeros(n_chunks, seats)
    hist = np.zeros((*sums.shape, table.bins), dtype=np.int64)
    rows = table.zeros(n_items if job.records else 0, seats)
    loop(
        job.rules.to_kernel(),
        keys,
        first_item,
        n_items,
        job.chunk_size,
        *fns,
        params,
        poff,
        sums,
        sumsq,
        hist,
        rows,
        err,
    )
    records = {job.kind: table.records(rows, first_item)} if job.records else {}
    return Batch(
        job.kind, n_items, table.totals(sums.sum(0), sumsq.sum(0), n_items), table.histograms(hist.sum(0)), records
    )


def item_streams(game, seed: int, item: int) -> tuple[np.ndarray, np.ndarray]:
    """The deck stream and the seats' streams of deal ``item`` of a job of ``game`` with ``seed``, seeded as
    the loop seeds them (for a reference engine in plain Python)."""
    chunk, index = divmod(item, game.chunk_size["deals"])
    keys = chunk_keys(seed, chunk, 1, game.n_streams)[0]
    deck_rng, seat_rngs = np.empty(4, dtype=np.uint64), np.empty((game.n_streams - 1, 4), dtype=np.uint64)
    seed_state(deck_rng, keys[0], index)
    for s in range(game.n_streams - 1):
        seed_state(seat_rngs[s], keys[1 + s], index)
    return deck_rng, seat_rngs


def assert_same_deals(game, rules, policies, n: int, seed: int, table: Table, reference_deal) -> None:
    """The engine's deals 0 .. n - 1 of ``game`` have the values that ``reference_deal(rules, item, deck_rng,
    seat_rngs)`` gives (``[seat][component]`` of ``table``) from the same streams; else an AssertionError
    naming the first deal that differs."""
    from .chunks import run_chunks
    from .jobs import Job

    job = Job.make(game, "deals", rules, policies, n, seed, records=True)
    fast = run_chunks(job, 0, job.n_chunks).rows["deals"]
    for item in range(n):
        expected = np.asarray(reference_deal(job.rules, item, *item_streams(game, seed, item)), dtype=np.int64)
        got = fast.iloc[item][table.columns(len(expected))].to_numpy().reshape(expected.shape)
        assert np.array_equal(got, expected), (
            f"{job.rules.name} deal {item}: engine {got.tolist()} != reference {expected.tolist()}"
        )
