"""The advisor makes the kernel's decisions, bit for bit (issue 19, item 1): declarations, exchanges, the play.

Sessions are played by the reference engine, which replays the kernel's sessions
from the same streams (checked here session by session against ``play_games``), with
every built-in policy called as the njit function the kernel calls and each call
recorded: the arrays it saw, its stream before the call and its answer.  Each recorded
decision is then rebuilt from the public facts only -- my cards (in hand order, ``-``
where one was played), the trump, the money held over into the pool, what the players
before me declared, how many cards each stander changed, the cards played (their
players follow from the laws), my place -- as a situation, whose ``to_state`` must give
the very arrays the policy saw, and :class:`Player` with a copy of the stream must
answer the same.  Sessions (not single deals) so that the pool and the single vary.  The runs share the
deals the issue asks of the game (at least MIN_DEALS): each replays its share, DEALS_PER_RUN.
"""

import numpy as np
import pytest

from sims.cards import format_card, format_cards
from sims.core.registry import get_game
from tests.recording import check_answers, recorded_seats
from sims.loo import play_games
from sims.loo import reference as ref
from sims.loo.advice import Player
from sims.loo.contract import DECLARATIONS, S_N_PLAYED
from sims.loo.policies import POLICIES
from sims.loo.situation import from_engine

MIN_DEALS = 1_000  # replayed deals of the game, over the runs
# Per run, a policy a seat for each decision; sessions of ``rounds`` rounds (five deals a round): DEALS_PER_RUN deals.
RUNS = [
    (
        "three-card",
        {
            "declare": ["random", "always", "threshold", "expert", "random"],
            "card": ["random", "greedy", "expert", "greedy", "random"],
        },
        10,
        10,
    ),
    (
        "five-card-pam",
        {
            "declare": ["expert", "threshold", "random", "always", "expert"],
            "exchange": ["keep", "random", "threshold", "expert", "threshold"],
            "card": ["greedy", "expert", "random", "greedy", "expert"],
        },
        10,
        10,
    ),
]
DEALS_PER_RUN = -(-MIN_DEALS // len(RUNS))


def test_runs_cover_every_builtin():
    assert len(RUNS) * DEALS_PER_RUN >= MIN_DEALS
    for decision in POLICIES:
        assert {p for _, run, _, _ in RUNS for p in run.get(decision, ())} == set(POLICIES[decision])


@pytest.mark.parametrize("rules, run, rounds, n_sessions", RUNS, ids=[r for r, _, _, _ in RUNS])
def test_every_decision_replays(monkeypatch, rules, run, rounds, n_sessions):
    game = get_game("loo")
    rules = ref.get_rules(rules).replace(session_rounds=rounds)
    log = []
    seats = recorded_seats(game, ref, rules, run, log, "card", "exchange")
    monkeypatch.setattr(ref, "seat_policies", lambda rules, policies: seats)
    sessions = ref.play_games(rules, run, n_sessions, seed=19)
    fast = play_games(rules, run, n_sessions, seed=19, records=True).games
    for g, session in enumerate(sessions):  # the reference played the kernel's sessions
        expected = session.record(rules.players)
        assert {k: int(fast.iloc[g][k]) for k in expected} == expected, f"session {g}"
    deals = [d for s in sessions for d in s.deals]
    assert len(deals) >= DEALS_PER_RUN

    players = {(d, name): Player(name, decision=d) for d, names in run.items() for name in names}
    checked = {key: 0 for key in players}
    for decision, name, hand, played, state, rng, answer in log:
        situation = from_engine(decision, hand, played, state, rules)
        played = None if played is None else played[: state[S_N_PLAYED], 0]
        arrays = situation.to_state()
        where = f"{decision} {name}: {format_cards(c for c in hand if c >= 0)} | state {state.tolist()}"
        assert np.array_equal(arrays.state, state), where
        assert np.array_equal(arrays.hand, hand), where
        if decision == "card":
            assert np.array_equal(arrays.played[: len(played), 0], played), where
            expected = format_card(int(hand[answer]))
        elif decision == "declare":
            expected = DECLARATIONS[answer]
        else:
            expected = situation.label(answer)
        assert players[decision, name].choose(situation, rng=rng.copy()) == expected, where
        check_answers(situation, hand, answer, expected)
        checked[decision, name] += 1
    assert all(n > 0 for n in checked.values()), checked
    print(f"{rules.name}: {len(deals)} deals, decisions replayed {checked}")
