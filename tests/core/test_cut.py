"""The cut for deal (:mod:`sims.core.cut`) in each game's order, checked against the rule book's words with the
ranks spelt out here: the kernel's cut and the reference's draw the same cards on every stream, every player
cuts in the first round, those tied for lowest cut again, and the one left with the lowest card deals."""

from itertools import pairwise

import numpy as np
import pytest

from sims.allfours.cards import CUT_ORDER as ALLFOURS_ORDER
from sims.cards import format_card
from sims.core.cut import cut_for_deal, reference_cut_for_deal
from sims.core.kernel import read_only  # the order as the engines pass it: their specialisation
from sims.core.rng import seed_state
from sims.cribbage.rules import CUT_ORDER as CRIBBAGE_ORDER
from sims.loo.rules import CUT_ORDER as LOO_ORDER

ACE_LOW = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
WHIST = "2 3 4 5 6 7 8 9 10 J Q K A".split()  # low to high


def rank(card) -> str:
    return format_card(card)[:-1]


# (order, seatings, the card's standing in the rule's words: the lowest deals)
GAMES = {
    # Mottoes: "The ace is lowest in cutting. In case of a tie, they cut again. The holder of the lowest card deals."
    "cribbage-mottoes": (CRIBBAGE_ORDER, (2, 3, 4), lambda card: ACE_LOW.index(rank(card))),
    # Sections 87-96 §91: the highest card deals, the cards ranking as at whist (ace high).
    "allfours-sections-87-96-91": (ALLFOURS_ORDER, (2, 4), lambda card: -WHIST.index(rank(card))),
    # Sections 87-96 §96 ii: the lowest deals, ace lowest, tens and court cards all ten.
    "loo-sections-87-96-96": (LOO_ORDER, (3, 5, 10), lambda card: min(ACE_LOW.index(rank(card)) + 1, 10)),
}


@pytest.mark.parametrize("game", GAMES)
def test_the_lowest_in_the_games_order_deals_and_ties_cut_again(game):
    order, seatings, standing = GAMES[game]
    ties = 0
    for players in seatings:
        for index in range(300):
            rng = np.empty(4, dtype=np.uint64)
            seed_state(rng, np.uint64(12345 + players), index)
            kernel_rng = rng.copy()
            rounds = []
            dealer = reference_cut_for_deal(rng, players, order, rounds)
            assert dealer == cut_for_deal(kernel_rng, players, np.empty(52, dtype=np.int64), read_only(order))
            assert np.array_equal(rng, kernel_rng)  # the same random numbers were drawn
            assert set(rounds[0]) == set(range(players))
            for before, after in pairwise(rounds):
                low = min(standing(c) for c in before.values())
                assert set(after) == {p for p, c in before.items() if standing(c) == low}
                ties += 1
            last = rounds[-1]
            assert all(standing(last[dealer]) < standing(c) for p, c in last.items() if p != dealer)
            assert len(set(last.values())) == len(last)  # cards cut in one round are distinct
    assert ties > 20
