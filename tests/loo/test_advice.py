"""The Loo advisor's values on stacked positions: exact where every hidden deal is played, checked by hand and
against the plain-Python reference engine; the situations' one-line errors."""

from itertools import combinations

import numpy as np
import pytest

from sims.cards import format_card, parse_cards
from sims.core.errors import PolicyError
from sims.loo import reference as ref
from sims.loo.advice import Player, advise
from sims.loo.contract import S_DECLARED, S_N_PLAYED
from sims.loo.situation import CardSituation, DeclareSituation, ExchangeSituation

# Three-card, five players, one stake held over (pool 6, a trick's share 2).  The eldest and the next stand.
# The eldest, with three trumps, had to lead the highest (Mottoes); the other, void in trumps, threw a club.
# Now both trumps left win both tricks: three shares, 6, whichever is led.
SWEEP = dict(hand="- KH QH", trump="7H", role="eldest", declared="play play pass pass pass", played="AH 2C")


def test_three_tricks_whatever_is_led_exact_over_every_deal_the_voids_allow():
    frame = advise(CardSituation(**SWEEP))
    assert frame.attrs["method"] == "exact"
    assert frame.attrs["deals"] == 703  # two of the 38 unseen cards that are not trumps: C(38, 2)
    assert sorted(frame["choice"]) == ["KH", "QH"]
    assert frame["value"].tolist() == [6.0, 6.0] and frame["se"].tolist() == [0.0, 0.0]


def test_the_first_lead_is_forced():
    situation = CardSituation("AH KH 2C", "7H", role="eldest", declared="play play pass pass pass")
    assert situation.legal() == (parse_cards("AH")[0],)
    assert Player("random").choose(situation) == "AH"


# Roles 2 and 3 stand; role 2 led a spade, role 3 headed it with the king (he had to) and now leads again.
LEAD = dict(hand="- 4S 2D", trump="7H", role=3, declared="pass play play pass pass", played="9S KS")


def _oracle(situation):
    """My mean money over every deal of the other stander's hidden cards (two standers, nobody taking the miss)
    that lets him have played as he did, each deal played by the reference engine from a stacked pack: the
    declarations and cards so far and the card advised as given, then greedy.  A deal in which the laws forbid
    a card played (the reference engine refuses it), or in which the forced first lead is another card, is left
    out.  Returns the values and the number of deals."""
    n, k = situation.rules.players, situation.rules.cards
    other = next(r for r in situation.standers if r != situation.role)
    shown = [c for c, r in zip(situation.played, situation.laid_by) if r == other]
    mine = [c for c, r in zip(situation.played, situation.laid_by) if r == situation.role] + [
        c for c in situation.hand if c >= 0
    ]
    seen = set(mine) | set(situation.played) | {situation.trump}
    unseen = [c for c in range(52) if c not in seen]
    values = {}
    for card in situation.legal():
        script = list(situation.played) + [card]

        def declare(hand, state, rules, rng, params):
            return situation.declared[state[S_DECLARED]]

        def play(hand, played, state, rules, rng, params):
            if state[S_N_PLAYED] < len(script):  # the card played; -1 (illegal) when not held
                held = [int(c) for c in hand]
                return held.index(script[state[S_N_PLAYED]]) if script[state[S_N_PLAYED]] in held else -1
            return ref.greedy_card(hand, played, state, rules, rng, params)

        seats = {
            "declare": [ref.SeatPolicy("script", declare, np.zeros(0))] * n,
            "exchange": [ref.SeatPolicy("keep", ref.keep_exchange, np.zeros(0))] * n,
            "card": [ref.SeatPolicy("script", play, np.zeros(0))] * n,
        }
        total, deals = 0, 0
        for hidden in combinations(unseen, k - len(shown)):
            rest = iter(c for c in unseen if c not in hidden)
            hands = [[next(rest) for _ in range(k)] for _ in range(n)]
            hands[situation.role], hands[other] = mine, shown + list(hidden)
            miss = [next(rest) for _ in range(k)] if situation.miss_dealt else []
            deck = ref.stacked_deck(hands, situation.trump, miss)
            try:
                deal = ref.play_deal(
                    situation.rules,
                    0,
                    situation.carry,
                    ref.Pack(stacked=deck),
                    np.zeros((10, 4), dtype=np.uint64),
                    seats,
                )
            except PolicyError:  # the laws forbid a card played in this deal: it cannot be the one
                continue
            if [c for trick in deal.tricks for _, c in trick][: len(script)] != script:
                continue  # a forced lead other than the one played
            total += deal.money.get(situation.role, 0)
            deals += 1
        values[format_card(card)] = total / deals
    return values, deals


def test_exact_values_are_the_reference_engines_over_every_deal():
    situation = CardSituation(**LEAD)
    frame = advise(situation, playout={"card": "greedy"})
    expected, deals = _oracle(situation)
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == deals
    assert 900 < deals < 1081  # C(47, 2), less the deals with two trumps or the ace alone, which force the lead
    assert dict(zip(frame["choice"], frame["value"])) == pytest.approx(expected, abs=1e-12)
    assert expected["4S"] != expected["2D"]


def test_passing_is_worth_nothing_and_standing_is_a_gamble():
    frame = advise(DeclareSituation("AS 5H 9C", "2H", role=3, declared="pass play"), samples=300)
    assert set(frame["choice"]) == {"pass", "play", "take the miss"}
    row = frame.set_index("choice").loc["pass"]
    assert (row["value"], row["se"]) == (0.0, 0.0)
    assert frame.set_index("choice").loc["play", "se"] > 0


def test_exchanges_name_the_cards_changed():
    situation = ExchangeSituation("AS 5H 9C JC 2D", "2H", role=1, rules="five-card-pam")
    assert len(situation.legal()) == 32 and situation.legal()[:4] == ("-", "AS", "5H", "AS 5H")
    assert Player("keep", decision="exchange").choose(situation) == "-"
    frame = advise(situation, samples=50)
    assert len(frame) == 32 and frame.attrs["method"] == "rollouts"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: DeclareSituation("AS 5H", "2H"), "three-card deals 3 cards to each player, got 2"),
        (lambda: DeclareSituation("AS 5H 9C", "AS"), "duplicate card AS"),
        (lambda: DeclareSituation("AS 5H 9C", "2H", role=3, declared="pass"), "the 2 player(s) who declared before"),
        (lambda: DeclareSituation("AS 5H 9C", "2H", role=3, declared="pass maybe"), "got 'maybe'"),
        (
            lambda: DeclareSituation("AS 5H 9C", "2H", role="dealer", declared="pass pass pass pass"),
            "nobody stood before the dealer",
        ),
        (lambda: DeclareSituation("AS 5H 9C", "2H", carry=0), "a single"),
        (lambda: DeclareSituation("AS 5H 9C", "2H", role=3, declared="miss miss"), "the miss is taken once at most"),
        (lambda: DeclareSituation("AS 5H 9C", "2H", role=9), "role must be dealer, eldest or 0..4"),
        (lambda: ExchangeSituation("AS 5H 9C", "2H"), "only five-card loo exchanges cards"),
        (
            lambda: CardSituation("AS 5H 9C", "2H", role=3, declared="pass play pass play pass"),
            "you (player 3) did not stand",
        ),
        (
            lambda: CardSituation("- KH QH", "7H", declared="play play pass pass pass", played="AH 2C 3C"),
            "it is the player 2's turn to play, not yours",
        ),
        (
            lambda: CardSituation("- - QH", "7H", declared="play play pass pass pass", played="AH 2C KH 3H"),
            "showed he had none of that suit",
        ),
        (
            lambda: CardSituation("- KS 4S", "7H", role=3, declared="pass play play pass pass", played="9S 2D"),
            "you could not play 2D there",
        ),
        (lambda: CardSituation("AS 5H 9C", "2H", declared="play play pass pass pass", carry=2), "a multiple of 3"),
    ],
)
def test_impossible_situations_are_one_line_errors(make, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        make()
    assert "\n" not in str(error.value)


def test_a_card_given_that_is_not_held_is_an_error_not_a_stray_write(monkeypatch):
    """The play-outs play the cards given only when the player holds them and may play them: a card given that
    he does not hold (here the trump turned up) stops with a PolicyError, where the play used to search past
    the end of his hand and write there."""
    import sims.loo.advice as advice
    from sims.cards import parse_card

    situation = CardSituation(
        "AS 5H 9C", trump="2H", role=3, declared=["pass", "play", "play", "pass", "miss"], played=["KH"]
    )
    given, labels = advice._given(situation)
    given[:, -1] = parse_card("2H")
    monkeypatch.setattr(advice, "_given", lambda situation: (given, labels))
    with pytest.raises(PolicyError):
        advice.advise(situation, samples=20)
