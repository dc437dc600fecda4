"""All Fours on the core's item loop: a hand and a game as item functions, and what each adds up.

:func:`play_chunks` plays a range of a job's chunks with :func:`sims.core.driver.play_items`, which runs
:func:`deal_item` or :func:`game_item` on every item and builds the batch from the tallies declared here:

deals (independent hands, hand ``g`` dealt by seat ``g % players``)
    totals by scope ``role`` (``dealer``/``eldest``: the dealer's side and the eldest's) and
    ``side`` (fixed sides) by component (:data:`play.COMPONENTS`); ``hand`` ``all`` by event
    (:data:`play.EVENTS`); with the option ``agreement``, ``maxim`` ``seat s`` by
    ``<maxim> advised`` / ``<maxim> agreed``; with the option ``holdings``, ``holding``
    (:mod:`sims.allfours.holdings`).  Histograms of each role's points per component and of the
    runs per hand.  Rows (``records``, table ``deals``): deal, dealer, trump, the events,
    ``<role>_<component>``.
games
    totals ``side`` by ``wins`` and by component (points over the game), ``first dealer``
    ``wins``, ``game`` ``unfinished`` (games stopped by the hand cap) and ``hands``, ``hand``
    ``all`` by event (n = hands played), ``maxim`` as for deals (n = hands played); histograms of
    hands per game and of the loser's score.  Rows (``records``, table ``games``): game,
    first_dealer, winner, hands, score_0, score_1.

:mod:`sims.allfours.stacked` plays one hand from a stacked deck (rule-book replays).
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..cards import format_card, format_cards
from ..core.driver import item_loop, play_items
from ..core.errors import E_ANSWER, E_DECISION
from ..core.jobs import Job
from ..core.kernel import njit
from ..core.layout import ABSENT, Table, Tally
from ..core.rng import seed_state
from .cards import SUIT_NAMES
from .contract import S_TRUMP, HandFn, PlayFn
from .holdings import COUNTS as HOLDING_COUNTS
from .holdings import N_BINS as HOLDING_BINS
from .holdings import names as holding_names
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
    MAX_SEATS,
    N_COMP,
    NO_WINNER,
    POLICY_ERROR,
    V_RAN,
    new_work,
    play_game,
    play_hand,
)
from .rules import MAX_TARGET, R_PLAYERS

POINT_BINS = 16  # points per component per hand (a hand gives at most 4 + gift + turned knaves)
RUN_BINS = 8
HAND_BINS = 256  # hands per game; longer games land in the last bin
ROLE_NAMES = {2: ("dealer", "eldest"), 4: ("dealer's side", "eldest's side")}
A_AGREEMENT, A_HOLDINGS = 0, 1  # the job's switches, as the items get them (``args``)


def role_names(rules) -> tuple[str, str]:
    """The two sides of a hand: the dealer's and the eldest's."""
    return ROLE_NAMES[rules.players]


def side_names(rules) -> tuple[str, str]:
    """The fixed sides: each seat, or the partnerships seats 0+2 and 1+3."""
    return ("seats 0+2", "seats 1+3") if rules.partners else ("seat 0", "seat 1")


def _agreeing(job) -> list[str]:
    """The seats whose play is compared with the maxims: every seat with the option ``agreement``, else none."""
    return [f"seat {s}" for s in range(job.rules.players)] if job.option("agreement") else []


def _holdings(job) -> list[str]:
    """The rows of the holdings' counts (:mod:`sims.allfours.holdings`)."""
    return holding_names(role_names(job.rules))


def _roles(job):
    return role_names(job.rules)


def _sides(job):
    return side_names(job.rules)


AGREEMENT = tuple(f"{m} {what}" for m in MAXIMS for what in ("advised", "agreed"))  # column 2 * maxim + what

# A hand.
ROLE = Table("role", COMPONENTS, bins=POINT_BINS, who=_roles, size=2, record="{who}_{component}")
SIDE = Table("side", COMPONENTS, who=_sides, size=2)
HAND = Table("hand", EVENTS, who=("all",), record="{component}")
MAXIM = Table("maxim", AGREEMENT, who=_agreeing, size=MAX_SEATS, totals="count")
HOLDING = Table("holding", HOLDING_COUNTS, who=_holdings, size=2 * HOLDING_BINS, totals="count")
RUNS = Table("hand", ("runs",), who=("all",), totals=None, bins=RUN_BINS)
DEAL = Table("deal", ("dealer", "trump"), who=("all",), totals=None, record="{component}")
DEALS = Tally("deal", (ROLE, SIDE, HAND, MAXIM, RUNS, DEAL), record_order=(DEAL, HAND, ROLE))
# With the option ``holdings``: its 48 rows after the others (an item zeroes every row of its tally).
HOLDING_DEALS = Tally("deal", DEALS.tables + (HOLDING,), record_order=DEALS.record_order)

# A game: its record (play.G_* in order) gives the hands played, the n of the per-hand tables.
GAME = Table(
    "game", ("first_dealer", "winner", "hands", "score_0", "score_1"), who=("all",), totals=None, record="{component}"
)
WINS = Table("side", ("wins",), who=_sides, size=2, totals="count")
GAME_SIDE = Table("side", COMPONENTS, who=_sides, size=2)
FIRST_WINS = Table("first dealer", ("wins",), who=("first dealer",), totals="count")
UNFINISHED = Table("game", ("unfinished",), who=("all",), totals="count")
LENGTH = Table("game", ("hands",), who=("all",), bins=HAND_BINS)
GAME_HAND = Table("hand", EVENTS, who=("all",), n=(GAME, "hands"))
GAME_MAXIM = Table("maxim", AGREEMENT, who=_agreeing, size=MAX_SEATS, totals="count", n=(GAME, "hands"))
LOSER = Table("game", ("loser score",), who=("all",), totals=None, bins=MAX_TARGET)
GAMES = Tally("game", (WINS, GAME_SIDE, FIRST_WINS, UNFINISHED, LENGTH, GAME_HAND, GAME_MAXIM, LOSER, GAME))

# The first row of each table in ``out``.
O_ROLE, O_SIDE, O_HAND, O_MAXIM, O_RUNS, O_DEAL, O_HOLDING = (HOLDING_DEALS.row(t) for t in HOLDING_DEALS.tables)
O_WINS, O_GAME_SIDE, O_FIRST, O_UNFINISHED, O_LENGTH, O_GAME_HAND, O_GAME_MAXIM, O_LOSER, O_GAME = (
    GAMES.row(t) for t in GAMES.tables
)
AT_DEAL = DEAL.at

HANDS = types.UniTuple(HandFn, MAX_SEATS)
PLAYS = types.UniTuple(PlayFn, MAX_SEATS)
POLICIES = types.Tuple((HANDS, HANDS, PLAYS, HANDS))  # beg, answer, play, discard: a hand's ``policies``


@njit(cache=True)
def _seed(keys, c, i, players, deck_rng, seat_rngs):
    """The streams of item ``i`` of chunk ``c`` as the core's loop seeds them (for the benchmarks' hand profile,
    which replays the engine's hands, and the runs :mod:`sims.allfours.sweep` plays together)."""
    seed_state(deck_rng, keys[c, 0], i)
    for s in range(players):
        seed_state(seat_rngs[s], keys[c, 1 + s], i)


@njit(cache=True)
def new_item_work(rules):
    """A chunk's scratch, reused item after item: the hand's (:func:`play.new_work`), the scores, a game's
    hand's points by side role, the maxims' tally by seat (and an empty one, without the option ``agreement``)
    and the game record."""
    return (
        new_work(rules),
        np.zeros(2, dtype=np.int64),
        np.zeros((2, N_COMP), dtype=np.int64),
        np.zeros((MAX_SEATS, N_MAXIMS, 2), dtype=np.int64),
        np.zeros((0, N_MAXIMS, 2), dtype=np.int64),
        np.zeros(G_COLS, dtype=np.int64),
    )


@njit(inline="always")
def _maxims(args, agreed, unasked):
    """The maxims' tally the play counts into (zeroed), or none without the option ``agreement``."""
    if args[A_AGREEMENT]:
        agreed[:, :, :] = 0
        return agreed
    return unasked


@njit(inline="always")
def _copy_agreement(out, row, agreed, players):
    """Each seat's maxims' tally into ``out[row + seat, 2 * maxim + what]``."""
    for s in range(players):
        for k in range(2 * N_MAXIMS):
            out[row + s, k] = agreed[s, k // 2, k % 2]


@njit(cache=True, refcounts=False)
def deal_item(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """Hand ``item``, dealt by seat ``item % players``: each role's and side's points, the events, the dealer and
    the trump; the maxims' tally and the holdings when the job asks.  Compiled without reference counting (as
    the hand is): nothing here allocates."""
    hand, scores, _, agreed, unasked, _ = work
    players = rules[R_PLAYERS]
    dealer = item % players
    scores[:] = 0
    comp = out[O_ROLE : O_ROLE + 2]  # the hand's points by side role and its events go straight into out
    events = out[O_HAND]
    maxims = _maxims(args, agreed, unasked)
    seats = (seat_rngs, policies, params, poff)
    if (
        play_hand(rules, dealer, (scores, comp, False), (hand[0], True, deck_rng), seats, events, err, hand, maxims)
        == POLICY_ERROR
    ):
        return POLICY_ERROR
    deal_values(rules, args, dealer, hand, agreed, out)
    return 0


@njit(cache=True, inline="always")
def deal_values(rules, args, dealer, hand, agreed, out):
    """What :func:`deal_item` adds to ``out`` after the hand (the roles' points and the events are there): each
    side's points, the runs, the dealer and the trump, the maxims' tally and the holdings when the job asks;
    ``hand`` the hand's scratch (:func:`play.new_work`)."""
    players = rules[R_PLAYERS]
    comp = out[O_ROLE : O_ROLE + 2]
    trump = hand[3][S_TRUMP]
    for r in range(2):
        side = (dealer + r) & 1  # ((dealer + r) % players) % 2: players is even
        for k in range(N_COMP):
            out[O_SIDE + side, k] = comp[r, k]
    out[O_RUNS, 0] = out[O_HAND, V_RAN]
    out[O_DEAL, AT_DEAL.dealer] = dealer
    out[O_DEAL, AT_DEAL.trump] = trump
    if args[A_AGREEMENT]:
        _copy_agreement(out, O_MAXIM, agreed, players)
    if args[A_HOLDINGS]:
        tally_holding(hand[4], trump, players, comp, out, O_HOLDING)


@njit(cache=True, refcounts=False)
def game_item(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """Game ``item`` from the cut for deal to the target (or the hand cap: unfinished, no winner): the winner,
    the first dealer's win, the hands, the loser's score, each side's points and the events over the game, the
    maxims' tally when the job asks, the game record.  Compiled without reference counting."""
    hand, _, comp, agreed, unasked, row = work
    side_comp = out[O_GAME_SIDE : O_GAME_SIDE + 2]  # the game's points by side and its events go straight into out
    events = out[O_GAME_HAND]
    maxims = _maxims(args, agreed, unasked)
    seats = (seat_rngs, policies, params, poff)
    winner = play_game(rules, deck_rng, seats, comp, side_comp, events, err, hand, maxims, row)
    if winner == POLICY_ERROR:
        return POLICY_ERROR
    if winner == NO_WINNER:  # the hand cap: left out of the rates
        out[O_UNFINISHED, 0] = 1
        out[O_LOSER, 0] = ABSENT
    else:
        out[O_WINS + winner, 0] = 1
        out[O_FIRST, 0] = winner == row[G_FIRST_DEALER] % 2
        out[O_LOSER, 0] = row[G_SCORE + 1 - winner]
    out[O_LENGTH, 0] = min(row[G_HANDS], HAND_BINS - 1)
    if args[A_AGREEMENT]:
        _copy_agreement(out, O_GAME_MAXIM, agreed, rules[R_PLAYERS])
    for k in range(G_COLS):
        out[O_GAME, k] = row[k]
    return 0


POLICY_TYPES = list(POLICIES.types)  # as the core's item loop takes them
DEAL_LOOP = item_loop(deal_item, POLICY_TYPES, new_item_work)
GAME_LOOP = item_loop(game_item, POLICY_TYPES, new_item_work)


def play_chunks(job: Job, keys: np.ndarray, first_item: int, n_items: int, err: np.ndarray):
    """Items first_item .. first_item + n_items - 1 of ``job`` in one parallel kernel call: a
    :class:`sims.core.batch.Batch`."""
    if job.kind == "games":
        loop, tally = GAME_LOOP, GAMES
    else:
        loop, tally = DEAL_LOOP, HOLDING_DEALS if job.option("holdings") else DEALS
    args = (bool(job.option("agreement")), bool(job.option("holdings")))
    return play_items(job, keys, first_item, n_items, err, loop, tally, args)


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
