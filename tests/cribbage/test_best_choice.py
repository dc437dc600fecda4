"""One best choice in cribbage (issue 34, item 1): the best chance of winning where the score gives one, else the
most points, in ``sims peg``, ``sims discard``, the review and the duel's hint; one crib source for one hand."""

import json

import pytest

from sims.cli import main
from sims.core.record import paired_grade
from sims.cribbage.advice import advise, peg_advice
from sims.cribbage.duel import View
from sims.cribbage.record import grade
from sims.cribbage.situation import DiscardSituation, PegSituation

# The dealer's last two cards at 118-118 (exact): 7C pegs more, 4C wins more often.
LAST = PegSituation("4C 7C", "5D AS 4D 3C JS", "dealer", "QD", "6S QC", score=(118, 118))
# A throw at 100-110: AH 8H has the best net, 10D JS the best chance of winning.
THROW = DiscardSituation("10D 6H AH 9S 8H JS", "dealer", score=(100, 110))


@pytest.fixture(scope="module")
def last():
    return peg_advice(LAST, policies=())


def test_peg_ranks_by_the_chance_and_measures_both_from_that_card(last):
    columns, attrs = last
    assert attrs["sort"] == "win" and attrs["method"] == "exact" and columns["card"] == ["4C", "7C"]
    assert columns["win"][0] > columns["win"][1] + 0.05 and columns["value"][1] > columns["value"][0] + 0.4
    for r in range(len(columns["card"])):  # both differences are from the first card, the best
        assert columns["vs_best"][r] == pytest.approx(columns["value"][r] - columns["value"][0])
        assert columns["win_vs_best"][r] == pytest.approx(columns["win"][r] - columns["win"][0])


def test_the_review_grades_a_card_against_the_same_best(last):
    """7C pegs 0.429 points more than the best card, 4C, with 10.2% less chance of winning: it gains points, and
    loses the chance the grade is given by."""
    columns, _ = last
    graded = grade(LAST, "7C", 200, 0)
    assert graded == paired_grade(advise(LAST, policies=()), "card", "7C")
    assert graded["best"] == "4C" and graded["points_lost_se"] == 0
    assert graded["points_lost"] == pytest.approx(columns["value"][0] - columns["value"][1])
    assert graded["win_lost"] == pytest.approx(columns["win"][0] - columns["win"][1])
    assert graded["points_lost"] < 0 < graded["win_lost"]


def test_a_throw_is_graded_against_sims_discards_best_and_nets(capsys):
    """The review's best throw, its points and chance lost: the first row of ``sims discard --score`` (the
    dealer's own score first), its net from the same crib source, and its chance."""
    assert main(["discard", *"10D 6H AH 9S 8H JS".split(), "--dealer", "--score", "100-110", "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    best, chosen = rows[0], next(r for r in rows if r["thrown"] == ["AH", "8H"])
    assert best["thrown"] == ["10D", "JS"] and best["win"] == max(r["win"] for r in rows)
    assert chosen["net"] == max(r["net"] for r in rows)
    graded = grade(THROW, "AH 8H", 200, 0)
    assert graded["best"] == " ".join(best["thrown"])
    assert graded["points_lost"] == pytest.approx(best["net"] - chosen["net"])
    assert graded["win_lost"] == pytest.approx(best["win"] - chosen["win"])


def test_the_duels_hint_says_what_ranks_it_and_shows_sims_discards_nets(capsys):
    frame = View(["you", "seat 1"]).advise(THROW, 200, 0)
    note = View(["you", "seat 1"]).hint_note(THROW, frame)
    assert note.startswith("net:") and "self-play table (as sims discard)" in note
    assert note.endswith(
        "best first by the chance of winning (win %, from the sampled board-position table: not exact), then the points"
    )
    assert main(["discard", *"10D 6H AH 9S 8H JS".split(), "--dealer", "--all", "--json"]) == 0
    nets = {" ".join(r["thrown"]): r["net"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert {t: pytest.approx(n) for t, n in zip(frame["thrown"], frame["net"])} == nets
    unscored = PegSituation("7H 8C 5D", "KS 2S 5H", "dealer", "2C")
    unscored = View(["you", "seat 1"]).hint_note(unscored, advise(unscored, policies=()))
    assert unscored.endswith("best first by the points")


def test_equal_chances_go_to_the_most_points(capsys):
    """At 115-105 the dealer's chance is the same with 6H 7S and with JH QH (their sums differ in the 16th digit):
    a tie, ranked by the net, so the best throw is the one of more points."""
    assert main(["discard", *"10D 5S JH 6H QH 7S".split(), "--dealer", "--score", "115-105", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    top = [r for r in rows if r["win"] == pytest.approx(rows[0]["win"], abs=1e-12)]
    assert len(top) > 1 and all(r["rank"] == 1 for r in top)
    assert [r["net"] for r in top] == sorted((r["net"] for r in top), reverse=True)


def test_a_chance_read_from_the_table_carries_its_error(monkeypatch, capsys):
    """Issue 34, item 6: exact deals, but the chance comes from the sampled board-position table: ``win_se`` is how
    far the chance moves when every cell of the table moves up by its standard error (the advisor run again on
    the moved table), and the output calls only the points exact."""
    from sims.cribbage.odds.table import shipped_table
    from sims.cribbage.odds.throws import shifted_by_error
    from sims.cribbage.policies import position, position_vectors

    situation = PegSituation("7H 8C 5D", "KS 2S 5H", "dealer", "2C", "QD 3C", score=(97, 104))
    columns, attrs = peg_advice(situation, policies=())
    assert attrs["method"] == "exact"
    values = position_vectors.players_vector(attrs["players"])
    moved = shifted_by_error(
        values, position.section(values, situation.rules.to_kernel()), shipped_table("six-card", attrs["players"])
    )
    monkeypatch.setattr(position_vectors, "players_vector", lambda players: moved)
    again, _ = peg_advice(situation, policies=())
    shifted = dict(zip(again["card"], again["win"]))
    for card, win, se in zip(columns["card"], columns["win"], columns["win_se"]):
        assert se > 0 and se == pytest.approx(abs(shifted[card] - win), rel=1e-6)
    monkeypatch.undo()
    assert (
        main(
            [
                "peg",
                "7H",
                "8C",
                "5D",
                "--played",
                "KS,2S,5H",
                "--starter",
                "2C",
                "--dealer",
                "--thrown",
                "QD,3C",
                "--score",
                "97-104",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "(0: the values are exact)" not in out and "the points are exact (their ±95% is 0); the chance" in out
