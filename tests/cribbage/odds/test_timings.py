"""When each point of a deal falls (sims.cribbage.lab.odds.timings): the events of a deal add up to the
engine's points, and counting out from the events agrees with the engine's own counting out."""

from __future__ import annotations

import numpy as np
import pytest

from sims.cards import parse_card, parse_cards
from sims.core.jobs import Job
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.rng import chunk_keys
from sims.core.streams import seat_streams
from sims.cribbage import play
from sims.cribbage.lab.odds import timings
from sims.cribbage.lab.odds.timings import HEELS, KIND, LAID, PEGGING, POINTS, ROLE, SHOW
from sims.cribbage.rules import get_rules

EXPERT = {"discard": "expected_net", "peg": "defensive"}
TWO_HANDED = ["five-card", "six-card", "six-card-61", "eight-card"]


@njit(cache=True)
def _deals_and_replays(rules, keys, n, players, start, ev, n_ev, comps, winners, finals):
    """Deal ``g`` (dealer seat ``g % 2``) played without a target by the ``players`` (``Job.kernel_policies()``),
    its events; then the same deal from the scores ``start[g]`` (dealer's, pone's) with the target, the engine's
    winner and final scores."""
    policies, params, poff = players
    work = play.new_work(rules)
    deck_rng = np.empty(4, dtype=np.uint64)
    seat_rngs = seat_streams(play.MAX_SEATS)
    scores = np.zeros(play.MAX_SEATS, dtype=np.int64)
    err = np.zeros(32, dtype=np.int64)
    for g in range(n):
        play.seed_streams(keys, 0, g, deck_rng, seat_rngs)
        scores[:] = 0
        comp = comps[g]
        play.play_deal(rules, g % 2, scores, False, deck_rng, seat_rngs, policies, params, poff, comp, err, work)
        n_ev[g] = timings.deal_events(rules, comp, work[6], work[8][play.A_N_PLAYED], work[2], ev[g])
        play.seed_streams(keys, 0, g, deck_rng, seat_rngs)
        scores[:] = 0
        scores[g % 2], scores[1 - g % 2] = start[g, 0], start[g, 1]
        other = np.zeros_like(comp)
        winners[g] = play.play_deal(
            rules, g % 2, scores, True, deck_rng, seat_rngs, policies, params, poff, other, err, work
        )
        finals[g, 0], finals[g, 1] = scores[g % 2], scores[1 - g % 2]


def deals(preset, n, seed=0, policies=EXPERT, start=None):
    rules = get_rules(preset)
    job = Job.make("cribbage", "deals", rules, policies, n, seed)
    keys = chunk_keys(seed, 0, 1, job.game.n_streams)
    if start is None:
        start = np.zeros((n, 2), dtype=np.int64)
    ev = np.zeros((n, timings.EV_ROWS, timings.MAX_EVENTS), dtype=np.int64)
    n_ev = np.zeros(n, dtype=np.int64)
    comps = np.zeros((n, play.MAX_SEATS, play.N_COMP), dtype=np.int64)
    winners = np.zeros(n, dtype=np.int64)
    finals = np.zeros((n, 2), dtype=np.int64)
    _deals_and_replays(
        rules.to_kernel(), keys, n, job.kernel_policies(), np.ascontiguousarray(start), ev, n_ev, comps, winners, finals
    )
    return rules, ev, n_ev, comps, winners, finals


@pytest.mark.parametrize("preset", TWO_HANDED)
@pytest.mark.parametrize("policies", [EXPERT, {"discard": "random", "peg": "random"}], ids=["expert", "random"])
def test_events_add_up_to_the_engine_points(preset, policies):
    rules, ev, n_ev, comps, _, _ = deals(preset, 400, seed=2, policies=policies)
    for g in range(len(n_ev)):
        e = ev[g, :, : n_ev[g]]
        for role in (0, 1):
            mine = e[ROLE] == role
            assert e[POINTS][mine & (e[KIND] == PEGGING)].sum() == comps[g, role, play.C_PEGGING]
            assert e[POINTS][mine & (e[KIND] == HEELS)].sum() == comps[g, role, play.C_HEELS]
            assert (
                e[POINTS][mine & (e[KIND] == SHOW)].sum() == comps[g, role, play.C_HAND] + comps[g, role, play.C_CRIB]
            )
        assert (e[POINTS] > 0).all() and (np.diff(e[LAID]) >= 0).all()


def outcome(events, need_dealer, need_pone):
    """Counting out from an event list: 0 the dealer wins, 1 the pone, None nobody; and the deal's points."""
    have = [0, 0]
    for role, points in zip(events[ROLE], events[POINTS]):
        have[role] += points
        if have[0] >= need_dealer:
            return 0, have
        if have[1] >= need_pone:
            return 1, have
    return None, have


@pytest.mark.parametrize(
    "preset, most", [("five-card", 20), ("six-card", 30), ("six-card-61", 30), ("eight-card", 60), ("bath", 30)]
)
def test_counting_out_from_the_events_is_the_engines(preset, most):
    # RULES.md, order of showing: "the game ends the instant any side reaches the target, even mid-show".
    # Each deal is replayed from scores near the target; the side that the events say reaches it first
    # must be the engine's winner, and a deal that ends nobody's game must leave the same scores.
    rules = get_rules("six-card").replace(name="bath", bath_flush=True) if preset == "bath" else get_rules(preset)
    n = 1500
    rng = np.random.default_rng(5)
    start = rules.target - rng.integers(1, most, size=(n, 2))
    start = np.maximum(start, 0)
    _, ev, n_ev, _, winners, finals = deals(rules, n, seed=7, start=start)
    decided = 0
    for g in range(n):
        who, have = outcome(ev[g, :, : n_ev[g]], rules.target - start[g, 0], rules.target - start[g, 1])
        if who is None:
            assert winners[g] == play.NO_WINNER
            assert finals[g].tolist() == [start[g, 0] + have[0], start[g, 1] + have[1]]
        else:
            decided += 1
            assert winners[g] == (g + who) % 2, (g, who, winners[g])
    assert 0.2 * n < decided < 0.95 * n  # the replays test both kinds of deal


def test_order_of_the_points_in_a_stacked_deal():
    # A stacked six-card deal (the dealer's six cards, the pone's, the starter).  Both throw their last
    # two cards and lay the first card that fits.  Dealer 4D 5S 6C 10D | 2H 3H; pone 4C 5D 6H 9S | QH KH;
    # starter 7S.  The play: 4C, 4D pair 2 to the dealer; 5D, 5S pair 2 (count 18); 6H (24), 6C pair 2
    # (30); nobody can lay a card: the go, 1 to the dealer; the pone leads 9S, the dealer 10D (19): the
    # last card, 1.  Then the show in order: the pone's hand, the dealer's hand, the crib.
    rules = get_rules("six-card")
    deck = np.array(
        parse_cards("4D 5S 6C 10D 2H 3H 4C 5D 6H 9S QH KH")
        + [parse_card("7S")]
        + [c for c in range(52) if c not in parse_cards("4D 5S 6C 10D 2H 3H 4C 5D 6H 9S QH KH 7S")],
        dtype=np.int64,
    )
    events, comp = _stacked_events(rules, deck)
    roles_points = [(int(r), int(p), int(k)) for r, p, k in zip(events[ROLE], events[POINTS], events[KIND])]
    assert roles_points[:5] == [(0, 2, PEGGING), (0, 2, PEGGING), (0, 2, PEGGING), (0, 1, PEGGING), (0, 1, PEGGING)]
    assert roles_points[5:] == [
        (1, comp[1, play.C_HAND], SHOW),
        (0, comp[0, play.C_HAND], SHOW),
        (0, comp[0, play.C_CRIB], SHOW),
    ]


def _stacked_events(rules, deck):
    from sims.cribbage.contract import DISCARD_SIG, PEG_SIG, S_COUNT, is_legal_play

    @njit(DISCARD_SIG)
    def throw_last(hand, state, rules, rng, params):
        n = hand.shape[0]
        return 3 << (n - 2)

    @njit(PEG_SIG)
    def first_legal(hand, played, state, rules, rng, params):
        for i in range(hand.shape[0]):
            if is_legal_play(hand, i, state[S_COUNT]):
                return i
        return -1

    job = Job.make("cribbage", "deals", rules, {"discard": throw_last, "peg": first_legal}, 1, 0)
    fns, params, poff = job.kernel_policies()
    comp = np.zeros((play.MAX_SEATS, play.N_COMP), dtype=np.int64)
    ev = np.zeros((timings.EV_ROWS, timings.MAX_EVENTS), dtype=np.int64)
    n = _stacked(rules.to_kernel(), deck, *fns, params, poff, comp, ev)
    return ev[:, :n], comp


@njit
def _stacked(rules, deck, discard_fns, peg_fns, params, poff, comp, ev):
    work = play.new_work(rules)
    work[0][:] = deck
    scores = np.zeros(play.MAX_SEATS, dtype=np.int64)
    err = np.zeros(32, dtype=np.int64)
    seat_rngs = seat_streams(play.MAX_SEATS)
    play.play_dealt(rules, 0, scores, False, seat_rngs, (discard_fns, peg_fns), params, poff, comp, err, work)
    return timings.deal_events(rules, comp, work[6], work[8][play.A_N_PLAYED], work[2], ev)
