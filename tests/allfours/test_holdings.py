"""The chance of each point by what a player holds (``sims.allfours.holdings``, the option ``holdings``): a hand
counted by hand, the exact chances the rules fix, and the closed forms of what a player is dealt."""

import math

import numpy as np
import pytest

from sims.allfours import simulate_deals
from sims.allfours.holdings import BINS, COUNTS, KNAVE_BIN, N_BINS, TOP_BIN, tally
from sims.allfours.play import C_GAME, C_HIGH, C_JACK, C_LOW, N_COMP
from sims.allfours.rules import PRESETS
from sims.cards import parse_cards

HEARTS = 2


def test_a_hand_counted_by_hand():
    """Hearts trumps; the dealer (role 0) holds JH 3H and a club, the eldest AH and a spade; the eldest's side
    scores high (AH) and game, the dealer's low (3H, the lowest trump in play) and jack."""
    holder = np.full(52, -1, dtype=np.int64)
    for c in parse_cards("JH 3H 4C"):
        holder[c] = 0
    for c in parse_cards("AH 9S"):
        holder[c] = 1
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    comp[0, C_LOW] = comp[0, C_JACK] = 1
    comp[1, C_HIGH] = comp[1, C_GAME] = 1
    out = np.zeros((3 + 2 * N_BINS, len(COUNTS)), dtype=np.int64)  # the counts from row 3, as in a deal's out
    tally(holder, HEARTS, 2, comp, out, 3)
    assert not out[:3].any()
    counts = out[3:].reshape(2, N_BINS, len(COUNTS))
    where = {(s, BINS[b]): list(counts[s, b]) for s in range(2) for b in range(N_BINS) if counts[s, b, 0]}
    assert where == {
        (0, ("trumps held", "2")): [1, 0, 1, 1, 0],
        (0, ("highest trump held", "J")): [1, 0, 1, 1, 0],
        (0, ("holds the knave", "yes")): [1, 0, 1, 1, 0],
        (1, ("trumps held", "1")): [1, 1, 0, 0, 1],
        (1, ("highest trump held", "A")): [1, 1, 0, 0, 1],
        (1, ("holds the knave", "no")): [1, 1, 0, 0, 1],
    }
    assert BINS[TOP_BIN] == ("highest trump held", "none") and BINS[KNAVE_BIN] == ("holds the knave", "no")


@pytest.fixture(scope="module")
def unbegged():
    """Hands played on the first card turned (no begging), six cards each: what a player holds is six cards
    of the 51 the turned card leaves, 12 of them trumps."""
    n = 40_000
    rules = PRESETS["two-hand"].replace(name="no begging", begging=False)
    return n, simulate_deals(rules, {"play": "random"}, n, seed=2104, holdings=True).by_holding()


def test_each_player_is_counted_once_in_each_description(unbegged):
    n, table = unbegged
    assert (table.groupby(["side", "held"])["hands"].sum() == n).all()


def test_what_the_rules_fix_holding_the_ace_no_trump_or_the_deuce(unbegged):
    """Two-handed: the ace of trumps is always high; a player with no trump never has high, low or jack for
    his side (the other holds every trump in play)."""
    _, table = unbegged
    rows = table.set_index(["held", "value"])
    for side in ("dealer", "eldest"):
        mine = rows[table.set_index(["held", "value"])["side"] == side]
        assert mine.loc[("highest trump held", "A"), "high"] == 1
        none = mine.loc[("highest trump held", "none")]
        assert none["high"] == none["low"] == none["jack"] == 0 and none["hands"] > 0


def test_trumps_held_and_the_knave_match_the_closed_forms(unbegged):
    """Six of the 51 cards the turned trump leaves, 12 of them trumps: P(k trumps) = C(12,k) C(39,6-k) / C(51,6).
    The knave of trumps is held unless it is the card turned (4 in 52): P = 48/52 * 6/51."""
    n, table = unbegged
    rows = table.set_index(["side", "held", "value"])
    for side in ("dealer", "eldest"):
        for k in range(7):
            p = math.comb(12, k) * math.comb(39, 6 - k) / math.comb(51, 6)
            got = rows.loc[(side, "trumps held", str(k)), "hands"] / n
            assert abs(got - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (side, k)
        p = 48 / 52 * 6 / 51
        got = rows.loc[(side, "holds the knave", "yes"), "hands"] / n
        assert abs(got - p) < 4 * math.sqrt(p * (1 - p) / n), side
        assert rows.loc[(side, "trumps held", "7 or more"), "hands"] == 0


def test_the_option_is_needed_and_leaves_the_other_numbers_as_they_were():
    plain = simulate_deals("two-hand", None, 3000, seed=7)
    counted = simulate_deals("two-hand", None, 3000, seed=7, holdings=True)
    assert plain.table().equals(counted.table()) and plain.events().equals(counted.events())
    assert "points_by_holding" not in plain.summary and counted.summary["points_by_holding"]
    with pytest.raises(ValueError, match="holdings"):
        plain.by_holding()
