"""When each point of a deal falls: the kernel behind the board-position tables.

Counting out (docs/rules.md, "Order of showing"): a deal scores in a fixed
order, his heels at the cut, the play card by card, the pone's hand, the
dealer's hand, the crib, and the game ends the instant a side reaches the
target.  With policies that do not look at the score, what a deal scores and in
which order does not depend on the board, so one set of simulated deals serves
every position: for a dealer who needs ``a`` points and a pone who needs ``b``,
the dealer wins in the deal if he reaches ``a`` before the pone reaches ``b``.

For each deal :func:`deal_events` lists the points in the order they are
scored.  The play is read back from the order the cards were laid: a card that
does not fit the count shows that nobody could play, so the end hole went to the
player who laid the card before it (RULES.md: "when nobody can, the last player
scores the go"); thirty-one closes a count without a go; the last card of all
scores 1 unless it made 31 (two-handed five-card: the single count's go).  Each
deal then adds, in chunk ``c``:

* ``counts[c, DEALER, a, pi]``: the dealer reached ``a`` points (1 .. target)
  with the pone on ``pi`` points of the deal at that moment (``pi`` clipped to the target);
* ``counts[c, PONE, b, delta]``: the pone reached ``b`` with the dealer on ``delta``;
* ``counts[c, TOTALS, D, P]``: the deal's totals, clipped to the target.

The dealer needing ``a`` wins in the deal iff ``pi < b`` at his row ``a``; the pone
iff ``delta < a``; otherwise the deal ends with the totals (``D < a``, ``P < b``)
and the next deal starts from the new scores with the roles exchanged.  The same
kernel keeps the deal model that the position-aware policies use (:mod:`.model`):
the pegging of each side still to come after ``k`` cards were laid, each side's
hand, and the crib by the ranks a player threw into it.

The kernel is an engine for :class:`sims.core.jobs.Job` (``engine=`` this
module), so the core's runner plays it in batches, with a run store, resume and
Dask, and the numbers do not depend on threads or workers.  Deal ``g`` is dealt by
seat ``g % 2`` from the same streams as :func:`sims.cribbage.simulate_deals`.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ....core.batch import Batch, concat, count_columns, histogram_columns
from ....core.driver import chunk_loop
from ....core.errors import E_DECISION, E_ITEM
from ....core.kernel import njit
from ....core.kernel_types import I64_1, I64_2, I64_3, I64_4, I64_5, U64_2
from ...engine import PLAYERS, describe_error  # noqa: F401  (this module is an engine: the core asks it for errors)
from ...odds.layout import (
    EV_ROWS,
    HEELS,
    KIND,
    LAID,
    MAX_EVENTS,
    N_RANKS,
    PEG_BINS,
    PEGGING,
    POINTS,
    ROLE,
    SHOW,
    SHOW_BINS,
    TABLE_NAMES,
    TOTALS,
)
from ...pegging import MAX_COUNT, card_value, peg_points_kernel
from ...play import (
    A_N_PLAYED,
    C_CRIB,
    C_HAND,
    C_HEELS,
    POLICY_ERROR,
    deal_buffers,
    play_deal,
    seed_streams,
)
from ...rules import R_BATH, R_TARGET

CHECK_DEALS = 8  # deals per chunk replayed at other scores (:func:`_timing_chunk`)
OPTIONS = {"groups": "jackknife groups: chunk c counts in group c % groups"}  # this engine's job options


@njit(cache=True, inline="always")
def _owner(kept, card):
    """The role (0 dealer, 1 pone) whose kept cards hold ``card``."""
    for i in range(kept.shape[1]):
        if kept[0, i] == card:
            return 0
    return 1


@njit(cache=True)
def deal_events(rules, comp, played, n_played, kept, ev):
    """The points of a two-handed deal in the order they were scored (module docstring); returns how
    many.  Event ``e``: ``ev[POINTS, e]`` points to the player in role ``ev[ROLE, e]`` (0 dealer, 1 pone),
    of kind ``ev[KIND, e]`` (HEELS, PEGGING or SHOW), scored when ``ev[LAID, e]`` cards had been laid."""
    n = 0
    if comp[0, C_HEELS]:
        n = _event(ev, n, 0, comp[0, C_HEELS], HEELS, 0)
    bath = rules[R_BATH] != 0
    count, start = 0, 0
    for k in range(n_played):
        value = card_value(played[k])
        if count + value > MAX_COUNT:  # nobody could play: the end hole to the last player
            n = _event(ev, n, _owner(kept, played[k - 1]), 1, PEGGING, k)
            count, start = 0, k
        count += value
        points = peg_points_kernel(played, start, k + 1, bath)
        if points:
            n = _event(ev, n, _owner(kept, played[k]), points, PEGGING, k + 1)
        if count == MAX_COUNT:
            count, start = 0, k + 1
    if count > 0:  # the last card (or the single count's go)
        n = _event(ev, n, _owner(kept, played[n_played - 1]), 1, PEGGING, n_played)
    for role in (1, 0):  # the show: the pone's hand, the dealer's, then the crib
        if comp[role, C_HAND]:
            n = _event(ev, n, role, comp[role, C_HAND], SHOW, n_played)
    if comp[0, C_CRIB]:
        n = _event(ev, n, 0, comp[0, C_CRIB], SHOW, n_played)
    return n


@njit(cache=True, inline="always")
def _event(ev, n, role, points, kind, laid):
    ev[ROLE, n], ev[POINTS, n], ev[KIND, n], ev[LAID, n] = role, points, kind, laid
    return n + 1


@njit(cache=True)
def add_timings(target, ev, n_events, counts):
    """Add one deal's events to the three count tables ``counts[3, target + 1, target + 1]``."""
    have = np.zeros(2, dtype=np.int64)
    for e in range(n_events):
        r = ev[ROLE, e]
        other = min(have[1 - r], target)
        for need in range(have[r] + 1, min(have[r] + ev[POINTS, e], target) + 1):
            counts[r, need, other] += 1
        have[r] += ev[POINTS, e]
    counts[TOTALS, min(have[0], target), min(have[1], target)] += 1


@njit(cache=True)
def add_model(comp, thrown, ev, n_events, n_played, rest, hands, cribs):
    """Add one deal to the deal model: ``rest[k, D, P]`` the dealer's and the pone's pegging scored after
    ``k`` cards were laid (``k = 0``: all of it), ``hands[role, points]``, ``cribs[role, lo, hi, points]`` the
    crib by the ranks (low, high) the player in ``role`` threw."""
    after = np.zeros(2, dtype=np.int64)
    for k in range(n_played + 1):
        after[:] = 0
        for e in range(n_events):
            if ev[KIND, e] == PEGGING and ev[LAID, e] > k:
                after[ev[ROLE, e]] += ev[POINTS, e]
        rest[k, min(after[0], PEG_BINS - 1), min(after[1], PEG_BINS - 1)] += 1
    for role in range(2):
        hands[role, min(comp[role, C_HAND], SHOW_BINS - 1)] += 1
        a, b = thrown[role, 0] >> 2, thrown[role, 1] >> 2
        cribs[role, min(a, b), max(a, b), min(comp[0, C_CRIB], SHOW_BINS - 1)] += 1


@njit(cache=True)
def same_events(ev1, n1, ev2, n2):
    """The two event lists score the same points to the same players in the same order."""
    if n1 != n2:
        return False
    for e in range(n1):
        if ev1[ROLE, e] != ev2[ROLE, e] or ev1[POINTS, e] != ev2[POINTS, e]:
            return False
    return True


@njit(inline="always")
def _timing_chunk(c, rules, keys, first_item, n_items, chunk_size, players, counts, model, err, changed):
    """Deals of chunk ``c`` between the ``players`` (:data:`~sims.cribbage.engine.PLAYERS`), deal ``g`` dealt by
    seat ``g % 2``: they add to ``counts[c]`` (the three count tables) and to the deal ``model``, ``(rest, hands,
    cribs)`` (:func:`add_model`).  The first :data:`CHECK_DEALS` deals of the chunk are replayed from the
    same streams with the players on other scores near the target; a deal that scores otherwise marks
    ``changed[c]`` (1 + the deal): the policies look at the score."""
    policies, params, poff = players
    rest, hands, cribs = model
    target = rules[R_TARGET]
    rules_c, params_c, poff_c = rules.copy(), params.copy(), poff.copy()  # thread-local, as in the engine
    work, deck_rng, seat_rngs, scores, comp = deal_buffers(rules_c)
    ev = np.zeros((2, EV_ROWS, MAX_EVENTS), dtype=np.int64)  # events of the deal, and of its replay
    start = first_item + c * chunk_size
    for i in range(min(chunk_size, n_items - c * chunk_size)):
        g = start + i
        n_ev = 0
        for replay in range(2 if i < CHECK_DEALS else 1):
            seed_streams(keys, c, i, deck_rng, seat_rngs)
            scores[:] = 0
            if replay:
                scores[g % 2] = max(target - 1 - (3 * i) % 10, 0)
                scores[(g + 1) % 2] = max(target - 2 - (7 * i) % 10, 0)
            comp[:, :] = 0
            if (
                play_deal(
                    rules_c, g % 2, scores, False, deck_rng, seat_rngs, policies, params_c, poff_c, comp, err[c], work
                )
                == POLICY_ERROR
            ):
                err[c, E_ITEM] = g
                break
            n_played = work[8][A_N_PLAYED]
            n = deal_events(rules_c, comp, work[6], n_played, work[2], ev[replay])
            if replay:
                if not same_events(ev[0], n_ev, ev[1], n):
                    changed[c] = g + 1
                continue
            n_ev = n
            add_timings(target, ev[0], n, counts[c])
            add_model(comp, work[4], ev[0], n, n_played, rest[c], hands[c], cribs[c])
        if err[c, E_DECISION] or changed[c]:
            break


# The parallel kernel over chunks (:func:`sims.core.driver.chunk_loop`).
_timing_chunks = chunk_loop(
    "_timing_chunks",
    _timing_chunk,
    types.void(
        I64_1,
        U64_2,
        types.int64,
        types.int64,
        types.int64,
        PLAYERS,
        I64_4,
        types.Tuple((I64_4, I64_3, I64_5)),
        I64_2,
        I64_1,
    ),
)


def play_chunks(job, keys, first_item, n_items, err) -> Batch:
    """The core's entry point: deals ``first_item ..`` of ``job`` as a Batch of counts (:func:`to_batch`)."""
    rules = job.rules
    if rules.players != 2 or rules.partners:
        raise ValueError(f"board-position tables are for two players; {rules.name} has {rules.players}")
    t = rules.target
    n_chunks = keys.shape[0]
    counts = np.zeros((n_chunks, 3, t + 1, t + 1), dtype=np.int64)
    rest = np.zeros((n_chunks, 2 * rules.kept + 1, PEG_BINS, PEG_BINS), dtype=np.int64)
    hands = np.zeros((n_chunks, 2, SHOW_BINS), dtype=np.int64)
    cribs = np.zeros((n_chunks, 2, N_RANKS, N_RANKS, SHOW_BINS), dtype=np.int64)
    changed = np.zeros(n_chunks, dtype=np.int64)
    _timing_chunks(
        rules.to_kernel(),
        keys,
        first_item,
        n_items,
        job.chunk_size,
        job.kernel_policies(),
        counts,
        (rest, hands, cribs),
        err,
        changed,
    )
    if changed.any():
        g = int(changed[np.flatnonzero(changed)[0]]) - 1
        raise ValueError(
            f"the policies play deal {g} (seed {job.seed}) differently when the scores change: "
            f"a table from deal timings needs policies that ignore the score "
            f"(use sims.cribbage.odds.position_table for position-aware play)"
        )
    groups = job.option("groups", 1)
    first_chunk = first_item // job.chunk_size
    group = (first_chunk + np.arange(n_chunks)) % groups
    sizes = np.minimum(job.chunk_size, n_items - np.arange(n_chunks) * job.chunk_size)
    by_group = np.zeros((groups, 3, t + 1, t + 1), dtype=np.int64)
    np.add.at(by_group, group, counts)
    deals = np.bincount(group, weights=sizes, minlength=groups).astype(np.int64)
    return to_batch(job, n_items, deals, by_group, rest.sum(0), hands.sum(0), cribs.sum(0))


def to_batch(job, n, deals, counts, rest, hands, cribs) -> Batch:
    """Counts in the core's tidy form.  Totals: deals per jackknife group (scope "group").  Histograms:
    scope a count table of :data:`TABLE_NAMES`, ``who`` the group, ``component`` the row (points needed,
    or the dealer's total), ``value`` the column; scope "model" for the deal model."""
    groups = [str(g) for g in range(counts.shape[0])]
    rows = [str(r) for r in range(counts.shape[2])]
    hists = [histogram_columns(name, groups, rows, counts[:, k]) for k, name in enumerate(TABLE_NAMES)]
    hists.append(
        histogram_columns("model", [f"rest {k}" for k in range(rest.shape[0])], [str(d) for d in range(PEG_BINS)], rest)
    )
    hists.append(histogram_columns("model", ["hand"], ["dealer", "pone"], hands[None]))
    pairs = [f"{who} {lo} {hi}" for who in ("dealer", "pone") for lo in range(N_RANKS) for hi in range(N_RANKS)]
    hists.append(histogram_columns("model", ["crib"], pairs, cribs.reshape(1, -1, SHOW_BINS)))
    totals = count_columns("group", groups, ["deals"], deals, deals)
    return Batch("deals", n, totals, concat(hists), {})
