"""``sims discard --score``: each throw's chance of winning the game from a board position, merged with the
advisor's rows (sims.cribbage.discards, sims.cribbage.odds.throws), its JSON, its sort and its one-line errors."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from sims.cli import main
from sims.cribbage.discards import DEFAULT_CRIB, advise, analyze_discards
from sims.cribbage.odds.layout import DEFAULT_PLAYERS
from sims.cribbage.odds.throws import throw_win_chances

HAND = "5H 5S JD 6C 4H KD"


@pytest.mark.parametrize(
    "rules, hand, role, score",
    [
        ("six-card", HAND, "dealer", (95, 110)),
        ("six-card", HAND, "pone", (95, 110)),
        ("six-card-61", "AC 2D 3H 9S 10S QC", "pone", (50, 12)),
        ("five-card", "5H 5D 9C 6S 6D", "dealer", (40, 55)),
    ],
)
def test_every_throw_has_the_odds_function_s_chance(rules, hand, role, score):
    frame = analyze_discards(hand, role, rules, score=score, collapse=False)
    chances = throw_win_chances(hand, role, *score, rules).set_index("thrown")["win"]
    assert len(frame) == len(chances)
    for thrown, win in zip(frame["thrown"], frame["win"]):
        assert win == chances[thrown]
    assert frame.attrs["score"]["dealer"] == score[0] and frame.attrs["score"]["pone"] == score[1]


@pytest.mark.parametrize("rules, role, score", [("six-card", "dealer", (95, 110)), ("six-card-61", "pone", (40, 45))])
def test_the_chance_comes_from_the_table_of_the_players_asked_for(capsys, rules, role, score):
    from sims.cribbage.odds.table import shipped_table

    players = "expected_net+defensive"  # not the default players: asked for
    frame = analyze_discards(HAND, role, rules, score=score, players=players, collapse=False).set_index("thrown")
    # The same chances from the players' table handed to the odds function as a table of its own.
    theirs = throw_win_chances(HAND, role, *score, rules, tables=[shipped_table(rules, players)]).set_index("thrown")
    assert frame["win"].to_dict() == theirs["win"].to_dict()
    assert frame.attrs["score"]["players"] == players
    assert "expected_net + defensive self-play" in frame.attrs["score"]["win"]
    default = analyze_discards(HAND, role, rules, score=score, collapse=False).set_index("thrown")
    assert default.attrs["score"]["players"] == DEFAULT_PLAYERS == "expected_peg+distilled"
    assert (default["win"] != frame["win"]).any()  # another table, other chances
    # Pegging by defensive asks for the players who peg by defensive: their table, named in the output.
    position = "-".join(map(str, score if role == "dealer" else score[::-1]))  # --score is MINE-THEIRS
    assert (
        main(
            [
                "discard",
                *HAND.split(),
                f"--{role}",
                "--rules",
                rules,
                "--score",
                position,
                "--peg",
                "defensive",
                "--samples",
                "200",
                "--all",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["score"]["players"] == players
    assert {" ".join(r["thrown"]): r["win"] for r in result["rows"]} == frame["win"].to_dict()
    assert (
        main(["discard", *HAND.split(), f"--{role}", "--rules", rules, "--score", position, "--players", players]) == 0
    )
    assert "board-position table (expected_net + defensive self-play)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "rules, hand, role, score",
    [
        ("six-card", HAND, "dealer", (95, 110)),
        ("six-card", "JH 2H 4H 6H KC KD", "pone", (110, 100)),
        ("six-card", "5C 5D 5H JS 10D 4C", "dealer", (116, 118)),
        ("five-card", "5H 5D 9C 6S 6D", "dealer", (40, 55)),
    ],
)
def test_suit_equivalent_throws_share_a_row_and_a_chance(rules, hand, role, score):
    every = analyze_discards(hand, role, rules, score=score, collapse=False).set_index("thrown")
    rows = analyze_discards(hand, role, rules, score=score)
    for _, row in rows.iterrows():
        for other in filter(None, row["same_as"].split(", ")):
            assert every.loc[other, "win"] == pytest.approx(row["win"], abs=1e-9)
    # the chance splits no row: the rows are those of the advice without a score
    assert list(rows["thrown"].sort_values()) == list(analyze_discards(hand, role, rules)["thrown"].sort_values())


@pytest.mark.parametrize("role, score", [("dealer", (95, 110)), ("pone", (60, 80))])
def test_the_chance_s_standard_error_is_the_table_s_moved_by_its_errors(role, score):
    # Each throw's chance is linear in the table's cells with one sign for a role, so moving every cell by k
    # standard errors moves the chance by k times win_se: checked at k = 1 and 2 with the kernel itself.
    from sims.cribbage.odds.table import shipped_table

    table = shipped_table("six-card", DEFAULT_PLAYERS)
    frame = throw_win_chances(HAND, role, *score).set_index("thrown")
    for k in (1.0, 2.0):
        moved = dataclasses.replace(table, win=table.win + k * table.win_se)
        shifted = throw_win_chances(HAND, role, *score, tables=[moved]).set_index("thrown")["win"]
        want = (shifted - frame["win"]).abs()
        assert np.allclose(want, k * frame["win_se"], rtol=1e-6, atol=1e-12)
    assert (frame["win_se"] > 0).all() and (frame["win_se"] < 0.01).all()
    half = table.half_width * frame["win_se"]
    assert np.allclose(frame["win_lo"], frame["win"] - half) and np.allclose(frame["win_hi"], frame["win"] + half)


def test_a_decided_game_has_no_error():
    # The dealer on 120 against love wins with every throw (below): no table cell enters the chance. Two
    # points from home against a pone on 120, the throws' chances rest on the table and have an error.
    frame = throw_win_chances(HAND, "dealer", 120, 0)
    assert (frame["win"] > 1 - 1e-12).all() and (frame["win_se"] < 1e-12).all() and (frame["win_lo"] > 1 - 1e-9).all()
    close = throw_win_chances(HAND, "dealer", 100, 100)
    assert (close["win_se"] > 0).all() and (close["win_lo"] < close["win"]).all() and (close["win_hi"] <= 1).all()


def test_the_dealer_one_point_from_home_wins_with_any_hand_that_scores():
    # Dealer on 120, pone on love: the pone cannot reach 121 in one deal, so a kept hand that scores with every
    # starter takes the dealer home in the show, whatever the play; so does laying out the pair of fives, which
    # is two in his own crib whatever else it holds.
    frame = analyze_discards(HAND, "dealer", score=(120, 0), collapse=False)
    assert (frame["hand_min"] >= 1).sum() == 14 and frame.loc[frame["hand_min"] == 0, "thrown"].tolist() == ["5H 5S"]
    assert np.allclose(frame["win"], 1.0, atol=1e-9)


def test_the_pone_one_point_from_home_counts_first():
    # Pone on 120, dealer on love: the pone counts his hand before the dealer shows, so a kept hand that scores
    # with every starter wins, and the dealer (who cannot reach 121 this deal) wins only if the pone scores
    # nothing in the whole deal.
    pone = analyze_discards(HAND, "pone", score=(0, 120), collapse=False)
    assert np.allclose(pone.loc[pone["hand_min"] >= 1, "win"], 1.0, atol=1e-9)
    dealer = analyze_discards(HAND, "dealer", score=(0, 120))
    assert (dealer["win"] < 0.05).all()


def test_his_heels_take_a_dealer_two_from_home_out_before_the_play():
    # Dealer on 119, pone on 120: a jack turned is two to the dealer at once (3 jacks unseen of 46 starters).
    frame = analyze_discards(HAND, "dealer", score=(119, 120))
    assert (frame["win"] >= 3 / 46 - 1e-12).all() and (frame["win"] < 1).all()


def test_sort_by_win_ranks_the_chances():
    frame = analyze_discards(HAND, "dealer", score=(95, 110), sort="win")
    assert frame["win"].is_monotonic_decreasing and frame.attrs["sort"]["column"] == "win"
    assert frame["vs_best"].iloc[0] == 0 and frame["vs_best"].iloc[-1] == pytest.approx(
        frame["win"].iloc[-1] - frame["win"].iloc[0]
    )
    with pytest.raises(ValueError, match="needs the score"):
        advise(HAND, "dealer", sort="win")


def test_cli_shows_the_chance_next_to_the_points_and_in_json(capsys):
    assert main(["discard", *HAND.split(), "--dealer", "--score", "95-110", "--crib", "exact"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(
        "5H 5S JD 6C 4H KD, dealer, six-card at 95-110 (yours first: you 95, them 110): 15 throws in 12 rows"
    )
    head = next(line for line in out.splitlines() if line.startswith("rank"))
    assert "net:exact  win %  95% interval" in head
    first = analyze_discards(HAND, "dealer", score=(95, 110)).iloc[0]
    row = next(line for line in out.splitlines() if line.startswith("   1  JD KD"))
    assert (
        f"{first['net']:.3f}  {100 * first['win']:.2f}   {100 * first['win_lo']:.2f}-{100 * first['win_hi']:.2f}" in row
    )
    assert "the dealer on 95 and the pone on 110" in out
    assert main(["discard", *HAND.split(), "--pone", "--score", "95-110", "--sort", "win", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["score"]["dealer"] == 110 and result["score"]["pone"] == 95  # the pone's own score first
    want = advise(HAND, "pone", score=(110, 95), sort="win", crib=DEFAULT_CRIB).to_dict()["rows"]  # ties: by net
    assert [(r["thrown"], r["win"]) for r in result["rows"]] == [(r["thrown"], r["win"]) for r in want]


def test_sorted_by_the_chance_vs_best_is_in_percentage_points_like_the_chance(capsys):
    assert main(["discard", *HAND.split(), "--pone", "--score", "95-110", "--sort", "win"]) == 0  # the pone's first
    lines = capsys.readouterr().out.splitlines()
    frame = analyze_discards(HAND, "pone", score=(110, 95), sort="win")
    second = next(line for line in lines if line.startswith("   2  "))
    win, _, vs_best = second.split()[12:15]  # rank, 2 thrown, 4 kept, throws, hand, min-max, crib, net; interval
    assert (win, vs_best) == (f"{100 * frame['win'].iloc[1]:.2f}", f"{100 * frame['vs_best'].iloc[1]:.2f}")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--dealer", "--score", "95-121"], "score must be an integer 0..120"),
        (["--dealer", "--score", "95:110"], "the score is MINE-THEIRS, your side's score first"),
        (["--dealer", "--score", "95"], "the score is MINE-THEIRS, your side's score first"),
        (["--pone", "--rules", "six-card-61", "--score", "61-0"], "0..60"),
        (["--role", "eldest", "--rules", "three-hand", "--score", "10-20"], "no board-position table"),
        (["--dealer", "--score", "95-110", "--peg", "greedy"], "no board-position table ships for peg by greedy"),
        (
            ["--dealer", "--score", "95-110", "--opponent", "greedy"],
            "no board-position table ships for discard by greedy",
        ),
        (
            ["--dealer", "--score", "95-110", "--players", "expected_peg+distilled", "--peg", "defensive"],
            "the players expected_peg+distilled peg by distilled, not defensive",
        ),
        (["--dealer", "--score", "95-110", "--players", "greedy"], "no tables ship for the players 'greedy'"),
        (["--dealer", "--players", "expected_peg+distilled"], "give the score too"),
        (["--dealer", "--rules", "eight-card", "--score", "10-20"], "no board-position table"),
        (["--dealer", "--rule", "crib_flush_four=true", "--score", "10-20"], "no board-position table"),
        (["--dealer", "--sort", "win"], "needs the score"),
    ],
)
def test_bad_scores_are_one_line_and_exit_2(capsys, argv, message):
    hand = {"three-hand": "5H 5S JD 6C 4H", "eight-card": "5H 5S JD 6C 4H KD 2C 3C"}
    rules = argv[argv.index("--rules") + 1] if "--rules" in argv else "six-card"
    assert main(["discard", *hand.get(rules, HAND).split(), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_score_is_two_numbers():
    with pytest.raises(ValueError, match="two numbers"):
        advise(HAND, "dealer", score=95)
    with pytest.raises(ValueError, match="integer"):
        advise(HAND, "dealer", score=(95.5, 10))
