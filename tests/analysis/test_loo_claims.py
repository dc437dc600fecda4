"""Section 10's readings (sims/loo/claims/section.py) on summaries counted by hand."""

import pytest

from sims.loo.claims import section as loo


def summary(players, standers, given_up, n=10_000):
    return {
        "rules": {"players": players},
        "n": n,
        "deal": {"standers": {"mean": standers, "se": 0.01}},
        "endings": {"stakes given up": {"rate": given_up}},
    }


def test_a_contest_when_standing_is_not_divided_among_the_seats():
    """Two standers a deal on average, one deal in ten given up to a lone stander: a seat's share of contests is
    (2 - 0.1) / 5 = 0.38 at five players, but a stander's chance of a contest is (2 - 0.1) / 2 = 0.95 whatever
    the number of seats."""
    five, ten = summary(5, 2.0, 0.1), summary(10, 2.0, 0.1)
    assert loo.contested_share(five).estimate == pytest.approx(0.38)
    assert loo.contested_share(ten).estimate == pytest.approx(0.19)  # 1/n by construction
    assert loo.contest_when_standing(five).estimate == pytest.approx(0.95)
    assert loo.contest_when_standing(ten).estimate == pytest.approx(0.95)  # not
    assert loo.contest_when_standing(five).se > 0


def test_the_judged_reading_is_the_new_one_and_the_old_is_shown_beside_it():
    assert loo.READINGS[0][1] == "a contest when standing" and "favours three players" in loo.READINGS[0][5]
    assert list(loo.OTHER_READINGS) == ["a seat's share of contests (favours small tables)"]
    assert not any(cid in ("10d", "10e") for cid, *_ in loo.READINGS)
