"""sims.core.reference: a reference engine plays the plain-Python twins of the built-in kernels, so that the
engine is checked against code written apart from it, and any other policy as it is."""

from __future__ import annotations

import pytest

from sims.allfours import reference as allfours_reference
from sims.allfours.rules import get_rules as allfours_rules
from sims.core.reference import seat_policies
from sims.loo import reference as loo_reference
from sims.loo.rules import get_rules as loo_rules

GAMES = {"allfours": (allfours_reference, allfours_rules("two-hand")), "loo": (loo_reference, loo_rules("three-card"))}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_twinned_built_in_is_played_by_its_twin(game):
    from sims.core.registry import get_game

    module, rules = GAMES[game]
    spec = get_game(game)
    twinned = set()
    for decision, policies in spec.policies.items():
        for name, policy in policies.items():
            if policy.players and rules.players not in policy.players:
                continue
            seat = seat_policies(spec, rules, {decision: name}, module.PLAIN)[decision][0]
            twin = module.PLAIN.get(policy.function)
            assert seat.fn is (twin if twin is not None else seat.fn), (decision, name)
            assert (twin is None) == hasattr(seat.fn, "py_func"), (decision, name)  # a kernel exactly when untwinned
            if twin is not None:
                twinned.add(policy.function)
    assert twinned == set(module.PLAIN)  # every twin stands in for a built-in


def test_the_cribbage_reference_plays_twins_for_built_ins_and_a_users_function_as_it_is():
    from sims.cribbage import reference as ref
    from sims.cribbage.policies.builtin import random_peg
    from sims.cribbage.rules import get_rules

    discard, peg = ref.seat_policies(get_rules("six-card"), {"discard": "greedy", "peg": ["random", random_peg]})
    assert discard[0].fn is ref.greedy_discard and peg[0].fn is ref.random_peg
    assert peg[1].fn is random_peg  # the same kernel given as a function, not by name: played as it is
