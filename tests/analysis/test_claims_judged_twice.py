"""A claim where play matters is judged with the named players and with the strongest, side by side, and says when
the verdict flips (analysis/claims/strongest.py, issue 21 item 5)."""

from dataclasses import replace

from sims.analysis.claims.model import Claim, more, source
from sims.analysis.claims.strongest import judged_twice

SRC = source("Sections 87-96", "§94 i", "Make your knave as soon as you can.")
NAMED = Claim(
    "9x",
    "s",
    SRC,
    "q",
    0.2,
    (0.15, 0.25),
    1000,
    more(0.0, 0.01, "why"),
    policies="maxims",
    side="the maxim",
    notes="Paired.",
)


def test_a_flipping_verdict_says_so():
    strong = replace(NAMED, estimate=-0.02, interval=(-0.05, 0.01), n=500, policies="maxims/expert")
    (claim,), table = judged_twice([NAMED], {"9x": strong})
    assert claim.verdict == "supported" and claim.notes.startswith("Paired. With the strongest players (maxims/expert")
    assert "not supported" in claim.notes and "the verdict flips" in claim.notes
    row = table.iloc[0]
    assert row["named: verdict"] == "supported; for the maxim (above 0.00)"
    assert row["strongest: verdict"] == "not supported; either way (the interval holds 0.00)"
    assert row["flips?"] == "**flips**" and row["strongest players"] == "maxims/expert (n = 500)"


def test_an_inconclusive_verdict_is_not_called_a_flip():
    strong = replace(NAMED, interval=(-0.05, 0.2), policies="maxims/expert")
    (claim,), table = judged_twice([NAMED], {"9x": strong})
    assert table.iloc[0]["flips?"] == "undecided" and "one of them inconclusive" in claim.notes


def test_the_same_verdict_and_a_reason_not_to_judge_again():
    same = replace(NAMED, interval=(0.1, 0.3), policies="expert")
    other = replace(NAMED, id="9y")
    claims, table = judged_twice([NAMED, other], {"9x": same, "9y": "play does not change it"})
    assert "the same verdict" in claims[0].notes and list(table["flips?"]) == ["no", ""]
    assert claims[1].notes.endswith("Not judged again with the strongest players: play does not change it")
    assert table.iloc[1]["strongest: verdict"] == "not judged"
