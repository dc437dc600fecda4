"""``sims simulate|play|run --game loo``: the core's commands drive Loo from its Game record; bad input is one
line and exit status 2."""

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
        "loo",
        "--rules",
        "five-card-pam",
        "--deals",
        "3000",
        "--declare",
        "always",
        "--exchange",
        "expert",
        "--card",
        "greedy",
        "--quiet",
    )
    assert code == 0, err
    assert "Loo, five-card-pam: 5 players, 3,000 deals" in out and "money conserved: yes" in out


def test_play_sessions_json_with_per_seat_policies(capsys):
    code, out, err = run(
        capsys,
        "play",
        "--game",
        "loo",
        "--rule",
        "players=3",
        "--rule",
        "session_rounds=2",
        "--games",
        "40",
        "--declare",
        "expert,threshold,always",
        "--json",
        "--quiet",
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["game"] == "loo" and summary["session_deals"] == 6 and summary["money"]["conserved"]
    assert [p["name"] for p in summary["policies"]["declare"]] == ["expert", "threshold", "always"]


def test_simulate_clean_deals(capsys):
    code, out, err = run(capsys, "simulate", "--game", "loo", "--deals", "2000", "--clean", "--json", "--quiet")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["clean"] is True and summary["deal"]["carry"]["mean"] == 0


def test_run_store(capsys, tmp_path):
    code, out, err = run(
        capsys,
        "run",
        "--game",
        "loo",
        "--rules",
        "three-card-unlimited",
        "--deals",
        "5000",
        "--out",
        str(tmp_path / "loo"),
        "--quiet",
    )
    assert code == 0, err
    code, out, err = run(
        capsys,
        "run",
        "--game",
        "loo",
        "--rules",
        "three-card-unlimited",
        "--deals",
        "5000",
        "--out",
        str(tmp_path / "loo"),
        "--quiet",
    )
    assert code == 0, err  # the finished run is found again


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rule", "players=12"], "players must be 3 to 10, got 12"),
        (["--rules", "four-card"], "unknown rules 'four-card'"),
        (["--declare", "bold"], "unknown declare policy 'bold'"),
        (["--rule", "stake=4"], "stake must be a positive multiple of 3"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "--game", "loo", "--deals", "10", "--quiet", *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_looed_per_deal_and_pool_quantiles_in_text_and_json(capsys):
    code, out, err = run(capsys, "simulate", "--game", "loo", "--deals", "3000", "--json", "--quiet")
    assert code == 0, err
    summary = json.loads(out)
    assert sum(summary["looed_per_deal"].values()) == pytest.approx(1.0)
    assert {"looed of stands", "looed of deals"} <= set(summary["roles"]["eldest"])
    assert "carried_on" in summary["deal"] and "next_pool" not in summary["deal"]
    code, out, err = run(capsys, "play", "--game", "loo", "--games", "50", "--json", "--quiet")
    pools = json.loads(out)["pool_by_deal"]
    assert len(pools) == 50 and pools[0]["median"] == 1 and {"q25", "q90", "largest"} <= set(pools[0])
    code, out, err = run(capsys, "play", "--game", "loo", "--games", "50", "--quiet")
    assert "players looed in a deal: 0 " in out and "pool by deal of the session" in out
