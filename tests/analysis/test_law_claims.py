"""The quantities of the law claims (sims/allfours/claims/laws.py, sims/loo/claims/laws.py) on records made by hand."""

import numpy as np
import pandas as pd
import pytest

from sims.allfours.claims import laws as af
from sims.analysis.claims.model import NOT_SUPPORTED
from sims.loo.claims import laws as lo


def hands(gave, dealer, eldest):
    return pd.DataFrame({"gave one": gave, "dealer_total": dealer, "eldest_total": eldest})


def test_give_minus_run_compares_only_the_hands_whose_answer_differs():
    """Hands 0-2 the first run gives one and the second runs the cards; hand 3 both give, hand 4 neither."""
    gives = hands([1, 1, 1, 1, 0], [0, 0, 1, 0, 2], [2, 1, 1, 1, 0])
    runs = hands([0, 0, 0, 1, 0], [3, 0, 0, 0, 2], [0, 2, 1, 1, 0])
    e = af.give_minus_run(gives, runs, least=2)
    # the dealer's net: give (-2, -1, 0) against run (3, -2, -1): differences -5, 1, 1
    assert e.n == 3 and e.estimate == pytest.approx(-1.0)
    assert af.give_minus_run(gives, runs) is None  # fewer than MIN_HANDS


def test_answer_by_strength_pairs_neighbouring_thresholds():
    """Thresholds 0, 1 and 13: strength 0 between the first two, '1 or more' between the last two."""
    n = 2 * af.MIN_HANDS
    strength = np.array([0] * af.MIN_HANDS + [3] * af.MIN_HANDS)
    runs = {t: hands((strength >= t).astype(int), np.where(strength >= t, 1, 0), np.zeros(n)) for t in (0, 1, 13)}
    table = af.answer_by_strength(runs)
    assert table["dealer's strength"].tolist() == ["0", "1 or more"]
    assert table["begged hands"].tolist() == [af.MIN_HANDS] * 2 and (table["estimate"] == 1).all()
    assert table["the better answer"].tolist() == ["take one", "take one"]


def test_winners_changed():
    on, off = pd.DataFrame({"winner": [0, 1, 1, 0]}), pd.DataFrame({"winner": [0, 0, 1, 0]})
    assert af.winners_changed(on, off).estimate == 0.25


def test_the_law_rules_differ_from_the_preset_only_in_their_field():
    from sims.allfours import get_rules

    base = get_rules(af.RULES)
    assert af.second_beg_rules().replace(name=base.name) == base.replace(begs=2)
    assert af.run_knaves_off().replace(name=base.name) == base.replace(run_knaves=False)


def test_lone_stander_is_the_dealers_choice_and_not_a_single():
    """Deal 0 given up; deal 1 the dealer played against one; deal 2 three stood; deal 3 a single of two."""
    records = pd.DataFrame(
        {
            "ending": ["stakes given up", "played", "played", "played"],
            "standers": [1, 2, 3, 2],
            "dealer_stood": [0, 1, 1, 1],
            "single": [0, 0, 0, 1],
        }
    )
    assert lo.lone_stander(records, ("dealer", "eldest")).tolist() == [True, True, False, False]


def test_a_claim_of_two_equal_customs_is_not_supported_a_stake_apart():
    claimed = lo.equal(0.0, 1 / 3, lo.POOL_WHY)
    assert claimed.verdict((1.01, 1.02)) == NOT_SUPPORTED and claimed.margin > 0
