"""The pegging situation, Player and advise (issue 19, item 1), and ``sims peg`` (item 2)."""

import json

import numpy as np
import pytest
from numba import njit

from sims.cards import parse_card
from sims.cli import main
from sims.core.errors import PolicyError
from sims.cribbage.advice import Player, advise
from sims.cribbage.contract import (
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_GO_MASK,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_ROOM,
)
from sims.cribbage.situation import PegSituation

LAST_CARD = dict(played="KS 2S 5H 8C 4D 9H 5D", role="dealer", starter="2C", thrown="QD 3C")


def test_readable_cards_in_every_form():
    forms = [PegSituation(h, "KS 2S", role="pone", starter="2C") for h in ("10h 8C 5D", "TH 8c 5d", "10♥ 8♣ 5♦")]
    assert forms[0] == forms[1] == forms[2]
    assert forms[0].hand == (parse_card("TH"), parse_card("8C"), parse_card("5D"))


def test_new_count_after_a_go_led_by_the_player_after_the_last():
    """Mottoes: when neither can play, the last player pegs the end hole and the other leads anew."""
    # pone KS, dealer QS (20), pone 9D (29); the dealer cannot play; the pone lays AC (30) and goes
    # on alone; nobody can play: the dealer (me) leads a new count.
    s = PegSituation("5H 6H 7H", "KS QS 9D AC", role="dealer", starter="2C")
    arrays = s.to_state()
    assert (arrays.state[S_COUNT], arrays.state[S_COUNT_START], arrays.state[S_N_PLAYED]) == (0, 4, 4)
    assert arrays.state[S_GO_MASK] == 0
    assert s.laid_by == (1, 0, 1, 1)


def test_go_of_the_other_player_is_in_the_go_mask():
    """The dealer cannot lay at 29, says go; the pone, able to, plays on (Mottoes: he must)."""
    s = PegSituation("AH 2H", "KS QS 9D", role="pone", starter="2C")
    assert s.to_state().state[S_GO_MASK] == 1 << 0
    assert s.describe()["go"] == ["dealer"]
    assert s.legal() == (parse_card("AH"), parse_card("2H"))


def test_a_go_tells_the_policy_the_room_the_player_had():
    """Sections 87-96, a player who can play must: after 3C 7S 7D 8S (25) neither could lay (the pone's 9H
    leads a new count), so every card the dealer holds has more than 6 pips;
    the pone's own room is not shown (he knows his cards), nor a room of one who always could lay."""
    s = PegSituation(
        "KH",
        "3C 7S 7D 8S 9H JH",
        role="pone",
        starter="10H",
        thrown="AC 6H",
        laid_by="pone dealer pone dealer pone dealer".split(),
    )
    state = s.to_state().state
    assert (state[S_ROOM], state[S_ROOM + 1]) == (6, 0) and s.at.room == (6, 0)
    assert PegSituation("AH 2H", "KS QS 9D", role="pone", starter="2C").to_state().state[S_ROOM] == 2
    assert not PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C").to_state().state[S_ROOM:].any()


def test_thirty_one_ends_the_count():
    s = PegSituation("5H 6H 7H", "KS QS AD", role="dealer", starter="2C")  # 10 + 10 + 1 = 21: one count
    assert s.count == 21
    s = PegSituation("5H 6H", "KS QS AD KD", role="pone", starter="2C")  # the dealer's KD makes 31
    assert s.count == 0 and s.to_state().state[S_COUNT_START] == 4
    assert s.laid_by == (1, 0, 1, 0)


def test_score_is_mine_and_theirs_in_the_state():
    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C", thrown="QD 3C", score=(97, 104))
    state = s.to_state().state
    assert (state[S_MY_SCORE], state[S_OPP_SCORE]) == (97, 104)


def test_a_card_that_fitted_earlier_had_to_be_played():
    """AH would have fitted on 29 (Mottoes: a player who can play must), so it cannot be held now."""
    with pytest.raises(ValueError, match="at count 29 you held AH"):
        PegSituation("AH", **LAST_CARD)


@pytest.mark.parametrize(
    "facts, message",
    [
        (dict(hand="7H 8C 5D 7H", played="", role="pone"), "duplicate card 7H"),
        (dict(hand="7H 8C 5D", played="KS 7H", role="pone"), "duplicate card 7H"),
        (dict(hand="7H 8C 5D 2S", played="KS 5H", role="dealer"), "illegal turn: at count 10 you held"),
        (dict(hand="7H 8C 5D", played="KS 2S 5H", role="pone"), "illegal turn"),
        (dict(hand="7H 8C 5D 2S 3S", played="", role="pone"), "keep 4 cards"),
        (dict(hand="7H", played="KS QS 9D 8D", role="pone", rules="five-card"), "impossible count"),
        (dict(hand="7H 8C 5D", played="KS 2S 5H", role="crib"), "unknown role"),
        (dict(hand="7H 8C 5D", played="KS 2S 5H", role="dealer", score=(97, 104)), "thrown"),
        (dict(hand="7H 8C 5D", played="KS 2S 5H", role="dealer", thrown="QD 3C", score=(97, 121)), "0..120"),
        (dict(hand="7H 8C 5D", played="KS 2S XH", role="dealer"), "bad card 'XH'"),
    ],
)
def test_bad_situations_are_one_line_errors(facts, message):
    with pytest.raises(ValueError, match=message) as info:
        PegSituation(starter=facts.pop("starter", "2C"), **facts)
    assert "\n" not in str(info.value)


def test_last_card_is_exact_and_hand_computed():
    """The last card of all: 1 for it (Mottoes), plus what it makes: 5C on the pone's 5D is a pair, 2 more."""
    for card, points in (("7H", 1.0), ("5C", 3.0)):
        frame = advise(PegSituation(card, **LAST_CARD))
        assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 1
        assert frame["card"].tolist() == [card] and frame["value"].tolist() == [points]
        assert frame["se"].tolist() == [0.0]


def test_a_card_that_reaches_the_target_wins():
    frame = advise(PegSituation("5C", **LAST_CARD, score=(118, 100)))
    assert frame["win"].tolist() == [1.0]
    frame = advise(PegSituation("7H", **LAST_CARD, score=(118, 100)))  # 1 for last: 119, then the shows
    assert 0.5 < frame["win"].iloc[0] < 1.0


def test_rollouts_agree_with_the_exact_values():
    """The same position exact (903 deals of the pone's 2 cards) and by 4,000 sampled deals: within 4.5 SE."""
    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C")
    exact = advise(s).set_index("card")
    sampled = advise(s, samples=4000, seed=3, exact_limit=0).set_index("card")
    assert exact.attrs["method"] == "exact" and sampled.attrs["method"] == "rollouts"
    assert (exact["se"] == 0).all() and (sampled["se"] > 0).all()
    z = (sampled["value"] - exact.loc[sampled.index, "value"]) / sampled["se"]
    assert (z.abs() < 4.5).all(), z
    # Differences paired over the same deals: each card's against the best's.
    assert np.allclose(sampled["vs_best"], sampled["value"] - sampled["value"].iloc[0])
    assert sampled["vs_best_se"].iloc[0] == 0 and (sampled["vs_best_se"].iloc[1:] > 0).all()


def test_each_seat_of_a_play_out_gets_its_own_parameters():
    """position reads its tables from its parameters; far from home (no score: 0-0) it pegs as defensive, so
    the play-outs by the two agree card for card (each seat was once handed an empty slice of the parameters,
    and position refused to play)."""
    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C")
    by_position = advise(s, playout="position").set_index("card")["value"]
    by_defensive = advise(s, playout="defensive").set_index("card")["value"]
    assert by_position.to_dict() == by_defensive.to_dict()
    assert advise(s, playout="position_distilled").attrs["method"] == "exact"
    # A fixed table after the named weights: weighted_distilled at its default weights pegs as distilled.
    by_weighted = advise(s, playout="weighted_distilled").set_index("card")["value"]
    assert by_weighted.to_dict() == advise(s, playout="distilled").set_index("card")["value"].to_dict()


def test_named_policies_choose_as_players():
    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C")
    frame = advise(s, policies=("greedy", "defensive"))
    chosen = dict(zip(frame["card"], frame["chosen_by"]))
    assert "greedy" in chosen[Player("greedy").choose(s)]  # 5D: 22, nothing; 8C: 25, nothing; 7H: 24
    assert "defensive" in chosen[Player("defensive").choose(s)]


def test_player_wraps_a_user_function_and_streams_reproduce():
    @njit(PEG_SIG)
    def lowest(hand, played, state, rules, rng, params):
        best = -1
        for i in range(hand.shape[0]):
            if hand[i] >= 0 and state[S_COUNT] + min((hand[i] >> 2) + 1, 10) <= 31:
                if best < 0 or hand[i] < hand[best]:
                    best = i
        return best

    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C")
    assert Player(lowest).choose(s) == "5D"
    first = [Player("random", seed=4).choose(s) for _ in range(3)]
    assert len(set(first)) == 1  # same seed, same card
    player = Player("random", seed=4)
    assert {player.choose(s) for _ in range(40)} == {"7H", "8C", "5D"}  # its stream advances


def test_an_illegal_answer_is_a_policy_error():
    @njit(PEG_SIG)
    def bad(hand, played, state, rules, rng, params):
        return 7

    with pytest.raises(PolicyError, match="bad.*chose index 7"):
        Player(bad).choose(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C"))


PEG = ["peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer"]


def test_cli_prints_every_card_and_json_rows(capsys):
    assert main(PEG + ["--thrown", "QD,3C", "--score", "97-104"]) == 0
    out = capsys.readouterr().out
    assert "5D" in out and "win %" in out and "chosen by" in out
    assert main(PEG + ["--thrown", "QD,3C", "--score", "97-104", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    rows = result["rows"]
    assert sorted(r["card"] for r in rows) == ["5D", "7H", "8C"]
    assert all({"card", "value", "se", "win"} <= set(r) for r in rows)
    assert result["situation"]["score"] == [97, 104]  # dealer first on the line, mine first here
    assert rows[0]["win"] == max(r["win"] for r in rows)


def test_the_chance_of_winning_reads_the_players_table_sims_discard_reads(capsys):
    """sims peg --score and sims discard --score take the players of the board-position table by one rule
    (``players_of``): by default the players who peg as asked (expected_peg + distilled for distilled), or the
    players named, who must peg by the playout; no table for the playout's players, or players who peg
    otherwise, is the same one-line error in both."""
    from sims.cribbage.discards import advise as discard_advice

    hand = "5H 5S JD 6C 4H KD"
    s = PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C", thrown="QD 3C", score=(97, 104))
    default = advise(s).set_index("card")
    discard = discard_advice(hand, "dealer", score=(95, 110), pegging="distilled").score["players"]
    assert default.attrs["players"] == discard == "expected_peg+distilled"
    defensive = advise(s, playout="defensive")
    assert defensive.attrs["players"] == "expected_net+defensive"
    named = advise(s, playout="defensive", players="expected_net+defensive")
    assert named.equals(defensive) and not np.allclose(defensive.set_index("card").loc[default.index].win, default.win)
    for playout, players in (("greedy", None), ("distilled", "expected_net+defensive")):
        with pytest.raises(ValueError) as peg_error:
            advise(s, playout=playout, players=players)
        with pytest.raises(ValueError) as discard_error:
            discard_advice(hand, "dealer", score=(95, 110), pegging=playout, players=players)
        assert str(peg_error.value) == str(discard_error.value)
    named = ["--players", "expected_net+defensive", "--playout", "defensive", "--json"]
    assert main(PEG + ["--thrown", "QD,3C", "--score", "97-104", *named]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == "expected_net+defensive"
    assert main(PEG + ["--thrown", "QD,3C", "--score", "97-104"]) == 0
    assert "(expected_peg + distilled self-play)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["peg", "7H", "8C", "5D", "2S", "--played", "KS,5H", "--starter", "2C", "--dealer"], "illegal turn"),
        (PEG + ["--players", "expected_net+defensive"], "give the score too"),
        (PEG + ["--thrown", "QD,3C", "--score", "97-104", "--players", "greedy"], "no tables ship for the players"),
        (PEG + ["--score", "97-104"], "thrown"),
        (["peg", "7H", "--dealer"], "required: --starter"),
        (["peg", "7H", "--played", "KS,QX", "--starter", "2C", "--dealer"], "bad card"),
        (PEG + ["--samples", "1"], "samples must be an integer from 2 to 100,000"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
