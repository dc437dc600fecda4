"""The Loo engine through the core: the Game record, reproducibility across threads, exact probabilities
of the declarations, results, and bad input (one line each)."""

import numpy as np
import pytest
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only

from sims.core.errors import PolicyError
from sims.core.registry import get_game
from sims.loo import PRESETS, Rules, get_rules, play_games, simulate_deals
from sims.loo.contract import DECIDE_SIG, S_LEGAL
from sims.loo.results import render

RANDOM = {"declare": "random", "exchange": "random", "card": "random"}
ALWAYS = {"declare": "always", "exchange": "keep", "card": "greedy"}


def test_the_game_record():
    game = get_game("loo")
    assert game.max_seats == 10 and game.n_streams == 11
    assert [d.name for d in game.decisions] == ["declare", "exchange", "card"]
    assert set(game.presets) == {"three-card", "three-card-unlimited", "five-card-pam", "five-card-pam-unlimited"}
    assert game.get_rules(None).name == "three-card" and game.get_rules(None).players == 5


def test_same_numbers_on_one_and_two_threads():
    a = simulate_deals("five-card-pam", RANDOM, 20_000, seed=3, threads=1)
    b = simulate_deals("five-card-pam", RANDOM, 20_000, seed=3, threads=2)
    assert a.batch.totals.equals(b.batch.totals) and a.batch.histograms.equals(b.batch.histograms)
    c = play_games("three-card", RANDOM, 200, seed=3, threads=1)
    d = play_games("three-card", RANDOM, 200, seed=3, threads=2)
    assert c.batch.totals.equals(d.batch.totals)


def _ending_rate(result, ending):
    row = result.endings().set_index("ending").loc[ending]
    return row["rate"], np.sqrt(row["rate"] * (1 - row["rate"]) / row["n"])


@pytest.mark.parametrize("players", [3, 5, 8])
def test_random_declarations_three_card_exact(players):
    """Random declarations draw uniformly from pass / play / take the miss (pass / play once the miss is
    gone): nobody stands before the dealer with chance (1/3)^(n-1); exactly one stands and the dealer gives
    up the stakes with chance sum_j (1/3)^(j-1) [(1/3)^(n-j) (1/3) + (1/3) (1/2)^(n-1-j) (1/2)]."""
    n = players
    result = simulate_deals(get_rules("three-card").replace(players=n), RANDOM, 300_000, seed=n)
    takes, se = _ending_rate(result, "dealer takes the pool")
    assert abs(takes - (1 / 3) ** (n - 1)) < 4 * se + 1e-9
    given = sum(
        (1 / 3) ** (j - 1) * ((1 / 3) ** (n - j) * (1 / 3) + (1 / 3) * (1 / 2) ** (n - 1 - j) * (1 / 2))
        for j in range(1, n)
    )
    rate, se = _ending_rate(result, "stakes given up")
    assert abs(rate - given) < 4 * se


def test_random_declarations_five_card_exact():
    """Five-card (no miss): pass or play with chance one half each."""
    n = 5
    result = simulate_deals("five-card-pam", RANDOM, 300_000, seed=1)
    takes, se = _ending_rate(result, "dealer takes the pool")
    assert abs(takes - 0.5 ** (n - 1)) < 4 * se
    rate, se = _ending_rate(result, "stakes given up")
    assert abs(rate - (n - 1) / 2**n) < 4 * se


def test_always_standing_plays_every_trick():
    """Everyone standing: every deal is played out (or swept by a flush), and each trick has one winner."""
    result = simulate_deals("three-card", ALWAYS, 50_000, seed=2)
    assert result.endings().set_index("ending").loc["played", "rate"] == 1.0
    tricks = result.table().query("outcome == 'tricks'")["mean"].sum()
    assert tricks == pytest.approx(3.0, abs=1e-12)
    rates = result.rates().set_index(["role", "rate of"])["rate"]
    assert all(rates[role, "stood"] == 1.0 for role in result.roles)


def test_five_card_flushes_with_everyone_standing():
    """With five players standing and changing nothing, a flush sweeps about one deal in 80: each hand is a
    flush with chance (C(12,5) + 3 C(13,5) + C(12,4) + 3 C(13,4)) / C(52,5) (Pam the knave of clubs)."""
    from math import comb

    p = (comb(12, 5) + 3 * comb(13, 5) + comb(12, 4) + 3 * comb(13, 4)) / comb(52, 5)
    result = simulate_deals(
        "five-card-pam", {"declare": "always", "exchange": "keep", "card": "greedy"}, 400_000, seed=4
    )
    rate, se = _ending_rate(result, "flush")
    # Five hands from one pack are nearly independent: 1 - (1 - p)^5 to within 2%.
    assert abs(rate - (1 - (1 - p) ** 5)) < 4 * se + 0.02 * rate
    swept = result.rates().query("`rate of` == 'swept'")["rate"].sum()
    assert swept == pytest.approx(rate, abs=1e-12)


def test_results_summary_and_render():
    result = simulate_deals("three-card", {"declare": "threshold"}, 20_000, seed=1)
    s = result.summary
    assert s["game"] == "loo" and s["money"]["conserved"] and set(s["roles"]) == set(result.roles)
    assert 0 < s["roles"]["eldest"]["stood"]["rate"] < 1
    text = render(s)
    assert "money conserved: yes" in text and "eldest" in text
    games = play_games("three-card", None, 100, seed=1)
    text = render(games.summary)
    assert "first dealer" in text and "money conserved: yes" in text
    assert len(games.pool_by_deal()) == get_rules("three-card").session_deals
    with pytest.raises(ValueError, match="records=True"):
        games.games  # noqa: B018 - reading the property raises


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": 2}, "players must be 3 to 10, got 2"),
        ({"players": 11}, "players must be 3 to 10, got 11"),
        ({"cards": 4}, "cards must be 3"),
        ({"stake": 4}, "stake must be a positive multiple of 3"),
        ({"single": "never"}, "single must be one of always-first, stake-all"),
        ({"pam": "hearts"}, "pam must be one of clubs, trumps"),
        ({"loo_limit": 2}, "loo_limit must be at least the stake"),
        ({"session_rounds": 0}, "session_rounds must be 1 to 100"),
        ({"unlimited": "yes"}, "unlimited must be true or false"),
        ({"nonsense": 1}, "unknown rules field 'nonsense'"),
    ],
)
def test_bad_rules_are_one_line_errors(change, message):
    with pytest.raises(ValueError, match=message) as err:
        get_rules("three-card").replace(**change)
    assert "\n" not in str(err.value)


def test_too_many_for_the_pack():
    """Eleven five-card hands and a trump need 56 cards (refused as players > 10 first); the pack check holds
    for any table the fields allow."""
    with pytest.raises(ValueError, match="players must be 3 to 10"):
        Rules("big", cards=5, stake=5, players=11)
    assert Rules("ten", cards=5, stake=5, players=10).dealt + 1 == 51


def test_unknown_presets_and_policies():
    with pytest.raises(ValueError, match="unknown rules 'four-card'; presets: three-card, three-card-unlimited"):
        simulate_deals("four-card", None, 10)
    with pytest.raises(ValueError, match="unknown declare policy 'bold'; choose from always, expert, random, thresh"):
        simulate_deals("three-card", {"declare": "bold"}, 10)
    with pytest.raises(ValueError, match="unknown loo decision 'discard'"):
        simulate_deals("three-card", {"discard": "random"}, 10)
    with pytest.raises(ValueError, match="threshold' takes 9 parameter"):
        simulate_deals("three-card", {"declare": {"name": "threshold", "params": [1.0]}}, 10)


@njit(DECIDE_SIG, cache=True)  # a constant: typed int64 only by its signature
def take_the_miss_always(hand, state, rules, rng, params):
    return 2


@njit(cache=True)
def change_everything(hand, state, rules, rng, params):
    return (1 << hand.shape[0]) - 1


@njit(cache=True)
def an_illegal_card(hand, played, state, rules, rng, params):
    legal = state[S_LEGAL]
    for i in range(hand.shape[0]):
        if hand[i] >= 0 and not (legal >> i) & 1:
            return i
    return 7


def test_illegal_answers_are_one_line_policy_errors():
    with pytest.raises(
        PolicyError,
        match=r"^declare policy 'take_the_miss_always' \(seat \d\) declared 2 as hand 2 "
        r"with .*: it must be 0 \(pass\) or 1 \(play\) \(deal \d+, seed 1\)$",
    ):
        simulate_deals("three-card", {"declare": take_the_miss_always}, 100, seed=1)
    with pytest.raises(
        PolicyError,
        match=r"^card policy 'an_illegal_card' \(seat \d\) chose index \d as .*: the laws "
        r"allow index .*\(deal \d+, seed 1\)$",
    ):
        simulate_deals("three-card", {"declare": "always", "card": an_illegal_card}, 100, seed=1)
    ten = get_rules("five-card-pam").replace(players=10)
    with pytest.raises(
        PolicyError,
        match=r"^exchange policy 'change_everything' \(seat \d\) asked to change mask 31 "
        r"as .*naming at most 1 \(the cards left in the pack\)",
    ):
        simulate_deals(ten, {"declare": "always", "exchange": change_everything}, 100, seed=1)


def test_presets_are_the_readings_of_rules_md():
    assert PRESETS["three-card"].miss and not PRESETS["five-card-pam"].miss
    assert PRESETS["three-card-unlimited"].unlimited and not PRESETS["three-card"].unlimited
    assert PRESETS["five-card-pam"].pam == "clubs" and PRESETS["five-card-pam"].pam_be_civil
    assert all(r.players == 5 and r.single == "always-first" for r in PRESETS.values())
    assert Rules.from_dict(PRESETS["five-card-pam"].to_dict()) == PRESETS["five-card-pam"]
    assert list(PRESETS["three-card"].to_kernel()[:3]) == [3, 5, 3]
