"""The table (sims.core.table): games played decision by decision are the kernel's games, every decision
recorded as a public situation that a Player re-decides the same, choosers answered through ``answer``."""

import json

import pytest

from sims.allfours.advice import Player as AllFoursPlayer
from sims.core.api import simulate
from sims.core.record import read_record
from sims.core.registry import get_game
from sims.core.table import play
from sims.cribbage.advice import Player as CribbagePlayer
from sims.loo.advice import Player as LooPlayer

# Per game: rules, policies per decision (random ones too: the seats' streams must be the engine's), games.
RUNS = [
    ("cribbage", "six-card", {"discard": ["random", "expected_hand"], "peg": ["defensive", "random"]}, 4),
    ("cribbage", "three-hand", {"discard": ["greedy"], "peg": ["random", "greedy", "distilled"]}, 2),
    (
        "allfours",
        "two-hand",
        {"beg": ["random", "threshold"], "answer": ["random", "give"], "play": ["maxims", "random"]},
        6,
    ),
    ("allfours", "four-hand", {"play": ["expert", "greedy", "random", "maxims"]}, 2),
    (
        "loo",
        "three-card",
        {
            "declare": ["random", "threshold", "expert", "always", "random"],
            "card": ["random", "greedy", "expert", "greedy", "random"],
        },
        2,
    ),
    (
        "loo",
        "five-card-pam",
        {"declare": "threshold", "exchange": ["random", "threshold", "expert", "keep", "keep"], "card": "greedy"},
        1,
    ),
]
IDS = [f"{g}-{r}" for g, r, _, _ in RUNS]


@pytest.mark.parametrize("game, rules, policies, n", RUNS[::2], ids=IDS[::2])
def test_each_deal_is_handed_over_as_it_ends_and_the_deals_make_the_game(game, rules, policies, n):
    """``on_deal``: the reference engine's record of each deal, in order, the game's row made of them (its number
    of deals, the scores the deals' points add up to, the money of a Loo session); the game the same with or
    without it."""
    deals = []
    table = play(game, rules, policies, seed=11, games=1, on_deal=deals.append)
    assert table.equals(play(game, rules, policies, seed=11, games=1))
    row = table.iloc[0]
    if game == "cribbage":
        assert len(deals) == row["deals"]
        sides = [sum(d.side_points()[s] for d in deals) for s in range(len(deals[0].side_points()))]
        assert sides == [row[f"score_{s}"] for s in range(len(sides))]
    elif game == "allfours":
        assert len(deals) == row["hands"]
        assert [sum(p.points for h in deals for p in h.scores if h.side(p.role) == s) for s in (0, 1)] == [
            row["score_0"],
            row["score_1"],
        ]
    else:
        players = get_game(game).get_rules(rules).players
        money = [
            sum(m for d in deals for r, m in d.money.items() if (d.dealer + r) % players == s) for s in range(players)
        ]
        assert money == [row[f"money_{s}"] for s in range(players)]


@pytest.mark.parametrize("game, rules, policies, n", RUNS, ids=IDS)
def test_policy_games_are_the_kernels_games(tmp_path, game, rules, policies, n):
    seen = []
    path = tmp_path / "games.jsonl"
    table = play(game, rules, policies, seed=11, games=n, record=path, on_decision=seen.append)
    kernel = simulate(game, "games", rules, policies, n, 11, records=True, progress=False).games
    assert table.to_dict("records") == kernel[table.columns].to_dict("records")
    record = read_record(path)
    assert len(record.decisions) == len(seen) > 10 * n
    assert [(d.game, d.player, d.choice) for d in record.decisions] == [(d.game, d.seat, d.choice) for d in seen]
    assert [d.situation for d in record.decisions] == [d.situation for d in seen]  # the fields round-trip
    assert [record.results[g] for g in range(n)] == [
        {k: v for k, v in row.items() if k != "game"} for row in table.to_dict("records")
    ]
    assert {d.situation.DECISION for d in record.decisions} >= set(policies) - {"answer", "exchange"}


DETERMINISTIC = [
    ("cribbage", CribbagePlayer, {"discard": "greedy", "peg": "greedy"}),
    ("allfours", AllFoursPlayer, {"beg": "threshold", "answer": "threshold", "play": "greedy"}),
    ("loo", LooPlayer, {"declare": "threshold", "card": "greedy"}),
]


@pytest.mark.parametrize("game, player, policies", DETERMINISTIC, ids=[g for g, _, _ in DETERMINISTIC])
def test_recorded_decisions_are_redecided_and_choosers_play_through_answer(tmp_path, game, player, policies):
    """Policies that draw no random number: a Player re-decides every recorded situation the same, and a seat
    of Players (choosers, answering readable choices) plays the kernel's game."""
    path = tmp_path / "game.jsonl"
    kernel = play(game, None, policies, seed=5, games=2, record=path)
    record = read_record(path)
    players = {d: player(p, decision=d) for d, p in policies.items()}
    for line in record.decisions:
        assert players[line.situation.DECISION].choose(line.situation) == line.choice, line.number
    choosers = {d: Counted(player(p, decision=d)) for d, p in policies.items()}
    chosen = []
    by_choosers = play(
        game, None, [choosers] + [policies] * (record.rules.players - 1), seed=5, games=2, on_decision=chosen.append
    )
    assert by_choosers.to_dict("records") == kernel.to_dict("records")
    mine = [d for d in chosen if d.seat == 0]
    assert {d.by for d in mine} <= {c.name for c in choosers.values()}
    assert sum(c.calls for c in choosers.values()) == len(mine) > 0


class Counted:
    """A chooser that asks a Player and counts the questions."""

    def __init__(self, player):
        self.player, self.name, self.calls = player, f"counted {player.name}", 0

    def choose(self, situation):
        self.calls += 1
        return self.player.choose(situation)


class Stubborn:
    name = "stubborn"

    def choose(self, situation):
        return "stand" if situation.DECISION != "beg" else "run"


def test_an_illegal_choice_is_a_one_line_error():
    with pytest.raises(ValueError, match=r"^seat 1 \(stubborn\), beg: a beg here is stand or beg, got 'run'$"):
        play("allfours", "two-hand", [{"beg": "stand"}, Stubborn()], seed=0, games=1)


@pytest.mark.parametrize(
    "seats, message",
    [
        (["greedy"], "has 2 seats, got 1"),
        ([{"bid": "greedy"}, "greedy"], "unknown allfours decision 'bid'"),
        (["no_such_policy", "greedy"], "no_such_policy"),
    ],
)
def test_bad_seats(seats, message):
    with pytest.raises(ValueError, match=message):
        play("allfours", "two-hand", seats)


def test_a_seat_named_by_one_policy_takes_the_defaults_elsewhere(tmp_path):
    path = tmp_path / "g.jsonl"
    table = play("allfours", "two-hand", ["expert", "random"], seed=2, games=2, record=path)
    game = get_game("allfours")
    policies = {d.name: [d.default if d.name != "play" else "expert", "random"] for d in game.decisions}
    kernel = simulate("allfours", "games", "two-hand", policies, 2, 2, records=True, progress=False).games
    assert table.to_dict("records") == kernel[table.columns].to_dict("records")
    header = json.loads(path.read_text().splitlines()[0])
    assert header["players"] == ["expert", "random"]
    record = read_record(path)
    plays = {line.situation.DECISION for line in record.decisions if line.player == 0}
    assert plays <= {"beg", "answer", "play"} and "play" in plays


def test_a_record_of_the_first_games_holds_their_lines_as_the_whole_record_does(tmp_path):
    """``record_games=2`` of 4 games: the record is the whole record's first two games, line for line (the
    header says 2 games), and the four games are played the same."""
    whole, first = tmp_path / "whole.jsonl", tmp_path / "first.jsonl"
    played = play("loo", "three-card", None, seed=3, games=4, record=whole)
    part = play("loo", "three-card", None, seed=3, games=4, record=first, record_games=2)
    assert part.to_dict("records") == played.to_dict("records")
    lines = [json.loads(line) for line in whole.read_text().splitlines()]
    kept = [line for line in lines[1:] if line["game"] < 2]
    header, *rest = (json.loads(line) for line in first.read_text().splitlines())
    assert header == {**lines[0], "games": 2} and rest == kept and len(kept) < len(lines) - 1
    assert read_record(first).header["games"] == 2
