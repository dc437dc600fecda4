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

from dataclasses import replace

import numpy as np
from numba import types

from ..cards import format_card, format_cards
from ..core.arrays import copy_into, copy_rows
from ..core.batch import Batch
from ..core.driver import item_loop, play_items
from ..core.errors import E_ANSWER, E_DECISION
from ..core.kernel import njit
from ..core.kernel_types import I64_1, I64_2, U64_2
from ..core.layout import Table, Tally, add_part
from ..core.rng import chunk_keys, seed_state
from ..core.streams import seat_streams
from .contract import DECLARATIONS, MAX_SEATS
from .play import (
    CARDS,
    D_CARD,
    D_DECLARE,
    DECIDES,
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
    PLAYERS,
    POLICY_ERROR,
    new_work,
    play_deal,
    play_dealt,
    play_session,
)
from .rules import MAX_SESSION_ROUNDS, R_PLAYERS, R_ROUNDS, R_STAKE

POOL_BINS = 40  # pools by size in stakes: bin v holds 2**(v-1) <= pool/stake < 2**v
DEAL_TOTALS = INFO[:5]  # the deal's totals: carry, pool, carried_on, standers, single
POOL_STAKES = 256  # the pool at each deal of a session by whole stakes, the last bin holding the larger
MAX_DEALS = MAX_SESSION_ROUNDS * MAX_SEATS


def role_names(players: int) -> tuple[str, ...]:
    """Places at a deal by role: the dealer, the eldest hand (first to declare), hand 2, ... on round."""
    return ("dealer", "eldest") + tuple(f"hand {r}" for r in range(2, players))


def place_names(players: int) -> tuple[str, ...]:
    """Seats by their place from the first dealer of a session."""
    return ("first dealer",) + tuple(f"first dealer +{k}" for k in range(1, players))


def deal_numbers(job) -> tuple[str, ...]:
    return tuple(f"deal {d + 1}" for d in range(job.rules.session_deals))


# What a deal adds up, by role (each player's money, what he took from the pool, whether he stood, took the
# miss, was looed, swept with a flush, his tricks), for the deal, and by the way it ended; histograms of the
# standers, the players looed and the pool carried on (by pool_bin).
ROLES = Table("role", OUTCOMES, who=lambda job: role_names(job.rules.players), size=MAX_SEATS)
DEAL = Table("deal", DEAL_TOTALS, who=("all",))
ENDING = Table("ending", ("deals",), who=ENDINGS, totals="count")
DEAL_HISTS = Table("deal", ("standers", "looed", "carried_on"), who=("all",), totals=None, bins=POOL_BINS)
# Independent deals add each seat's outcomes and record the deal and each role's outcomes.
INFO_RECORD = Table("deal", INFO, who=("all",), totals=None, record="{component}", labels=(("ending", ENDINGS),))
SEATS = Table("seat", OUTCOMES, size=MAX_SEATS)
DEAL_ROLES = replace(ROLES, record="{who}_{component}")
DEALS = Tally("deal", [INFO_RECORD, DEAL_ROLES, DEAL, ENDING, DEAL_HISTS, SEATS])
# A session adds its deals as parts, then each seat's money (by seat and by place from the first dealer), the
# pool left at the end and its largest size, the pool at each deal (and by whole stakes); one row a session.
SESSION_RECORD = Table(
    "game", ("first_dealer", "pool_left", "largest_pool"), who=("all",), totals=None, record="{component}"
)
MONEY = Table("seat", ("money",), size=MAX_SEATS, record="{component}_{i}")
PLACES = Table("place", ("money",), who=lambda job: place_names(job.rules.players), size=MAX_SEATS)
SESSION = Table("session", ("pool_left", "largest_pool"), who=("all",))
BY_DEAL = Table("deal number", ("pool",), who=deal_numbers, size=MAX_DEALS)
LARGEST = Table("session", ("largest_pool",), who=("all",), totals=None, bins=POOL_BINS)
POOL_STAKES_BY_DEAL = Table(
    "deal number", ("pool in stakes",), who=deal_numbers, size=MAX_DEALS, totals=None, bins=POOL_STAKES
)
SESSIONS = Tally(
    "game",
    [SESSION_RECORD, ROLES, DEAL, ENDING, DEAL_HISTS, MONEY, PLACES, SESSION, BY_DEAL, LARGEST, POOL_STAKES_BY_DEAL],
    parts=[ROLES, DEAL, ENDING, DEAL_HISTS],
)
# Their rows in ``out``.
INFO_ROW, ROLE, SEAT = DEALS.row(INFO_RECORD), DEALS.row(DEAL_ROLES), DEALS.row(SEATS)
DEAL_ROW, ENDING_ROW, HIST_ROW = DEALS.row(DEAL), DEALS.row(ENDING), DEALS.row(DEAL_HISTS)
S_ROLE, S_DEAL, S_ENDING, S_HIST = (SESSIONS.row(t) for t in (ROLES, DEAL, ENDING, DEAL_HISTS))
S_RECORD, S_MONEY, S_PLACE, S_SESSION = (SESSIONS.row(t) for t in (SESSION_RECORD, MONEY, PLACES, SESSION))
S_BY_DEAL, S_LARGEST, S_STAKES = (SESSIONS.row(t) for t in (BY_DEAL, LARGEST, POOL_STAKES_BY_DEAL))


@njit(cache=True, inline="always")
def pool_bin(pool, stake):
    """The histogram bin of a pool: the bit length of pool // stake, capped."""
    x = pool // stake
    v = 0
    while x:
        x >>= 1
        v += 1
    return min(v, POOL_BINS - 1)


@njit(cache=True)
def session_work(rules):
    """A chunk's buffers for sessions: a deal's (:func:`sims.loo.play.new_work`), the session's deals by role
    and their ``INFO``, and each seat's money over the session."""
    deals = rules[R_ROUNDS] * rules[R_PLAYERS]
    log_out = np.zeros((deals, MAX_SEATS, N_OUT), dtype=np.int64)
    return new_work(rules), log_out, np.zeros((deals, N_INFO), dtype=np.int64), np.zeros(MAX_SEATS, dtype=np.int64)


@njit(cache=True, inline="always")
def write_deal(out, deal, ending, hist, outcomes, info, players, stake):
    """A deal's values for the deal, its ending and its histograms, into ``out`` at the rows given (those by
    role are the deal's ``outcomes``)."""
    looed = 0
    for r in range(players):
        looed += outcomes[r, O_LOOED]
    for k in range(len(DEAL_TOTALS)):
        out[deal, k] = info[k]
    out[ending + info[I_ENDING], 0] = 1
    out[hist, 0] = info[I_STANDERS]
    out[hist, 1] = looed
    out[hist, 2] = pool_bin(info[I_NEXT], stake)


@njit(inline="always")
def deal_item(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """Independent deal ``item``, dealt by seat item % players with ``args[0]`` money held over in the pool
    (``work``: :func:`sims.loo.play.new_work`'s)."""
    players, stake = rules[R_PLAYERS], rules[R_STAKE]
    dealer = item % players
    outcomes, info = out[ROLE : ROLE + MAX_SEATS], out[INFO_ROW]
    if (
        play_deal(rules, dealer, args[0], deck_rng, seat_rngs, (policies, params, poff), outcomes, info, err, work)
        == POLICY_ERROR
    ):
        return -1
    write_deal(out, DEAL_ROW, ENDING_ROW, HIST_ROW, outcomes, info, players, stake)
    for r in range(players):
        for k in range(N_OUT):
            out[SEAT + (dealer + r) % players, k] = outcomes[r, k]
    return 0


@njit(inline="always")
def session_item(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """A session (:func:`sims.loo.play.play_session`), each of its deals added as a part."""
    players, stake = rules[R_PLAYERS], rules[R_STAKE]
    log_out, log_info, net = work[1], work[2], work[3]
    left = play_session(rules, deck_rng, seat_rngs, (policies, params, poff), log_out, log_info, err, work[0])
    if left == POLICY_ERROR:
        return -1
    net[:] = 0
    largest = 0
    for d in range(log_info.shape[0]):
        outcomes, info = log_out[d], log_info[d]
        for r in range(players):
            for k in range(N_OUT):
                out[S_ROLE + r, k] = outcomes[r, k]
        write_deal(out, S_DEAL, S_ENDING, S_HIST, outcomes, info, players, stake)
        add_part(tally, out)
        for r in range(players):
            net[(info[I_DEALER] + r) % players] += outcomes[r, O_MONEY]
        pool = info[I_POOL]
        out[S_BY_DEAL + d, 0] = pool
        out[S_STAKES + d, 0] = pool // stake
        largest = max(largest, pool)
    first = log_info[0, I_DEALER]
    for s in range(players):
        out[S_MONEY + s, 0] = net[s]
        out[S_PLACE + (s - first) % players, 0] = net[s]
    out[S_SESSION, 0], out[S_SESSION, 1] = left, largest
    out[S_LARGEST, 0] = pool_bin(largest, stake)
    out[S_RECORD, 0], out[S_RECORD, 1], out[S_RECORD, 2] = first, left, largest
    return 0


POLICY_TYPES = [DECIDES, DECIDES, CARDS]
_deal_items = item_loop(deal_item, POLICY_TYPES, new_work)
_session_items = item_loop(session_item, POLICY_TYPES, session_work)


@njit(types.int64(I64_1, I64_1, U64_2, PLAYERS, I64_2, I64_1, I64_2, I64_1), cache=True)
def _stacked_deal(rules, deal, seat_rngs, players, out, info, played, err):
    """One deal from a stacked pack: ``deal`` holds the dealer, the carry, then the 52 cards in order."""
    work = new_work(rules)
    copy_into(work[0], deal[2:])
    work[1][0], work[1][1] = 0, 52
    no_rng = np.zeros(4, dtype=np.uint64)  # the pack is stacked
    carried_on = play_dealt(rules, deal[0], deal[1], no_rng, seat_rngs, players, out, info, err, work)
    copy_rows(played, work[5])
    return carried_on


def play_stacked(rules, policies, deck, dealer: int = 0, carry: int = 0, seat_rngs=None, seed: int = 0):
    """Play one deal from a stacked ``deck`` (the order the cards come off the pack: see
    :func:`sims.loo.reference.stacked_deck`) in the kernel; returns ``(out, info, played)``: outcomes by role
    (``OUTCOMES``), the deal (``INFO``) and the (card, role) rows played.  The seats' policies draw from
    ``seat_rngs`` (default: the streams of item 0 of ``seed``)."""
    from ..core.errors import PolicyError, job_policies, new_err, overrun_text, raised_by_policy
    from ..core.jobs import Job
    from .game import GAME

    job = Job.make(GAME, "deals", rules, policies, 1, 0)
    deck = np.asarray(deck, dtype=np.int64)
    if sorted(deck.tolist()) != list(range(52)):
        raise ValueError("a stacked deck must hold each of the 52 cards once")
    rngs = seat_streams(MAX_SEATS)
    if seat_rngs is None:
        keys = chunk_keys(seed, 0, 1, GAME.n_streams)[0]
        for s in range(MAX_SEATS):
            seed_state(rngs[s, :4], keys[1 + s], 0)
    else:
        rngs[: len(seat_rngs), :4] = seat_rngs
    out = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    played = np.zeros((MAX_SEATS * 5, 2), dtype=np.int64)
    err = new_err(1)
    with raised_by_policy(job_policies(job), "a stacked deal"):
        deal = np.concatenate([[dealer, carry], deck]).astype(np.int64)
        status = _stacked_deal(job.rules.to_kernel(), deal, rngs, job.kernel_policies(), out, info, played, err[0])
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
    if job.kind == "deals":
        return play_items(job, keys, first_item, n_items, err, _deal_items, DEALS, args=[carry_of(job)])
    return play_items(job, keys, first_item, n_items, err, _session_items, SESSIONS)


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
