"""The worked example's own parts, values computed by hand from its rules (docs/examples/triumph: the highest
trump takes the trick, else the highest card of the suit led, aces high): its two policies (the reference engine
seats the kernel's own, so they are checked here), its situation and its advisor."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("triumph")

from triumph.advice import advise  # noqa: E402
from triumph.game import GAME  # noqa: E402
from triumph.rules import Rules  # noqa: E402
from triumph.situation import CardSituation  # noqa: E402

from sims.cards import parse_card  # noqa: E402
from sims.core.jobs import resolve_one  # noqa: E402
from sims.core.rng import seed_state  # noqa: E402


def situation(**facts):
    return CardSituation(rules="two-hand", **facts)


# Four tricks of two-hand played, no heart among them; hearts are trumps (2H turned): the last trick.
PLAYED = "KS 3S QC 4C JD 5D 10C 6C"


def test_leading_the_last_card_takes_the_trick_unless_the_other_holds_a_trump():
    """Unseen: 52 - AS - 8 played - 2H = 42 cards, 12 of them hearts: AS wins the trick 30 times in 42."""
    frame = advise(situation(hand="- - - - AS", turned="2H", played=PLAYED))
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 42
    assert frame.loc[0, "choice"] == "AS" and frame.loc[0, "value"] == pytest.approx(30 / 42, abs=1e-12)
    assert frame.loc[0, "se"] == 0


def test_a_player_who_did_not_follow_clubs_is_dealt_no_club():
    """Seat 1 played diamonds to the clubs led, twice: his last card is one of the 31 unseen cards that are not
    clubs (42 less 11 clubs), 12 of them hearts (trumps): AS wins the last trick 19 times in 31."""
    s = situation(hand="- - - - AS", turned="2H", played="KS 3S QC 4D JD 5D 10C 6D")
    assert s.voids == [set(), {parse_card("2C") % 4}]
    frame = advise(s)
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 31
    assert frame.loc[0, "value"] == pytest.approx(19 / 31, abs=1e-12)


def test_following_with_a_trump_in_hand_the_suit_led_must_be_followed():
    """Seat 1 follows the 9S led, holding 7S: only 7S may be played, and it cannot take the trick."""
    s = situation(hand="- - - - 7S", turned="2H", played=PLAYED + " 9S", seat=1)
    assert [c for c in s.legal()] == [parse_card("7S")]
    frame = advise(s)
    assert frame.attrs["method"] == "exact" and list(frame["value"]) == [0.0]


def kernel_card(policy, hand, trump, led=None, best=None, draw=0):
    """The index ``policy`` (a built-in: the kernel's own function) plays from ``hand``, shown the state the engine
    shows it: ``trump`` and ``led`` (the suit led) by letter (C, D, H, S), ``best`` the best card of the trick."""
    rng = np.empty(4, dtype=np.uint64)
    seed_state(rng, np.uint64(7), draw)
    suit = {s: i for i, s in enumerate("CDHS")}
    state = np.array([suit[trump], -1 if led is None else suit[led], -1 if best is None else parse_card(best), 0, 0])
    cards = np.array([parse_card(c) for c in hand.split()])
    return int(resolve_one(GAME, "card", policy).fn(cards, state, Rules().to_kernel(), rng, np.zeros(0)))


@pytest.mark.parametrize(
    "hand, trump, led, best, index, why",
    [
        ("2C KS AD 5H 9C", "H", None, None, 3, "leading: the highest card, and a trump is above every other"),
        ("AS 3S 4H 2C", "H", "S", "KS", 0, "spades led: only AS and 3S follow, and only AS takes the king"),
        ("QC 2C JC 3H", "H", "C", "9C", 2, "clubs led to the nine: JC is the cheapest club that takes it"),
        ("9D 5C 2C", "H", "C", "AC", 2, "the ace of clubs cannot be taken by a club: the lowest club"),
        ("9D 5H 2H", "H", "C", "9C", 2, "void of clubs: the lowest trump takes the trick"),
    ],
)
def test_greedy_takes_the_trick_as_cheaply_as_it_can_else_throws_its_lowest_legal_card(
    hand, trump, led, best, index, why
):
    assert kernel_card("greedy", hand, trump, led, best) == index, why


def test_random_plays_each_card_that_follows_suit_about_equally_often_and_never_another():
    """Clubs led: 2C, 5C and JC follow (indexes 0, 2, 3), 9D and 3H may not be played; 3,000 draws, each legal card
    1,000 expected (binomial SD 25.8: 5 SD allowed)."""
    counts = [0] * 5
    for draw in range(3000):
        counts[kernel_card("random", "2C 9D 5C JC 3H", "H", "C", "9C", draw)] += 1
    assert counts[1] == counts[4] == 0 and all(abs(counts[i] - 1000) < 129 for i in (0, 2, 3)), counts


@pytest.mark.parametrize(
    "facts, words",
    [
        (dict(hand="AS QS", turned="2H", played=PLAYED), "a player holds 1 cards, not 2"),
        (dict(hand="- - - - AS", turned="AS", played=PLAYED), "a card is given twice"),
        (dict(hand="- - - - AS", turned="2H", played=PLAYED, seat=2), "seat must be 0..1"),
    ],
)
def test_an_impossible_situation_is_one_line(facts, words):
    with pytest.raises(ValueError, match=words):
        situation(**facts)


def test_a_win_rate_has_wilsons_interval_and_a_mean_the_normal_one():
    """The core's results of a game with no results module: the games won (a table of counts) come with Wilson's
    score interval, inside [0, 1] even from three games (the normal one gave 0.333 [-0.320, 0.987]); the tricks
    with the mean's normal interval; the two sides' wins add up to the games."""
    from sims.core.api import simulate
    from sims.stats import Z95, wilson

    result = simulate("triumph", "games", "two-hand", n=3, seed=0)
    means, table = result.summary["means"], result.table()
    won = [means["side"][f"side {s}"]["won"] for s in range(2)]
    assert sum(round(w["mean"] * 3) for w in won) == 3
    for w in won:
        assert (w["lo"], w["hi"]) == pytest.approx(wilson(round(w["mean"] * 3), 3)[1:], abs=1e-12)
        assert 0 <= w["lo"] < w["mean"] < w["hi"] <= 1 and w["interval"] == "95% interval: Wilson score"
    tricks = means["seat"]["seat 0"]["tricks"]
    assert (tricks["lo"], tricks["hi"]) == pytest.approx(
        (tricks["mean"] - Z95 * tricks["se"], tricks["mean"] + Z95 * tricks["se"])
    )
    assert list(table[table["rate"]]["component"]) == ["won", "won"]


def test_a_whole_duel_from_standard_input_writes_the_record_of_the_game_it_announces(tmp_path, monkeypatch, capsys):
    """Answering 1 at every decision plays the game to its end (a player with 7 tricks); the record read back holds
    the same result."""
    import io
    import sys

    from sims.cli import main
    from sims.core.record import read_record

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    assert main(["duel", "--game", "triumph", "--seed", "2", "--record", str(tmp_path / "game.jsonl")]) == 0
    lines = capsys.readouterr().out.splitlines()
    result = read_record(tmp_path / "game.jsonl").results[0]
    winner = "you" if result["winner"] == 0 else "seat 1"
    assert lines[-2] == (
        f"game over: {winner} {'win' if winner == 'you' else 'wins'} "
        f"(you {result['tricks_0']}, seat 1 {result['tricks_1']})"
    )
    assert max(result["tricks_0"], result["tricks_1"]) == 7


def test_the_guide_gives_each_file_of_the_example_its_length_and_the_example_keeps_its_budget():
    """docs/adding-a-game.md's table of what a game supplies states each Triumph file's length: kept true; and the
    whole example, every part of the protocol included, stays within its budget of 450 lines."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    table = re.findall(r"^\| `(\w+\.py)`.*\| (\d+)(?: lines)? \|$", (root / "docs/adding-a-game.md").read_text(), re.M)
    files = root / "docs/examples/triumph/triumph"
    assert len(table) == 9 and {f: len((files / f).read_text().splitlines()) for f, _ in table} == {
        f: int(n) for f, n in table
    }
    assert sum(len(f.read_text().splitlines()) for f in files.glob("*.py")) <= 450
