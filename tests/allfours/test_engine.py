"""The All Fours engine through the core: the Game record, sentinels, exact probabilities, the same
numbers on any number of threads and chunks, common random numbers, results, and bad input.

A *sentinel* policy checks at every decision that what the engine shows it is consistent (its
cards, the cards played and by whom, the trick, the suit led, the trump and the card turned, the
cards held) and answers illegally, stopping the run with a PolicyError, the moment it is not.
"""

import math

import numpy as np
import pytest

from sims.allfours import PRESETS, play_games, simulate_deals
from sims.allfours.contract import (
    EMPTY_PARAMS,
    HAND_SIG,
    P_CARD,
    P_ROLE,
    PLAY_SIG,
    S_DISCARDED,
    S_HELD,
    S_LEAD_SUIT,
    S_N_PLAYED,
    S_PLAYERS,
    S_ROLE,
    S_SIZE,
    S_TRICK_START,
    S_TRUMP,
    S_TURNED,
    S_TURNED_MASK,
    legal_mask,
)
from sims.allfours.engine import role_names
from sims.allfours.game import GAME
from sims.allfours.play import COMPONENTS, D_ANSWER, D_BEG, D_DISCARD, D_PLAY
from sims.allfours.rules import R_MAY_TRUMP
from sims.core.errors import PolicyError
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.registry import get_game
from sims.core.rng import randint


def comb(n, k):
    return math.comb(n, k)


# -- the Game record ------------------------------------------------------------------------------


def test_the_registry_lists_all_fours_with_its_decisions_in_kernel_order():
    assert get_game("allfours") is GAME
    assert [d.name for d in GAME.decisions][D_BEG] == "beg"
    assert [d.name for d in GAME.decisions][D_ANSWER] == "answer"
    assert [d.name for d in GAME.decisions][D_PLAY] == "play"
    assert [d.name for d in GAME.decisions][D_DISCARD] == "discard"
    assert set(GAME.presets) == {"two-hand", "four-hand", "seven-up"}


# -- sentinels ------------------------------------------------------------------------------------


@njit(cache=True)
def _consistent(hand, played, state):
    n, n_played, start = state[S_PLAYERS], state[S_N_PLAYED], state[S_TRICK_START]
    ok = state[S_TRUMP] == state[S_TURNED] & 3 and (state[S_TURNED_MASK] >> state[S_TURNED]) & 1 == 1
    ok = ok and start == n_played - n_played % n
    seen = state[S_TURNED_MASK] | state[S_DISCARDED]
    mine = 0
    for k in range(n_played):
        c = played[P_CARD, k]
        ok = ok and 0 <= c < 52 and not (seen >> c) & 1
        seen |= np.int64(1) << c
        if k % n != 0:
            ok = ok and played[P_ROLE, k] == (played[P_ROLE, k - 1] + 1) % n
        mine += played[P_ROLE, k] == state[S_ROLE]
    held = 0
    for c in hand:
        if c >= 0:
            ok = ok and not (seen >> c) & 1
            seen |= np.int64(1) << c
            held += 1
    ok = ok and held == state[S_HELD] - mine
    if n_played > start:
        ok = ok and state[S_LEAD_SUIT] == played[P_CARD, start] & 3
        ok = ok and state[S_ROLE] == (played[P_ROLE, start] + n_played - start) % n
    else:
        ok = ok and state[S_LEAD_SUIT] == -1
    return ok


@njit(PLAY_SIG, cache=True)  # called from Python too: one signature serves both
def sentinel_play(hand, played, state, rules, rng, params):
    """A random legal card, unless what the engine shows is inconsistent: then -1."""
    if not _consistent(hand, played, state):
        return -1
    legal = legal_mask(hand, state[S_LEAD_SUIT], state[S_TRUMP], rules[R_MAY_TRUMP] != 0)
    n = 0
    for i in range(hand.shape[0]):
        n += (legal >> i) & 1
    pick = randint(rng, n)
    for i in range(hand.shape[0]):
        if (legal >> i) & 1:
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def sentinel_choice(hand, state, rules, rng, params):
    """0 or 1 at random, unless the hand shown is not the cards dealt: then 2."""
    empty = np.zeros((2, 0), dtype=np.int64)
    return randint(rng, 2) if _consistent(hand, empty, state) and state[S_N_PLAYED] == 0 else 2


SENTINELS = {"beg": sentinel_choice, "answer": sentinel_choice, "play": sentinel_play}


@pytest.mark.parametrize("rules", [*PRESETS, "discard"])
def test_sentinels_see_a_consistent_state(rules):
    rules = PRESETS["two-hand"].replace(name="discard", discard_to_six=True) if rules == "discard" else rules
    simulate_deals(rules, SENTINELS, 20_000, 8)
    play_games(rules, SENTINELS, 200, 8)


def test_sentinel_can_fail():
    hand = np.array([4, 8, 12, -1], dtype=np.int64)
    played = np.full((2, 8), -1, dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_PLAYERS], state[S_HELD], state[S_TURNED], state[S_TRUMP] = 2, 3, 51, 3
    state[S_TURNED_MASK], state[S_LEAD_SUIT] = 1 << 51, -1
    rules, rng = PRESETS["two-hand"].to_kernel(), np.ones(4, dtype=np.uint64)
    assert sentinel_play(hand, played, state, rules, rng, EMPTY_PARAMS) >= 0
    for index, value in ((S_HELD, 4), (S_TRUMP, 2), (S_LEAD_SUIT, 1), (S_TURNED_MASK, 0), (S_N_PLAYED, 1)):
        bad = state.copy()
        bad[index] = value
        assert sentinel_play(hand, played, bad, rules, rng, EMPTY_PARAMS) == -1, index


# -- exact probabilities (begging off: every hand is played on the first card turned) -------------


def _check(mean, se, p, what):
    assert abs(mean - p) < 4 * se + 1e-12, f"{what}: {mean:.5f} ± {se:.5f}, exact {p:.5f}"


@pytest.mark.parametrize("preset", ["two-hand", "four-hand"])
def test_points_of_a_hand_have_their_exact_frequencies(preset):
    """With 12 (24) of the 51 cards besides the one turned in play: the turned knave 1/13; high (and
    low) whenever a trump is in play; jack when the knave of trumps is; game unless nothing counts or
    the totals tie."""
    rules = PRESETS[preset].replace(name="no begging", begging=False)
    n = 100_000
    in_play = 6 * rules.players
    table = simulate_deals(rules, {"play": "random"}, n, seed=2).table().set_index(["scope", "who", "component"])
    dealer, eldest = (("role", who) for who in role_names(rules))

    def both(component):
        a, b = table.loc[(*dealer, component)], table.loc[(*eldest, component)]
        return a["mean"] + b["mean"], math.hypot(a["se"], b["se"])  # an upper bound on the se of the sum

    _check(table.loc[(*dealer, "turned")]["mean"], table.loc[(*dealer, "turned")]["se"], 1 / 13, "turned knave")
    no_trump = comb(39, in_play) / comb(51, in_play)
    _check(*both("high"), 1 - no_trump, "high")
    _check(*both("low"), 1 - no_trump, "low")
    _check(*both("jack"), 12 / 13 * in_play / 51, "jack")


def test_nothing_to_reckon_has_its_exact_frequency():
    """No ace, king, queen, knave or ten among the 12 cards in play (20 count; one may be turned)."""
    rules = PRESETS["two-hand"].replace(name="no begging", begging=False)
    n = 200_000
    events = simulate_deals(rules, None, n, seed=3).events().set_index("event")
    p = 20 / 52 * comb(32, 12) / comb(51, 12) + 32 / 52 * comb(31, 12) / comb(51, 12)
    _check(events.loc["nothing to reckon", "mean"], events.loc["nothing to reckon", "se"], p, "nothing to reckon")


def test_every_hand_with_a_trump_in_play_scores_high_and_low():
    rows = simulate_deals(
        "two-hand",
        {"beg": "random", "answer": "random", "play": "random", "discard": "random"},
        20_000,
        seed=4,
        records=True,
    ).records
    high = rows["dealer_high"] + rows["eldest_high"]
    low = rows["dealer_low"] + rows["eldest_low"]
    assert (high == low).all() and high.max() == 1 and 0 < high.mean() < 1
    assert (rows["dealer_gift"] == 0).all() and (rows["eldest_turned"] == 0).all()
    assert (rows["eldest_gift"] == rows["gave one"]).all()
    total = sum(rows[f"{r}_{c}"] for r in ("dealer", "eldest") for c in COMPONENTS[:-1])
    assert (total == rows["dealer_total"] + rows["eldest_total"]).all()


# -- reproducibility ------------------------------------------------------------------------------


def test_same_numbers_on_one_and_two_threads_and_any_chunk_size():
    a = simulate_deals("two-hand", None, 30_000, seed=3, records=True, threads=1)
    b = simulate_deals("two-hand", None, 30_000, seed=3, records=True, threads=2)
    assert a.records.equals(b.records) and a.batch.totals.equals(b.batch.totals)
    c = play_games("four-hand", {"play": "greedy"}, 300, seed=3, records=True, threads=1)
    d = play_games("four-hand", {"play": "greedy"}, 300, seed=3, records=True, threads=2)
    assert c.games.equals(d.games) and c.summary["win_rate"] == d.summary["win_rate"]


def test_changing_one_seats_policy_never_changes_the_cards():
    """Common random numbers: the trump of every hand is the same whatever the players do."""
    a = simulate_deals("two-hand", {"play": "random", "beg": "stand"}, 5000, seed=6, records=True).records
    b = simulate_deals("two-hand", {"play": ["greedy", "maxims"], "beg": "stand"}, 5000, seed=6, records=True).records
    assert (a["trump"] == b["trump"]).all()
    assert (a["dealer_high"] == b["dealer_high"]).all() and (a["eldest_low"] == b["eldest_low"]).all()
    assert (a["dealer_game"] != b["dealer_game"]).any()


# -- games ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_games_end_at_the_target(preset):
    result = play_games(
        preset, {"play": "greedy", "beg": "threshold", "answer": "threshold"}, 500, seed=7, records=True
    )
    g, target = result.games, PRESETS[preset].target
    winner_score = np.where(g["winner"] == 0, g["score_0"], g["score_1"])
    loser_score = np.where(g["winner"] == 0, g["score_1"], g["score_0"])
    assert (winner_score == target).all() and (loser_score < target).all()  # points come one at a time
    s = result.summary
    assert s["unfinished"] == 0 and s["hands_per_game"]["mean"] == pytest.approx(g["hands"].mean())
    first_side = g["first_dealer"] % 2
    assert s["first_dealer_win"]["rate"] == pytest.approx((g["winner"] == first_side).mean())
    assert result.hands_histogram().sum() == 500 and result.loser_scores().sum() == 500
    points = result.points().set_index(["who", "component"])["mean"]
    assert sum(points[(side, "total")] for side in result.sides) == pytest.approx((g["score_0"] + g["score_1"]).mean())


# -- results --------------------------------------------------------------------------------------


def test_summaries_are_json_and_render():
    import json

    from sims.allfours.results import render

    expert = {"name": "expert", "params": [4, 100_000, 9]}
    deals = simulate_deals("two-hand", {"play": [expert, "maxims"]}, 300, seed=1, agreement=True)
    games = play_games("seven-up", None, 100, seed=1)
    for result in (deals, games):
        text = json.dumps(result.summary)
        assert "allfours" in text and render(result.summary).count("\n") > 5
    agreement = deals.agreement()
    assert set(agreement["maxim"]) == {"i knave", "ii tens", "iii best cards", "iv eldest trumps"}
    assert (agreement["agreed"] <= agreement["advised"]).all() and agreement["advised"].sum() > 0
    knave = agreement[(agreement["seat"] == "seat 1") & (agreement["maxim"] == "i knave")].iloc[0]
    assert 0 < knave["advised"] == knave["agreed"]  # the maxims policy follows maxim i first
    assert "win rate" in render(games.summary) and "first dealer" in render(games.summary)


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: simulate_deals("three-hand"), "unknown rules 'three-hand'; presets: two-hand, four-hand, seven-up"),
        (lambda: PRESETS["two-hand"].replace(tarket=7), "unknown rules field 'tarket'"),
        (lambda: PRESETS["two-hand"].replace(players=3), "players must be 2, or 4"),
        (lambda: PRESETS["two-hand"].replace(game_tie="both"), "game_tie must be one of none, eldest, dealer"),
        (lambda: PRESETS["two-hand"].replace(target=0), "target must be 1 .. 1000"),
        (lambda: simulate_deals("two-hand", {"play": "clever"}), "unknown play policy 'clever'; choose from expert"),
        (lambda: simulate_deals("two-hand", {"bid": "random"}), "unknown allfours decision 'bid'"),
        (lambda: simulate_deals("four-hand", {"play": ["random", "greedy"]}), "play: got 2 policies for 4 seats"),
        (lambda: simulate_deals("two-hand", {"play": {"name": "maxims", "params": [1, 1]}}), "takes 4 parameter"),
    ],
)
def test_bad_input_is_one_line(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as info:
        call()
    assert "\n" not in str(info.value)


@njit(HAND_SIG, cache=True)  # a constant: typed int64 only by its signature
def yes_please(hand, state, rules, rng, params):
    return 7


def test_an_illegal_beg_or_answer_is_a_policy_error():
    with pytest.raises(
        PolicyError,
        match=r"^beg policy 'yes_please' \(seat 1\) returned 7 holding .* turned up: "
        r"it must return 0 \(stand\) or 1 \(beg\) \(deal 0, seed 5\)$",
    ):
        simulate_deals("two-hand", {"beg": ["stand", yes_please]}, 100, seed=5)
    with pytest.raises(
        PolicyError,
        match=r"answer policy 'yes_please' \(seat 0\) returned 7 .* 0 \(run the cards\)"
        r" or 1 \(give one\)",
    ):
        simulate_deals("two-hand", {"beg": "beg", "answer": [yes_please, "run"]}, 100, seed=5)


def test_an_illegal_card_in_a_game_is_a_policy_error():
    with pytest.raises(PolicyError, match=r"play policy 'revoking_play'.*law iii.*\(game \d+, seed 2\)"):
        from tests.allfours.helpers import revoke

        play_games(PRESETS["two-hand"].replace(may_trump=False), {"play": revoke("2C 2D 2H 2S")}, 50, seed=2)
    with pytest.raises(
        PolicyError,
        match=r"discard policy 'empty_place' \(seat 1\) chose index \d+ holding .*"
        r"it must pick a card held",
    ):
        simulate_deals(
            PRESETS["two-hand"].replace(discard_to_six=True),
            {"discard": empty_place, "beg": "beg", "answer": "run"},
            50,
            seed=2,
        )


@njit(cache=True)
def empty_place(hand, state, rules, rng, params):
    return hand.shape[0] - 1
