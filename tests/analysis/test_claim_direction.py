"""Every verdict says which side of the claimed value its interval lies, whatever the margin (issue 21, item 2)."""

import pytest

from sims.analysis.claims.model import Claim, equal, less, more, source

SRC = source("Sections 87-96", "§94 i", "Make your knave as soon as you can.")


def claim(interval, claimed, side="the maxim", percent=False):
    lo, hi = interval
    return Claim("x", "s", SRC, "q", (lo + hi) / 2, interval, 100, claimed, side=side, percent=percent)


@pytest.mark.parametrize(
    "interval, verdict, direction",
    [
        ((-0.0032, -0.0004), "negligible", "against the maxim (below 0.00)"),
        ((0.0080, 0.0132), "inconclusive", "for the maxim (above 0.00)"),
        ((0.20, 0.21), "supported", "for the maxim (above 0.00)"),
        ((-0.002, 0.003), "negligible", "either way (the interval holds 0.00)"),
        ((-0.3, -0.2), "not supported", "against the maxim (below 0.00)"),
    ],
)
def test_more_than(interval, verdict, direction):
    c = claim(interval, more(0.0, 0.01, "a hundredth of a point"))
    assert (c.verdict, c.direction()) == (verdict, direction)
    assert c.to_dict()["direction"] == direction


def test_less_than_and_equal():
    rare = claim((0.04, 0.06), less(0.1, 0.01, "one in a hundred"), side="the claim", percent=True)
    assert rare.direction() == "for the claim (below 10.0%)"
    assert claim((0.12, 0.13), less(0.1, 0.01, "x"), side="the claim").direction() == "against the claim (above 0.10)"
    assert claim((26.45, 26.53), equal(25, 0.5, "rounds")).direction() == "above 25.00"
    assert claim((24.9, 25.1), equal(25, 0.5, "rounds")).direction() == "either side of 25.00"


def test_a_rare_rate_keeps_two_significant_digits():
    c = claim((0.000008, 0.00003), more(0.0, 0.001, "once in a thousand hands"), side="the law")
    assert c.format_estimate() == "1.9e-05 [8e-06, 3e-05]" and c.direction() == "for the law (above 0.00)"
