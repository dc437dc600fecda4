"""The advisor makes the kernel's decisions, bit for bit: pegging (issue 19, item 1) and the discard (item 3).

Whole six-card games are played by the reference engine, which replays the
kernel's games from the same streams (checked here game by game against
``play_games``), with every built-in pegging policy called as the njit function
the kernel calls and each call recorded: the arrays it saw, its stream before
the call and the card it laid.  Each recorded decision is then rebuilt from the
public facts only -- the cards held and laid (readable), the starter, the throw,
the score, the player's place -- as a :class:`PegSituation`, whose ``to_state``
must give the very arrays the policy saw, and :class:`Player` with a copy of
the stream must lay the same card.  The same for every throw to the crib, as a
:class:`DiscardSituation` (the cards dealt, the place, the score).  Games (not
single deals) so that the position-aware policies meet the scores of their zone.  The runs share the
deals the issue asks of the game (at least MIN_DEALS): each replays its share, DEALS_PER_RUN.
"""

import numpy as np
import pytest

from sims.cards import format_card, format_cards
from sims.cribbage import play_games
from sims.cribbage import reference as ref
from sims.cribbage.advice import Player
from sims.cribbage.contract import S_N_PLAYED
from sims.cribbage.game import GAME
from sims.cribbage.policies import POLICIES, resolve
from sims.cribbage.situation import from_engine
from tests.recording import check_answers

RULES = "six-card"
MIN_DEALS = 1_000  # replayed deals of the game, over the runs
N_GAMES = 25  # a run's; six-card games last 8 to 9 deals
# Two policies a run, one a seat, so every policy plays in DEALS_PER_RUN deals or more.
PAIRS = [
    ("random", "greedy"),
    ("defensive", "defensive_no_close"),
    ("rollout", "distilled"),
    ("distilled_end", "position"),
    ("position_distilled", "random"),
    ("weighted_distilled", "greedy"),
]
DISCARD_PAIRS = [
    ("random", "greedy"),
    ("expected_hand", "expected_net"),
    ("expected_peg", "exact_net"),
    ("hoyle", "hoyle_hand"),
    ("position", "position_distilled"),
    ("weighted_peg", "random"),
]
RUNS = list(zip(DISCARD_PAIRS, PAIRS))
DEALS_PER_RUN = -(-MIN_DEALS // len(RUNS))


def test_pairs_cover_every_builtin():
    assert len(RUNS) * DEALS_PER_RUN >= MIN_DEALS
    assert {p for pair in PAIRS for p in pair} == set(POLICIES["peg"])
    assert {p for pair in DISCARD_PAIRS for p in pair} == set(POLICIES["discard"])


def _peg_recorder(fn, log, name):
    def recorded(hand, played, state, rules, rng, params):
        before = rng.copy()
        i = fn(hand, played, state, rules, rng, params)
        log.append((name, hand.copy(), played[: state[S_N_PLAYED]].copy(), state.copy(), before, int(hand[i])))
        return i

    return recorded


def _discard_recorder(fn, log, name):
    def recorded(hand, state, rules, rng, params):
        before = rng.copy()
        mask = fn(hand, state, rules, rng, params)
        log.append((name, hand.copy(), state.copy(), before, [int(c) for i, c in enumerate(hand) if (mask >> i) & 1]))
        return mask

    return recorded


def _games(n_games, discards, pegs, seed):
    """Reference games with a discard and a pegging policy a seat, with every decision recorded."""
    rules = ref.get_rules(RULES)
    policies = {
        "discard": [resolve("discard", name) for name in discards],
        "peg": [resolve("peg", name) for name in pegs],
    }
    logs = {"discard": [], "peg": []}
    seats = tuple(
        [ref.SeatPolicy(p.name, recorder(p.fn, logs[kind], p.name), p.params_array()) for p in policies[kind]]
        for kind, recorder in (("discard", _discard_recorder), ("peg", _peg_recorder))
    )
    size = GAME.chunk_size["games"]
    keys = ref.chunk_keys(seed, 0, -(-n_games // size), GAME.n_streams)
    games = [ref.play_game(rules, *ref.streams(keys[g // size], g % size), seats) for g in range(n_games)]
    # The reference plays the kernel's games.
    fast = play_games(RULES, {"discard": list(discards), "peg": list(pegs)}, n_games, seed, records=True).games
    for g, game in enumerate(games):
        assert {k: int(fast.iloc[g][k]) for k in game.record()} == game.record(), f"game {g}"
    return games, logs, policies


@pytest.mark.parametrize("discards, pair", RUNS, ids=["+".join(d + p) for d, p in RUNS])
def test_every_decision_replays(discards, pair):
    games, logs, policies = _games(N_GAMES, discards, pair, seed=19)
    rules = ref.get_rules(RULES)
    throwers = {p.name: Player(p, decision="discard") for p in policies["discard"]}
    thrown = {name: 0 for name in discards}
    for name, hand, state, rng, cards in logs["discard"]:
        situation = from_engine("discard", hand, None, state, rules)
        arrays = situation.to_state()
        assert np.array_equal(arrays.state, state) and np.array_equal(arrays.hand, hand), name
        expected = format_cards(cards)
        assert throwers[name].choose(situation, rng=rng.copy()) == expected, f"{name}: {hand}"
        mask = sum(1 << i for i, c in enumerate(hand) if c in cards)
        assert situation.answer(expected) == mask and situation.choice_of(mask) == expected
        thrown[name] += 1
    assert all(n >= DEALS_PER_RUN for n in thrown.values()), thrown  # one throw a seat a deal

    players = {p.name: Player(p) for p in policies["peg"]}
    decisions = iter(logs["peg"])
    checked = {name: 0 for name in pair}
    for game in games:
        for deal in game.deals:
            for _ in deal.laid:
                name, hand, played, state, rng, card = next(decisions)
                laid_by = [r for r, _, _ in deal.laid[: len(played)]]
                situation = from_engine("peg", hand, played, state, rules, laid_by=laid_by)
                arrays = situation.to_state()
                where = f"{name}: {format_cards(played)} | {format_cards(c for c in hand if c >= 0)}"
                assert np.array_equal(arrays.state, state), where
                assert np.array_equal(arrays.played[: len(played)], played), where
                assert arrays.hand[arrays.hand >= 0].tolist() == [int(c) for c in hand if c >= 0], where
                assert players[name].choose(situation, rng=rng.copy()) == format_card(card), where
                check_answers(situation, hand, list(hand).index(card), format_card(card))
                checked[name] += 1
    assert next(decisions, None) is None
    deals = sum(len(g.deals) for g in games)
    assert deals >= DEALS_PER_RUN
    assert all(n >= 3 * DEALS_PER_RUN for n in checked.values()), checked
    print(f"{'+'.join(discards + pair)}: {deals} deals, throws {thrown}, cards {checked}")
