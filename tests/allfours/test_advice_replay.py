"""The advisor makes the kernel's decisions, bit for bit (issue 19, item 1): the beg, the answer, the play, and
the cards thrown out with discard_to_six.

Whole games are played by the reference engine, which replays the kernel's games
from the same streams (checked here game by game against ``play_games``), with every
built-in policy called as the njit function the kernel calls and each call
recorded: the arrays it saw, its stream before the call and its answer.  Each
recorded decision is then rebuilt from the public facts only -- the cards held, the
cards turned up, whether the eldest begged, the cards played (their players follow
from the laws), the score, the player's place -- as a situation, whose ``to_state``
must give the very arrays the policy saw, and :class:`Player` with a copy of the
stream must answer the same.  Games (not single hands) so that scores vary and
policies that read them (threshold answering) meet them.  The runs share the hands the issue asks of the
game (at least MIN_DEALS): each must give its share.
"""

import numpy as np
import pytest

from sims.allfours import PRESETS, play_games
from sims.allfours import reference as ref
from sims.allfours.advice import Player
from sims.allfours.contract import S_N_PLAYED
from sims.allfours.policies import POLICIES
from sims.allfours.situation import from_engine
from sims.cards import format_card, format_cards
from sims.core.registry import get_game
from tests.recording import check_answers, recorded_seats

MIN_DEALS = 1_000  # replayed hands of the game, over the runs
DISCARD_TO_SIX = PRESETS["two-hand"].replace(name="two-hand-discard", discard_to_six=True)
# Per run: the rules, a policy a seat for each decision, the games, the fewest hands they must give.  The
# expert, whose search is slow (about 0.03 s a decision at its 20 samples), replays in the four-hand run
# (MIN_EXPERT decisions) at 5 samples: the same search, a quarter of the deals of the hidden cards.
MIN_EXPERT = 100
EXPERT = "expert:samples=5"
RUNS = [
    (
        "two-hand",
        {"beg": ["random", "threshold"], "answer": ["threshold", "random"], "play": ["random", "greedy"]},
        90,
        400,
    ),
    ("two-hand", {"beg": ["beg", "random"], "answer": ["give", "run"], "play": ["maxims", "forgetful"]}, 90, 400),
    (
        "four-hand",
        {
            "beg": ["stand", "beg", "random", "threshold"],
            "answer": ["run", "give", "random", "threshold"],
            "play": [EXPERT, "maxims", "greedy", "random"],
        },
        6,
        15,
    ),
    (
        DISCARD_TO_SIX,
        {
            "beg": ["beg", "beg"],
            "answer": ["run", "random"],
            "play": ["greedy", "random"],
            "discard": ["random", "cheapest"],
        },
        60,
        200,
    ),
]
IDS = ["two-hand-random+greedy", "two-hand-maxims+forgetful", "four-hand", "discard_to_six"]


def test_runs_cover_every_builtin():
    assert sum(min_hands for _, _, _, min_hands in RUNS) >= MIN_DEALS
    for decision in POLICIES:
        assert {p.split(":")[0] for _, run, _, _ in RUNS for p in run.get(decision, ())} == set(POLICIES[decision])


@pytest.mark.parametrize("rules, run, n_games, min_hands", RUNS, ids=IDS)
def test_every_decision_replays(monkeypatch, rules, run, n_games, min_hands):
    game = get_game("allfours")
    rules = ref.get_rules(rules)
    log = []
    seats = recorded_seats(game, ref, rules, run, log, "play", "discard")
    monkeypatch.setattr(ref, "seat_policies", lambda rules, policies: seats)
    games = ref.play_games(rules, run, n_games, seed=19)
    fast = play_games(rules, run, n_games, seed=19, records=True).games
    for g, played_game in enumerate(games):  # the reference played the kernel's games
        row = fast.iloc[g]
        assert (int(row["winner"]), int(row["hands"]), int(row["score_0"]), int(row["score_1"])) == (
            played_game.winner,
            len(played_game.hands),
            *played_game.scores,
        ), f"game {g}"
    players = {(d, name): Player(name, decision=d) for d, names in run.items() for name in names}
    checked = {key: 0 for key in players}
    for decision, name, hand, played, state, rng, answer in log:
        situation = from_engine(decision, hand, played, state, rules)
        played = None if played is None else played[:, : state[S_N_PLAYED]]
        arrays = situation.to_state()
        where = f"{decision} {name}: {format_cards(c for c in hand if c >= 0)} | state {state.tolist()}"
        assert np.array_equal(arrays.state, state), where
        assert arrays.hand[arrays.hand >= 0].tolist() == [int(c) for c in hand if c >= 0], where
        if decision == "play":
            n = played.shape[1]
            assert np.array_equal(arrays.played[:, :n], played), where
        if decision in ("play", "discard"):
            expected = format_card(int(hand[answer]))
        else:
            expected = situation.CHOICES[answer]
        assert players[decision, name].choose(situation, rng=rng.copy()) == expected, where
        check_answers(situation, hand, answer, expected)
        checked[decision, name] += 1
    hands = sum(len(g.hands) for g in games)
    assert hands >= min_hands
    assert all(n > 0 for key, n in checked.items() if key != ("answer", "threshold") or rules.players == 2), checked
    assert checked.get(("play", EXPERT), MIN_EXPERT) >= MIN_EXPERT, checked
    print(f"{rules.name}: {hands} hands, decisions replayed {checked}")
