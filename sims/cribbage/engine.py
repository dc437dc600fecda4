"""Cribbage's engine for the core: a deal and a whole game as items of the core's loop, and what each adds up.

``play_chunks`` is what :func:`sims.core.chunks.run_chunks` calls.  Deal ``g`` is dealt by seat ``g % players``;
the core's loop (:func:`sims.core.driver.item_loop`) seeds every item's deck stream and each seat's stream from
(chunk key, item), so the numbers do not depend on threads or workers.  An item writes its values into
``out[row, column]`` as the tallies below declare them (:mod:`sims.core.layout`), and the core adds them up and
makes the frames.  Games keep memory flat: wins by side and by place from the first dealer, game lengths and the
losers' final scores; one row per game (and the score after every deal) only when asked for.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.driver import item_loop, play_items
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1
from ..core.layout import ABSENT, Table, Tally, add_part
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
    after,
    describe_illegal,
    new_work,
    play_deal,
    play_game,
)
from .rules import R_ACTIVE, R_PARTNERS, R_PLAYERS

HIST_BINS = 64  # points 0..63 per component per deal; larger values land in the last bin
DEAL_BINS = 256  # game lengths 0..255 deals; longer games land in the last bin
LOG_DEALS = 64  # deals logged per game when a score log is asked for

DISCARDS = types.UniTuple(DiscardFn, MAX_SEATS)
PEGS = types.UniTuple(PegFn, MAX_SEATS)
# The players as a job gives them to a kernel (:meth:`sims.core.jobs.Job.kernel_policies`): the policies (each
# seat's discard, each seat's peg), their parameters and where each seat's start (``poff``).
PLAYERS = types.Tuple((types.Tuple((DISCARDS, PEGS)), F64_1, I64_1))


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


# What a deal adds up: the points of each role and of each seat by component (a seat sitting out has none), a
# histogram of each role's; its record is the dealer and the roles' points (int16).
DEALER = Table("deal", ("dealer",), who=("all",), totals=None, record="{component}")
ROLE = Table(
    "role",
    COMPONENTS,
    bins=HIST_BINS,
    who=lambda job: role_names(job.rules),
    size=MAX_SEATS,
    record="{who}_{component}",
    dtype="int16",
)
SEAT = Table("seat", COMPONENTS, size=MAX_SEATS)
DEALS = Tally("deal", (DEALER, ROLE, SEAT))
DEALER_ROW, ROLE_ROW, SEAT_ROW = (DEALS.row(t) for t in DEALS.tables)

# What a game adds up: wins by side, by place from the first dealer (not with partners) and of the first dealer's
# side; its length in deals and whether it ended; each losing side's final score.  Its record: the first dealer,
# the winning side, the deals, each side's final score and points in the first deal, the first dealer's side; its
# log (the option score_log): the dealer and the sides' scores after each of its first LOG_DEALS deals.
SIDES = {"who": lambda job: side_names(job.rules), "size": MAX_SEATS}
OUTCOME = Table("game", ("first_dealer", "winner"), who=("all",), totals=None, record="{component}")
SIDE = Table("side", ("wins",), **SIDES, totals="count")
PLACE = Table(
    "place",
    ("wins",),
    who=lambda job: None if job.rules.partners else place_names(job.rules),
    size=MAX_SEATS,
    totals="count",
)
FIRST = Table("first_dealer", ("wins",), who=("first dealer's side",), totals="count")
LENGTH = Table("game", ("deals",), bins=DEAL_BINS, who=("all",), record="{component}")
UNFINISHED = Table("game", ("unfinished",), who=("all",), totals="count")
SCORE = Table("score", ("score",), **SIDES, totals=None, record="score_{i}")
FIRST_DEAL = Table("first_deal", ("points",), **SIDES, totals=None, record="first_deal_{i}")
FIRST_SIDE = Table("first_dealer_side", ("side",), who=("all",), totals=None, record="first_dealer_side")
LOSER = Table(
    "loser",
    ("score",),
    bins=lambda job: job.rules.target,
    who=lambda job: ("all",) * job.rules.sides,
    size=MAX_SEATS,
    totals=None,
)
LOG_DEALER = Table("log", ("dealer",), who=("all",), totals=None, record="{component}")
LOG_SCORE = Table("log_score", ("score",), **SIDES, totals=None, record="score_{i}")
GAMES = Tally(
    "game",
    (OUTCOME, SIDE, PLACE, FIRST, LENGTH, UNFINISHED, SCORE, FIRST_DEAL, FIRST_SIDE, LOSER, LOG_DEALER, LOG_SCORE),
    parts=(LOG_DEALER, LOG_SCORE),
    log=("score_log", "deal", LOG_DEALS),
)
OUTCOME_ROW, SIDE_ROW, PLACE_ROW, FIRST_ROW, LENGTH_ROW, UNFINISHED_ROW = (GAMES.row(t) for t in GAMES.tables[:6])
SCORE_ROW, FIRST_DEAL_ROW, FIRST_SIDE_ROW, LOSER_ROW, LOG_ROW, LOG_SCORE_ROW = (GAMES.row(t) for t in GAMES.tables[6:])


@njit(cache=True)
def item_work(rules):
    """A chunk's buffers: :func:`~sims.cribbage.play.new_work`, the scores by side, the points by role, a game's
    record row and its score log."""
    return (
        new_work(rules),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_SEATS, N_COMP), dtype=np.int64),
        np.zeros(G_COLS, dtype=np.int64),
        np.zeros((LOG_DEALS, 1 + MAX_SEATS), dtype=np.int16),
    )


@njit(inline="always")
def one_deal(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """Deal ``item`` on its own, dealt by seat ``item % players``, no score yet and no target: each role's and
    each seat's points by component."""
    players = rules[R_PLAYERS]
    dealer = item % players
    scores = work[1]
    scores[:] = 0
    roles = out[ROLE_ROW : ROLE_ROW + MAX_SEATS]
    if (
        play_deal(rules, dealer, scores, False, deck_rng, seat_rngs, policies, params, poff, roles, err, work[0])
        == POLICY_ERROR
    ):
        return -1
    out[DEALER_ROW, 0] = dealer
    for s in range(players):
        r = after(s, players - dealer, players)  # the seat's role; none (ABSENT) when it sits out the deal
        for k in range(N_COMP):
            out[SEAT_ROW + s, k] = roles[r, k] if r < rules[R_ACTIVE] else ABSENT
    return 0


@njit(inline="always")
def one_game(rules, args, item, deck_rng, seat_rngs, policies, params, poff, out, tally, work, err):
    """A whole game (:func:`~sims.cribbage.play.play_game`): its outcome, record and, when ``args[0]``, the score
    after each of its first LOG_DEALS deals."""
    players, partners = rules[R_PLAYERS], rules[R_PARTNERS] != 0
    _, scores, comp, row, log = work
    kept = log if args[0] else log[:0]
    winner = play_game(rules, deck_rng, seat_rngs, policies, params, poff, scores, comp, err, work[0], row, kept)
    if winner == POLICY_ERROR:
        return -1
    sides = 2 if partners else players
    first, deals = row[G_FIRST_DEALER], row[G_DEALS]
    out[OUTCOME_ROW, 0], out[OUTCOME_ROW, 1] = first, row[G_WINNER]
    out[LENGTH_ROW, 0] = deals
    out[FIRST_SIDE_ROW, 0] = first % 2 if partners else first
    for s in range(sides):
        out[SCORE_ROW + s, 0] = row[G_SCORE + s]
        out[FIRST_DEAL_ROW + s, 0] = row[G_FIRST_DEAL + s]
        out[LOSER_ROW + s, 0] = row[G_SCORE + s] if s != winner and winner != NO_WINNER else ABSENT
    if winner == NO_WINNER:
        out[UNFINISHED_ROW, 0] = 1
    else:
        out[SIDE_ROW + winner, 0] = 1
        out[FIRST_ROW, 0] = 1 if winner == out[FIRST_SIDE_ROW, 0] else 0
        if not partners:
            out[PLACE_ROW + (winner - first) % players, 0] = 1
    for d in range(min(deals, kept.shape[0])):
        out[LOG_ROW, 0] = kept[d, 0]
        for s in range(sides):
            out[LOG_SCORE_ROW + s, 0] = kept[d, 1 + s]
        add_part(tally, out)
    return 0


DEAL_LOOP = item_loop(one_deal, [DISCARDS, PEGS], item_work)
GAME_LOOP = item_loop(one_game, [DISCARDS, PEGS], item_work)


def play_chunks(job, keys, first_item, n_items, err):
    """Items first_item .. first_item + n_items - 1 of ``job`` in one parallel kernel call."""
    if job.kind == "deals":
        return play_items(job, keys, first_item, n_items, err, DEAL_LOOP, DEALS)
    return play_items(job, keys, first_item, n_items, err, GAME_LOOP, GAMES, (job.option("score_log"),))


def describe_error(job, row) -> str:
    """An illegal discard or card, with the cards the policy held."""
    return describe_illegal(job.rules, row)
