"""``sims discard``: the table a player reads, its JSON, the flags, progress, and one-line errors."""

from __future__ import annotations

import json

import pytest

from sims.cli import main
from sims.cribbage.discards import advise
from sims.cribbage.rules import get_rules

HAND = ["5H", "5S", "JD", "6C", "4H", "KD"]


def _run(capsys, *argv):
    assert main(["discard", *HAND, *argv]) == 0
    return capsys.readouterr()


def _table(text):
    """The table's header and rows: from the line starting ``rank`` to the first blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    end = lines.index("", start)
    return lines[start], lines[start + 1 : end]


def test_table_states_the_question_the_sort_key_and_ranks(capsys):
    out = _run(capsys, "--dealer", "--crib", "exact").out
    lines = out.splitlines()
    assert (
        lines[0] == "5H 5S JD 6C 4H KD, dealer, six-card: 15 throws in 12 rows (suit-equivalent throws share a "
        "row; --all lists each)"
    )
    assert lines[1].startswith("sorted by net = hand + crib (exact, the others throwing at random), best first")
    head, rows = _table(out)
    assert head.split()[:8] == ["rank", "thrown", "kept", "throws", "hand", "min-max", "crib:exact", "net:exact"]
    assert rows[0].split()[:11] == ["1", "JD", "KD", "5H", "5S", "6C", "4H", "1", "15.957", "12-24", "4.003"]
    assert "19.960" in rows[0] and "4:24 6:24 5:23" in rows[0]
    third = next(r for r in rows if r.split()[1:3] == ["5H", "JD"])
    assert third.split()[7] == "2" and third.endswith("5S JD")  # two throws, the other named
    assert "   1  5H 5S 6C 4H  12x8 14x16 16x14 23x2 24x6" in lines  # the distribution over the 46 starters


def test_all_lists_every_throw(capsys):
    head, rows = _table(_run(capsys, "--pone", "--all").out)
    assert len(rows) == 15 and "throws" not in head.split() and "same as" not in head


def test_json_carries_the_question_and_the_rows(capsys):
    result = json.loads(_run(capsys, "--pone", "--crib", "exact", "--json").out)
    assert result["hand"] == HAND and result["role"] == "pone"
    assert result["rules"] == get_rules("six-card").to_dict()
    assert result["crib"] == [{"name": "exact", "kind": "exact", "title": "exact, the others throwing at random"}]
    assert result["sort"]["column"] == "net" and result["collapsed"] and result["throws"] == 15
    want = advise(" ".join(HAND), "pone").to_dict()["rows"]
    assert len(result["rows"]) == len(want) == 12
    for got, row in zip(result["rows"], want):
        assert got["thrown"] == row["thrown"] and got["kept"] == row["kept"]
        assert (got["hand"], got["crib"], got["net"], got["vs_best"]) == (
            row["hand"],
            row["crib"],
            row["net"],
            row["vs_best"],
        )
        assert {int(k): v for k, v in got["hand_dist"].items()} == row["hand_dist"]
    assert result["rows"][0]["net"] == pytest.approx(result["rows"][0]["hand"] - result["rows"][0]["crib"])


def test_the_default_crib_source_is_the_self_play_table_and_says_so(capsys):
    """By default the others throw as competent players do: the self-play table ranks the throws, and the
    output names that default (text and JSON)."""
    result = json.loads(_run(capsys, "--dealer", "--json").out)
    assert [source["name"] for source in result["crib"]] == ["self_play"]
    assert result["defaults"] == {"crib": "self_play"}
    want = advise(" ".join(HAND), "dealer", crib="self_play").to_dict()["rows"]
    assert result["rows"] == json.loads(json.dumps(want))
    assert json.loads(_run(capsys, "--dealer", "--crib", "exact", "--json").out)["defaults"] == {}
    out = _run(capsys, "--dealer").out
    assert "sorted by net = hand + crib (the shipped six-card self-play table)" in out
    assert out.rstrip().endswith("default crib source: self_play (--crib exact: the others throw at random)")


def test_crib_sources_side_by_side_first_ranks(capsys):
    out = _run(capsys, "--dealer", "--crib", "schell,exact,hessel").out
    head, rows = _table(out)
    names = head.split()
    assert (
        names.index("crib:schell") < names.index("net:schell") < names.index("crib:exact") < names.index("crib:hessel")
    )
    assert "sorted by net = hand + crib (M. Schell's published table)" in out
    assert "crib:schell: M. Schell's published table, by the ranks thrown" in out
    assert len(rows) == 12
    result = json.loads(_run(capsys, "--dealer", "--crib", "schell,exact,hessel", "--json").out)
    nets = [row["net"] for row in result["rows"]]  # the first source's, whichever it is
    assert nets == sorted(nets, reverse=True) and result["sort"]["column"] == "net"
    assert [s["name"] for s in result["crib"]] == ["schell", "exact", "hessel"]
    assert {"crib_exact", "net_exact", "crib_hessel", "net_hessel"} <= set(result["rows"][0])


def test_the_readme_example_opponent_policy(capsys):
    result = json.loads(_run(capsys, "--pone", "--opponent", "expected_net", "--samples", "200", "--json").out)
    policy, exact = result["crib"]
    assert (policy["name"], policy["kind"], policy["samples"], policy["seed"]) == ("expected_net", "policy", 200, 0)
    assert policy["policy"]["params"]["table"] == "schell" and exact["name"] == "exact"
    assert result["sort"]["column"] == "net"
    row = result["rows"][0]
    assert row["net"] == pytest.approx(row["hand"] - row["crib"])
    assert row["crib_se"] > 0 and row["net_exact"] == pytest.approx(row["hand"] - row["crib_exact"])


def test_rule_changes_reach_the_advice(capsys):
    # A four-card crib flush (the Article's period option): laying out two hearts gains crib points.
    result = json.loads(_run(capsys, "--dealer", "--rule", "crib_flush_four=true", "--crib", "exact", "--json").out)
    assert result["rules"]["crib_flush_four"] is True
    want = advise(" ".join(HAND), "dealer", get_rules("six-card").replace(crib_flush_four=True)).to_dict()["rows"]
    plain = advise(" ".join(HAND), "dealer").to_dict()["rows"]
    assert [r["crib"] for r in result["rows"]] == [r["crib"] for r in want]
    hearts = next(r["crib"] for r in want if r["thrown"] == ["5H", "4H"])
    assert hearts > next(r["crib"] for r in plain if r["thrown"] == ["5H", "4H"])


def test_pegging_and_total(capsys):
    out = _run(capsys, "--dealer", "--pegging", "--samples", "100", "--sort", "total", "--quiet").out
    head, rows = _table(out)
    assert {"pegging", "total"} <= set(head.split())
    assert (
        "pegging: the player's side's pegging (play and go) less the other side's, per deal; everyone pegs by "
        "defensive, the others lay out by expected_net; 100 sampled deals (seed 0)" in out
    )
    result = json.loads(_run(capsys, "--dealer", "--peg", "greedy", "--samples", "100", "--json").out)
    assert result["pegging"]["policy"]["name"] == "greedy" and "pegging" in result["rows"][0]


def test_progress_on_stderr_unless_quiet(capsys, monkeypatch):
    from sims.core import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert "sampling deals" in _run(capsys, "--dealer", "--opponent", "random", "--samples", "200").err
    assert _run(capsys, "--dealer", "--opponent", "random", "--samples", "200", "--quiet").err == ""
    assert _run(capsys, "--dealer").err == ""  # nothing sampled, nothing to report


@pytest.mark.parametrize(
    "argv, message",
    [
        (["5H", "5S", "JD", "6C", "4H", "--dealer"], "six-card deals 6 cards"),
        (["5H", "5S", "JD", "6C", "4H", "4H", "--dealer"], "duplicate card 4H"),
        ([*HAND, "--dealer", "--opponent", "nope"], "unknown crib source 'nope'"),
        ([*HAND, "--dealer", "--crib", "exact,nobody"], "unknown crib source 'nobody'"),
        ([*HAND, "--dealer", "--sort", "total"], "needs a pegging policy"),
        ([*HAND, "--dealer", "--peg", "nope"], "unknown peg policy 'nope'"),
        ([*HAND, "--dealer", "--rule", "colour=red"], "unknown rules field 'colour'"),
        ([*HAND, "--role", "second"], "unknown role 'second' for six-card"),
        (
            [*HAND, "--dealer", "--opponent", "random", "--samples", "1"],
            "samples must be an integer from 2 to 100,000",
        ),
    ],
)
def test_errors_one_line_exit_2(capsys, argv, message):
    assert main(["discard", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("sims discard: error:")


@pytest.mark.parametrize("argv", [["--dealer", "--pone"], []])
def test_needs_exactly_one_role(capsys, argv):
    assert main(["discard", *HAND, *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--dealer" in err
