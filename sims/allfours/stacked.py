"""One hand from a stacked deck: the njit hand kernel dealing the cards as they lie (rule-book replays).

>>> from sims.allfours.stacked import play_stacked, stacked_deck
>>> deck = stacked_deck(["2C 3C 4C 5C 6C 7C", "JH 8C 9C 2D 3D 4D"], ["5H"])
>>> hand = play_stacked("two-hand", 0, deck, {"beg": "stand", "play": "greedy"})
>>> hand.points["eldest"]["high"], hand.points["eldest"]["low"], hand.points["eldest"]["jack"]
(1, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import types

from ..cards import parse_cards
from ..core.arrays import copy_into, copy_rows
from ..core.errors import job_policies, new_err, raise_policy_error, raised_by_policy
from ..core.jobs import Job
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, I64_2, U64_1
from ..core.rng import chunk_keys, seed_state
from ..core.streams import seat_streams
from .contract import P_CARD, P_ROLE, S_N_PLAYED, S_RUNS, S_SIZE, S_TRUMP, S_TURNED
from .engine import MAX_SEATS, POLICIES, describe_error, role_names
from .maxims import N_MAXIMS
from .play import COMPONENTS, DECK_OUT, EVENTS, N_COMP, N_EVENTS, NO_WINNER, POLICY_ERROR, new_work, play_hand
from .rules import HAND, PACK, PACKET, get_rules


def stacked_deck(hands, turned, then=()) -> list[int]:
    """The pack that deals ``hands`` (by role: the dealer first, then to his left; each 6 + 3k cards for
    k runs) and turns up ``turned`` (the first card turned, then one per run), in the order of RULES.md:
    three to the eldest, three to the next, ..., the dealer last, again, the turn, then three each and a
    turn for each run.  The pack is completed with the other cards in id order; ``then`` are further
    packs of 52, one for each new deal."""
    hands = [parse_cards(h) for h in hands]
    turned = parse_cards(turned)
    n = len(hands)
    runs = len(turned) - 1
    if any(len(h) != HAND + PACKET * runs for h in hands):
        raise ValueError(f"with {len(turned)} card(s) turned each hand must hold {HAND + PACKET * runs} cards")
    order = [(t + 1) % n for t in range(n)]
    top = [c for k in range(0, HAND, PACKET) for r in order for c in hands[r][k : k + PACKET]]
    top.append(turned[0])
    for k in range(runs):
        top += [c for r in order for c in hands[r][HAND + PACKET * k : HAND + PACKET * (k + 1)]]
        top.append(turned[k + 1])
    if len(set(top)) != len(top):
        raise ValueError("a card is dealt twice")
    deck = top + [c for c in range(PACK) if c not in top]
    for pack in then:
        pack = parse_cards(pack)
        if sorted(pack) != list(range(PACK)):
            raise ValueError("each further pack must hold the 52 cards once")
        deck += pack
    return deck


SCORE = types.Tuple((I64_1, I64_2, types.boolean))  # the scores by side, the points by side role, check_target


@njit(
    types.int64(I64_1, types.int64, SCORE, I64_1, U64_1, POLICIES, F64_1, I64_1, I64_1, I64_1, I64_2, I64_1),
    cache=True,
)
def _stacked_hand(rules, dealer, score, deck, keys, policies, params, poff, events, err, played, state):
    """:func:`~sims.allfours.play.play_hand` from ``deck`` as it lies (``score`` as it takes it), the seats'
    streams keyed by ``keys``; the cards played into ``played`` and the hand's state into ``state``."""
    work = new_work(rules)
    seat_rngs = seat_streams(MAX_SEATS)
    for s in range(MAX_SEATS):
        seed_state(seat_rngs[s], keys[1 + s], 0)
    result = play_hand(
        rules,
        dealer,
        score,
        (deck, False, np.zeros(4, dtype=np.uint64)),
        (seat_rngs, policies, params, poff),
        events,
        err,
        work,
        np.zeros((0, N_MAXIMS, 2), dtype=np.int64),
    )
    copy_rows(played, work[2])
    copy_into(state, work[3])
    return result


@dataclass
class StackedHand:
    """A hand played from a stacked deck: points by side (``points[role name][component]``), events,
    the scores after it, the winner (a side, or None), the trump suit, the card(s) turned and the play
    (``tricks``: the cards in order as ``(role, card)``)."""

    points: dict
    events: dict
    scores: list
    winner: int | None
    trump: int
    turned: int
    runs: int
    tricks: list


def play_stacked(rules, dealer, deck, policies=None, scores=(0, 0), check_target=False, seed=0) -> StackedHand:
    """Play one hand of ``rules`` dealt by seat ``dealer`` from ``deck`` (:func:`stacked_deck`).

    ``policies`` as for a simulation; seat policy streams are those of item 0 of ``seed``.
    """
    rules = get_rules(rules)
    job = Job.make("allfours", "deals", rules, policies, 1, seed)
    fns, params, poff = job.kernel_policies()
    deck = np.asarray(deck, dtype=np.int64)
    if deck.size < PACK or deck.size % PACK:
        raise ValueError(f"a stacked deck holds one or more packs of {PACK} cards, got {deck.size}")
    keys = chunk_keys(seed, 0, 1, job.game.n_streams)[0]
    scores = np.asarray(scores, dtype=np.int64).copy()
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    events = np.zeros(N_EVENTS, dtype=np.int64)
    err = new_err(1)
    played = np.full((2, rules.players * rules.hand_max), -1, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    with raised_by_policy(job_policies(job), f"a stacked hand, seed {seed}"):
        result = _stacked_hand(
            rules.to_kernel(),
            int(dealer) % rules.players,
            (scores, comp, bool(check_target)),
            deck,
            keys,
            tuple(fns),
            params,
            poff,
            events,
            err[0],
            played,
            state,
        )
    if result == POLICY_ERROR:
        raise_policy_error(job, err, describe_error)
    if result == DECK_OUT:
        raise ValueError("the stacked deck ran out: a new deal needs another pack (stacked_deck(..., then=...))")
    names = role_names(rules)
    return StackedHand(
        points={names[r]: dict(zip(COMPONENTS, map(int, comp[r]))) for r in range(2)},
        events=dict(zip(EVENTS, map(int, events))),
        scores=[int(s) for s in scores],
        winner=None if result == NO_WINNER else int(result),
        trump=int(state[S_TRUMP]),
        turned=int(state[S_TURNED]),
        runs=int(state[S_RUNS]),
        tricks=[(int(played[P_ROLE, k]), int(played[P_CARD, k])) for k in range(state[S_N_PLAYED])],
    )
