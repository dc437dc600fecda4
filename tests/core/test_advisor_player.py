"""The advisor as a player (sims.core.advisor_player) and the review checked by play (sims.core.advisor_check):
the player plays the advisor's best choice, sits at the table by name and against a person in the duel, and the
check exchanges the seats, scores each seat's result as the game's view does, and is the same for the same seed."""

import numpy as np
import pytest

from sims.allfours.situation import PlaySituation
from sims.cli import main
from sims.core.advisor_check import check, identity_gain, play_seats, predicted_gain, render, seat_results
from sims.core.advisor_player import AdvisorPlayer, advisor_seat, choice_column
from sims.core.registry import get_game
from sims.core.table import play

# Issue 34's position: the fifth trick of two-hand All Fours, exact over 40 deals: JH 1.800, 3S 1.675 (the knave
# trumps to make sure of Jack).
FIFTH_TRICK = dict(hand="JH 3S", turned="7H", played="KS 2S QD 3D 9C AC 4H 10H 8S", role="dealer")


def test_the_advisor_plays_the_knave_to_make_sure_of_jack():
    assert AdvisorPlayer("allfours", samples=16).choose(PlaySituation(**FIFTH_TRICK)) == "JH"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("advisor:samples=1", "samples must be an integer from 2"),
        ("advisor:depth=3", "the advisor takes samples=N and exact_limit=N, got 'depth=3'"),
        ("advisor:samples=x", "the advisor takes samples=N and exact_limit=N, got 'samples=x'"),
    ],
)
def test_a_bad_advisor_seat_is_one_line(spec, message):
    with pytest.raises(ValueError, match=message):
        advisor_seat(spec, "cribbage")


def test_other_names_are_no_advisor():
    assert advisor_seat("expert", "loo") is None and advisor_seat({"play": "expert"}, "allfours") is None


def test_a_seat_named_advisor_follows_the_advisor_at_every_decision():
    """Cribbage five-card against position_distilled: the seat is the advisor's (named so in the header), every
    decision it takes is the advisor's best, and the other seat's decisions are its policy's."""
    taken = []
    frame = play(
        "cribbage", "five-card", ["advisor:samples=20", "position_distilled"], seed=4, on_decision=taken.append
    )
    assert frame.attrs["players"] == ["advisor:samples=20", "position_distilled"]
    by = {d.seat: {x.by for x in taken if x.seat == d.seat} for d in taken}
    assert by == {0: {"advisor:samples=20"}, 1: {"position_distilled"}}
    assert {d.decision for d in taken if d.seat == 0} == {"discard", "peg"}


def test_seat_results_score_wins_ties_and_stakes():
    allfours, loo = get_game("allfours"), get_game("loo")
    rules = allfours.get_rules("two-hand")
    names = ["advisor", "seat 1"].__getitem__
    assert seat_results(allfours, rules, {"winner": 1, "score_0": 6, "score_1": 10}, names) == [(0.0, 6), (1.0, 10)]
    assert seat_results(allfours, rules, {"winner": None, "score_0": 9, "score_1": 9}, names) == [(0.5, 9), (0.5, 9)]
    rules = loo.get_rules(None)
    row = {f"money_{s}": m for s, m in enumerate([5, -3, 0, -1, -4])}
    assert [r[1] for r in seat_results(loo, rules, row, lambda s: f"seat {s}")] == [5, -3, 0, -1, -4]


def test_the_check_exchanges_seats_and_is_the_same_for_a_seed():
    """Two game numbers of five-card cribbage, the advisor in each seat in turn; one mirror game reviewed."""
    options = dict(rules="five-card", games=2, seed=3, samples=8, review_games=1, review_samples=20)
    first = check("cribbage", **options)
    assert first["games"] == 4 and first["measure"] == "win" and first["mirror"] == 0.5
    assert all(n > 0 for n in first["decisions"]) and len(first["decisions"]) == 2  # it sat in both seats
    assert 0 <= first["advisor"].estimate <= 1 and first["gain"].estimate == pytest.approx(
        first["advisor"].estimate - 0.5
    )
    assert first["reviewed"] > 0 and first["predicted"].n == 2  # both players of the mirror game graded
    assert first["predicted"].estimate >= 0 and first["predicted_again"].n == 2
    assert sum(first["by_decision"].values()) == pytest.approx(first["predicted"].estimate)
    assert check("cribbage", **options) == first
    text = render(first)
    assert "gain a game, measured:" in text and "gain a game, the review's:" in text and "fresh deals" in text
    grades = render({**first, "grades": {"blunder": 1, "mistake": 2, "inaccuracy": 0}})
    assert "1 blunder, 2 mistakes, 0 inaccuracies" in grades  # each count agreeing with its noun
    alone = check("cribbage", **{**options, "review_games": 0})  # the play alone: the same games
    assert alone["advisor"] == first["advisor"] and "predicted" not in alone


def test_the_identity_is_zero_where_the_seat_chose_as_the_other_player(tmp_path, monkeypatch):
    """Valued by the identity, a seat that played the maxims gains nothing on the maxims: at every decision its
    choice is theirs, so each paired difference is exactly zero (and the base's choice was found each time); the
    identity of a record's first games grades those alone."""
    game = get_game("allfours")
    rules, best = game.get_rules("two-hand"), {"beg": "threshold", "answer": "threshold", "play": "maxims"}
    play_seats(game, rules, [best, best], seed=2, games=2, record=tmp_path / "r.jsonl")
    gain = identity_gain(game, tmp_path / "r.jsonl", 0, best, samples=20, seed=0, measure="points_lost")
    assert gain.shape == (2, len(game.decisions)) and not gain.any()
    greedy = identity_gain(game, tmp_path / "r.jsonl", 0, {**best, "play": "greedy"}, 20, 0, "points_lost")
    play = [d.name for d in game.decisions].index("play")
    # Where greedy would have played another card, the difference counts, and only in the play's column.
    assert greedy[:, play].any() and not np.delete(greedy, play, axis=1).any()
    # The first game alone: valued as in the whole record, and the second game's decisions not graded at all.
    import sims.core.record as record

    grades, grade = [], record.grade
    monkeypatch.setattr(record, "grade", lambda *args, **kw: grades.append(1) or grade(*args, **kw))
    first = identity_gain(game, tmp_path / "r.jsonl", 0, {**best, "play": "greedy"}, 20, 0, "points_lost", games=1)
    alone = len(grades)
    identity_gain(game, tmp_path / "r.jsonl", 0, {**best, "play": "greedy"}, 20, 0, "points_lost")
    assert np.array_equal(first, greedy[:1]) and 0 < alone < len(grades) - alone


def test_the_check_against_other_players_values_the_advisors_own_games():
    """``against`` seats the maxims in the other seats (the mirror too); ``identity_games`` adds the identity's
    estimate over that many games a seat; a decision the game does not have is one line."""
    result = check(
        "allfours",
        games=2,
        seed=1,
        samples=8,
        review_games=0,
        review_samples=16,
        against={"play": "maxims"},
        identity_games=2,
    )
    assert result["strongest"]["play"] == "maxims" and result["identity"].n == 2
    parts = result["identity_by_decision"]
    assert list(parts) == ["beg", "answer", "play", "discard"] and all(v.n == 2 for v in parts.values())
    assert sum(v.estimate for v in parts.values()) == pytest.approx(result["identity"].estimate)
    text = render(result)
    assert "by its own values" in text and "of which by decision:          beg " in text
    with pytest.raises(ValueError, match="allfours's decisions are beg, answer, play, discard, got 'lead'"):
        check("allfours", games=2, against={"lead": "maxims"})


def test_duel_against_the_advisor(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    with pytest.raises(SystemExit) as stop:  # the person quit at the first decision
        main(["duel", "--game", "allfours", "--against", "advisor:samples=20", "--seed", "2"])
    out = capsys.readouterr().out
    assert stop.value.code == 1
    assert "the others play the advisor's best choice at every decision (advisor:samples=20)" in out
    assert main(["duel", "--game", "allfours", "--against", "advisor:deep=1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_advisors_deciding_again_gain_the_reviews_loss_wherever_the_advisor_is_exact(monkeypatch, capsys):
    """The review's loss is what its best choice gains; an advisor deciding again on fewer deals gains the same
    where every deal is enumerated (it picks the same best), and elsewhere what its own pick is worth.  Measuring
    the decisions again runs for minutes in a real check: a bar counts them on standard error."""
    monkeypatch.setattr("sims.core.progress.DELAY", 0.0)  # the bars at once, not after two seconds
    game = get_game("cribbage")
    players = [AdvisorPlayer(game, 8, (0, k)) for k in range(2)]
    out = predicted_gain(game, game.get_rules("five-card"), 3, 1, 20, progress=True, chooser=players)
    assert "measured again" in capsys.readouterr().err
    rows = out.attrs["reviewed"]
    exact = rows[(rows["points_lost_se"] == 0) & rows["best"].notna()]
    assert len(exact) >= 4 and (exact["lost"] > 0).any()
    assert np.allclose(exact["chosen"], exact["lost"])
    assert out["chosen"].sum() == pytest.approx(rows["chosen"].sum())
    assert (rows["chosen"] <= rows["lost"] + 1e-12).all()  # no pick beats the review's best by its own values
    text = render(
        check(
            "cribbage",
            rules="five-card",
            games=0,
            seed=3,
            samples=8,
            review_games=1,
            review_samples=20,
            chooser_seeds=2,
        )
    )
    assert "the same, deciding on 8 deals:" in text and "2 seeds" in text


def test_the_check_plays_out_every_value_with_the_playout_it_is_given(monkeypatch, capsys):
    """``playout`` reaches every valuation of the check: the review, the losses measured again and the advisors
    deciding again (the advisor at the table: the next test); a bad one is one line before any game (exit status 2
    on the command line)."""
    import sims.allfours.advice as advice

    given, advise = [], advice.advise  # (deals, play-outs) of each valuation
    monkeypatch.setattr(
        advice, "advise", lambda *a, **kw: given.append((kw["samples"], kw.get("playout"))) or advise(*a, **kw)
    )
    playout = {"play": "maxims"}
    result = check(
        "allfours", games=0, seed=1, samples=8, review_games=1, review_samples=16, chooser_seeds=1, playout=playout
    )
    assert result["playout"] == playout and result["reviewed"] > 0
    valued = [p for samples, p in given if samples > 2]  # two deals: which column the frame has, nothing valued
    assert len(valued) > result["reviewed"] and all(p == playout for p in valued)
    assert render(result).splitlines()[0].endswith("seats exchanged; play-outs play=maxims")
    with pytest.raises(ValueError, match="nope"):
        check("allfours", games=2, playout={"play": "nope"})
    from sims.core.advisor_check import main as check_main

    for bad in (["--playout", "play=nope"], ["--playout", "play="], ["--against", "maxims"]):
        with pytest.raises(SystemExit) as stop:
            check_main(["--game", "allfours", "--games", "2", *bad])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and err.count("\n") == 1, err


def test_an_advisor_player_values_its_choices_with_its_playout():
    """Two-hand All Fours, the eldest's lead before any card is played: with maxims play-outs the player plays the
    best card of the advisor's frame with those play-outs (QC here), not that of its own play-outs (5S)."""
    from sims.allfours.advice import advise

    situation = PlaySituation(hand="JH 2H QC 10C 5S 3D", turned="7H", role="eldest")
    player = AdvisorPlayer("allfours", samples=24, seed=1, playout={"play": "maxims"})
    seed = int(np.random.default_rng(1).integers(2**62))
    frame = advise(situation, playout={"play": "maxims"}, samples=24, seed=seed, policies=())
    assert player.choose(situation) == frame.iloc[0][choice_column(frame)] == "QC"
    assert AdvisorPlayer("allfours", samples=24, seed=1).choose(situation) == "5S"
