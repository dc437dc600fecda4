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


def test_a_named_table_is_converted_once_and_a_copy_of_it_reads_the_same():
    """Policies playing a named table share one read-only vector and its digest; the same values in another
    tuple (a table given by value) are the same table, the same vector and the same digest."""
    from sims.core.policies import Policy, sha256

    game = get_game("cribbage")
    first, second = (resolve_one(game, "discard", "expected_net:table=hessel") for _ in range(2))
    assert first.params is second.params and first._params_f64 is second._params_f64
    assert not first._params_f64.flags.writeable and first.params_array().flags.writeable
    copy = Policy(first.name, first.decision, first.fn, tuple(list(first.params)), first.spec)
    assert copy.params is not first.params and np.array_equal(copy.params_array(), first.params_array())
    assert copy.labelled_params() == first.labelled_params() == {"table": "hessel", "sha256": sha256(first.params)}


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
    same = sims.simulate(
        "allfours", "deals", "two-hand", {"play": {"name": "maxims", "params": [0, 1, 1, 1]}}, 4000, seed=3
    )
    assert not plain.table().equals(changed.table())
    pd_changed, pd_same = changed.table(), same.table()
    assert np.array_equal(pd_changed["mean"].to_numpy(), pd_same["mean"].to_numpy())
    assert changed.summary["policies"]["play"][0]["label"] == "maxims:knave=0"
    assert "label" not in plain.summary["policies"]["play"][0]


@pytest.mark.parametrize(
    "flag, message",
    [
        ("maxims:knav=0", "has no parameter 'knav' (it takes knave, tens, best_cards, eldest_trumps)"),
        ("maxims:knave", "write NAME:PARAM=VALUE"),
        ("py:nosuch:f", "play policy 'py:nosuch:f': write py:MODULE.FUNCTION:PARAM=VALUE"),
        ("maxims:knave=x", "parameter 'knave' must be a number, got 'x'"),
        ("greedy:a=1", "it takes no parameters"),
    ],
)
def test_a_bad_change_is_one_line_and_exit_2(capsys, flag, message):
    assert main(["simulate", "--game", "allfours", "--deals", "100", "--play", flag, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_refused_job_says_nothing_of_compiling(monkeypatch):
    """The first run's compile notice (sims.core.first_run) comes once the job is known good, not before a refusal."""
    import sims.core.jobs as jobs

    told = []
    monkeypatch.setattr(jobs, "announce", lambda *args: told.append(args))
    assert main(["simulate", "--game", "allfours", "--deals", "100", "--play", "maxims:knave", "--quiet"]) == 2
    assert told == []
    assert main(["simulate", "--game", "allfours", "--deals", "100", "--quiet"]) == 0
    assert [game.name for game, *_ in told] == ["allfours"]


def test_an_unknown_table_lists_the_known_ones(capsys):
    assert main(["simulate", "--deals", "100", "--discard", "expected_net:table=nope", "--quiet"]) == 2
    assert "takes a table by name (table=NAME): schell, hessel, self_play" in capsys.readouterr().err


def test_every_built_in_parameter_declares_what_it_takes():
    from sims.core.policies import PolicySpec, TableParams
    from sims.core.registry import names

    for name in names():
        for decision, table in get_game(name).policies.items():
            for policy, spec in table.items():
                if not isinstance(spec.params, TableParams):
                    assert len(spec.ranges) == len(spec.params), (name, decision, policy)
                    assert all(r.holds(d) for r, d in zip(spec.ranges, spec.defaults)), (name, decision, policy)
    with pytest.raises(TypeError, match="give a default and a range for each parameter"):
        PolicySpec("m:f", ("samples",), (1.0,))


@pytest.mark.parametrize(
    "game, decision, text, ok",
    [
        ("cribbage", "peg", "rollout:samples=1", True),
        ("cribbage", "peg", "rollout:samples=0", False),
        ("cribbage", "peg", "rollout:samples=0.5", False),
        ("cribbage", "peg", "rollout:samples=1e300", False),
        ("cribbage", "peg", "rollout:margin=0", True),
        ("cribbage", "peg", "rollout:margin=-1", False),
        ("cribbage", "peg", "defensive:keep_close=0", True),
        ("cribbage", "peg", "defensive:keep_close=0.5", False),
        ("cribbage", "peg", "defensive:risk_weight=-2.5", True),
        ("allfours", "play", "maxims:knave=0", True),
        ("allfours", "play", "maxims:knave=2", False),
        ("allfours", "play", "expert:samples=1:max_nodes=1", True),
        ("allfours", "play", "expert:max_nodes=-1", False),
        ("allfours", "beg", "beg:answer=0", True),
        ("allfours", "beg", "beg:answer=-1", False),
        ("allfours", "beg", "threshold:strength=-3.5", True),
        ("loo", "card", "expert:samples=1", True),
        ("loo", "card", "expert:samples=0", False),
    ],
)
def test_each_parameter_takes_its_range_and_nothing_else(game, decision, text, ok):
    if ok:
        assert resolve_one(get_game(game), decision, text).label() in (text, text.split(":")[0])
    else:
        with pytest.raises(ValueError, match=f"parameter '{text.split(':')[1].split('=')[0]}' takes"):
            resolve_one(get_game(game), decision, text)


def test_params_given_as_true_or_twice_are_refused():
    game = get_game("cribbage")
    with pytest.raises(ValueError, match="'risk_weight' must be a number, got True"):
        resolve_one(game, "peg", {"name": "defensive", "params": [True, 1, 1, 1]})
    with pytest.raises(ValueError, match="'pair_bonus' is given twice"):
        parse_policy("defensive:pair_bonus=1:pair_bonus=2", "peg")
