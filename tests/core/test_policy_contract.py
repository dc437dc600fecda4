"""What a policy may do (issue 19, item 6), for each game: it sees read-only arrays (numba refuses at compile time
a policy that writes into its hand, the cards played or the state, so no write in or out of bounds reaches
the engine), an exception it raises is a PolicyError, and a function of the wrong signature is one line
naming the decision's signature."""

from __future__ import annotations

import pytest
from numba import njit

from sims.core.api import simulate
from sims.core.errors import PolicyError
from sims.core.policies import load
from sims.core.registry import get_game

# Each game's card-play decision, taking (hand, played, state, rules, rng, params).
PLAY = {"cribbage": "peg", "allfours": "play", "loo": "card"}


def one_line(info) -> str:
    text = str(info.value)
    assert "\n" not in text
    return text


def signature(game: str, decision: str):
    return load(get_game(game).decision(decision).signature)


def builtin(game: str, decision: str, name: str):
    return load(get_game(game).policies[decision][name].function)


def writer(target: str, index: str):
    """A play policy that writes into one of the arrays it is shown, at ``index`` (in its bounds or far out)."""
    namespace = {}
    exec(
        f"def writes_{target}(hand, played, state, rules, rng, params):\n    {target}[{index}] = 0\n    return -1\n",
        namespace,
    )
    return namespace[f"writes_{target}"]


@pytest.mark.parametrize("game", PLAY)
@pytest.mark.parametrize("target", ["hand", "played", "state", "rules", "params"])
@pytest.mark.parametrize("index", ["0", "100_000"])
def test_a_policy_that_writes_into_what_it_sees_is_refused_at_compile_time(game, target, index):
    decision = PLAY[game]
    fn = njit(writer(target, index if target != "played" or game == "cribbage" else f"0, {index}"))
    with pytest.raises(PolicyError) as info:
        simulate(game, "deals", None, {decision: fn}, 10, 0)
    text = one_line(info)
    assert f"{decision} policy 'writes_{target}' does not compile as {decision}(hand: int64[:] read-only" in text
    assert text.endswith("it writes into an array it may only read")


@pytest.mark.parametrize("game", PLAY)
def test_the_builtins_are_compiled_read_only(game):
    """Every built-in's compiled signature is its decision's, arrays but the random stream read-only."""
    for d in get_game(game).decisions:
        sig = signature(game, d.name)
        assert [getattr(t, "mutable", None) for t in sig.args][-2:] == [True, False]  # rng writable, params not
        for name, spec in get_game(game).policies[d.name].items():
            assert load(spec.function).signatures == [sig.args], (d.name, name)


@pytest.mark.parametrize("game", PLAY)
def test_a_policy_that_raises_now_and_then_is_a_policy_error(game):
    decision = PLAY[game]
    random_play = builtin(game, decision, "random")

    @njit(signature(game, decision))
    def flaky(hand, played, state, rules, rng, params):
        if rng[0] % 5 == 0:
            raise ValueError("flaky policy gave up")
        return random_play(hand, played, state, rules, rng, params)

    with pytest.raises(PolicyError) as info:
        simulate(game, "deals", None, {decision: flaky}, 200, 0)
    assert "policy 'flaky' raised ValueError: flaky policy gave up" in one_line(info)


@pytest.mark.parametrize("game", PLAY)
def test_a_policy_that_always_raises_is_a_policy_error(game):
    """numba types a function that always raises as returning nothing, which no kernel can call (a Loo run
    ended in a TypeError): it is refused before the run, in one line."""
    decision = PLAY[game]

    @njit
    def gives_up(hand, played, state, rules, rng, params):
        raise ValueError("never plays")

    with pytest.raises(PolicyError) as info:
        simulate(game, "deals", None, {decision: gives_up}, 10, 0)
    assert f"{decision} policy 'gives_up' returns nothing (does it always raise?); it must be {decision}(" in one_line(
        info
    )


@pytest.mark.parametrize("game", PLAY)
def test_a_function_of_the_wrong_signature_names_the_decisions(game):
    decision = PLAY[game]

    @njit
    def two_arguments(hand, state):
        return hand[0] + state[0]

    with pytest.raises(PolicyError) as info:
        simulate(game, "deals", None, {decision: two_arguments}, 10, 0)
    assert (
        f"{decision} policy 'two_arguments' does not compile as {decision}(hand: int64[:] read-only, played: "
        f"int64[{':, :' if game != 'cribbage' else ':'}] read-only, state: int64[:] read-only, rules: int64[:] "
        f"read-only, rng: uint64[:], params: float64[:] read-only) -> int64: "
    ) in one_line(info)


def test_on_the_command_line_a_writing_policy_is_one_line_and_status_2(tmp_path, monkeypatch, capsys):
    """``--peg py:module.function`` of a policy that writes into its hand: refused before anything runs."""
    from sims.cli import main

    (tmp_path / "my_policies.py").write_text(
        "from numba import njit\n\n\n@njit\ndef cheat(hand, played, state, rules, rng, params):\n"
        "    hand[0] = 0   # turns the first card into the ace of clubs\n    return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["simulate", "--deals", "100", "--peg", "py:my_policies.cheat", "--quiet"])
    out, err = capsys.readouterr()
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert err.startswith("sims simulate: error: peg policy 'cheat' does not compile as peg(hand: int64[:] read-only")
    assert err.rstrip().endswith("it writes into an array it may only read")
