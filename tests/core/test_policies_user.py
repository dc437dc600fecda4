"""User policies (issue 3, must-have 4): a small @njit function passed in works without
recompiling the engine, and an illegal answer stops the run with a PolicyError that names the
policy and the situation — checked against the reference engine, which plays the same deals with
the same policy and meets the same situation."""

import hashlib
import inspect
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from sims.core.chunks import run_chunks
from sims.core.errors import PolicyError
from sims.core.jobs import Job
from sims.cribbage import engine, play_games, simulate_deals
from sims.cribbage import reference as ref
from sims.cribbage.contract import DISCARD_SIG, PEG_SIG, S_COUNT
from sims.cribbage.game import GAME
from sims.cribbage.policies import resolve
from sims.cribbage.rules import R_THROW, get_rules
from tests.cribbage.records import records_array


@njit(PEG_SIG, cache=True)
def lowest(hand, played, state, rules, rng, params):
    """Lay the lowest legal card (a user's first policy)."""
    best = -1
    for i in range(hand.shape[0]):
        legal = hand[i] >= 0 and state[S_COUNT] + min((hand[i] >> 2) + 1, 10) <= 31
        if legal and (best < 0 or hand[i] < hand[best]):
            best = i
    return best


@njit(PEG_SIG, cache=True)
def highest(hand, played, state, rules, rng, params):
    """Lay the highest legal card."""
    best = -1
    for i in range(hand.shape[0]):
        legal = hand[i] >= 0 and state[S_COUNT] + min((hand[i] >> 2) + 1, 10) <= 31
        if legal and (best < 0 or hand[i] > hand[best]):
            best = i
    return best


@njit(DISCARD_SIG, cache=True)
def throw_by_param(hand, state, rules, rng, params):
    """Throw the first cards (params[0] == 0) or the last ones (params[0] == 1)."""
    k, n = rules[R_THROW], hand.shape[0]
    first = (1 << k) - 1
    return first if params[0] == 0 else first << (n - k)


@njit(PEG_SIG, cache=True)
def always_first(hand, played, state, rules, rng, params):
    """A buggy user policy: forgets that a card laid is -1 and that the count cannot pass 31."""
    return 0


@njit(DISCARD_SIG, cache=True)
def throw_one(hand, state, rules, rng, params):
    """A buggy discard policy: throws one card where two are due."""
    return 1


@njit(DISCARD_SIG, cache=True)
def throw_out_of_hand(hand, state, rules, rng, params):
    """A buggy discard policy: names positions past the end of the hand."""
    return 3 << hand.shape[0]


def source_of(fn) -> dict:
    """The provenance a user's policy defined in this module carries (no distribution installs the tests)."""
    return {
        "module": __name__,
        "function": fn.__name__,
        "distribution": None,
        "version": None,
        "sha256": hashlib.sha256(inspect.getsource(fn.py_func).encode()).hexdigest(),
    }


def test_user_peg_policy_runs_without_recompiling_the_engine():
    deal_sigs, game_sigs = len(engine.DEAL_LOOP.signatures), len(engine.GAME_LOOP.signatures)
    low = simulate_deals("six-card", {"discard": "random", "peg": lowest}, 3000, 1, records=True)
    high = simulate_deals("six-card", {"discard": "random", "peg": highest}, 3000, 1, records=True)
    mixed = play_games("six-card", {"peg": [lowest, "greedy"]}, 200, 1)
    assert len(engine.DEAL_LOOP.signatures) == deal_sigs == 1
    assert len(engine.GAME_LOOP.signatures) == game_sigs == 1
    assert low.summary["policies"]["peg"][0]["name"] == "lowest"
    assert mixed.summary["policies"]["peg"] == [
        {"name": "lowest", "params": [], "source": source_of(lowest)},
        {"name": "greedy", "params": {}},
    ]
    # The policies really played: the same deals, different pegging.
    assert low.records["dealer_hand"].equals(high.records["dealer_hand"])
    assert not low.records["dealer_pegging"].equals(high.records["dealer_pegging"])
    # ... exactly as the reference plays them with the same njit functions.
    for policy, result in ((lowest, low), (highest, high)):
        for g, deal in enumerate(ref.simulate_deals("six-card", {"discard": "random", "peg": policy}, 200, 1)):
            assert np.array_equal(deal.components(), records_array(result)[g])


def test_user_policy_params_reach_the_policy_without_recompiling():
    first = resolve("discard", throw_by_param, params=[0])
    last = resolve("discard", throw_by_param, params=[1])
    a = simulate_deals("six-card", {"discard": first, "peg": "random"}, 500, 3, records=True)
    b = simulate_deals("six-card", {"discard": last, "peg": "random"}, 500, 3, records=True)
    assert not a.records["dealer_hand"].equals(b.records["dealer_hand"])
    assert a.summary["policies"]["discard"][0] == {
        "name": "throw_by_param",
        "params": [0.0],
        "source": source_of(throw_by_param),
    }
    assert len(engine.DEAL_LOOP.signatures) == 1
    for policy, result in ((first, a), (last, b)):
        for g, deal in enumerate(ref.simulate_deals("six-card", {"discard": policy, "peg": "random"}, 100, 3)):
            assert np.array_equal(deal.components(), records_array(result)[g])


def test_a_lazy_sims_kernel_is_a_policy_compiled_when_resolved():
    """A kernel declared with sims' ``njit(SIG)`` (as sims' own policies and the test suite's probe policies are, so
    that importing them compiles nothing) compiles when it becomes a policy, and plays as numba's ``njit(SIG)``."""
    from sims.core.kernel import LazyKernel
    from sims.core.kernel import njit as sims_njit

    lazy_lowest = sims_njit(PEG_SIG)(lowest.py_func)
    assert isinstance(lazy_lowest, LazyKernel) and not lazy_lowest.compiled
    policy = resolve("peg", lazy_lowest)
    assert policy.name == "lowest" and PEG_SIG.args in policy.fn.overloads
    lazy = simulate_deals("six-card", {"discard": "random", "peg": policy}, 500, 2, records=True)
    eager = simulate_deals("six-card", {"discard": "random", "peg": lowest}, 500, 2, records=True)
    assert lazy.records.equals(eager.records)


def test_a_notebook_policy_hits_the_engine_cache_in_a_fresh_process():
    """A policy defined in ``__main__`` (as in a notebook) runs on the engine loaded from numba's
    on-disk cache: nothing of the engine is compiled in the new process."""
    script = textwrap.dedent("""
        import json
        from numba import njit
        from sims.cribbage import engine, play_games, simulate_deals
        from sims.cribbage.contract import PEG_SIG

        @njit(PEG_SIG)
        def mine(hand, played, state, rules, rng, params):
            for i in range(hand.shape[0]):
                if hand[i] >= 0 and state[5] + min((hand[i] >> 2) + 1, 10) <= 31:
                    return i
            return -1

        simulate_deals("six-card", {"peg": mine}, 1000, 1)
        play_games("six-card", {"peg": mine}, 50, 1)
        print(json.dumps({name: [len(k.signatures), sum(k.stats.cache_hits.values()),
                                 sum(k.stats.cache_misses.values())]
                          for name, k in (("deals", engine.DEAL_LOOP), ("games", engine.GAME_LOOP))}))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True)
    stats = json.loads(out.stdout.strip().splitlines()[-1])
    assert stats == {"deals": [1, 1, 0], "games": [1, 1, 0]}


# -- illegal answers ---------------------------------------------------------------------------------


def first_reference_error(rules, policies, n, seed):
    """The reference's PolicyError at the first deal of the run whose policy answers illegally."""
    for g in range(n):
        deck_rng, seat_rngs = ref.item_streams(seed, g, GAME.chunk_size["deals"])
        r = get_rules(rules)
        try:
            ref.play_deal(r, g % r.players, ref.shuffled_deck(r, deck_rng), seat_rngs, policies)
        except PolicyError as error:
            return g, str(error)
    raise AssertionError("the reference met no illegal answer")


@pytest.mark.parametrize("rules", ["six-card", "three-hand", "four-hand"])
def test_illegal_card_names_the_policy_and_the_situation(rules):
    policies = {"peg": ["random", always_first] + ["random"] * (get_rules(rules).players - 2)}
    with pytest.raises(PolicyError) as info:
        simulate_deals(rules, policies, 1000, 5)
    message = str(info.value)
    assert "peg policy 'always_first' (seat 1) chose index 0 with count" in message
    item, expected = first_reference_error(rules, policies, 1000, 5)
    assert message.startswith(expected)  # the same count and the same cards in hand
    assert message.endswith(f"(deal {item}, seed 5)")
    assert "\n" not in message and isinstance(info.value, ValueError)


@pytest.mark.parametrize("policy, mask", [(throw_one, 1), (throw_out_of_hand, 3 << 6)])
def test_bad_discard_mask_names_the_policy_and_the_hand(policy, mask):
    with pytest.raises(PolicyError) as info:
        simulate_deals("six-card", {"discard": ["random", policy]}, 100, 2)
    message = str(info.value)
    item, expected = first_reference_error("six-card", {"discard": ["random", policy]}, 100, 2)
    assert item == 0 and message.startswith(expected)  # seat 1 is eldest in deal 0 and throws first
    assert f"discard policy '{policy.__name__}' (seat 1) returned mask {mask} for hand" in message
    assert "it must name exactly 2 of the 6 cards" in message


def test_illegal_card_in_a_game_is_reported_too():
    pattern = r"peg policy 'always_first' \(seat [01]\) chose index 0 .*\(game 0, seed 3\)"
    with pytest.raises(PolicyError, match=pattern):
        play_games("five-card", {"peg": always_first}, 10, 3)


def test_policy_error_item_is_the_game_of_the_run_in_a_later_chunk():
    """Chunk 1's first game is game ``CHUNK_GAMES`` of the run; the error must say so (the
    runner plays a job a few chunks at a time, so the item must not be counted within the call)."""
    job = Job.make("cribbage", "games", "five-card", {"peg": always_first}, GAME.chunk_size["games"] + 10, 3)
    with pytest.raises(PolicyError, match=rf"\(game {GAME.chunk_size['games']}, seed 3\)"):
        run_chunks(job, 1, 1)


def test_a_policy_that_is_not_njit_or_does_not_fit_the_signature_is_a_value_error():
    def plain(hand, played, state, rules, rng, params):
        return 0

    with pytest.raises(ValueError, match="must be an @njit function"):
        simulate_deals("six-card", {"peg": plain}, 10, 0)

    @njit
    def wrong(hand, state):
        return hand[0] + state

    with pytest.raises(ValueError, match="does not compile"):
        simulate_deals("six-card", {"peg": wrong}, 10, 0)


@njit(PEG_SIG, cache=True)
def raises(hand, played, state, rules, rng, params):
    """A buggy peg policy: lays its first legal card, but raises once the count passes twenty."""
    if state[S_COUNT] > 20:
        raise ValueError("no card for you")
    for i in range(hand.shape[0]):
        if hand[i] >= 0 and state[S_COUNT] + min((hand[i] >> 2) + 1, 10) <= 31:
            return i
    return -1


def test_a_policy_that_raises_is_a_policy_error_naming_it():
    with pytest.raises(PolicyError, match=r"policy 'raises' raised .*no card for you") as info:
        simulate_deals("six-card", {"peg": ["greedy", raises]}, 50, 1)
    assert "\n" not in str(info.value)
