"""``sims policies`` lists every built-in policy of every game with its parameters and defaults."""

import json

from sims.cli import main
from sims.core.registry import get_game, names


def run(capsys, *argv):
    code = main(["policies", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_registered_policy_is_listed_with_its_defaults(capsys):
    code, out, _ = run(capsys, "--json")
    rows = json.loads(out)["policies"]
    assert code == 0
    listed = {(r["game"], r["decision"], r["policy"]) for r in rows if r["plugin"] is None}  # plug-ins: test_plugins
    expected = {(g, d, p) for g in names() for d, table in get_game(g).policies.items() for p in table}
    assert listed == expected
    maxims = next(r for r in rows if r["game"] == "allfours" and r["policy"] == "maxims")
    assert maxims["params"] == {"knave": 1.0, "tens": 1.0, "best_cards": 1.0, "eldest_trumps": 1.0}
    assert set(maxims["takes"].values()) == {"0 (off) or 1 (on)"}
    rollout = next(r for r in rows if r["policy"] == "rollout")
    assert rollout["takes"] == {"samples": "a whole number from 1 to 2,147,483,647", "margin": "a number of at least 0"}
    net = next(r for r in rows if r["policy"] == "expected_net")
    assert net["params"]["table"] == "schell" and {"hessel", "self_play"} <= set(net["params"]["tables"])
    only_two = {(r["game"], r["decision"], r["policy"]) for r in rows if r["players"] == [2]}
    assert only_two == {("cribbage", d, p) for d in ("discard", "peg") for p in ("position", "position_distilled")}
    assert all(r["players"] in ([], [2]) for r in rows)
    defaults = {(r["game"], r["decision"]) for r in rows if r["default"]}
    assert defaults == {(g, d.name) for g in names() for d in get_game(g).decisions}


def test_one_game_as_text(capsys):
    code, out, _ = run(capsys, "--game", "loo")
    assert code == 0 and out.startswith("loo --declare") and "cribbage" not in out and "allfours" not in out
    assert "      samples=24 (a whole number from 1 to 2,147,483,647)" in out.splitlines()
    code, out, _ = run(capsys, "--game", "cribbage")
    assert (
        "  position (2 players only): weigh points for and against by the board-position tables (defensive far "
        "from home)" in out.splitlines()
    )


def test_an_unknown_game_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "--game", "whist")
    assert code == 2 and "unknown game 'whist'" in err and len(err.strip().splitlines()) == 1
