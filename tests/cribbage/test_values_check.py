"""The pegging advisor's values checked against the cards that were dealt (sims.cribbage.values_check, and
peg_advice's ``dealt``): the values on each deal read, given as the cards dealt, average to the read values;
the other player's cards still held are read from a record as the game dealt them; a difference is counted
only where the seat's card is not the base player's."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.table import play
from sims.cribbage.advice import given_deal, peg_advice, read_deals
from sims.cribbage.situation import PegSituation
from sims.cribbage.values_check import check_values, held_by_others

# The dealer holds 9H 4S 3D at a count of 25 (two of them fit); the pone holds two cards unseen.
LATE = PegSituation(
    "9H 4S 3D",
    "KS 5D 10C",
    role="dealer",
    starter="2C",
    thrown="AC 6H",
    laid_by=["pone", "dealer", "pone"],
    score=(100, 104),
)


@pytest.mark.parametrize("measure", ["value", "win"])
def test_the_values_on_each_deal_read_average_to_the_read_values(measure):
    # Every lawful deal agreeing with the pone's cards laid is enumerated (exact): the value of a card is the
    # mean of its values on the deals, so the values on each deal, given as the cards dealt, average to it.
    deals, left, enumerated, _, _ = read_deals(LATE)
    assert enumerated and len(deals) > 1 and left.tolist() == [0, 2, 0, 0]
    read, _ = peg_advice(LATE, policies=())
    each = [dict(zip(*(peg_advice(LATE, policies=(), dealt=deal)[0][k] for k in ("card", measure)))) for deal in deals]
    for card, value in zip(read["card"], read[measure]):
        assert np.mean([v[card] for v in each]) == pytest.approx(value, abs=1e-12)
    assert any(len({v[card] for v in each}) > 1 for card in read["card"])  # the deals are played, one by one
    attrs = peg_advice(LATE, policies=(), dealt=deals[0])[1]
    assert attrs["deals"] == 1 and attrs["method"] == "exact" and attrs["conditioned"] == "the cards dealt"


@pytest.mark.parametrize(
    "dealt, message",
    [
        ("QH", "the others hold 2 cards, 1 given"),
        ("QH 9H", "9H is seen"),  # mine
        ("QH 6H", "6H is seen"),  # thrown
        ("QH 2C", "2C is seen"),  # the starter
        ("QH QH", "duplicate card QH"),
    ],
)
def test_cards_dealt_that_cannot_be_the_others_are_refused(dealt, message):
    with pytest.raises(ValueError, match=message):
        given_deal(LATE, dealt)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("values") / "r.jsonl"
    play("cribbage", None, [{"discard": "expected_net", "peg": "greedy"}, "position_distilled"], seed=3, record=path)
    return path


def test_the_cards_held_are_the_others_cards_as_he_lays_them(record):
    # At each card of the play, the other player holds what his own next decision of the deal shows in his hand,
    # and the cards he laid in between.
    from sims.core.record import read_record

    lines, held = read_record(record).decisions, held_by_others(record)
    pegs = [line for line in lines if line.situation.DECISION == "peg"]
    checked = 0
    for k, line in enumerate(pegs):
        now = line.situation
        seen = set(now.kept) | set(now.played) | {now.starter} | set(now.thrown)
        assert not seen & set(held[line.number]) and len(held[line.number]) == now.left()[1 - now.role]
        his = next((m for m in pegs[k + 1 :] if m.player != line.player and m.game == line.game), None)
        if his is None or his.situation.played[: len(now.played)] != now.played:
            continue  # he lays no more in this deal
        later = his.situation
        since = zip(later.played[len(now.played) :], later.laid_by[len(now.played) :])
        between = {c for c, r in since if r == later.role}
        assert set(held[line.number]) == set(later.hand) | between
        checked += 1
    assert checked > 10


def test_a_difference_is_counted_where_the_seat_laid_another_card_than_the_base(record):
    frame = check_values(record, 0, samples=50)
    assert len(frame) > 0 and (frame["choice"] != frame["base"]).all() and (frame["measure"] == "win").all()
    assert np.allclose(frame["bias"], frame["read"] - frame["dealt"])
    row = frame.iloc[0]
    from sims.core.record import read_record

    situation = next(line.situation for line in read_record(record).decisions if line.number == row["line"])
    columns, _ = peg_advice(situation, policies=(), dealt=row["held"], seed=int(row["line"]))
    worth = dict(zip(columns["card"], columns["win"]))
    assert row["dealt"] == worth[row["choice"]] - worth[row["base"]]
    assert check_values(record, 1, samples=50).empty  # seat 1 pegs by the base: no difference to count
