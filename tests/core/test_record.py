"""Game records of every game (sims.core.record): the hand-typed examples reviewed, sims play --record, bad
records refused in one line naming the line, atomic writing."""

import json
import re

import pytest

from sims.cli import main
from sims.core.record import example, read_record, review, write_record
from sims.core.registry import get_game

SAMPLES = 400


def _line(frame, number):
    return frame.set_index("line").loc[number]


def test_the_all_fours_example_grades_the_untrumped_ten_a_blunder():
    """Line 6: Ann, holding QH 4H (hearts trumps) and the 8C, lets Bob's 10C win the trick (ten towards game)."""
    from sims.allfours.advice import advise

    graded = review(example("allfours"), samples=SAMPLES)
    assert graded["line"].tolist() == list(range(2, 13)) and set(graded["player"]) == {"Ann", "Bob"}
    line = read_record(example("allfours")).decisions[4]
    assert (line.number, line.choice) == (6, "8C")
    advice = advise(line.situation, samples=SAMPLES, seed=0, policies=()).set_index("choice")
    ann = _line(graded, 6)
    assert ann["best"] in ("QH", "4H") and ann["grade"] == "blunder"
    assert ann["points_lost"] == pytest.approx(-advice.loc["8C", "vs_best"])
    assert ann["win_lost"] == pytest.approx(-advice.loc["8C", "win_vs_best"]) and ann["win_lost"] >= 0.10
    assert (graded["win_lost"] >= 0).all()  # the best is the best chance of winning; points are information
    _assert_one_best(graded)
    assert _line(graded, 2)["choice"] == "stand"


def test_the_loo_example_grades_the_wasted_trump_a_blunder_exactly():
    """Line 8: Eve, following Bob's KH with QH or 5H (she cannot head it), wastes the QH; with Bob's two cards
    the only ones hidden that matter, the advisor enumerates every deal, so the loss is exact (se 0)."""
    from sims.loo.advice import advise

    graded = review(example("loo"), samples=SAMPLES)
    line = read_record(example("loo")).decisions[6]
    assert (line.number, line.choice) == (8, "QH")
    advice = advise(line.situation, samples=SAMPLES, seed=0, policies=()).set_index("choice")
    eve = _line(graded, 8)
    assert eve["best"] == "5H" and eve["grade"] == "blunder" and eve["points_lost_se"] == 0
    assert eve["points_lost"] == pytest.approx(advice.loc["5H", "value"] - advice.loc["QH", "value"])
    assert eve["win_lost"] is None and graded["win"].isna().all()  # money, no game to win
    totals = {t["player"]: t for t in graded.attrs["totals"]}
    assert totals["Eve"]["decisions"] == 2 and totals["Eve"]["blunder"] == 1


def test_a_first_format_record_still_reads():
    record = read_record(example("cribbage"))
    assert record.header["format"] == "sims-record/1" and len(record.decisions) == 5
    assert [d.game for d in record.decisions] == [0] * 5


HEADERS = {
    "allfours": {"format": "sims-record/2", "game": "allfours", "rules": "two-hand", "players": ["A", "B"]},
    "loo": {"format": "sims-record/2", "game": "loo", "rules": "three-card", "players": list("ABCDE")},
}
BEG = {"player": 1, "decision": "beg", "hand": "JH 2H AS 10C 7D 9S", "turned": "5H", "choice": "stand"}
CARD = {
    "player": 4,
    "decision": "card",
    "hand": "QH 5H 2S",
    "trump": "9H",
    "role": 4,
    "carry": 6,
    "declared": ["play", "pass", "pass", "play", "pass"],
    "played": "KH",
    "choice": "QH",
}
BAD = [
    ("allfours", [{**HEADERS["allfours"], "game": "chess"}], "line 1: unknown game 'chess'"),
    ("allfours", [{**HEADERS["allfours"], "rules": "three-hand"}], "line 1: unknown rules 'three-hand'"),
    ("allfours", [{**HEADERS["allfours"], "players": []}], "line 1: players: a list of 1 to 16 names"),
    ("allfours", [HEADERS["allfours"], {**BEG, "decision": "bid"}], "line 2: decision must be beg or answer"),
    ("allfours", [HEADERS["allfours"], {**BEG, "colour": "red"}], "line 2: unknown field 'colour'"),
    ("allfours", [HEADERS["allfours"], {**BEG, "player": 2}], "line 2: player must be 0..1"),
    ("allfours", [HEADERS["allfours"], {**BEG, "choice": "pass"}], "line 2: a beg here is stand or beg"),
    ("allfours", [HEADERS["allfours"], {**BEG, "turned": "JH"}], "line 2: "),  # a card seen twice
    ("allfours", [HEADERS["allfours"], {**BEG, "game": 1}], "line 2: game must be 0..0"),
    ("allfours", [HEADERS["allfours"], {"game": 0, "result": {}, "x": 1}], "line 2: a result line holds"),
    ("loo", [HEADERS["loo"], {**CARD, "choice": "2S"}], "line 2: 2S is not a legal card here"),
    ("loo", [HEADERS["loo"], {**CARD, "role": 2}], "line 2: "),  # not a stander
    ("loo", [HEADERS["loo"], {**CARD, "hand": "QH 5H ZZ"}], "line 2: bad card 'ZZ'"),
]


@pytest.mark.parametrize("game, lines, message", BAD, ids=[m for _, _, m in BAD])
def test_bad_records_are_one_line_errors_naming_the_line(tmp_path, capsys, game, lines, message):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["review", str(path), "--samples", "50"]) == 2
    err = capsys.readouterr().err
    assert f"{path} {message}" in err and err.count("\n") == 1


def test_not_json_and_empty(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(HEADERS["loo"]) + "\n{not json\n")
    assert main(["review", str(path)]) == 2
    assert "line 2: not JSON" in capsys.readouterr().err
    path.write_text("\n")
    assert main(["review", str(path)]) == 2
    assert "empty record" in capsys.readouterr().err


def test_writing_is_atomic(tmp_path):
    def lines():
        yield {"game": 0, "result": {}}
        raise RuntimeError("interrupted")

    path = tmp_path / "game.jsonl"
    with pytest.raises(RuntimeError):
        write_record(path, HEADERS["loo"], lines())
    assert list(tmp_path.iterdir()) == []


PLAYS = [
    ("cribbage", ["--rules", "six-card-61", "--discard", "greedy,random", "--peg", "greedy,distilled"]),
    ("allfours", ["--play", "expert,random"]),
    ("loo", ["--rules", "three-card", "--rule", "session_rounds=1", "--card", "greedy,random,expert,greedy,greedy"]),
]


@pytest.mark.parametrize("game, flags", PLAYS, ids=[g for g, _ in PLAYS])
def test_play_record_writes_the_games_played_and_prints_the_same_numbers(tmp_path, capsys, game, flags):
    path = tmp_path / "games.jsonl"
    command = ["play", "--game", game, "--games", "3", "--seed", "4", "--records", "--quiet", "--json", *flags]
    assert main(command) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(command + ["--record", str(path)]) == 0
    recorded = json.loads(capsys.readouterr().out)
    record = recorded.pop("record")
    assert recorded == plain
    read = read_record(path)
    assert read.header["game"] == game and read.header["seed"] == 4 and read.header["games"] == 3
    assert record == {"path": str(path), "games": 3, "decisions": len(read.decisions)}
    assert sorted(read.results) == [0, 1, 2]
    assert len(read.header["players"]) == read.rules.players == get_game(game).get_rules(read.rules).players


def test_play_record_into_a_missing_directory_is_refused_before_playing(tmp_path, capsys):
    assert main(["play", "--game", "allfours", "--games", "1", "--record", str(tmp_path / "no" / "g.jsonl")]) == 2
    assert ": no folder " in capsys.readouterr().err


def test_cli_review_json_and_errors(capsys):
    assert main(["review", str(example("loo")), "--json", "--samples", str(SAMPLES)]) == 0
    every = json.loads(capsys.readouterr().out)
    assert len(every["decisions"]) == 8 and every["header"]["game"] == "loo"
    assert main(["review", str(example("loo")), "--json", "--errors", "--samples", str(SAMPLES)]) == 0
    errors = json.loads(capsys.readouterr().out)
    assert [d["line"] for d in errors["decisions"]] == [d["line"] for d in every["decisions"] if d["grade"]]
    assert errors["totals"] == every["totals"]


def test_the_review_says_who_played_its_values_out(capsys):
    """What the grades assume after each choice, per kind of decision, as the advisor's frames name it: the All
    Fours search in the hand graded (the maxims after it), or the play-outs the review was given; cribbage's
    pegging policy for a card, nothing for a throw (valued exactly, nothing played out)."""
    search = "beg threshold, answer threshold, play search (this hand; maxims in later hands)"
    assert review(example("allfours"), samples=20).attrs["playouts"] == {"beg": search, "play": search}
    maxims = review(example("allfours"), samples=20, playout={"play": "maxims"}).attrs["playouts"]
    assert set(maxims.values()) == {"beg threshold, answer threshold, play maxims"}
    assert review(example("cribbage"), samples=20).attrs["playouts"] == {"peg": "distilled"}
    assert main(["review", str(example("allfours")), "--samples", "20"]) == 0
    assert f"\nplay-outs (beg, play): {search}\n" in capsys.readouterr().out
    assert main(["review", str(example("allfours")), "--samples", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["playouts"] == {"beg": search, "play": search}


def test_cli_review_totals_count_each_grade_in_the_singular_for_one(capsys):
    """``1 blunder``, not ``1 blunders``: each player's totals name the count of decisions and of each grade,
    agreeing with it (the example has players with one decision, one inaccuracy, one mistake, one blunder)."""
    assert main(["review", str(example("loo")), "--json", "--samples", str(SAMPLES)]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert main(["review", str(example("loo")), "--samples", str(SAMPLES)]) == 0
    out = capsys.readouterr().out
    for t in totals:
        said = ", ".join(
            f"{t[g]} {g if t[g] == 1 else {'inaccuracy': 'inaccuracies'}.get(g, g + 's')}"
            for g in ("inaccuracy", "mistake", "blunder")
        )
        decisions = f"{t['decisions']} decision{'s' * (t['decisions'] != 1)}"
        assert re.search(rf"^  {re.escape(t['player'])}: {decisions}, .*; {said}$", out, re.M), out


def _thrown_out_game(tmp_path):
    """A recorded All Fours game with discard_to_six (the rules, no preset, travel in the header as a table)."""
    from sims.core.table import play

    rules = get_game("allfours").get_rules("two-hand").replace(name="two-hand-discard", discard_to_six=True)
    path = tmp_path / "g.jsonl"
    play(
        "allfours",
        rules,
        {"beg": "beg", "answer": "run", "play": "greedy", "discard": "random"},
        seed=1,
        games=1,
        record=path,
    )
    assert read_record(path).rules == rules
    return path


def test_cards_thrown_out_and_the_play_after_them_are_graded(tmp_path):
    """All Fours with discard_to_six: the throws and the play of hands with cards thrown out are graded like
    any decision (the random thrower loses points against the best throw somewhere)."""
    graded = review(_thrown_out_game(tmp_path), samples=50)
    assert (graded["note"] == "").all() and graded["points_lost"].notna().all()
    throws = graded[graded["decision"] == "discard"]
    assert len(throws) > 0 and (throws["win_lost"] >= 0).all() and (throws["points_lost"] > 0).any()
    assert (graded["win_lost"] >= 0).all()
    _assert_one_best(graded)


def _assert_one_best(graded):
    """Issue 34's one best: a row's points and chance lost are both measured from its best, so a choice that is
    the best loses neither (its points were once measured from the choice with the most points instead)."""
    best = graded[graded["choice"] == graded["best"]]
    assert len(best) > 0 and (best["points_lost"] == 0).all() and (best["win_lost"] == 0).all()


def test_what_the_advisor_cannot_value_is_left_ungraded_with_a_note(tmp_path, capsys, monkeypatch):
    """A decision the advisor refuses (here every throw, refused on purpose) is listed, not graded, with the
    advisor's reason, and the rest graded."""
    import sims.allfours.advice as advice

    path = _thrown_out_game(tmp_path)
    advise = advice.advise

    def refusing(situation, **how):
        if situation.DECISION == "discard":
            raise ValueError("the advisor values no throw today")
        return advise(situation, **how)

    monkeypatch.setattr(advice, "advise", refusing)
    graded = review(path, samples=50)
    ungraded = graded[graded["note"] != ""]
    assert len(ungraded) > 0 and (ungraded["decision"] == "discard").all()
    assert ungraded["points_lost"].isna().all() and ungraded["best"].isna().all()
    assert (ungraded["note"] == "not graded: the advisor values no throw today").all()
    assert (graded.loc[graded["note"] == "", "win_lost"] >= 0).all()
    assert sum(t["ungraded"] for t in graded.attrs["totals"]) == len(ungraded)
    assert main(["review", str(path), "--samples", "50", "--errors"]) == 0
    assert "not graded: the advisor values no throw today" in capsys.readouterr().out


def test_three_hand_cribbage_is_graded_in_points(tmp_path):
    """No board-position table ships for three-hand: every decision graded by points, none by the chance of
    winning (the score recorded all the same)."""
    from sims.core.table import play

    path = tmp_path / "g.jsonl"
    play("cribbage", "three-hand", {"discard": "greedy", "peg": "greedy"}, seed=2, games=1, record=path)
    graded = review(path, samples=30)
    assert (graded["note"] == "").all() and graded["win"].isna().all() and graded["win_lost"].isna().all()
    assert set(graded["decision"]) == {"discard", "peg"} and (graded["points_lost"] >= 0).all()
    assert all(line.situation.score is not None for line in read_record(path).decisions)


def test_the_loo_advisor_draws_the_five_card_exchanges_in_turn():
    """Five-card Loo with the dealer standing: the advisor's packs draw the exchanges in turn from the dealer's
    left, the dealer's last (drawn first, the others' play-out hands came up empty: a PolicyError)."""
    from sims.loo.advice import advise
    from sims.loo.situation import CardSituation

    situation = CardSituation(
        "JC QC 2D 8C 6C",
        "9C",
        role=3,
        declared=["play"] * 5,
        exchanged=[2, 3, 2, 4, 4],
        carry=0,
        dealer=1,
        played="AC 2C",
        rules="five-card-pam",
    )
    advice = advise(situation, samples=50, policies=())
    assert set(advice["choice"]) == {"6C", "8C", "QC"} and advice["value"].between(-5, 25).all()


def test_the_win_trail_is_the_players_chance_on_both_players_moves():
    from sims.core.record import win_trail

    graded = review(example("allfours"), samples=SAMPLES)
    trail = win_trail(graded, "Ann")
    assert len(trail) == len(graded)
    ann, bob = graded["player"] == "Ann", graded["player"] == "Bob"
    assert trail["win"][ann.to_numpy()].tolist() == graded.loc[ann, "win"].tolist()
    assert trail["win"][bob.to_numpy()].tolist() == pytest.approx((1 - graded.loc[bob, "win"]).tolist())
    assert (trail.loc[ann.to_numpy(), "best_win"] >= trail.loc[ann.to_numpy(), "win"]).all()
    assert (trail.loc[bob.to_numpy(), "best_win"] <= trail.loc[bob.to_numpy(), "win"]).all()
    with pytest.raises(ValueError, match="no player 'Cat'"):
        win_trail(graded, "Cat")
    with pytest.raises(ValueError, match="two players"):
        win_trail(review(example("loo"), samples=50), "Eve")


def test_an_all_fours_review_takes_the_play_outs_card_play_by_name():
    """``--playout play=search`` names the advisor's own card play (its default), ``play=maxims`` a policy: the
    first grades as the default does, the second otherwise; a name that is neither is one line."""
    default = review(example("allfours"), samples=60)
    searched = review(example("allfours"), samples=60, playout={"play": "search"})
    maxims = review(example("allfours"), samples=60, playout={"play": "maxims"})
    assert searched["points_lost"].tolist() == default["points_lost"].tolist()
    assert maxims["points_lost"].tolist() != default["points_lost"].tolist()
    with pytest.raises(ValueError, match="unknown play policy 'searched'.*or the advisor's own search"):
        review(example("allfours"), samples=60, playout={"play": "searched"})
