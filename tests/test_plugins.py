"""Policies from any package (issue 19, item 6): the example plug-in distribution (docs/examples/policy-plugin,
installed by the Makefile) through every command that takes a policy, the dotted-path form, and provenance.

Each check compares the plug-in's policy with the same njit function passed in from Python, so a name that
reached another function (or lost its parameters) would show in the numbers."""

from __future__ import annotations

import hashlib
import inspect
import json

import pytest

from sims.cli import main

pytest.importorskip("policy_plugin", reason="the example plug-in is not installed (make installs it)")

from policy_plugin.loo import low_card  # noqa: E402  (after the skip)
from policy_plugin.pegging import low_peg  # noqa: E402

SOURCE = {
    "module": "policy_plugin.pegging",
    "function": "low_peg",
    "distribution": "sims-example-policy-plugin",
    "version": "0.1.0",
    "sha256": hashlib.sha256(inspect.getsource(low_peg.py_func).encode()).hexdigest(),
}


def cli(capsys, *argv):
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def totals(summary: dict) -> dict:
    return summary["roles"]


def test_sims_policies_lists_the_plugins_with_their_distribution(capsys):
    rows = cli(capsys, "policies")["policies"]
    mine = {(r["game"], r["decision"], r["policy"]): r for r in rows if r["plugin"]}
    assert set(mine) == {("cribbage", "peg", "low_peg"), ("loo", "card", "low_card")}
    assert mine["cribbage", "peg", "low_peg"]["plugin"] == "sims-example-policy-plugin 0.1.0"
    assert mine["cribbage", "peg", "low_peg"]["params"] == {"fifteens": 1.0}
    assert main(["policies", "--game", "cribbage"]) == 0
    assert "  low_peg (plug-in: sims-example-policy-plugin 0.1.0): lay the lowest card" in capsys.readouterr().out


def test_simulate_with_a_plugin_name_plays_its_function_and_names_its_source(capsys):
    from sims.cribbage import simulate_deals

    by_name = cli(
        capsys, "simulate", "--deals", "3000", "--seed", "4", "--discard", "greedy", "--peg", "low_peg", "--quiet"
    )
    direct = simulate_deals(
        "six-card", {"discard": "greedy", "peg": {"name": "py:policy_plugin.pegging.low_peg", "params": [1.0]}}, 3000, 4
    )
    assert totals(by_name) == json.loads(json.dumps(totals(direct.summary)))
    assert by_name["policies"]["peg"][0] == {"name": "low_peg", "params": {"fifteens": 1.0}, "source": SOURCE}
    # its parameter by name changes the play
    off = cli(
        capsys,
        "simulate",
        "--deals",
        "3000",
        "--seed",
        "4",
        "--discard",
        "greedy",
        "--peg",
        "low_peg:fifteens=0",
        "--quiet",
    )
    assert off["policies"]["peg"][0]["label"] == "low_peg:fifteens=0" and totals(off) != totals(by_name)


def test_the_dotted_path_form_on_the_command_line(capsys):
    by_path = cli(
        capsys,
        "simulate",
        "--deals",
        "2000",
        "--seed",
        "2",
        "--peg",
        "py:policy_plugin.pegging.low_peg",
        "--discard",
        "greedy",
        "--quiet",
    )
    by_name = cli(
        capsys, "simulate", "--deals", "2000", "--seed", "2", "--peg", "low_peg", "--discard", "greedy", "--quiet"
    )
    assert totals(by_path) == totals(by_name)  # no parameters: the function's own default (fifteens on)
    assert by_path["policies"]["peg"][0] == {"name": "low_peg", "params": [], "source": SOURCE}


def test_a_loo_plugin_policy(capsys):
    from sims.loo import simulate_deals

    by_name = cli(
        capsys, "simulate", "--game", "loo", "--deals", "2000", "--seed", "1", "--card", "low_card", "--quiet"
    )
    direct = simulate_deals("three-card", {"card": low_card}, 2000, 1)
    assert by_name["money"] == json.loads(json.dumps(direct.summary["money"]))
    assert by_name["policies"]["card"][0]["source"]["distribution"] == "sims-example-policy-plugin"


def test_a_spec_file_names_plugins_and_the_store_records_their_source(capsys, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('deals = 2000\nseed = 3\ndiscard = "greedy"\npeg = ["low_peg", "greedy"]\n')
    out = tmp_path / "run"
    result = cli(capsys, "run", str(spec), "--out", str(out), "--quiet")
    manifest = json.loads((out / "manifest.json").read_text())
    entry = manifest["job"]["policies"]["peg"][0]
    assert entry["plugin"] is True and entry["builtin"] is False and entry["source"] == SOURCE
    assert result["policies"]["peg"][0]["source"] == SOURCE
    from sims.core.spec import job_from_spec

    again = job_from_spec(manifest["job"])  # what a Dask worker and a resume rebuild
    assert again.policies["peg"][0].fn is low_peg and again.policies["peg"][0].params == (1.0,)
    # a store made with a plug-in since uninstalled still reads (its results), but cannot run again
    gone = json.loads(json.dumps(manifest["job"]))
    gone["policies"]["peg"][0]["name"] = "uninstalled_peg"
    kept = job_from_spec(gone, import_functions=False).policies["peg"][0]
    assert kept.params == (1.0,) and kept.describe()["source"] == SOURCE
    with pytest.raises(
        ValueError, match="unknown peg policy 'uninstalled_peg' in the spec .a plug-in's: is its distribution installed"
    ):
        job_from_spec(gone)


def test_a_spec_file_names_a_path_only_with_allow_import(capsys, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('deals = 1000\npeg = "py:policy_plugin.pegging.low_peg"\n')
    assert main(["run", str(spec), "--out", str(tmp_path / "refused"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "names a function by path" in err and "--allow-import" in err and err.count("\n") == 1
    assert not (tmp_path / "refused").exists()
    result = cli(capsys, "run", str(spec), "--allow-import", "--out", str(tmp_path / "allowed"), "--quiet")
    assert result["policies"]["peg"][0]["source"] == SOURCE


def test_round_robin_and_strength_take_plugins(capsys):
    result = cli(capsys, "round-robin", "--policies", "greedy+low_peg,greedy+greedy", "--games", "40", "--quiet")
    assert result["combos"] == ["greedy+low_peg", "greedy+greedy"] and len(result["pairs"]) == 2
    assert sum(row["wins"] for row in result["pairs"]) == 40
    strength = cli(capsys, "strength", "--policies", "greedy+low_peg", "--deals", "1000", "--games", "20", "--quiet")
    assert {row["combo"] for row in strength["rows"]} == {"greedy+low_peg"}


def test_review_grades_with_a_plugin_playout(capsys):
    from sims.core.record import review
    from sims.cribbage.record import EXAMPLE

    by_name = cli(capsys, "review", str(EXAMPLE), "--samples", "50", "--playout", "low_peg")
    direct = review(EXAMPLE, 50, 0, playout=low_peg)
    assert [d["points_lost"] for d in by_name["decisions"]] == list(direct["points_lost"])
    default = review(EXAMPLE, 50, 0)
    peg_rows = direct["decision"] == "peg"
    assert not direct[peg_rows]["points_lost"].equals(default[peg_rows]["points_lost"])


def test_the_advisors_take_plugins(capsys):
    position = ["peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer"]
    by_name = cli(capsys, *position, "--playout", "low_peg")
    by_path = cli(capsys, *position, "--playout", "py:policy_plugin.pegging.low_peg")
    default = cli(capsys, *position)
    assert by_name["playout"] == "low_peg" and by_name["rows"] == by_path["rows"] != default["rows"]
    hand = ["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer", "--samples", "200", "--quiet"]
    discard = cli(capsys, *hand, "--peg", "low_peg")
    assert discard["pegging"]["policy"]["name"] == "low_peg"
    assert [r["pegging"] for r in discard["rows"]] != [r["pegging"] for r in cli(capsys, *hand, "--pegging")["rows"]]
