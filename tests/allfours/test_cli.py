"""``sims simulate|play|run --game allfours``: the core's commands drive All Fours from its Game record; bad
input is one line and exit status 2."""

import json

import pytest

from sims.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate(capsys):
    code, out, err = run(
        capsys,
        "simulate",
        "--game",
        "allfours",
        "--deals",
        "4000",
        "--play",
        "maxims",
        "--beg",
        "threshold",
        "--answer",
        "threshold",
        "--quiet",
    )
    assert code == 0, err
    assert "two-hand to 10: 4,000 deals" in out and "jack" in out and "per hand: begs" in out


def test_play_json_with_per_seat_policies_and_rule_changes(capsys):
    code, out, err = run(
        capsys,
        "play",
        "--game",
        "allfours",
        "--rules",
        "seven-up",
        "--rule",
        "game_tie=dealer",
        "--games",
        "300",
        "--play",
        "maxims,greedy",
        "--json",
        "--quiet",
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["game"] == "allfours" and summary["rules"]["target"] == 7
    assert summary["rules"]["game_tie"] == "dealer"
    assert [p["name"] for p in summary["policies"]["play"]] == ["maxims", "greedy"]
    assert 0 < summary["win_rate"]["seat 0"]["rate"] < 1 and summary["unfinished"] == 0


def test_agreement_option(capsys):
    code, out, err = run(
        capsys, "simulate", "--game", "allfours", "--deals", "2000", "--play", "greedy", "--agreement", "--quiet"
    )
    assert code == 0, err
    assert "seat 0 agrees with the maxims [95% interval: Wilson score]: i knave" in out


def test_run_store(capsys, tmp_path):
    argv = (
        "run",
        "--game",
        "allfours",
        "--rules",
        "four-hand",
        "--kind",
        "games",
        "--games",
        "400",
        "--out",
        str(tmp_path / "af"),
        "--quiet",
    )
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    code, again, err = run(capsys, *argv)
    assert code == 0 and again == out  # the finished run is found again, same numbers


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rules", "three-hand"], "unknown rules 'three-hand'; presets: two-hand, four-hand, seven-up"),
        (["--rule", "players=3"], "players must be 2, or 4 playing as partners, got 3"),
        (["--rule", "tarket=3"], "unknown rules field 'tarket'"),
        (["--play", "clever"], "unknown play policy 'clever'"),
        (["--rules", "four-hand", "--play", "random,greedy"], "play: got 2 policies for 4 seats"),
        (["--answer", "give,run,run"], "answer: got 3 policies for 2 seats"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "--game", "allfours", "--deals", "10", "--quiet", *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_simulate_json_gives_every_count_of_a_hand(capsys):
    """The counts players ask about (the knave and the trumps in play, the knaves turned running) are in the text
    and in --json, each a mean per hand with its standard error; without begging the knave is in play in
    48/52 * 12/51 of hands (tests/allfours/test_labels.py checks it at size)."""
    from sims.allfours.play import EVENTS

    code, out, err = run(
        capsys, "simulate", "--game", "allfours", "--deals", "20000", "--rule", "begging=false", "--json", "--quiet"
    )
    assert code == 0, err
    events = json.loads(out)["events_per_hand"]
    assert list(events) == list(EVENTS)
    assert abs(events["knave in play"]["mean"] - 48 / 52 * 12 / 51) < 4 * events["knave in play"]["se"]
    code, out, err = run(capsys, "simulate", "--game", "allfours", "--deals", "2000", "--quiet")
    assert "knave in play" in out and "trumps in play" in out and "knaves turned running" in out


def test_holdings_option_text_and_json(capsys):
    """--holdings: each point's chance for the holder's side by what he holds, in the text and in --json."""
    code, out, err = run(capsys, "simulate", "--game", "allfours", "--deals", "2000", "--holdings", "--quiet")
    assert code == 0, err
    assert "chance of each point to the holder's side" in out and "holds the knave" in out
    code, out, err = run(capsys, "simulate", "--game", "allfours", "--deals", "2000", "--holdings", "--json", "--quiet")
    assert code == 0, err
    rows = json.loads(out)["points_by_holding"]
    ace = next(r for r in rows if r["side"] == "eldest" and r["value"] == "A")
    assert ace["high"] == 1.0 and {"low", "jack", "game", "hands", "high lo", "high hi"} <= set(ace)
