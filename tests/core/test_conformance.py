"""The game protocol, checked for every game registered in the entry points ``sims.games`` (the example
game of docs/examples too, when installed): the same seed gives the same numbers on 1 and 2 threads and on
Dask workers; the fast engine plays exactly the reference engine's deals from the same random streams; a
run store reads back the same result and refuses a damaged file; policy parameters are checked; bad input
is one line; a failing policy is a :class:`PolicyError`.  Small sizes: this is the protocol, not the rules
(each game's own tests hold those)."""

from __future__ import annotations

from functools import partial

import pytest

from sims.core import driver, registry
from sims.core.errors import PolicyError
from sims.core.jobs import Job
from sims.core.policies import load
from sims.core.runner import load_run, run

GAMES = registry.names()
CHUNK = 16  # a few chunks even in a small job, so that 2 threads share the work
N = {"deals": 72, "games": 12}
# Where each game of this repository keeps ``assert_same_deals(rules, policies, n, seed)`` (the fast engine against
# the reference engine on the same streams): in its test module; any other game gives its reference's ``deal_tally``
# to the core's (:func:`sims.core.driver.assert_same_deals`).
REFERENCE_TESTS = {
    "cribbage": "tests.cribbage.test_engine_reference",
    "allfours": "tests.allfours.test_reference",
    "loo": "tests.loo.test_reference",
}


def job(name, kind="deals", seed=11, **options):
    return Job.make(name, kind, None, None, N[kind], seed, chunk_size=CHUNK if kind == "deals" else 4, **options)


def kinds():
    return [(name, kind) for name in GAMES for kind in registry.get_game(name).kinds]


def one_line(exc) -> str:
    text = str(exc.value)
    assert text and "\n" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize("name,kind", kinds())
def test_the_same_seed_gives_the_same_numbers_on_one_and_two_threads(name, kind):
    one = run(job(name, kind), threads=1, batch_chunks=2, progress=False)
    two = run(job(name, kind), threads=2, batch_chunks=3, progress=False)
    assert one.summary == two.summary
    assert run(job(name, kind, seed=12), threads=2, progress=False).summary != one.summary  # the seed matters


@pytest.mark.xdist_group("dask")  # the two worker processes of tests/core/test_dask.py (tests/conftest.py)
@pytest.mark.parametrize("name", GAMES)
def test_dask_workers_give_the_numbers_of_one_thread(name, dask_workers, tmp_path):
    here = run(job(name), threads=1, progress=False)
    there = run(job(name), tmp_path / "run", batch_chunks=1, client=dask_workers, progress=False)
    assert there.summary == here.summary


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_engine_plays_the_reference_engines_deals(name):
    game = registry.get_game(name)
    if name in REFERENCE_TESTS:
        check = load(f"{REFERENCE_TESTS[name]}:assert_same_deals")
    else:
        check = partial(driver.assert_same_deals, game, reference_deal=load(f"{game.reference}:deal_tally"))
    defaults = {d.name: d.default for d in game.decisions}
    check(game.default_preset, defaults, 40, 23)


@pytest.mark.parametrize("name", GAMES)
def test_a_run_store_reads_back_the_same_result_and_refuses_a_damaged_file(name, tmp_path):
    path = tmp_path / "run"
    result = run(job(name, records=True), path, batch_chunks=2, progress=False)
    stored = load_run(path)
    assert stored.summary == result.summary
    batch = sorted(p for p in path.rglob("*.parquet"))[0]
    data = bytearray(batch.read_bytes())
    data[len(data) // 2] ^= 0x10
    batch.write_bytes(bytes(data))
    with pytest.raises(ValueError) as info:
        load_run(path)
    assert batch.name in one_line(info)


@pytest.mark.parametrize("name", GAMES)
def test_policy_parameters_are_checked_by_count_and_value(name):
    game = registry.get_game(name)
    for decision, table in game.policies.items():
        for policy, spec in table.items():
            if spec.size == 0:
                continue
            with pytest.raises(ValueError) as info:
                Job.make(name, "deals", None, {decision: {"name": policy, "params": [0.0] * (spec.size + 1)}}, 10, 0)
            assert policy in one_line(info)
            values = list(spec.default_params())
            values[0] = float("nan")
            with pytest.raises(ValueError) as info:
                Job.make(name, "deals", None, {decision: {"name": policy, "params": values}}, 10, 0)
            assert "nan" in one_line(info)
    with pytest.raises(ValueError) as info:
        Job.make(name, "deals", None, {game.decisions[0].name: "no_such_policy"}, 10, 0)
    assert "no_such_policy" in one_line(info)


BAD = [
    (dict(rules="no-such-preset"), "no-such-preset"),
    (dict(kind="weeks"), "weeks"),
    (dict(n=0), "number of"),
    (dict(seed=-1), "seed"),
    (dict(policies={"no_such_decision": "random"}), "no_such_decision"),
    (dict(no_such_option=True), "no_such_option"),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("change,words", BAD, ids=[words for _, words in BAD])
def test_bad_input_is_one_line(name, change, words):
    args = dict(kind="deals", rules=None, policies=None, n=10, seed=0)
    args.update(change)
    with pytest.raises(ValueError) as info:
        Job.make(
            name, args.pop("kind"), args.pop("rules"), args.pop("policies"), args.pop("n"), args.pop("seed"), **args
        )
    assert words in one_line(info)


@pytest.mark.parametrize("name", GAMES)
def test_the_command_line_refuses_bad_input_in_one_line_with_status_2(name, capsys):
    from sims.cli import main

    code = main(["simulate", "--game", name, "--rules", "no-such-preset", "--deals", "10", "--quiet"])
    out, err = capsys.readouterr()
    assert (code, out, err.count("\n")) == (2, "", 1) and "no-such-preset" in err


def failing_policy(signature):
    """An njit policy with ``signature`` that raises, whatever it is shown (its first argument an array)."""
    from numba import njit

    args = ", ".join(f"a{i}" for i in range(len(signature.args)))
    namespace = {}
    exec(
        f"def failing({args}):\n    if a0.shape[0] >= 0:\n        raise ValueError('this policy fails')\n"
        f"    return 0\n",
        namespace,
    )
    return njit(signature)(namespace["failing"])


@pytest.mark.parametrize("name", GAMES)
def test_a_failing_policy_is_a_policy_error(name):
    """The first decision of a game comes up in every deal: a policy for it that raises stops the run."""
    decision = registry.get_game(name).decisions[0]
    failing = failing_policy(load(decision.signature))
    with pytest.raises(PolicyError) as info:
        run(Job.make(name, "deals", None, {decision.name: failing}, 20, 0), threads=1, progress=False)
    assert "failing" in one_line(info) and "this policy fails" in str(info.value)


# The parts a game declares beside its engine (advice, record, duel view), for the games that declare them.
def declaring(part):
    return [name for name in GAMES if getattr(registry.get_game(name), part)]


@pytest.mark.parametrize("name", declaring("record"))
def test_a_game_record_reads_back_what_was_played(name, tmp_path):
    """One game played decision by decision (the reference engine, the kernel's streams) and written as a record
    reads back as the same lines: each situation rebuilt from its fields gives the same fields and choice."""
    import json

    from sims.core.record import fields_of, read_record
    from sims.core.table import play

    path = tmp_path / "game.jsonl"
    frame = play(name, None, None, 3, 1, record=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    record = read_record(path)
    assert lines[0] == record.header and record.header["players"] == frame.attrs["players"]
    assert [
        {
            "game": d.game,
            "player": d.player,
            "decision": d.situation.DECISION,
            **fields_of(registry.get_game(name))(d.situation),
            "choice": d.choice,
        }
        for d in record.decisions
    ] == [line for line in lines[1:] if "result" not in line]
    assert record.results == {0: {k: v for k, v in frame.iloc[0].items() if k != "game"}}
    assert len(record.decisions) == frame.attrs["decisions"] > 0


@pytest.mark.parametrize("name", declaring("advice"))
def test_the_advisor_values_every_legal_choice_and_exactly_where_it_enumerates(name):
    """The last decisions of the game's example record, valued as a hint of sims duel: one row per legal choice,
    best first; where every hidden deal was enumerated the values do not depend on the seed."""
    from sims.core.duel import match
    from sims.core.record import example, read_record

    game = registry.get_game(name)
    view = game.part("duel").View(lambda seat: f"seat {seat}")
    methods = []
    for line in read_record(example(name)).decisions[-2:]:
        labels = view.choices(line.situation)
        frame = view.advise(line.situation, 60, 0)
        key = next(k for k in ("card", "choice", "thrown") if k in frame)
        assert sorted(match(str(c), labels) for c in frame[key]) == sorted(labels)
        value = "value" if "value" in frame else "net"
        assert list(frame[value]) == sorted(frame[value], reverse=True)
        methods.append(frame.attrs.get("method"))
        if methods[-1] == "exact":
            assert list(view.advise(line.situation, 60, 1)[value]) == list(frame[value])
    assert "exact" in methods


def served_by_their_situations():
    return [name for name in declaring("advice") if not registry.get_game(name).advise_command]


@pytest.mark.parametrize("name", served_by_their_situations())
def test_sims_advise_takes_the_facts_of_the_declared_situation(name, capsys):
    """A game with no advise command of its own: ``sims advise`` takes each decision's facts from its situation's
    fields (the first as words, the others as flags), and its table is the advisor's on that situation; facts
    the situation refuses are one line and exit status 2."""
    import json

    from sims.cli import main
    from sims.core.record import example, read_record, situation_fields

    line = read_record(example(name)).decisions[-1]
    facts = situation_fields(line.situation, {})
    first, *rest = (k for k in facts if k != "rules")
    argv = ["advise", "--game", name, line.situation.DECISION, *str(facts[first]).split()]
    argv += [arg for k in rest for arg in (f"--{k}", str(facts[k]))] + ["--samples", "60", "--json"]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    frame = registry.get_game(name).part("advice").advise(line.situation, samples=60, seed=0)
    assert [(r["choice"], r["value"]) for r in rows] == list(zip(frame["choice"], frame["value"], strict=True))
    assert main(argv[:4] + ["AS", "AS"] + argv[4 + len(str(facts[first]).split()) :]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a card is given twice" in err


@pytest.mark.parametrize("name", declaring("duel"))
def test_a_scripted_duel_shows_the_decisions_gives_a_hint_and_ends_on_q_in_one_line(name, monkeypatch, capsys):
    """sims duel answered from standard input: a hint (?), three choices by number, then q: exit status 1 and one
    line saying where the game ended."""
    import io
    import sys

    from sims.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("?\n1\n1\n1\nq\n"))
    with pytest.raises(SystemExit) as stop:
        main(["duel", "--game", name, "--seed", "1"])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert stop.value.code == 1 and "Traceback" not in err and "error" not in err
    assert any(line.startswith(("value:", "net:")) for line in lines)  # the hint's table
    alone = out.count("your only legal choice")  # decisions made for the player
    assert out.count("your choice (") == 5  # the ? asked the first decision again
    assert lines[-1] == f"game ended (quit) at your decision {4 + alone}"
