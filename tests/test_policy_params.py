"""Built-in policies' parameters changed by name: ``maxims:knave=0`` on the command line,
``{"name": ..., "params": {...}}`` from Python, and the label that names the change."""
import numpy as np
import pytest

import sims
from sims.cli import main
from sims.core.jobs import parse_policy, resolve_one
from sims.core.registry import get_game


def test_a_change_by_name_is_the_full_vector_with_that_value():
    game = get_game("allfours")
    by_name = resolve_one(game, "play", "maxims:knave=0:tens=0")
    full = resolve_one(game, "play", {"name": "maxims", "params": [0, 0, 1, 1]})
    assert by_name.params == full.params == (0.0, 0.0, 1.0, 1.0)
    assert by_name.label() == "maxims:knave=0:tens=0"
    assert resolve_one(game, "play", {"name": "maxims", "params": {"knave": 0, "tens": 0}}).params == full.params


def test_a_table_is_chosen_by_name():
    from sims.cribbage.crib_tables import named_tables

    policy = resolve_one(get_game("cribbage"), "discard", "expected_net:table=hessel")
    assert policy.params == tuple(float(v) for v in named_tables()["hessel"])
    assert policy.describe()["params"]["table"] == "hessel" and policy.label() == "expected_net:table=hessel"
    assert resolve_one(get_game("cribbage"), "discard", "expected_net").label() == "expected_net"


@pytest.mark.parametrize("label", ["maxims:best_cards=0", "expert:samples=4:max_nodes=5000", "threshold:strength=3"])
def test_the_label_reads_back_as_the_same_policy(label):
    game = get_game("allfours")
    decision = "beg" if label.startswith("threshold") else "play"
    policy = resolve_one(game, decision, label)
    assert resolve_one(game, decision, policy.label()).params == policy.params
    assert parse_policy(policy.label(), decision)[0] == label.split(":")[0]


def test_the_changed_maxim_changes_the_play_and_the_record_names_it():
    plain = sims.simulate("allfours", "deals", "two-hand", {"play": "maxims"}, 4000, seed=3)
    changed = sims.simulate("allfours", "deals", "two-hand", {"play": "maxims:knave=0"}, 4000, seed=3)
    same = sims.simulate("allfours", "deals", "two-hand", {"play": {"name": "maxims", "params": [0, 1, 1, 1]}},
                         4000, seed=3)
    assert not plain.table().equals(changed.table())
    pd_changed, pd_same = changed.table(), same.table()
    assert np.array_equal(pd_changed["mean"].to_numpy(), pd_same["mean"].to_numpy())
    assert changed.summary["policies"]["play"][0]["label"] == "maxims:knave=0"
    assert "label" not in plain.summary["policies"]["play"][0]


@pytest.mark.parametrize("flag, message", [
    ("maxims:knav=0", "has no parameter 'knav' (it takes knave, tens, best_cards, eldest_trumps)"),
    ("maxims:knave", "write NAME:PARAM=VALUE"),
    ("maxims:knave=x", "parameter 'knave' must be a number, got 'x'"),
    ("greedy:a=1", "it takes no parameters"),
])
def test_a_bad_change_is_one_line_and_exit_2(capsys, flag, message):
    assert main(["simulate", "--game", "allfours", "--deals", "100", "--play", flag, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_an_unknown_table_lists_the_known_ones(capsys):
    assert main(["simulate", "--deals", "100", "--discard", "expected_net:table=nope", "--quiet"]) == 2
    assert "takes a table by name (table=NAME): schell, hessel, self_play" in capsys.readouterr().err
