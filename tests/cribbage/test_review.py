"""Game records and review (issue 19, item 5): the hand-typed example, grades, totals, bad records."""

import json

import pytest

from sims.cli import main
from sims.cribbage.discards import DEFAULT_CRIB, advise as discard_advice
from sims.core.record import read_record, review, totals
from sims.cribbage.record import EXAMPLE


def test_example_record_reads_and_every_decision_is_graded():
    record = read_record(EXAMPLE)
    assert record.header["players"] == ["Ann", "Bob"] and len(record.decisions) == 5
    graded = review(EXAMPLE)
    assert graded["line"].tolist() == [2, 3, 4, 5, 6]
    # The discard: the best throw is sims discard's at the score (the best chance of winning, its crib source);
    # the points lost are its nets, that best less the chosen, and the chance lost is from the same throw.
    throws = discard_advice("7H 8C 5D 2S QD 3C", "dealer", collapse=False, score="97-104", crib=DEFAULT_CRIB).frame()
    best = throws.iloc[0]
    assert best["win"] == throws["win"].max() and graded.loc[0, "best"] == best["thrown"]
    chosen = throws.set_index("thrown").loc["QD 3C"]
    assert graded.loc[0, "points_lost"] == pytest.approx(best["net"] - chosen["net"])
    assert graded.loc[0, "win_lost"] == pytest.approx(best["win"] - chosen["win"])
    # The last card of the record: 7H on 17 is exact (the pone's last two cards enumerated).
    last = graded.iloc[-1]
    assert last["best"] == "5D" and last["points_lost_se"] == 0 and last["points_lost"] > 2
    assert last["grade"] == "blunder"
    assert (graded["win_lost"] >= 0).all()  # every decision has a score: the chance of winning ranks
    sums = totals(graded).set_index("player")
    assert sums.loc["Bob", "points_lost"] == pytest.approx(graded[graded.player == "Bob"]["points_lost"].sum())
    assert sums.loc["Bob", "decisions"] == 3 and sums.loc["Ann", "decisions"] == 2


HEADER = {"format": "sims-record/1", "game": "cribbage", "rules": "six-card", "seed": 0, "players": ["A", "B"]}
PEG = {
    "player": 1,
    "decision": "peg",
    "hand": "7H 8C 5D",
    "played": "KS 2S 5H",
    "role": "dealer",
    "starter": "2C",
    "choice": "7H",
}


@pytest.mark.parametrize(
    "lines, message",
    [
        ([{**HEADER, "format": "pgn"}], "line 1: the header must say format"),
        ([HEADER, {**PEG, "colour": "red"}], "line 2: unknown field 'colour'"),
        ([HEADER, {**PEG, "player": 2}], "line 2: player must be 0..1"),
        ([HEADER, {**PEG, "choice": "KH"}], "line 2: KH is not a legal peg here"),
        ([HEADER, {**PEG, "played": "KS 5H"}], "line 2: illegal turn"),
    ],
)
def test_bad_records_are_one_line_errors_naming_the_line(tmp_path, capsys, lines, message):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_review_json(capsys):
    assert main(["review", str(EXAMPLE), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["decisions"]) == 5 and {t["player"] for t in result["totals"]} == {"Ann", "Bob"}
