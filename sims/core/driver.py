"""The chunked parallel driver: the one place where a job's chunks are spread over threads.

:func:`chunk_loop` makes a game's parallel loop from its per-chunk step, an njit function::

    step(c, rules, keys, ...)

that plays chunk ``c`` (all its items, seeded from ``keys[c]``) and adds what it tallies to the ``c``-th
rows of its outputs; the loop ``name(rules, keys, ...)`` runs ``step`` for every chunk, on as many threads as
:func:`sims.core.chunks.loop_threads` says.  Each chunk's numbers depend only on its keys, so they do not
depend on the threads.  Each thread runs its share of the chunks in one call of a kernel that releases the GIL
(``nogil``): numba's ``parallel=True`` loop did the same work but tripled the kernel's compilation (its
parfor passes).  The item loops cut a call's chunks into pieces when they are too few to keep every thread busy
(:func:`pieces_per_chunk`); an item's streams are still its chunk's.

A game writes only how one item (a deal, a game, a session) is played, as an njit function, and declares what
it adds up as a :class:`sims.core.layout.Tally`.  :func:`deal_loop` makes the parallel kernel of::

    play_item(rules, item, deck_rng, seat_rngs, policies, params, poff, out, err) -> int64

and :func:`item_loop`, the game-level loop, that of::

    play_item(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, err) -> int64

(``rules`` its ``to_kernel()`` array; ``args`` int64 values of the job, such as a switch; ``item`` the item's
index in the job; ``deck_rng`` and ``seat_rngs[s]`` the item's deck and seat streams, already seeded;
``policies`` what :meth:`sims.core.jobs.Job.kernel_policies` gives, one tuple of functions per decision;
``out[row, column]`` the item's values in the tally's layout, the rows the job names zeroed; ``tally`` what
:func:`sims.core.layout.add_part` takes to add a part of the item, such as each deal of a session; ``err`` the
chunk's error row).  It returns a negative number after writing an illegal answer into ``err``
(:mod:`sims.core.errors`), else anything.  :func:`play_items` is then the game's whole ``play_chunks``: seed
streams per item, the chunk loop, and the totals, histograms and records the tally declares.  Either kernel
takes 11 arguments (``first, every, rules, keys, counts, args, players, blocks, acc, rows, err``; ``players``
the tuple ``(policies, params, poff)``), whatever the game decides and adds up.  For the game's reference
engine, :func:`item_streams` gives the streams of any deal and :func:`assert_same_deals` compares the engine's
deals with the reference's, value by value.

The kernels are made from the sources ``_CHUNKS`` and ``_ITEM_CHUNK`` below with the game's function as a
global (the module of the kernel is the game function's, its code this file's), and cached in the directory
of the game's module, keyed by what both modules reach (:mod:`sims.core.cache`): a game's edit recompiles its
kernels, and only its kernels; an edit here recompiles every game's.
"""

from __future__ import annotations

import importlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import types

from .arrays import copy_into
from .batch import Batch
from .chunks import current_threads
from .errors import E_DECISION, E_ITEM
from .kernel import njit
from .kernel_types import F64_1, I64_1, I64_2, I64_3, U64_2
from .layout import Tally, add_blocks, clear_blocks, record_blocks
from .rng import chunk_keys, seed_state
from .streams import seat_streams
from .unowned import borrowed

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


@njit(cache=True, inline="always")
def piece_items(c, pieces, chunk_size, n_items):
    """Row ``c`` of a call's keys is piece ``c % pieces`` of chunk ``c // pieces`` (:func:`play_items`): the
    chunk's first item, and the first and last + 1 index in the chunk of the items the piece plays."""
    start = (c // pieces) * chunk_size
    size, part = min(chunk_size, n_items - start), c % pieces
    return start, part * size // pieces, (part + 1) * size // pieces


PIECES_PER_THREAD = 32  # a call cuts its chunks so that each thread plays at least this many pieces

# One piece of a chunk of items, as source: ``keys`` holds a row per piece, each chunk's ``counts[7]`` pieces in turn
# (see :func:`play_items`), and piece ``c`` plays its share of its chunk's items, each seeded as in a whole chunk.
# ``players`` packs the policies (a tuple of functions per decision of the game), their parameters and the
# parameters' offsets (:meth:`sims.core.jobs.Job.kernel_policies`); ``counts`` the call's first item, its number
# of items, the chunk size, the shape of ``out``, the seated players, the number of the item's blocks (the parts'
# follow) and the pieces a chunk is cut into.
_ITEM_CHUNK = """
def {name}(c, rules, keys, counts, args, players, blocks, acc, rows, err):
    first_item, n_items, chunk_size, seated, split = counts[0], counts[1], counts[2], counts[5], counts[6]
    pieces = counts[7]
    policies, params, poff = players
    # Thread-local copies: array reference counts on shared inputs would bounce between cores.  Every array the
    # item is given, and each of ``work``, is handed on borrowed where the call is made (views of them count no
    # references; the variables stay in use, so the chunk keeps them alive): an item compiled into this loop
    # (inline="always") would otherwise count references to each at every item (12% of a short deal's time).
    rules_c, args_c, params_c, poff_c, blocks_c = rules.copy(), args.copy(), params.copy(), poff.copy(), blocks.copy()
    work = new_work(rules_c)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(keys.shape[1] - 1)
    out = np.zeros((counts[3], counts[4]), dtype=np.int64)
    sums = np.zeros(acc.shape[1], dtype=np.int64)
    scratch = np.zeros(rows.shape[1:], dtype=np.int64)  # the record rows of an item when none are kept
    parts = np.zeros(2, dtype=np.int64)  # the parts an item added, where the parts' blocks start
    parts[1] = split
    err_c = err[c]
    start, first, end = piece_items(c, pieces, chunk_size, n_items)
    for i in range(first, end):
        seed_state(borrowed(deck_rng), keys[c, 0], i)
        for s in range(seated):
            seed_state(borrowed(seat_rngs)[s], keys[c, 1 + s], i)
        parts[0] = 0
        item = first_item + start + i
        item_rows = borrowed(rows)[start + i] if rows.shape[0] > 0 else borrowed(scratch)
        if {call} < 0:
            err[c, E_ITEM] = item
            break
        add_blocks(borrowed(blocks_c), borrowed(sums), borrowed(out), 0, split)
        if rows.shape[0] > 0:
            record_blocks(borrowed(blocks_c), item_rows[0], borrowed(out), 0, split)
        clear_blocks(borrowed(blocks_c), borrowed(out), 0, split)
    copy_into(acc[c], sums)
"""
_DEAL_CALL = (
    "play_item(borrowed(rules_c), item, borrowed(deck_rng), borrowed(seat_rngs), policies, borrowed(params_c), "
    "borrowed(poff_c), borrowed(out), borrowed(err_c))"
)
_ITEM_CALL = (
    "play_item(borrowed(rules_c), borrowed(args_c), item, borrowed(deck_rng), borrowed(seat_rngs), policies, "
    "borrowed(params_c), borrowed(poff_c), borrowed(out), "
    "(borrowed(blocks_c), borrowed(sums), item_rows, borrowed(parts)), borrowed(work), borrowed(err_c))"
)


@njit(cache=True, inline="always")
def no_work(rules):
    """The work buffers of a game that needs none."""
    return 0


def _loop(play_item, policy_types, call: str, prefix: str, new_work) -> ChunkLoop:
    """The chunk loop of ``_ITEM_CHUNK`` calling ``play_item`` as ``call`` says."""
    name = f"{prefix}_chunk_{play_item.__name__}"
    namespace = {
        "__name__": play_item.py_func.__module__,
        "np": np,
        "seed_state": seed_state,
        "piece_items": piece_items,
        "seat_streams": seat_streams,
        "E_ITEM": E_ITEM,
        "add_blocks": add_blocks,
        "clear_blocks": clear_blocks,
        "record_blocks": record_blocks,
        "copy_into": copy_into,
        "borrowed": borrowed,
        "new_work": new_work,
        "play_item": play_item,
    }
    exec(compile(_ITEM_CHUNK.format(name=name, call=call), __file__, "exec"), namespace)
    players = types.Tuple((types.Tuple(tuple(policy_types)), F64_1, I64_1))
    signature = types.void(I64_1, U64_2, I64_1, I64_1, players, I64_2, I64_2, I64_3, I64_2)
    return chunk_loop(f"{prefix}_loop_{play_item.__name__}", njit(inline="always")(namespace[name]), signature)


def deal_loop(play_item, policy_types) -> ChunkLoop:
    """The parallel kernel over chunks for the njit ``play_item(rules, item, deck_rng, seat_rngs, policies,
    params, poff, out, err)`` (module docstring) whose ``out`` a :class:`~sims.core.layout.Tally` lays out;
    ``policy_types`` the numba type of each decision's tuple of policies (e.g. ``types.UniTuple(CardFn,
    MAX_SEATS)``).  Run it with :func:`play_items`."""
    return _loop(play_item, policy_types, _DEAL_CALL, "deal", no_work)


def item_loop(play_item, policy_types, new_work=no_work) -> ChunkLoop:
    """The game-level loop: as :func:`deal_loop`, for ``play_item(rules, args, item, deck_rng, seat_rngs,
    policies, params, poff, out, tally, work, err)``, which also gets the job's ``args`` (an int64 array:
    :func:`play_items`), the ``tally`` to which it adds each part of the item (each deal of a session) with
    :func:`sims.core.layout.add_part`, and ``work``, what the njit ``new_work(rules)`` made once for the
    chunk (the game's buffers, reused item after item)."""
    return _loop(play_item, policy_types, _ITEM_CALL, "item", new_work)


def pieces_per_chunk(n_chunks: int, chunk_size: int, threads: int) -> int:
    """The pieces each of a call's ``n_chunks`` chunks is cut into, so that every thread has
    :data:`PIECES_PER_THREAD` to play: one when the chunks are enough (a searching player's few hundred deals,
    one chunk, would otherwise keep one thread busy and the others idle)."""
    if n_chunks >= PIECES_PER_THREAD * threads:
        return 1
    return min(chunk_size, -(-PIECES_PER_THREAD * threads // n_chunks))


def play_items(job, keys, first_item, n_items, err, loop: ChunkLoop, tally: Tally, args=()) -> Batch:
    """``play_chunks`` for a game whose items ``loop`` (from :func:`deal_loop` or :func:`item_loop`) plays,
    tallied by ``tally``; ``args`` int64 values of the job the items are given (:func:`item_loop`).

    The loop counts so: each chunk is cut into :func:`pieces_per_chunk` pieces of consecutive items, and piece
    ``p`` adds each item's values (each block of ``tally.layout(job)``) to its own accumulator ``acc[p]`` (sum,
    sum of squares and n per value, then the histograms' bins; a part's values when the item adds the part);
    item ``j`` of the call writes its recorded values to ``rows[j, 0]`` and its parts' to ``rows[j, 1 + k]``
    when records or the log are kept.  An item's streams are its chunk's, whatever piece plays it, and the
    accumulators, summed over pieces, are exact integers, so nothing depends on how the items were cut into
    chunks, pieces or threads.  A chunk's ``err`` row is the first of its pieces' that records an error."""
    layout = tally.layout(job)
    n_chunks = keys.shape[0]
    pieces = pieces_per_chunk(n_chunks, job.chunk_size, current_threads())
    keys = np.repeat(keys, pieces, axis=0)  # a row per piece: its chunk's keys
    piece_err = np.zeros((keys.shape[0], err.shape[1]), dtype=np.int64)
    acc = np.zeros((keys.shape[0], layout.size), dtype=np.int64)
    logged = tally.logged(job)
    rows = np.zeros(  # room for the parts' log only when it is kept
        (n_items if job.records or logged else 0, 1 + (layout.log_size if logged else 0), layout.width), np.int64
    )
    blocks, split = layout.kernel
    counts = np.array(
        [first_item, n_items, job.chunk_size, *tally.shape, job.rules.players, split, pieces], dtype=np.int64
    )
    args = np.asarray(args, dtype=np.int64)
    loop(job.rules.to_kernel(), keys, counts, args, job.kernel_policies(), blocks, acc, rows, piece_err)
    for c, rows_c in enumerate(piece_err.reshape(n_chunks, pieces, -1)):
        bad = np.flatnonzero(rows_c[:, E_DECISION])
        if bad.size:
            err[c] = rows_c[bad[0]]
    return tally.batch(job, layout, acc.sum(0), rows, first_item, n_items)


def declared_chunks(loops, tallies):
    """The ``play_chunks`` of an engine that plays each kind's items by ``loops[kind]`` tallied by
    ``tallies[kind]`` (:func:`play_items`, with no job values)."""

    def play_chunks(job, keys, first_item, n_items, err) -> Batch:
        return play_items(job, keys, first_item, n_items, err, loops[job.kind], tallies[job.kind])

    return play_chunks


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


def assert_same_deals(game, rules, policies, n: int, seed: int, reference_deal) -> None:
    """The engine's deals 0 .. n - 1 of ``game`` have the values that ``reference_deal(rules, item, deck_rng,
    seat_rngs, policies)`` gives (``[seat][component]`` of the first table of the engine's ``TALLIES["deals"]``)
    from the same streams; else an AssertionError naming the first deal that differs."""
    from .chunks import run_chunks
    from .jobs import Job

    job = Job.make(game, "deals", rules, policies, n, seed, records=True)
    fast = run_chunks(job, 0, job.n_chunks).rows["deals"]
    table = importlib.import_module(game.engine).TALLIES["deals"].tables[0]
    for item in range(n):
        expected = np.asarray(
            reference_deal(job.rules, item, *item_streams(game, seed, item), policies), dtype=np.int64
        )
        got = fast.iloc[item][table.columns(table.names(len(expected)))].to_numpy().reshape(expected.shape)
        assert np.array_equal(got, expected), (
            f"{job.rules.name} deal {item}: engine {got.tolist()} != reference {expected.tolist()}"
        )
