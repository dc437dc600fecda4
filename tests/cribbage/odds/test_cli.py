"""``sims odds``: the shipped tables, positions, files and figures, building, and one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sims.cli import main
from sims.cribbage.lab.odds.build import win_table
from sims.cribbage.odds import read_table, shipped_table
from sims.cribbage.odds.layout import DEFAULT_PLAYERS, PLAYERS


def run(capsys, *argv):
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_positions_from_the_shipped_table(capsys):
    code, out, _ = run(capsys, "--score", "95-110", "--score", "35-37")
    assert code == 0
    assert "first dealer (before the first deal, 0-0): 56." in out
    assert "shipped table: expected_peg + distilled in self-play" in out  # the default players
    assert "   95-110" in out and "   35-37" in out
    code, out, _ = run(capsys, "--rules", "five-card", "--score", "50-3", "--json")
    result = json.loads(out)
    assert code == 0 and result["first_dealer"]["pone"] == 3 and result["positions"][0]["win"] > 0.99


@pytest.mark.parametrize(
    "argv, players",
    [
        (["--players", "expected_peg+distilled"], "expected_peg+distilled"),
        (["--peg", "distilled"], "expected_peg+distilled"),
        (["--discard", "expected_peg", "--players", "expected_peg+distilled"], "expected_peg+distilled"),
        (["--discard", "expected_net"], "expected_net+defensive"),
        (["--players", "expected_net+defensive"], "expected_net+defensive"),
        ([], "expected_peg+distilled"),
    ],
)
def test_the_table_of_the_players_asked_for(capsys, argv, players):
    code, out, _ = run(capsys, "--rules", "six-card-61", "--score", "50-55", *argv, "--json")
    result = json.loads(out)
    table = shipped_table("six-card-61", players)
    policies = PLAYERS[players]
    assert code == 0 and result["players"] == players and result["policies"] == policies
    assert result["positions"][0]["win"] == table.at(50, 55)["win"] and result["deals"] == table.provenance["n"]
    # The file's own provenance names the players: both seats play the same policies, those of the name.
    assert {d: {s["name"] for s in seats} for d, seats in table.provenance["policies"].items()} == {
        d: {name} for d, name in policies.items()
    }
    code, out, _ = run(capsys, "--rules", "six-card-61", *argv)
    assert f"shipped table: {policies['discard']} + {policies['peg']} in self-play, 1,000,000 deals" in out


def test_the_shipped_tables_of_other_players_differ():
    # Two tables of different players' self-play, from the same deals (seed 0): the first dealer's chance
    # differs by more than both intervals, so the choice of players is not a label only.
    old, new = shipped_table("six-card"), shipped_table("six-card", "expected_peg+distilled")
    gap = abs(new.at(0, 0)["win"] - old.at(0, 0)["win"])
    assert gap > 2 * (old.half_width * old.win_se[0, 0] + new.half_width * new.win_se[0, 0])


def test_the_board_as_a_grid_a_file_and_a_figure(capsys, tmp_path):
    from matplotlib.image import imread

    from sims.cribbage.odds.figure import save_heatmap

    code, out, _ = run(
        capsys, "--rules", "six-card-61", "--out", str(tmp_path / "t.csv"), "--figure", str(tmp_path / "t.png")
    )
    assert code == 0 and "dealer wins (%) by dealer's score" in out
    # The file holds the shipped table at every position (to the CSV's six significant digits), and the figure is
    # the heatmap of that table drawn in this process, pixel for pixel.
    shipped = shipped_table("six-card-61", DEFAULT_PLAYERS)
    written = read_table(tmp_path / "t.csv", "six-card-61")
    for name in ("win", "win_se", "game_points", "game_points_se"):
        np.testing.assert_allclose(getattr(written, name), getattr(shipped, name), rtol=5e-6, atol=1e-12)
    direct = save_heatmap(shipped, tmp_path / "direct.png")
    assert np.array_equal(imread(tmp_path / "t.png"), imread(direct))
    code, out, _ = run(
        capsys, "--rules", "six-card-61", "--table", str(tmp_path / "t.csv"), "--score", "60-0", "--json"
    )
    assert code == 0
    (read_back,) = json.loads(out)["positions"]
    assert (read_back["dealer"], read_back["pone"]) == (60, 0)
    assert read_back["win"] == pytest.approx(shipped.at(60, 0)["win"], abs=5e-7)  # the table as shipped


def test_building_a_table(capsys):
    code, out, _ = run(
        capsys,
        "--rules",
        "five-card",
        "--build",
        "--deals",
        "4000",
        "--groups",
        "4",
        "--quiet",
        "--score",
        "55-55",
        "--json",
    )
    assert code == 0
    result = json.loads(out)
    assert result["deals"] == 4000 and result["seed"] == 0
    # The same table built from Python, independently of the command line, at the same position.
    direct = win_table("five-card", PLAYERS[DEFAULT_PLAYERS], n_deals=4000, seed=0, groups=4).at(55, 55)
    assert result["positions"][0]["win"] == pytest.approx(direct["win"], abs=1e-12)
    code, out, _ = run(
        capsys, "--rules", "five-card", "--build", "--deals", "4000", "--groups", "4", "--quiet", "--score", "55-55"
    )
    assert code == 0 and "built table" in out and "4,000 deals" in out and f"{100 * direct['win']:.2f}" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--score", "95-121"], "pone's score must be an integer 0..120"),
        (["--score", "95/110"], "--score takes DEALER-PONE"),
        (["--rule", "target=91"], "no table ships for rules 'six-card' with target 91"),
        (["--deals", "10"], "--deals goes with --build"),
        (["--zone", "10"], "--zone goes with --position"),
        (["--rules", "three-hand", "--build", "--deals", "100"], "for two players"),
        (
            ["--players", "greedy+greedy"],
            "no tables ship for the players 'greedy+greedy'; they ship for "
            "expected_net+defensive, expected_peg+distilled",
        ),
        (["--peg", "rollout"], "no board-position table ships for peg by rollout"),
        (
            ["--players", "expected_peg+distilled", "--peg", "defensive"],
            "the players expected_peg+distilled peg by distilled, not defensive",
        ),
        (["--players", "expected_peg+distilled", "--build"], "--players chooses a shipped table"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_table_for_other_rules_is_refused(capsys, tmp_path):
    run(capsys, "--rules", "five-card", "--out", str(tmp_path / "five.parquet"))
    code, _, err = run(capsys, "--rules", "six-card-61", "--table", str(tmp_path / "five.parquet"))
    assert code == 2 and "was made for 'five-card'" in err


def test_the_position_aware_players_table(capsys):
    code, out, _ = run(
        capsys,
        "--rules",
        "five-card",
        "--position",
        "--zone",
        "3",
        "--per-position",
        "10",
        "--deals",
        "4000",
        "--groups",
        "4",
        "--iterate",
        "2",
        "--quiet",
        "--score",
        "58-58",
    )
    assert code == 0 and "position-aware (2 round(s)) table: position in self-play" in out
    assert "round 1: largest change in the zone" in out and "58-58" in out
